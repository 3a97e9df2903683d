"""The one bridge from a float model to the model file both engines play (model.npz).

It quantises the float twin as docs/guide/learned.md's spec says and writes the
arrays and the JSON metadata with `np.savez_compressed`, atomically.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
from typing import Any

import numpy as np
import pyspiel

from experiments.learn.models import (
    ACTIVATION_SHIFT,
    INPUT_SHIFT,
    WEIGHT_SHIFT,
    FloatMLP,
    FloatModel,
    FloatNTuple,
    ModelSpec,
)

FORMAT = "starspiel.learned/1"


def library_version() -> str:
    try:
        return importlib.metadata.version("starspiel")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def quantisation(spec: ModelSpec) -> dict[str, int]:
    """The shifts of the integer model: output_shift = ACT + WS - s for the MLP."""
    if spec.family == "mlp":
        return {
            "input_shift": INPUT_SHIFT,
            "weight_shift": WEIGHT_SHIFT,
            "activation_shift": ACTIVATION_SHIFT,
            "output_shift": ACTIVATION_SHIFT + WEIGHT_SHIFT - spec.output_scale_log2,
        }
    return {"output_shift": spec.output_shift}


def _quantise_mlp(model: FloatMLP, shifts: dict[str, int]) -> dict[str, np.ndarray]:
    ws, act, ins = shifts["weight_shift"], shifts["activation_shift"], shifts["input_shift"]
    arrays = {}
    for index, (w, b) in enumerate(model.layers):
        arrays[f"w{index}"] = np.clip(np.rint(w * 2.0**ws), -32767, 32767).astype(np.int16)
        bias_shift = ins + ws if index == 0 else act + ws
        arrays[f"b{index}"] = np.rint(b * 2.0**bias_shift).astype(np.int64)
    return arrays


def _quantise_ntuple(model: FloatNTuple, shifts: dict[str, int]) -> dict[str, np.ndarray]:
    info = np.iinfo(np.int32)
    luts = np.clip(np.rint(model.luts * 2.0 ** shifts["output_shift"]), info.min, info.max)
    kmax = max(len(p) for p in model.placements)
    placements = np.full((len(model.placements), kmax), -1, np.int32)
    for row, cells in enumerate(model.placements):
        placements[row, : len(cells)] = cells
    return {
        "luts": luts.astype(np.int32),
        "lut_offsets": model.lut_offsets.astype(np.int64),
        "placements": placements,
        "placement_tables": np.asarray(model.placement_tables, np.int32),
    }


def metadata(
    spec: ModelSpec, game: pyspiel.Game, head: str, training: dict[str, Any], cells: int
) -> dict[str, Any]:
    """The metadata object of the model file."""
    if spec.family == "mlp":
        architecture: dict[str, Any] = {"hidden": list(spec.hidden)}
    else:
        from experiments.learn.models import placements_of, tuple_set

        side = int(round(cells**0.5))
        tables, _, _ = placements_of(tuple_set(spec.tuple_set, side), side, spec.symmetries)
        architecture = {
            "values": spec.values,
            "cells": cells,
            "tuples": tables,
            "symmetries": spec.symmetries,
        }
    return {
        "format": FORMAT,
        "game": str(game),
        "family": spec.family,
        "encoding": spec.encoding,
        "encoding_args": dict(spec.encoding_args),
        "architecture": architecture,
        "quantisation": quantisation(spec),
        "head": head,
        "training": training,
        "library_version": library_version(),
    }


def export_model(path: str, model: FloatModel, meta: dict[str, Any]) -> None:
    """Quantises `model` and writes it with `meta` to `path` (readers see old or new)."""
    shifts = meta["quantisation"]
    if isinstance(model, FloatMLP):
        arrays = _quantise_mlp(model, shifts)
    else:
        arrays = _quantise_ntuple(model, shifts)
    arrays["metadata"] = np.array(json.dumps(meta, sort_keys=True))
    save_atomic(path, arrays, compressed=True)


def save_atomic(path: str, arrays: dict[str, np.ndarray], compressed: bool = False) -> None:
    """np.savez(_compressed) to a temporary file, fsync, then os.replace."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as handle:
            (np.savez_compressed if compressed else np.savez)(handle, **arrays)  # type: ignore[operator]
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
