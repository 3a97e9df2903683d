"""Float networks -> the file's integer arrays, and the float forward passes they approximate.

The trainer learns in floating point (`float_mlp_outputs`, `float_ntuple_outputs` are
the networks it trains) and writes the quantised arrays; the search plays the integer
model. The scales are docs/guide/learned.md's: weights ``* 2**weight_shift``, layer 0's
bias ``* 2**(input_shift + weight_shift)``, later biases ``* 2**(activation_shift +
weight_shift)``, n-tuple tables ``* 2**output_shift``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bots.learned.encodings import QMAX
from bots.learned.ntuple import pad_placements

FloatLayer = tuple[np.ndarray, np.ndarray]  # (W of shape (n_in, n_out), b of shape (n_out,))
INT32 = np.iinfo(np.int32)


def mlp_quantisation(
    hidden_layers: int,
    output_scale_log2: int = 0,
    input_shift: int = 6,
    weight_shift: int = 8,
    activation_shift: int = 7,
) -> dict[str, int]:
    """The metadata's ``quantisation`` for an MLP whose output is ``y * 2**s``, s =
    ``output_scale_log2`` (0 for values in [-3, 3]; 2048's future score wants about 16)."""
    scale = (activation_shift if hidden_layers else input_shift) + weight_shift
    return {
        "input_shift": input_shift,
        "weight_shift": weight_shift,
        "activation_shift": activation_shift,
        "output_shift": scale - output_scale_log2,
    }


def quantise_mlp(float_layers: Sequence[FloatLayer], quantisation: dict[str, int]) -> dict:
    """The arrays ``w{l}`` (int16) and ``b{l}`` (int64) of the float layers (hidden ones
    first, the output layer last)."""
    weight_shift = quantisation["weight_shift"]
    arrays: dict[str, np.ndarray] = {}
    for layer, (w, b) in enumerate(float_layers):
        scale = (
            quantisation["input_shift"] if layer == 0 else quantisation["activation_shift"]
        ) + weight_shift
        scaled = np.rint(np.ldexp(np.asarray(w, dtype=np.float64), weight_shift))
        arrays[f"w{layer}"] = np.clip(scaled, -QMAX, QMAX).astype(np.int16)
        arrays[f"b{layer}"] = np.rint(np.ldexp(np.asarray(b, dtype=np.float64), scale)).astype(
            np.int64
        )
    return arrays


def float_mlp_outputs(
    float_layers: Sequence[FloatLayer], x: np.ndarray, output_scale_log2: int = 0
) -> np.ndarray:
    """The float twin: ``h = clip(x @ W + b, 0, 1)`` per hidden layer, then
    ``(h @ W_H + b_H) * 2**output_scale_log2``; ``x`` the raw observation (or a batch)."""
    h = np.asarray(x, dtype=np.float64)
    for w, b in float_layers[:-1]:
        h = np.clip(h @ w + b, 0.0, 1.0)
    w, b = float_layers[-1]
    return np.ldexp(h @ w + b, output_scale_log2)


def quantise_ntuple(
    float_luts: Sequence[np.ndarray],
    placements: np.ndarray | Sequence[Sequence[int]],
    placement_tables: np.ndarray | Sequence[int],
    output_shift: int,
) -> dict[str, np.ndarray]:
    """The arrays ``luts``, ``lut_offsets``, ``placements``, ``placement_tables`` of float
    tables (table t of size ``values ** len(tuple t)``), entries ``* 2**output_shift``."""
    quantised = [
        np.clip(
            np.rint(np.ldexp(np.asarray(lut, dtype=np.float64).ravel(), output_shift)),
            INT32.min,
            INT32.max,
        ).astype(np.int32)
        for lut in float_luts
    ]
    offsets = np.zeros(len(quantised) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([lut.size for lut in quantised])
    if isinstance(placements, np.ndarray):
        padded = placements.astype(np.int32)
    else:
        padded = pad_placements(placements)
    return {
        "luts": np.concatenate(quantised),
        "lut_offsets": offsets,
        "placements": padded,
        "placement_tables": np.asarray(placement_tables, dtype=np.int32),
    }


def float_ntuple_outputs(
    float_luts: Sequence[np.ndarray],
    placements: np.ndarray,
    placement_tables: Sequence[int],
    cells: np.ndarray,
    values: int,
) -> np.ndarray:
    """The float twin: the sum over placements of the float table entry each reads."""
    total = 0.0
    for row, table in zip(np.asarray(placements), placement_tables):
        index = 0
        for cell in row[row >= 0]:
            index = index * values + int(cells[cell])
        total += float(np.asarray(float_luts[table]).ravel()[index])
    return np.array([total])
