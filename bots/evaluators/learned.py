"""`LearnedEvaluator`: a learned model (bots/learned) behind the evaluator contract.

``make_evaluator("learned", game)`` plays the model shipped for the game,
``make_evaluator("learned(path=FILE)", game)`` a model file. The native engine uses the
C++ twin of the model (``native_model()``), which computes the same values bit for bit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from bots import native_engine
from bots.evaluators.api import Evaluator, short_name
from bots.learned import LearnedModel, load_model

MODELS = Path(__file__).resolve().parent.parent / "learned" / "models"


def shipped_model_path(game: pyspiel.Game) -> Path:
    """Where the model shipped for ``game`` lives: ``bots/learned/models/<short name>.npz``."""
    return MODELS / f"{short_name(game)}.npz"


def shipped_model(game: pyspiel.Game) -> Path:
    """The shipped model's path, or a ValueError naming the command that trains one."""
    path = shipped_model_path(game)
    if not path.is_file():
        name = short_name(game)
        raise ValueError(
            f"no learned model ships for {name!r} (looked for {path}); train one with "
            f"'python -m experiments.learn --game={name} --out=DIR' and use "
            f"evaluator='learned(path=DIR/model.npz)'"
        )
    return path


class LearnedEvaluator(Evaluator):
    """Values per player from a learned model; uniform prior; the head's bounds.

    ``model`` is a model file's path or a `LearnedModel`; either must be a model of
    ``game`` (same short name and parameters), else a ValueError names the file.
    """

    def __init__(self, game: pyspiel.Game, model: str | os.PathLike[str] | LearnedModel):
        if not isinstance(model, LearnedModel):
            model = load_model(model, game)
        elif model.game is None or str(model.game) != str(game):
            # A model bound to another game (a twin) stays as it is: a copy is bound here.
            model = LearnedModel(model.metadata, model.arrays, model.path, game)
        super().__init__(game, model.bounds)
        self.model = model
        self.path = model.path
        self._native: Any = None

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        """Per-player values; terminal states return `state.returns()`."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        return np.array(self.model.head_values(state, self.model.outputs(state)))

    def player_value(self, state: pyspiel.State, player: int) -> float:
        """``evaluate(state)[player]`` as a float."""
        if state.is_terminal():
            return float(state.returns()[player])
        return self.model.head_values(state, self.model.outputs(state))[player]

    def native_model(self) -> Any:
        """The C++ twin, ``bots._native.LearnedModel(metadata JSON, arrays)``, built once;
        None where the native engine is not built or has no learned models."""
        if self._native is None:
            module = native_engine.native()
            native_class = getattr(module, "LearnedModel", None)
            if native_class is None:
                return None
            self._native = native_class(json.dumps(self.model.metadata), self.model.arrays)
        return self._native

    def __repr__(self) -> str:
        return f"LearnedEvaluator({short_name(self.game)}, {self.path or 'in memory'})"
