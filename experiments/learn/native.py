"""The native engine of experiments.learn: self-play and TD updates in C++ (bots._native.TdTrainer).

The C++ trainer plays on the game's C++ states with the GIL released and updates the
model's numpy float64 arrays (`model.params()`) in place, so checkpoints, evaluation and
export stay the Python trainer's. Its games draw chance and exploration from SplitMix64
seeded by (seed, game index), not numpy's generator: a native run is its own run, with the
same batch semantics (the same seed and workers give the same model).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from experiments.common.errors import ExperimentError
from experiments.learn.models import FloatMLP, FloatModel, FloatNTuple, ModelSpec
from experiments.learn.selfplay import Trajectory

ENGINES = ("native", "python")


def check_native(game: pyspiel.Game) -> Any:
    """bots._native, or an ExperimentError saying why the native engine cannot train on
    `game`: the engine is not built, or the game is implemented in Python (its states would
    need the GIL the C++ threads release)."""
    from bots import native_engine

    try:
        native = native_engine.require()
    except RuntimeError as error:
        raise ExperimentError(f"--engine=native: {error}; use --engine=python") from None
    if type(game).__module__ != "pyspiel":
        raise ExperimentError(
            f"--engine=native plays games implemented in C++; '{game}' is implemented in "
            "Python: use --engine=python, or the game's C++ twin (its name without python_)"
        )
    return native


def native_trainer(
    game: pyspiel.Game,
    spec: ModelSpec,
    model: FloatModel,
    alpha: float,
    td_lambda: float,
    epsilon: float,
    max_moves: int,
    seed: int,
) -> Any:
    """A bots._native.TdTrainer for `model` (its params() are the weights it updates)."""
    native = check_native(game)
    if isinstance(model, FloatMLP):
        sizes = [int(model.layers[0][0].shape[0])] + [int(w.shape[1]) for w, _ in model.layers]
        return native.TdTrainer.mlp(
            game,
            sizes,
            spec.output_scale_log2,
            spec.encoding,
            alpha,
            td_lambda,
            epsilon,
            max_moves,
            seed,
        )
    assert isinstance(model, FloatNTuple)
    # The placements in the order of FloatNTuple.indices (by length, then as listed), so that
    # a value adds up in numpy's order: the C++ TD(0) then gives numpy's weights bit for bit.
    placements = np.asarray(model.placements, np.int64)
    order = np.argsort((placements >= 0).sum(axis=1), kind="stable")
    return native.TdTrainer.ntuple(
        game,
        placements[order],
        np.asarray(model.placement_tables, np.int64)[order],
        model.lut_offsets,
        model.values,
        spec.encoding,
        int(dict(spec.encoding_args).get("planes", 1)),
        alpha,
        epsilon,
        max_moves,
        seed,
    )


def play(trainer: Any, model: FloatModel, game_index: int) -> tuple[Trajectory, np.ndarray]:
    """Game `game_index` played by the C++ trainer with `model`'s weights: its trajectory and
    every action applied (chance outcomes included), to replay it."""
    features, returns, final, cut_off, moves, actions = trainer.play(model.params(), game_index)
    return Trajectory(features, returns, final, cut_off, moves), actions


def learn(trainer: Any, model: FloatModel, trajectories: list[Trajectory]) -> tuple[float, int]:
    """The C++ TD updates of `trajectories` in order on `model`'s weights, in place:
    (sum of squared TD errors, afterstates)."""
    squared, steps = trainer.learn(model.params(), trajectories)
    return float(squared), int(steps)


def play_and_learn(
    trainer: Any, model: FloatModel, first_game: int, count: int, workers: int
) -> tuple[float, int]:
    """Games first_game.. in batches of `workers` (threads, the batch's starting weights),
    learned in game order: (sum of squared TD errors, afterstates)."""
    squared, steps = trainer.play_and_learn(model.params(), first_game, count, workers)
    return float(squared), int(steps)
