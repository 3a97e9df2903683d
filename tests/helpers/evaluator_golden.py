"""The golden evaluator values (evaluator_golden_values.json) and the states they were taken
on: the Python evaluators and their native twins are both checked against them."""

from __future__ import annotations

import json
import pathlib
import random

import pyspiel

from helpers.playouts import random_action

# {game spec: [[evaluator name, [values per state]], ...]}
GOLDEN = json.loads(
    (pathlib.Path(__file__).parents[1] / "data" / "evaluator_golden_values.json").read_text()
)
# The states of each game: seeded random playouts, 12 states, seed 2024.
STATES, SEED = 12, 2024


def golden_states(game: pyspiel.Game, n: int = STATES, seed: int = SEED) -> list[pyspiel.State]:
    """States along seeded random playouts: about one in seven, plus each terminal."""
    rng = random.Random(seed)
    out: list[pyspiel.State] = []
    while len(out) < n:
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(random_action(s, rng))
            if rng.random() < 0.15:
                out.append(s.clone())
            if len(out) >= n:
                break
        out.append(s.clone())
    return out[:n]
