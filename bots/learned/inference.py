"""Integer inference: the network's outputs from a state's features, exact in int64.

Integer sums are exact in any order, so numpy's vectorised sums and the C++ twin's
loops agree bit for bit; the one floating-point step, ``double(o) * 2**-output_shift``,
is exact too (a power of two). The arrays are widened to int64 once, at construction.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bots.learned.checks import mlp_layers, placement_lengths


class MlpInference:
    """``w{l}``/``b{l}`` layers: ReLU clamped to ``[0, 2**activation_shift]``, then linear."""

    def __init__(self, metadata: dict[str, Any], arrays: dict[str, np.ndarray]):
        q = metadata["quantisation"]
        self.weight_shift = int(q["weight_shift"])
        self.first_shift = int(q["input_shift"]) + self.weight_shift - int(q["activation_shift"])
        self.top = 1 << int(q["activation_shift"])
        self.output_shift = int(q["output_shift"])
        layers = mlp_layers(metadata)
        self.weights = [arrays[f"w{layer}"].astype(np.int64) for layer in range(layers)]
        self.biases = [arrays[f"b{layer}"].astype(np.int64) for layer in range(layers)]

    def outputs(self, inputs: np.ndarray) -> np.ndarray:
        """``out`` (float64) from the int32 inputs ``q``; layer 0 reads the nonzero ones."""
        nonzero = np.flatnonzero(inputs)
        acc = self.biases[0] + inputs[nonzero].astype(np.int64) @ self.weights[0][nonzero]
        last = len(self.weights) - 1
        for layer in range(1, last + 1):
            shift = self.first_shift if layer == 1 else self.weight_shift
            activation = np.clip(acc >> shift, 0, self.top)
            acc = self.biases[layer] + activation @ self.weights[layer]
        return np.ldexp(acc.astype(np.float64), -self.output_shift)


class NtupleInference:
    """Sum over placements of ``luts[lut_offsets[t_p] + index_p]``, first cell most
    significant in the base-``values`` index."""

    def __init__(self, metadata: dict[str, Any], arrays: dict[str, np.ndarray]):
        values = int(metadata["architecture"]["values"])
        placements = arrays["placements"].astype(np.int64)
        lengths = placement_lengths(placements)
        column = np.arange(placements.shape[1])[None, :]
        live = column < lengths[:, None]
        # Weight of cell j of placement p: values**(k_p - 1 - j); 0 on the padding.
        exponents = np.where(live, lengths[:, None] - 1 - column, 0)
        self.place_values = np.where(live, values**exponents, 0).astype(np.int64)
        self.cells = np.where(live, placements, 0)
        self.base = arrays["lut_offsets"][arrays["placement_tables"]].astype(np.int64)
        self.luts = arrays["luts"]
        self.output_shift = int(metadata["quantisation"]["output_shift"])

    def outputs(self, cells: np.ndarray) -> np.ndarray:
        """``out`` (a 1-vector, float64) from the board's cells (ints in 0..values-1)."""
        index = self.base + (cells[self.cells] * self.place_values).sum(axis=1)
        total = self.luts[index].sum(dtype=np.int64)
        return np.ldexp(np.array([total], dtype=np.float64), -self.output_shift)


def make_inference(
    metadata: dict[str, Any], arrays: dict[str, np.ndarray]
) -> MlpInference | NtupleInference:
    """The inference of a (checked) model's family."""
    if metadata["family"] == "mlp":
        return MlpInference(metadata, arrays)
    return NtupleInference(metadata, arrays)
