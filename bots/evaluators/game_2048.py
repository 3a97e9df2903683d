"""2048 heuristic: score so far plus a clamped estimate of the future score."""

from __future__ import annotations

import pyspiel

from bots.evaluators.api import Evaluator, check_game_name
from bots.evaluators.registry import register_evaluator


class Game2048Evaluator(Evaluator):
    """Score so far plus a clamped estimate of the future score.

    Reads the 16 tile values (`observation_tensor`). Each of the 4 rows and
    4 columns is scored once and memoised (at most 12^4 distinct lines):
    5 points per empty cell, 5 points * rank per adjacent mergeable pair
    (zeros skipped), minus 2 points per rank of non-monotonicity, plus a
    base of 40. The future estimate is max(0, that sum), clamped so that
    returns + future <= U. Value = state.returns()[0] + future.
    Bounds: (0, U) with U = 16 * max_utility, a proven bound on the score
    (see `game_value_bounds`): OpenSpiel's max_utility is exceeded by real
    games, so it cannot be a guaranteed bound.
    """

    _EMPTY = 5.0
    _MERGE = 5.0
    _MONO = 2.0
    _BASE = 40.0

    native_name = "2048"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "2048", "Game2048Evaluator")
        super().__init__(game)
        self._max = self.bounds[1]
        self._lines: dict[tuple, float] = {}

    def _line(self, line: tuple) -> float:
        got = self._lines.get(line)
        if got is not None:
            return got
        ranks = [int(v).bit_length() - 1 if v > 0 else 0 for v in line]
        empty = sum(1 for v in line if v == 0)
        tiles = [r for r in ranks if r > 0]
        merges = sum(a for a, b in zip(tiles, tiles[1:]) if a == b)
        inc = sum(max(0, b - a) for a, b in zip(ranks, ranks[1:]))
        dec = sum(max(0, a - b) for a, b in zip(ranks, ranks[1:]))
        got = self._EMPTY * empty + self._MERGE * merges - self._MONO * min(inc, dec)
        self._lines[line] = got
        return got

    def _value(self, state):
        score = state.returns()[0]
        o = state.observation_tensor(0)
        get = self._lines.get
        h = self._BASE
        for line in (
            (o[0], o[1], o[2], o[3]),
            (o[4], o[5], o[6], o[7]),
            (o[8], o[9], o[10], o[11]),
            (o[12], o[13], o[14], o[15]),
            (o[0], o[4], o[8], o[12]),
            (o[1], o[5], o[9], o[13]),
            (o[2], o[6], o[10], o[14]),
            (o[3], o[7], o[11], o[15]),
        ):
            v = get(line)
            h += v if v is not None else self._line(line)
        room = self._max - score
        if h > room:
            h = room
        if h < 0.0:
            h = 0.0
        return score + h

    def player_value(self, state, player):
        if state.is_terminal():
            return state.returns()[player]
        return self._value(state)


# Rough expected scores of the 12 yacht categories for a player who keeps
# aiming at them with three rolls (ones..sixes, chance, four of a kind, full


register_evaluator("2048", Game2048Evaluator)
