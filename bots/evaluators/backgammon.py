"""Backgammon heuristic: pip-count race, blots, home points, borne-off checkers."""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.registry import register_evaluator


class BackgammonEvaluator(Evaluator):
    """Pip-count race plus blots, borne-off checkers and home-board points.

    Reads the Tesauro observation tensor (player 0's view) written in place
    into a numpy buffer and turns it into features with one small matrix
    product over [tensor, min(tensor, 1)]. Then
    x = 8 * pip lead / (pip_x + pip_o + 20) + 0.15 * (opponent blots - own
    blots) + 0.1 * (home points made difference) + 0.03 * (borne-off
    difference), squashed with SHRINK * tanh into (-1, 1). Player 0 is X
    (moves from point 0 toward 23), player 1 is O.
    No cube, no gammons: the value is a win-probability-like equity even
    under gammon scoring. Bounds: (min_utility, max_utility).
    """

    native_name = "backgammon"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "backgammon", "BackgammonEvaluator")
        super().__init__(game)
        from open_spiel.python.observation import make_observation

        self._obs = make_observation(game)
        size = self._obs.tensor.size
        if size != 200:
            raise ValueError(
                f"BackgammonEvaluator expects a 200-entry observation tensor, got {size}"
            )
        # Features: 0 pip_x, 1 pip_o, 2 blots_x, 3 blots_o, 4 off_x, 5 off_o,
        # 6 home points made by x (18..23), 7 by o (0..5).
        lin = np.zeros((200, 8))
        ind = np.zeros((200, 8))  # multiplies min(tensor, 1)
        for side in (0, 1):
            base = 96 * side
            for p in range(24):
                w = 24 - p if side == 0 else p + 1  # pips to bear off
                i = base + 4 * p
                lin[i : i + 4, side] = (w, 2 * w, 3 * w, w)  # count>3: f4 = count-3
                ind[i + 3, side] = 3 * w  # ... plus 3
                lin[i, 2 + side] = 1.0  # exactly one checker
                home = p >= 18 if side == 0 else p <= 5
                if home:
                    ind[i + 1 : i + 4, 6 + side] = 1.0  # two or more checkers
        # Bar and borne-off counts for player 0 (x) then player 1 (o).
        lin[192, 0] = 25.0
        lin[193, 4] = 1.0
        lin[195, 1] = 25.0
        lin[196, 5] = 1.0
        dtype = self._obs.tensor.dtype  # float32: no cast in the product
        self._matrix = np.vstack([lin, ind]).astype(dtype)
        self._buf = np.empty(400, dtype=dtype)
        self._buf_lin = self._buf[:200]
        self._buf_ind = self._buf[200:]

    def features(self, state) -> list[float]:
        """[pip_x, pip_o, blots_x, blots_o, off_x, off_o, home_points_x, home_points_o]."""
        obs = self._obs
        obs.set_from(state, 0)
        t = obs.tensor
        self._buf_lin[:] = t
        np.minimum(t, 1.0, out=self._buf_ind)
        return (self._buf @ self._matrix).tolist()

    def _value(self, state):
        pip_x, pip_o, blot_x, blot_o, off_x, off_o, home_x, home_o = self.features(state)
        x = (
            8.0 * (pip_o - pip_x) / (pip_x + pip_o + 20.0)
            + 0.15 * (blot_o - blot_x)
            + 0.1 * (home_x - home_o)
            + 0.03 * (off_x - off_o)
        )
        return SHRINK * math.tanh(x)


register_evaluator("backgammon", BackgammonEvaluator)
