"""Chance tic-tac-toe heuristic (games/chance_tic_tac_toe.py): open lines weighted by stones."""

from __future__ import annotations

from typing import Any

import pyspiel

from bots.evaluators.position_evaluator import PositionEvaluator, squash
from bots.evaluators.registry import register_evaluator


class ChanceTTTEvaluator(PositionEvaluator):
    """Lines still open (no opponent stone, no block), weighted by stones.

    One stone in an open line scores 1/9, two stones 1/3 (x plus, o minus);
    the sum is squashed into [-0.99, 0.99].
    """

    game_name = "chance_tic_tac_toe"
    native_name = "chance_tic_tac_toe"  # the C++ twin in games/native/chance_tic_tac_toe.cc
    _W = (0.0, 1.0 / 9.0, 1.0 / 3.0, 1.0)

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self._lines: tuple[int, ...] = self.python_game.win_lines

    def value(self, pos: Any) -> float:
        x, o, b = pos.x_stones, pos.o_stones, pos.blocked
        w = self._W
        s = 0.0
        for m in self._lines:
            if b & m:
                continue
            a, c = x & m, o & m
            if a:
                if not c:
                    s += w[a.bit_count()]
            elif c:
                s -= w[c.bit_count()]
        return squash(s)


register_evaluator("chance_tic_tac_toe", ChanceTTTEvaluator)
