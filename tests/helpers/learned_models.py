"""Random learned models of real games, for the tests: any weights are a valid model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from bots.learned import (
    LearnedModel,
    make_metadata,
    mlp_quantisation,
    ntuple_placements,
    quantise_mlp,
    quantise_ntuple,
)


def scale_log2(model: LearnedModel) -> int:
    """s of the model's output scale 2**s."""
    q = model.metadata["quantisation"]
    shift = q["activation_shift"] if model.metadata["architecture"]["hidden"] else q["input_shift"]
    return shift + q["weight_shift"] - q["output_shift"]


def random_float_layers(
    rng: np.random.Generator, sizes: list[int], scale: float = 0.5
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Float layers of the given widths (inputs first), weights ~ N(0, scale / sqrt(n_in))."""
    return [
        (
            rng.normal(0.0, scale / np.sqrt(n_in), (n_in, n_out)),
            rng.normal(0.0, 0.1, n_out),
        )
        for n_in, n_out in zip(sizes[:-1], sizes[1:])
    ]


def head_of(game: pyspiel.Game) -> str:
    if game.num_players() == 1:
        return "one_player"
    return "zero_sum" if game.num_players() == 2 else "win_shares"


def random_mlp(
    game: pyspiel.Game,
    hidden: list[int],
    seed: int = 0,
    head: str | None = None,
    output_scale_log2: int | None = None,
    weight_scale: float = 0.5,
    encoding: str = "observation",
) -> tuple[LearnedModel, list[tuple[np.ndarray, np.ndarray]], dict[str, int]]:
    """A random MLP over the observation (then the mover's one-hot with
    ``encoding="observation_mover"``, and the hand values with ``"observation_hand"``),
    with its float layers and quantisation.

    2048's inputs are raw tile values (up to thousands): input_shift 0 keeps them inside
    the int16 range, and its outputs are scores (2**10 by default)."""
    head = head or head_of(game)
    rng = np.random.default_rng(seed)
    inputs = int(np.prod(game.observation_tensor_shape()))
    if encoding in ("observation_mover", "observation_hand"):
        inputs += game.num_players()
    if encoding == "observation_hand":  # then a hand value per player
        inputs += game.num_players()
    outputs = game.num_players() if head == "win_shares" else 1
    layers = random_float_layers(rng, [inputs, *hidden, outputs], weight_scale)
    tiles = game.get_type().short_name == "2048"
    if output_scale_log2 is None:
        output_scale_log2 = 10 if tiles else 0
    quantisation = mlp_quantisation(len(hidden), output_scale_log2, input_shift=0 if tiles else 6)
    metadata = make_metadata(game, "mlp", encoding, {"hidden": list(hidden)}, quantisation, head)
    return (
        LearnedModel(metadata, quantise_mlp(layers, quantisation), game=game),
        layers,
        quantisation,
    )


NTUPLE_GAMES: dict[str, dict[str, Any]] = {
    # 2048: rows and 2x2 squares of the 4x4 board (small tables: trained networks use
    # 6-tuples, 16**6 entries each), all 8 symmetries, tiles up to 2**15.
    "2048": {
        "encoding": "log2_cells",
        "encoding_args": {},
        "values": 16,
        "tuples": [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [5, 6, 9, 10]],
        "symmetries": "dihedral",
        "side": 4,
        "output_shift": 4,
        "scale": 200.0,
    },
    # EinStein: 12 cube planes on the 5x5 board, cells 0 (empty) .. 12.
    "einstein_wurfelt_nicht": {
        "encoding": "plane_cells",
        "encoding_args": {"planes": 12},
        "values": 13,
        "tuples": [[0, 1, 5, 6], [12, 13, 17, 18], [18, 19, 23, 24], [2, 7, 12]],
        "symmetries": "diagonal",
        "side": 5,
        "output_shift": 16,
        "scale": 0.05,
    },
}


def random_ntuple(
    game: pyspiel.Game, seed: int = 0
) -> tuple[LearnedModel, list[np.ndarray], np.ndarray, np.ndarray, dict[str, Any]]:
    """A random n-tuple network for 2048 or EinStein, with its float tables and placements."""
    spec = NTUPLE_GAMES[game.get_type().short_name]
    rng = np.random.default_rng(seed)
    placements, tables = ntuple_placements(spec["tuples"], spec["symmetries"], spec["side"])
    luts = [rng.normal(0.0, spec["scale"], spec["values"] ** len(t)) for t in spec["tuples"]]
    arrays = quantise_ntuple(luts, placements, tables, spec["output_shift"])
    architecture = {
        "values": spec["values"],
        "cells": spec["side"] ** 2,
        "tuples": spec["tuples"],
        "symmetries": spec["symmetries"],
    }
    metadata = make_metadata(
        game,
        "ntuple",
        spec["encoding"],
        architecture,
        {"output_shift": spec["output_shift"]},
        head_of(game),
        spec["encoding_args"],
    )
    return LearnedModel(metadata, arrays, game=game), luts, placements, tables, spec
