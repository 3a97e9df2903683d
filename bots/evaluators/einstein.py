"""Einstein wuerfelt nicht heuristic: expected distance to the goal under the die, tempo."""

from __future__ import annotations

import math

import pyspiel

from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.registry import register_evaluator


class EinsteinEvaluator(Evaluator):
    """Expected distance to the goal corner under the die, plus tempo.

    Parses `str(state)` (5 rows of "|b3|"/"|w1|"/"|__|" cells). Player 0
    (black) runs to the bottom-right corner, player 1 (white) to the
    top-left; a cube's distance is its Chebyshev distance to the goal. For
    every die value 1..6 the selectable cubes are the one with that number,
    else the nearest lower and higher numbers; a side's expected distance is
    the mean over die values of the best selectable distance (fewer cubes
    means each covers more die values, so material is already in it).
    x = distance difference + 0.5 for the side moving next,
    v = SHRINK * tanh(0.6 * x). Bounds: (-1, 1).
    """

    _ROW = 21  # 5 cells of 4 characters + newline

    native_name = "einstein_wurfelt_nicht"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "einstein_wurfelt_nicht", "EinsteinEvaluator")
        super().__init__(game)
        self._dist_b = {}
        self._dist_w = {}
        for r in range(5):
            for c in range(5):
                i = r * self._ROW + c * 4 + 1  # colour character of the cell
                self._dist_b[i] = max(4 - r, 4 - c)
                self._dist_w[i] = max(r, c)
        self._memo: dict[tuple, float] = {}

    def _expected(self, dists: tuple) -> float:
        """Mean over die values of the best selectable cube distance."""
        got = self._memo.get(dists)
        if got is not None:
            return got
        present = [n for n in range(6) if dists[n] is not None]
        total = 0.0
        for die in range(6):
            if dists[die] is not None:
                total += dists[die]
                continue
            lower = [n for n in present if n < die]
            higher = [n for n in present if n > die]
            cands = []
            if lower:
                cands.append(dists[max(lower)])
            if higher:
                cands.append(dists[min(higher)])
            total += min(cands)
        got = total / 6.0
        self._memo[dists] = got
        return got

    @staticmethod
    def next_mover(state) -> int:
        """Player who moves next; at a die roll, from the move count.

        After the two set-up chance moves, rolls and moves alternate and
        player 1 moves first: a roll at move number 4k + 2 precedes player 1.
        """
        player = state.current_player()
        if player >= 0:
            return player
        return 1 if state.move_number() % 4 == 2 else 0

    def _value(self, state):
        s = str(state)
        db: list[int | None] = [None] * 6
        dw: list[int | None] = [None] * 6
        i = s.find("|b")
        if i < 0:  # before the cubes are placed
            return 0.0
        while i >= 0:
            db[ord(s[i + 2]) - 49] = self._dist_b[i + 1]
            i = s.find("|b", i + 4)
        i = s.find("|w")
        if i < 0:
            return 0.0
        while i >= 0:
            dw[ord(s[i + 2]) - 49] = self._dist_w[i + 1]
            i = s.find("|w", i + 4)
        x = (
            self._expected(tuple(dw))
            - self._expected(tuple(db))
            + (0.5 if self.next_mover(state) == 0 else -0.5)
        )
        return SHRINK * math.tanh(0.6 * x)


register_evaluator("einstein_wurfelt_nicht", EinsteinEvaluator)
