"""Integer inference: the network's outputs from a state's features, exact in int64.

Integer sums are exact in any order, so numpy's vectorised sums and the C++ twin's
loops agree bit for bit; the one floating-point step, ``double(o) * 2**-output_shift``,
is exact too (a power of two). The arrays are widened to int64 once, at construction.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bots.learned.checks import mlp_layers, placement_lengths

EXACT = 2.0**53  # every integer of smaller magnitude is a float64, and so are their sums


class MlpInference:
    """``w{l}``/``b{l}`` layers: ReLU clamped to ``[0, 2**activation_shift]``, then linear.

    Where every partial sum provably stays below 2**53 in magnitude (checked here:
    ``max |b| + max input * n_in * 32768``, true unless the biases are huge), the sums
    run in float64 (BLAS): products and sums of such integers are exact in any order,
    and ``floor(acc * 2**-k)``
    is ``acc >> k``, so the result is the int64 one bit for bit. Otherwise (or with
    ``exact_float=False``) layer 0 sums the nonzero inputs' rows in int64.
    """

    def __init__(
        self,
        metadata: dict[str, Any],
        arrays: dict[str, np.ndarray],
        exact_float: bool | None = None,
    ):
        q = metadata["quantisation"]
        self.weight_shift = int(q["weight_shift"])
        self.first_shift = int(q["input_shift"]) + self.weight_shift - int(q["activation_shift"])
        self.top = 1 << int(q["activation_shift"])
        self.output_shift = int(q["output_shift"])
        self.output_scale = 2.0**-self.output_shift
        layers = mlp_layers(metadata)
        weights = [arrays[f"w{layer}"] for layer in range(layers)]
        biases = [arrays[f"b{layer}"] for layer in range(layers)]
        # |acc| <= max |b| + (largest input) * n_in * 32768 (the largest int16 magnitude).
        fits = all(
            float(np.abs(b).max()) + largest * w.shape[0] * 32768.0 < EXACT / 2
            for w, b, largest in zip(weights, biases, [32767] + [self.top] * (layers - 1))
        )
        self.exact_float = fits if exact_float is None else exact_float and fits
        kind = np.float64 if self.exact_float else np.int64
        self.weights = [w.astype(kind) for w in weights]
        self.biases = [b.astype(kind) for b in biases]
        # floor(acc / 2**k) as a multiplication (exact: a power of two).
        self.first_scale = 2.0**-self.first_shift
        self.weight_scale = 2.0**-self.weight_shift

    def outputs(self, inputs: np.ndarray) -> np.ndarray:
        """``out`` (float64) from the inputs ``q`` (integers, any integer or float dtype)."""
        if not self.exact_float:
            return self._int_outputs(inputs)
        acc = inputs @ self.weights[0] + self.biases[0]
        for layer in range(1, len(self.weights)):
            scale = self.first_scale if layer == 1 else self.weight_scale
            activation = np.floor(acc * scale)
            np.clip(activation, 0.0, self.top, out=activation)
            acc = activation @ self.weights[layer] + self.biases[layer]
        return acc * self.output_scale

    def _int_outputs(self, inputs: np.ndarray) -> np.ndarray:
        """The same in int64, layer 0 over the nonzero inputs only (the C++ twin's way)."""
        nonzero = np.flatnonzero(inputs)
        acc = self.biases[0] + inputs[nonzero].astype(np.int64) @ self.weights[0][nonzero]
        for layer in range(1, len(self.weights)):
            shift = self.first_shift if layer == 1 else self.weight_shift
            activation = np.clip(acc >> shift, 0, self.top)
            acc = self.biases[layer] + activation @ self.weights[layer]
        return np.ldexp(acc.astype(np.float64), -self.output_shift)


class NtupleInference:
    """Sum over placements of ``luts[lut_offsets[t_p] + index_p]``, first cell most
    significant in the base-``values`` index.

    The indices are one matrix product, ``index = M @ cells + base`` with
    ``M[p, cell_j] = values**(k_p - 1 - j)``: integers, exact (a table index is far
    below 2**53).
    """

    def __init__(self, metadata: dict[str, Any], arrays: dict[str, np.ndarray]):
        values = int(metadata["architecture"]["values"])
        placements = arrays["placements"]
        cells = int(placements.max()) + 1
        self.place_values = np.zeros((placements.shape[0], cells), dtype=np.int64)
        for p, (row, k) in enumerate(zip(placements, placement_lengths(placements))):
            for j in range(k):
                self.place_values[p, row[j]] += values ** (k - 1 - j)
        self.base = arrays["lut_offsets"][arrays["placement_tables"]].astype(np.int64)
        self.luts = arrays["luts"]
        self.cells = cells
        self.output_scale = 2.0 ** -int(metadata["quantisation"]["output_shift"])

    def outputs(self, cells: np.ndarray) -> np.ndarray:
        """``out`` (a 1-vector, float64) from the board's cells (ints in 0..values-1)."""
        index = self.place_values @ cells[: self.cells] + self.base
        total = self.luts[index].sum(dtype=np.int64)
        return np.array([float(total) * self.output_scale])


def make_inference(
    metadata: dict[str, Any], arrays: dict[str, np.ndarray]
) -> MlpInference | NtupleInference:
    """The inference of a (checked) model's family."""
    if metadata["family"] == "mlp":
        return MlpInference(metadata, arrays)
    return NtupleInference(metadata, arrays)
