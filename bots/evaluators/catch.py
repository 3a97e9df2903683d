"""Catch heuristic: can the paddle still reach the ball?"""

from __future__ import annotations

import math

import pyspiel

from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.registry import register_evaluator


class CatchEvaluator(Evaluator):
    """Slack between rows left and the paddle's distance to the ball.

    Uses the `ball_row`, `ball_col`, `paddle_col` accessors. The paddle moves
    one column per step while the ball falls one row, so the ball is
    catchable iff slack = rows left - |paddle - ball| >= 0;
    v = SHRINK * tanh(slack + 0.5) has the sign of the true outcome under
    best play. Before the ball is dropped, 0. Bounds: (-1, 1).
    """

    native_name = "catch"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "catch", "CatchEvaluator")
        super().__init__(game)
        params = game.get_parameters()
        self._rows = int(params.get("rows", 10))

    def _value(self, state):
        row = state.ball_row()
        if row < 0:
            return 0.0
        slack = (self._rows - 1 - row) - abs(state.paddle_col() - state.ball_col())
        return SHRINK * math.tanh(slack + 0.5)

    def player_value(self, state, player):
        if state.is_terminal():
            return state.returns()[player]
        return self._value(state)


register_evaluator("catch", CatchEvaluator)
