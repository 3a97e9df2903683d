"""`python -m experiments.benchmark.learned_speed`: what one leaf of a learned evaluator
costs, in microseconds, on both engines.

Two networks of the sizes the issue names, with seeded random weights in the model file
format (bots/learned/): a backgammon MLP 200-80-1 over the observation, and a 2048
n-tuple network of 17 4-tuples read in their 8 dihedral placements (136 lookups). On
seeded non-terminal states it prints, best of 5 runs in CPU time (``time.process_time``
and C++ ``std::clock``):

* ``native``: the engine's leaf, ``NonTerminalValue(state, 0)``, timed in a C++ loop
  (``bots._native.LearnedModel.leaf_seconds``), as the native search calls it;
* ``native via Python``: ``LearnedModel.value(state, 0)`` called from Python (the same
  plus pybind11's call and the game check);
* ``python``: the Python engine's leaf, ``LearnedEvaluator.player_value(state, 0)``;
* the floor of each engine: reading ``observation_tensor(0)`` alone, which every
  encoding starts with.

The native goal (issue 79) is 5 us or less for the backgammon network.
"""

from __future__ import annotations

import json
import math
import os
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from bots import native_engine
from bots.evaluators.learned import LearnedEvaluator
from bots.learned import make_metadata
from experiments.benchmark.evaluator_speed import playout_states
from experiments.common import flags

FLAGS, _define = flags.program_flags()
_define.integer("states", 500, "Seeded non-terminal states per game.", lower_bound=1)
_define.integer(
    "calls", 20_000, "Calls per timed run (whole passes over the states).", lower_bound=1
)
_define.integer("seed", 0, "Seed of the states and the weights.", lower_bound=0)
_define.integer("hidden", 80, "Hidden units of the backgammon MLP.", lower_bound=1)
_define.integer("tuples", 17, "4-tuples of the 2048 n-tuple network.", lower_bound=1)

QUANTISATION = {"input_shift": 6, "weight_shift": 8, "activation_shift": 7}
TRAINING = {"command": "benchmark", "games": 0, "seconds": 0.0, "seed": 0, "workers": 1}


def random_mlp(game: pyspiel.Game, hidden: int, seed: int) -> tuple[dict, dict[str, np.ndarray]]:
    """A zero-sum MLP observation-hidden-1 with random weights, quantised as the spec says."""
    rng = np.random.default_rng(seed)
    ins, ws, act = (QUANTISATION[k] for k in ("input_shift", "weight_shift", "activation_shift"))
    sizes = [game.observation_tensor_size(), hidden, 1]
    arrays = {}
    for n in range(2):
        w = rng.normal(0.0, 1.0 / math.sqrt(sizes[n]), size=(sizes[n], sizes[n + 1]))
        b = rng.normal(0.1, 0.2, size=sizes[n + 1])
        arrays[f"w{n}"] = np.clip(np.rint(w * 2.0**ws), -32767, 32767).astype(np.int16)
        arrays[f"b{n}"] = np.rint(b * 2.0 ** ((ins if n == 0 else act) + ws)).astype(np.int64)
    quantisation = {**QUANTISATION, "output_shift": act + ws}
    metadata = make_metadata(
        game,
        "mlp",
        "observation",
        {"hidden": [hidden]},
        quantisation,
        "zero_sum",
        training=TRAINING,
    )
    return metadata, arrays


def _dihedral(cell: int, k: int) -> int:
    r, c = divmod(cell, 4)
    for _ in range(k % 4):
        r, c = c, 3 - r
    return r * 4 + (3 - c if k >= 4 else c)


def _random_tuple(rng: random.Random) -> list[int]:
    """Four connected cells of the 4x4 board (a random walk that does not revisit)."""
    while True:
        cells = [rng.randrange(16)]
        while len(cells) < 4:
            r, c = divmod(rng.choice(cells), 4)
            dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
            if 0 <= r + dr < 4 and 0 <= c + dc < 4 and (r + dr) * 4 + c + dc not in cells:
                cells.append((r + dr) * 4 + c + dc)
        return cells


def random_ntuple(game: pyspiel.Game, tuples: int, seed: int) -> tuple[dict, dict[str, np.ndarray]]:
    """A one-player n-tuple network over log2 cells (16 values): ``tuples`` random 4-tuples,
    each table read by its 8 dihedral placements."""
    rng = random.Random(seed)
    shapes = [_random_tuple(rng) for _ in range(tuples)]
    values, output_shift = 16, 8
    size = values**4
    luts = np.random.default_rng(seed).normal(8.0, 1.0, size=size * tuples)
    arrays = {
        "luts": np.rint(luts * 2.0**output_shift).astype(np.int32),
        "lut_offsets": np.arange(tuples + 1, dtype=np.int64) * size,
        "placements": np.array(
            [[_dihedral(c, k) for c in t] for t in shapes for k in range(8)], dtype=np.int32
        ),
        "placement_tables": np.repeat(np.arange(tuples, dtype=np.int32), 8),
    }
    architecture = {"values": values, "cells": 16, "tuples": shapes, "symmetries": "dihedral"}
    metadata = make_metadata(
        game,
        "ntuple",
        "log2_cells",
        architecture,
        {"output_shift": output_shift},
        "one_player",
        training=TRAINING,
    )
    return metadata, arrays


def _best_of_5(run: Callable[[], float]) -> float:
    return min(run() for _ in range(5))


def _python_us(fn: Callable[[Any], Any], states: Sequence[Any], passes: int) -> float:
    def run() -> float:
        start = time.process_time()
        for _ in range(passes):
            for s in states:
                fn(s)
        return time.process_time() - start

    return _best_of_5(run) / (passes * len(states)) * 1e6


def _python_evaluator(
    game: pyspiel.Game, metadata: dict, arrays: dict, folder: str
) -> LearnedEvaluator:
    """The Python engine's learned evaluator of this model (saved in `folder`)."""
    path = os.path.join(folder, f"{game.get_type().short_name}.npz")
    np.savez_compressed(path, metadata=np.array(json.dumps(metadata)), **arrays)
    return LearnedEvaluator(game, path)


def measure(name: str, game: pyspiel.Game, model: tuple[dict, dict], folder: str) -> list[str]:
    """One line per engine: leaf and floor in us."""
    metadata, arrays = model
    module = native_engine.require()
    native = module.LearnedModel(json.dumps(metadata), arrays)
    states = playout_states(game, FLAGS.states, FLAGS.seed)
    passes = max(1, FLAGS.calls // len(states))
    calls = passes * len(states)
    leaf = _best_of_5(lambda: native.leaf_seconds(states, passes)[0]) / calls * 1e6
    floor = _best_of_5(lambda: native.leaf_seconds(states, passes, True)[0]) / calls * 1e6
    via_python = _python_us(lambda s: native.value(s, 0), states, passes)
    python_floor = _python_us(lambda s: s.observation_tensor(0), states, passes)
    evaluator = _python_evaluator(game, metadata, arrays, folder)
    python_passes = max(1, passes // 20)  # the Python leaf is slower: fewer calls
    python = f"{_python_us(lambda s: evaluator.player_value(s, 0), states, python_passes):.2f}"
    return [
        f"{name:34s} {'native':18s} {leaf:9.2f} {floor:9.2f}",
        f"{'':34s} {'native via Python':18s} {via_python:9.2f} {'':9s}",
        f"{'':34s} {'python':18s} {python:>9s} {python_floor:9.2f}",
    ]


def main(argv: list[str]) -> None:
    del argv
    backgammon = pyspiel.load_game("backgammon")
    game_2048 = pyspiel.load_game("2048")
    models = [
        (
            f"backgammon mlp 200-{FLAGS.hidden}-1",
            backgammon,
            random_mlp(backgammon, FLAGS.hidden, FLAGS.seed),
        ),
        (
            f"2048 ntuple {FLAGS.tuples}x4 x 8 symmetries",
            game_2048,
            random_ntuple(game_2048, FLAGS.tuples, FLAGS.seed),
        ),
    ]
    print(f"{'model':34s} {'engine':18s} {'leaf us':>9s} {'floor us':>9s}")
    with tempfile.TemporaryDirectory() as folder:
        for name, game, model in models:
            for line in measure(name, game, model, folder):
                print(line, flush=True)
    print(
        "leaf: one value of a non-terminal state; floor: observation_tensor(0) alone; "
        "CPU time, best of 5"
    )


if __name__ == "__main__":
    flags.run(main, FLAGS)
