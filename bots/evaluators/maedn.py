"""Mensch aergere Dich nicht (2-4 players) heuristic: race progress minus pieces at risk."""

from __future__ import annotations

import math

import pyspiel

from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.multiplayer import pairwise_win_values
from bots.evaluators.registry import register_evaluator


class MaednEvaluator(Evaluator):
    """Race: progress of each side's pieces along its track, minus pieces at risk.

    Parses `str(state)`: piece characters ('1' for player 0, '2' for player 1)
    are found in the board part and mapped, through precomputed tables, to
    the field each player has reached along its own track. A piece on
    relative field i counts i + 1 (goal fields 41..44, a piece at home 0; all
    four in goal = 170). A piece on the common track with an enemy piece 1..6
    fields behind it can be thrown out next turn: 1/6 of its progress is
    counted as lost. With r the remaining distance of each side,
    x = (r1 - r0) / 3.5 turns and v = SHRINK * tanh(x / (0.8 * sqrt((r0 + r1)
    / 3.5) + 1)). Two players (either seating): returns are +-1, so bounds
    are (-1, 1), tighter than the game's +-3.

    Three or four players: a piece is at risk if a piece of any other player
    stands 1..6 fields behind it. Every pair (i, j) is rated by the same
    two-player race on r_i and r_j (between two turns of one player every
    other one moves once, so the race in turns is unchanged), and
    `multiplayer.pairwise_win_values` turns the races into win chances p_i and
    values N * p_i - 1, the expected return (a win is N - 1, a loss -1).
    Cost: one str(state), N remaining distances, N(N - 1)/2 tanh. Bounds
    (-1, N - 1), the returns' range.
    """

    # (x, y) of the 40 track fields then the 16 goal fields in the string.
    _COORDS = (
        (0, 4),
        (2, 4),
        (4, 4),
        (6, 4),
        (8, 4),
        (8, 3),
        (8, 2),
        (8, 1),
        (8, 0),
        (10, 0),
        (12, 0),
        (12, 1),
        (12, 2),
        (12, 3),
        (12, 4),
        (14, 4),
        (16, 4),
        (18, 4),
        (20, 4),
        (20, 5),
        (20, 6),
        (18, 6),
        (16, 6),
        (14, 6),
        (12, 6),
        (12, 7),
        (12, 8),
        (12, 9),
        (12, 10),
        (10, 10),
        (8, 10),
        (8, 9),
        (8, 8),
        (8, 7),
        (8, 6),
        (6, 6),
        (4, 6),
        (2, 6),
        (0, 6),
        (0, 5),
        (2, 5),
        (4, 5),
        (6, 5),
        (8, 5),
        (10, 1),
        (10, 2),
        (10, 3),
        (10, 4),
        (18, 5),
        (16, 5),
        (14, 5),
        (12, 5),
        (10, 9),
        (10, 8),
        (10, 7),
        (10, 6),
    )
    _ROW = 22  # 21 characters + newline
    _BOARD = 11 * 22  # the board part of the string

    native_name = "maedn"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "maedn", "MaednEvaluator")
        n = game.num_players()
        # A winner's return is n - 1, a loser's -1.
        super().__init__(game, bounds=(-1.0, float(n - 1)))
        # twoPlayersOpposite seats player 1 opposite player 0; only with two players.
        opposite = n == 2 and bool(game.get_parameters().get("twoPlayersOpposite", True))
        # Per player: string index -> (relative field, absolute track field or -1).
        self._fields = []
        for player in range(n):
            position = 2 if (player == 1 and opposite) else player
            table = {}
            for rel in range(44):
                absolute = (rel + 10 * position) % 40 if rel < 40 else 40 + 4 * position + rel - 40
                x, y = self._COORDS[absolute]
                table[self._ROW * y + x] = (rel, absolute if rel < 40 else -1)
            self._fields.append(table)

    def _pieces(self, s: str, char: str, table: dict) -> list:
        """(relative field, absolute track field) of the player's pieces on the board."""
        found = []
        end = self._BOARD
        i = s.find(char, 0, end)
        while i >= 0:
            got = table.get(i)  # None: a piece at home
            if got is not None:
                found.append(got)
            i = s.find(char, i + 1, end)
        return found

    @staticmethod
    def _remaining(own: list, enemy: list) -> float:
        left = 170.0
        for rel, a in own:
            left -= rel + 1
            if a >= 0:
                for _, b in enemy:
                    if b >= 0 and 1 <= (a - b) % 40 <= 6:
                        left += (rel + 1) / 6.0
                        break
        return left

    def _value(self, state):
        s = str(state)
        p0 = self._pieces(s, "1", self._fields[0])
        p1 = self._pieces(s, "2", self._fields[1])
        return self._race(self._remaining(p0, p1), self._remaining(p1, p0))

    @staticmethod
    def _race(r0: float, r1: float) -> float:
        """The two-player value of the side with r0 to go against the side with r1."""
        x = (r1 - r0) / 3.5
        return SHRINK * math.tanh(x / (0.8 * math.sqrt((r0 + r1) / 3.5) + 1.0))

    def _values(self, state) -> list[float]:
        n = self.num_players
        s = str(state)
        pieces = [self._pieces(s, str(p + 1), self._fields[p]) for p in range(n)]
        remaining = [
            self._remaining(pieces[p], [x for q in range(n) if q != p for x in pieces[q]])
            for p in range(n)
        ]
        pairs = [self._race(remaining[i], remaining[j]) for i in range(n) for j in range(i + 1, n)]
        return pairwise_win_values(pairs, n, 1)


register_evaluator("maedn", MaednEvaluator)
