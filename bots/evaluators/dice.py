"""Dice heuristic (games/dice.py): open k-windows weighted by their stones."""

from __future__ import annotations

from typing import Any

import pyspiel

from bots.evaluators.position_evaluator import PositionEvaluator, squash
from bots.evaluators.registry import register_evaluator


class DiceEvaluator(PositionEvaluator):
    """Open k-windows weighted by stones, squashed with tanh into (-1, 1).

    A window holding only x stones scores +3^(s-1) for s stones (only o:
    minus); the sum is divided by 3^(k-1) so one window one stone short of a
    win is worth about tanh(1/3). Cached per board (bounded cache).
    """

    game_name = "dice"
    native_name = "dice"  # the C++ twin in games/native/dice.cc

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        rules = self.python_game.rules
        self._windows = rules.windows
        self._weights = tuple(
            0.0 if s == 0 else 3.0 ** (s - 1) / 3.0 ** (rules.k - 1) for s in range(rules.k + 1)
        )
        self._cache: dict[tuple[int, int], float] = {}

    def value(self, pos: Any) -> float:
        key = (pos.x_stones, pos.o_stones)
        v = self._cache.get(key)
        if v is None:
            b0, b1 = key
            w = self._weights
            s = 0.0
            for m in self._windows:
                a = b0 & m
                b = b1 & m
                if a:
                    if not b:
                        s += w[a.bit_count()]
                elif b:
                    s -= w[b.bit_count()]
            v = squash(s)
            if len(self._cache) > 1_000_000:
                self._cache.clear()
            self._cache[key] = v
        return v


register_evaluator("dice", DiceEvaluator)
