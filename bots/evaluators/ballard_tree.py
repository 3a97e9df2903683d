"""Ballard tree heuristic (games/ballard_tree.py): the arc sum so far."""

from __future__ import annotations

from typing import Any

import pyspiel

from bots.evaluators.position_evaluator import PositionEvaluator
from bots.evaluators.registry import register_evaluator


class BallardEvaluator(PositionEvaluator):
    """The arc sum so far: exact at leaves, always within [L, U]."""

    game_name = "ballard_tree"
    native_name = "ballard_tree"  # the C++ twin in games/native/ballard_tree.cc

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        lo, hi = self.python_game.leaf_bounds()
        self._leaf_bounds = (float(lo), float(hi))
        # `bounds` must hold for both players: player 1 gets [-U, -L].
        self.bounds = (float(min(lo, -hi)), float(max(hi, -lo)))

    def player_bounds(self, player: int) -> tuple[float, float]:
        """Ballard's exact (L, U) for player 0, (-U, -L) for player 1."""
        lo, hi = self._leaf_bounds
        return (lo, hi) if player == 0 else (-hi, -lo)

    def value(self, pos: Any) -> float:
        return float(pos.arc_sum)


register_evaluator("ballard_tree", BallardEvaluator)
