"""Can't Stop heuristic (games/cant_stop.py): rolls still needed for three columns, any player count.

For each player and each column open to them (not won by another), the steps
left to its top divided by the chance that a roll offers that column (a sum of
some pairing): about the rolls that column still needs. Columns the player has
won cost 0. A player's cost is the sum of its three cheapest columns. The
mover's runners count as progress: fully at a decision node (the mover can stop
and bank them), discounted by the bust risk of the next roll at a chance node.
Costs become win chances by a softmax, ``w_p ~ exp(-SCALE * cost_p)``, and win
chances the expected returns ``(N w_p - 1) / (N - 1)``, shrunk by 0.99; the
last player's value is minus the others' sum, so the values sum to exactly 0
(left to right). Bounds (-1, 1) for every player. The twin in
bots/native/evaluators/cant_stop.cc computes the same floats in the same order.
"""

from __future__ import annotations

import math
from typing import Any

import pyspiel

from bots.arithmetic import ordered_sum
from bots.evaluators.api import SHRINK
from bots.evaluators.position_evaluator import PositionEvaluator
from bots.evaluators.registry import register_evaluator

# Softmax temperature: a lead of 10 rolls is worth a factor e in win chance.
SCALE = 0.1
_COLUMNS = 11


def bust_table(rolls: Any, probabilities: Any) -> tuple[float, ...]:
    """bust[mask]: the chance that no pair sum of a roll names a column in ``mask``
    (11-bit, bit c = column c + 2), summed over the rolls in order."""
    sums = []
    for a, b, c, d in rolls:
        mask = 0
        for x, y in ((a, b), (a, c), (a, d), (b, c), (b, d), (c, d)):
            mask |= 1 << (x + y - 2)
        sums.append(mask)
    return tuple(
        ordered_sum(p for s, p in zip(sums, probabilities) if not s & mask)
        for mask in range(1 << _COLUMNS)
    )


class CantStopEvaluator(PositionEvaluator):
    """Rolls still needed for three columns, runners discounted by bust risk (module doc)."""

    game_name = "cant_stop"
    native_name = "cant_stop"  # the C++ twin in bots/native/evaluators/cant_stop.cc

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        # Imported here, as position_evaluator.python_twin does: importing bots registers no game.
        import games.cant_stop as rules  # noqa: PLC0415

        self.players = self.python_game.rules.players
        self._heights = rules.HEIGHTS
        self._bust = bust_table(rules.ROLLS, rules.ROLL_PROBABILITIES)
        # The chance that a roll offers column c.
        self._offered = tuple(1.0 - self._bust[1 << c] for c in range(_COLUMNS))
        self._to_roll = rules.TO_ROLL
        self._cache: dict[Any, tuple[float, ...]] = {}

    def values(self, pos: Any) -> tuple[float, ...]:
        """Every player's value of a non-terminal position."""
        values = self._cache.get(pos)
        if values is None:
            values = self._values(pos)
            if len(self._cache) > 1_000_000:
                self._cache.clear()
            self._cache[pos] = values
        return values

    def _values(self, pos: Any) -> tuple[float, ...]:
        heights, offered = self._heights, self._offered
        progress, runners, mover = pos.progress, pos.runners, pos.mover
        players = self.players
        winner = [-1] * _COLUMNS
        for p in range(players):
            row = progress[p]
            for c in range(_COLUMNS):
                if row[c] == heights[c]:
                    winner[c] = p
        keep = 1.0
        if pos.phase == self._to_roll:
            keep = 1.0 - self._bust[self._usable(progress[mover], runners, winner)]
        costs = []
        for p in range(players):
            row = progress[p]
            left = []
            for c in range(_COLUMNS):
                if winner[c] >= 0 and winner[c] != p:
                    continue
                height = float(row[c])
                if p == mover and runners[c]:
                    height = row[c] + runners[c] * keep
                left.append((heights[c] - height) / offered[c])
            left.sort()
            costs.append(left[0] + left[1] + left[2])
        best = min(costs)
        weights = [math.exp(-SCALE * (cost - best)) for cost in costs]
        total = ordered_sum(weights)
        values = [SHRINK * (players * (w / total) - 1.0) / (players - 1) for w in weights[:-1]]
        values.append(-ordered_sum(values))
        return tuple(values)

    def _usable(self, own: Any, runners: Any, winner: list[int]) -> int:
        """The mask of columns the mover's next roll can use (its bust risk's key)."""
        free = sum(1 for r in runners if r) < 3
        heights = self._heights
        mask = 0
        for c in range(_COLUMNS):
            if winner[c] < 0 and (runners[c] or free) and own[c] + runners[c] < heights[c]:
                mask |= 1 << c
        return mask

    def evaluate(self, state: Any) -> list[float]:
        pos = self.position(state)
        if pos.is_terminal():
            return list(pos.returns())
        return list(self.values(pos))

    def player_value(self, state: Any, player: int) -> float:
        pos = state if type(state) is self.position_type else self.position(state)
        if pos.is_terminal():
            return float(pos.returns()[player])
        return self.values(pos)[player]

    def value(self, pos: Any) -> float:
        """Player 0's value (the base class's two-player hook)."""
        return self.values(pos)[0]


register_evaluator("cant_stop", CantStopEvaluator)
