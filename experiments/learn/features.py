"""The inputs of a model: the spec's encodings, all read from `observation_tensor(0)`.

The MLP reads the raw observation floats (its integer twin rounds them to
`input_shift` bits); the n-tuple network reads small integer cell values.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

from experiments.learn.models import ModelSpec

Encoder = Callable[[pyspiel.State], np.ndarray]


def encoder(spec: ModelSpec) -> Encoder:
    """state -> feature vector for `spec`'s encoding."""
    if spec.encoding == "observation":
        return lambda state: np.asarray(state.observation_tensor(0), np.float64)
    values = spec.values
    if spec.encoding == "log2_cells":

        def log2_cells(state: pyspiel.State) -> np.ndarray:
            x = np.asarray(state.observation_tensor(0), np.float64)
            c = np.zeros(x.shape, np.int64)
            tiles = x != 0
            c[tiles] = np.log2(x[tiles]).astype(np.int64)  # powers of two: exact
            return np.minimum(c, values - 1)

        return log2_cells
    planes = dict(spec.encoding_args)["planes"]

    def plane_cells(state: pyspiel.State) -> np.ndarray:
        x = np.asarray(state.observation_tensor(0), np.float64).reshape(planes, -1) != 0
        first = np.argmax(x, axis=0) + 1
        return np.minimum(np.where(x.any(axis=0), first, 0), values - 1)

    return plane_cells


def n_features(spec: ModelSpec, game: pyspiel.Game) -> int:
    """Inputs of the MLP, or cells of the n-tuple board."""
    size = int(np.prod(game.observation_tensor_shape()))
    planes = dict(spec.encoding_args).get("planes")
    return size if planes is None else size // planes
