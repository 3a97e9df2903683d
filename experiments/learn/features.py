"""The inputs of a model: the spec's encodings, all read from `observation_tensor(0)`.

The MLP reads the raw observation floats (its integer twin rounds them to
`input_shift` bits); the n-tuple network reads small integer cell values.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

from bots.learned.encodings import log2_cells, plane_cells
from experiments.learn.models import ModelSpec

Encoder = Callable[[pyspiel.State], np.ndarray]


def encoder(spec: ModelSpec) -> Encoder:
    """state -> features for `spec`'s encoding: the raw observation floats for the MLP
    (its integer twin rounds them to input_shift bits), bots.learned's cells otherwise."""
    if spec.encoding == "observation":
        return lambda state: np.asarray(state.observation_tensor(0), np.float64)
    values = spec.values
    if spec.encoding == "log2_cells":
        return lambda state: log2_cells(np.asarray(state.observation_tensor(0)), values)
    planes = dict(spec.encoding_args)["planes"]
    return lambda state: plane_cells(np.asarray(state.observation_tensor(0)), planes, values)


def n_features(spec: ModelSpec, game: pyspiel.Game) -> int:
    """Inputs of the MLP, or cells of the n-tuple board."""
    size = int(np.prod(game.observation_tensor_shape()))
    planes = dict(spec.encoding_args).get("planes")
    return size if planes is None else size // planes
