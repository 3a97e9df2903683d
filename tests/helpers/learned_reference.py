"""A direct reference of issue 79's learned-model specification, for the native twin's tests.

Written from the specification alone, not from ``bots.learned``: integer inference in
Python ints and int64 numpy products (exact in any order), the encodings from
``observation_tensor(0)``, and the heads with the specification's floating-point
operations in its order. ``random_mlp`` and ``random_ntuple`` build spec-conforming
models (metadata and arrays, quantised from a seeded float twin), and
``ReferenceEvaluator`` stands in for ``bots.evaluators.learned.LearnedEvaluator``: the
Python engine calls its ``player_value``, the native engine its ``native_model()``.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pyspiel

from bots.evaluators import game_value_bounds
from bots.evaluators.api import Evaluator

Arrays = dict[str, np.ndarray]

SHRINK = 0.99
QUANTISATION = {"input_shift": 6, "weight_shift": 8, "activation_shift": 7, "output_shift": 15}


def _rint_clamp(x: float, lo: int, hi: int) -> int:
    """rint (half to even: Python's round of a float) then clamp."""
    return min(max(round(x), lo), hi)


def mover(state: Any) -> int | None:
    """The current player at a decision node, else the player of the history's last
    decision (None if there is none)."""
    if state.current_player() >= 0:
        return state.current_player()
    players = [entry.player for entry in state.full_history() if entry.player >= 0]
    return players[-1] if players else None


_HAND: dict[str, Any] = {}


def hand_values(state: Any) -> list[float]:
    """The game's default hand evaluator's values of ``state`` (observation_hand)."""
    from bots.evaluators.registry import default_evaluator  # noqa: PLC0415

    game = state.get_game()
    hand = _HAND.get(str(game))
    if hand is None:
        hand = _HAND[str(game)] = default_evaluator(game)
    return [float(v) for v in hand.evaluate(state)]


def encode(metadata: dict[str, Any], observation: list[float], state: Any = None) -> list[int]:
    """The model's integer inputs: ``q`` (observation, then the mover's one-hot for
    observation_mover, then also the hand evaluator's values for observation_hand) or the
    cells (n-tuple encodings)."""
    encoding = metadata["encoding"]
    if encoding in ("observation", "observation_mover", "observation_hand"):
        scale = 2.0 ** metadata["quantisation"]["input_shift"]
        inputs = list(observation)
        if encoding != "observation":
            who = mover(state)
            players = state.get_game().num_players()
            inputs += [1.0 if who == p else 0.0 for p in range(players)]
        if encoding == "observation_hand":
            inputs += hand_values(state)
        return [_rint_clamp(float(x) * scale, -32767, 32767) for x in inputs]
    last = metadata["architecture"]["values"] - 1
    if encoding == "log2_cells":
        return [min(0 if x == 0 else int(math.log2(x)), last) for x in observation]
    assert encoding == "plane_cells", encoding
    planes = metadata["encoding_args"]["planes"]
    cells = len(observation) // planes
    out = []
    for i in range(cells):
        c = 0
        for p in range(planes):
            if observation[p * cells + i] != 0:
                c = p + 1
                break
        out.append(min(c, last))
    return out


def _layers(arrays: Arrays) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = []
    while f"w{len(layers)}" in arrays:
        n = len(layers)
        layers.append((arrays[f"w{n}"].astype(np.int64), arrays[f"b{n}"].astype(np.int64)))
    return layers


def mlp_outputs(metadata: dict[str, Any], arrays: Arrays, q: list[int]) -> list[float]:
    quant = metadata["quantisation"]
    ins, ws, act = quant["input_shift"], quant["weight_shift"], quant["activation_shift"]
    layers = _layers(arrays)
    a = np.array(q, dtype=np.int64)
    for n, (w, b) in enumerate(layers):
        acc = [int(x) for x in b + a @ w]  # int64 products and sums: exact here
        if n + 1 == len(layers):
            return [float(o) * 2.0 ** -quant["output_shift"] for o in acc]
        shift = ins + ws - act if n == 0 else ws
        a = np.array([min(max(x >> shift, 0), 2**act) for x in acc], dtype=np.int64)
    raise AssertionError("no layers")


def ntuple_outputs(metadata: dict[str, Any], arrays: Arrays, cells: list[int]) -> list[float]:
    values = metadata["architecture"]["values"]
    luts, offsets = arrays["luts"], arrays["lut_offsets"]
    o = 0
    for row, table in zip(arrays["placements"], arrays["placement_tables"], strict=True):
        index = 0
        for cell in row:
            if cell < 0:
                break
            index = index * values + cells[cell]
        o += int(luts[int(offsets[table]) + index])
    return [float(o) * 2.0 ** -metadata["quantisation"]["output_shift"]]


def outputs(metadata: dict[str, Any], arrays: Arrays, state: Any) -> list[float]:
    """The network's ``out`` vector for a state."""
    features = encode(metadata, state.observation_tensor(0), state)
    if metadata["family"] == "mlp":
        return mlp_outputs(metadata, arrays, features)
    return ntuple_outputs(metadata, arrays, features)


def head_bounds(metadata: dict[str, Any], game: pyspiel.Game) -> tuple[float, float]:
    if metadata["head"] == "one_player":
        return game_value_bounds(game)
    return float(game.min_utility()), float(game.max_utility())


def head_values(
    metadata: dict[str, Any], game: pyspiel.Game, state: Any, out: list[float]
) -> list[float]:
    """The head's values per player, in the specification's order of operations."""
    lo, hi = head_bounds(metadata, game)
    head = metadata["head"]
    if head == "zero_sum":
        v = min(max(out[0], SHRINK * lo), SHRINK * hi)
        return [v, -v]
    if head == "one_player":
        return [min(max(state.returns()[0] + out[0], lo), hi)]
    assert head == "win_shares", head
    loser = (game.utility_sum() - hi) / (game.num_players() - 1)  # a loser's return
    shares = [max(o, 0.0) + 2.0**-20 for o in out]
    total = shares[0]
    for s in shares[1:]:
        total = total + s
    return [loser + ((hi - loser) * (s / total)) for s in shares]


def values(metadata: dict[str, Any], arrays: Arrays, game: pyspiel.Game, state: Any) -> list[float]:
    """Every player's value: the returns of a terminal state, else the head's."""
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    return head_values(metadata, game, state, outputs(metadata, arrays, state))


def _metadata(game: pyspiel.Game, family: str, encoding: str, head: str, **fields: Any) -> dict:
    return {
        "format": "starspiel.learned/1",
        "game": str(game),
        "family": family,
        "encoding": encoding,
        "encoding_args": fields.pop("encoding_args", {}),
        "head": head,
        "training": {"command": "tests", "games": 0, "seconds": 0.0, "seed": 0, "workers": 1},
        "library_version": "0.test",
        **fields,
    }


def random_mlp(
    game: pyspiel.Game,
    hidden: list[int],
    head: str,
    seed: int,
    *,
    output_scale: int = 0,
    output_mean: float = 0.0,
    quantisation: dict[str, int] | None = None,
    encoding: str = "observation",
) -> tuple[dict[str, Any], Arrays]:
    """A random MLP over the observation (and the mover's one-hot with
    ``encoding="observation_mover"``), quantised from its float twin as the spec says
    (``output_scale`` is s: the model's output is the float twin's times 2**s;
    ``output_mean``: the mean of the output layer's biases)."""
    quant = dict(quantisation or QUANTISATION)
    ins, ws, act = quant["input_shift"], quant["weight_shift"], quant["activation_shift"]
    quant["output_shift"] = (act if hidden else ins) + ws - output_scale
    rng = np.random.default_rng(seed)
    outs = game.num_players() if head == "win_shares" else 1
    inputs = game.observation_tensor_size()
    if encoding != "observation":
        inputs += game.num_players()
    if encoding == "observation_hand":
        inputs += game.num_players()
    sizes = [inputs, *hidden, outs]
    arrays: Arrays = {}
    for n in range(len(sizes) - 1):
        w = rng.normal(0.0, 1.0 / math.sqrt(sizes[n]), size=(sizes[n], sizes[n + 1]))
        b = rng.normal(output_mean if n == len(sizes) - 2 else 0.1, 0.2, size=sizes[n + 1])
        bias_scale = ins + ws if n == 0 else act + ws
        arrays[f"w{n}"] = np.clip(np.rint(w * 2.0**ws), -32767, 32767).astype(np.int16)
        arrays[f"b{n}"] = np.rint(b * 2.0**bias_scale).astype(np.int64)
    metadata = _metadata(
        game, "mlp", encoding, head, architecture={"hidden": hidden}, quantisation=quant
    )
    return metadata, arrays


def dihedral(cell: int, side: int, k: int) -> int:
    """Cell index ``cell`` of a side x side board under the k-th of its 8 symmetries."""
    r, c = divmod(cell, side)
    for _ in range(k % 4):
        r, c = c, side - 1 - r
    if k >= 4:
        c = side - 1 - c
    return r * side + c


def random_ntuple(
    game: pyspiel.Game,
    tuples: list[list[int]],
    head: str,
    seed: int,
    *,
    encoding: str,
    values: int,
    encoding_args: dict[str, Any] | None = None,
    side: int | None = None,
    output_shift: int = 8,
    mean: float = 0.0,
    spread: float = 1.0,
) -> tuple[dict[str, Any], Arrays]:
    """A random n-tuple network: one table per tuple, read by the tuple's 8 dihedral
    placements on a ``side`` x ``side`` board (one placement when ``side`` is None), its
    float entries drawn from N(mean, spread)."""
    rng = np.random.default_rng(seed)
    kmax = max(len(t) for t in tuples)
    sizes = [values ** len(t) for t in tuples]
    luts = rng.normal(mean, spread, size=sum(sizes))
    placements, tables = [], []
    for t, cells in enumerate(tuples):
        for k in range(8 if side else 1):
            placed = [dihedral(c, side, k) if side else c for c in cells]
            placements.append(placed + [-1] * (kmax - len(cells)))
            tables.append(t)
    arrays: Arrays = {
        "luts": np.clip(np.rint(luts * 2.0**output_shift), -(2**31), 2**31 - 1).astype(np.int32),
        "lut_offsets": np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        "placements": np.array(placements, dtype=np.int32),
        "placement_tables": np.array(tables, dtype=np.int32),
    }
    architecture = {
        "values": values,
        "cells": len(encode_shape(game, encoding, encoding_args)),
        "tuples": tuples,
        "symmetries": "dihedral" if side else "none",
    }
    metadata = _metadata(
        game,
        "ntuple",
        encoding,
        head,
        encoding_args=encoding_args or {},
        architecture=architecture,
        quantisation={"output_shift": output_shift},
    )
    return metadata, arrays


def encode_shape(game: pyspiel.Game, encoding: str, args: dict[str, Any] | None) -> range:
    planes = (args or {}).get("planes", 1) if encoding == "plane_cells" else 1
    return range(game.observation_tensor_size() // planes)


class ReferenceEvaluator(Evaluator):
    """A stand-in for the learned evaluator: values from this reference, and the
    ``native_model()`` hook the native engine looks for."""

    def __init__(self, game: pyspiel.Game, metadata: dict[str, Any], arrays: Arrays):
        super().__init__(game, head_bounds(metadata, game))
        self.metadata = metadata
        self.arrays = arrays
        self._native: Any = None

    def evaluate(self, state: Any) -> np.ndarray:
        return np.array(values(self.metadata, self.arrays, self.game, state))

    def player_value(self, state: Any, player: int) -> float:
        return values(self.metadata, self.arrays, self.game, state)[player]

    def native_model(self) -> Any:
        """``bots._native.LearnedModel`` of the same model, built once."""
        if self._native is None:
            from bots import native_engine

            module = native_engine.require()
            self._native = module.LearnedModel(json.dumps(self.metadata), self.arrays)
        return self._native
