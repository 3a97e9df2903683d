"""The one bridge from a float model to the model file both engines play (model.npz).

Quantisation, the metadata and the file itself are bots.learned's (`quantise_mlp`,
`quantise_ntuple`, `make_metadata`, `save_model`); `LearnedModel` checks the arrays
before anything is written, so the trainer cannot write a file the loader refuses.
"""

from __future__ import annotations

import os
from typing import Any, cast

import numpy as np
import pyspiel

# bots.evaluators before bots.learned: importing bots.learned first in a fresh interpreter
# runs into the cycle bots.learned.model -> bots.evaluators -> bots.evaluators.learned.
import bots.evaluators  # noqa: F401
from bots.learned import (
    LearnedModel,
    make_metadata,
    mlp_quantisation,
    quantise_mlp,
    quantise_ntuple,
    save_model,
)
from experiments.learn.models import FloatMLP, FloatModel, FloatNTuple, ModelSpec


def quantisation(spec: ModelSpec) -> dict[str, int]:
    """The shifts of the integer model (the MLP's output_shift = ACT + WS - s)."""
    if spec.family == "mlp":
        return mlp_quantisation(len(spec.hidden), spec.output_scale_log2)
    return {"output_shift": spec.output_shift}


def model_metadata(
    spec: ModelSpec, model: FloatModel, game: pyspiel.Game, head: str, training: dict[str, Any]
) -> dict[str, Any]:
    """The metadata of the model file; `training` is command, games, seconds, seed, workers."""
    if isinstance(model, FloatNTuple):
        architecture: dict[str, Any] = {
            "values": spec.values,
            "cells": model.cells,
            "tuples": model.tables,
            "symmetries": spec.symmetries,
        }
    else:
        architecture = {"hidden": list(spec.hidden)}
    return make_metadata(
        game,
        spec.family,
        spec.encoding,
        architecture,
        quantisation(spec),
        head,
        encoding_args=dict(spec.encoding_args),
        training=training,
    )


def export_model(path: str, model: FloatModel, metadata: dict[str, Any]) -> LearnedModel:
    """Quantises `model`, checks it as the loader would, and writes it atomically."""
    shifts = metadata["quantisation"]
    if isinstance(model, FloatMLP):
        arrays = quantise_mlp(model.layers, shifts)
    else:
        sizes = np.diff(model.lut_offsets)
        luts = np.split(model.luts, np.cumsum(sizes)[:-1])
        arrays = quantise_ntuple(
            luts, model.placements, model.placement_tables, shifts["output_shift"]
        )
    learned = LearnedModel(metadata, arrays, path=path)
    save_model(path, learned)
    return learned


def save_atomic(path: str, arrays: dict[str, np.ndarray]) -> None:
    """np.savez to a temporary file, fsync, then os.replace: readers see old or new."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as handle:
            np.savez(handle, **cast(dict[str, Any], arrays))  # a handle: no ".npz" added
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
