"""Evaluator values are part of every published node count: they must not change.

`evaluator_golden_values.json` holds the values of the default, "zero" and
"rollout(n=2,seed=5)" evaluators on seeded random states of every game in
scope, recorded before bots/evaluators.py became a package. Regenerate it only
for a deliberate, documented change of a heuristic (and of the node counts).
"""

from __future__ import annotations

import json
import pathlib
import random

import pyspiel
import pytest

import games  # noqa: F401 - registers the custom games
from bots.evaluators import make_evaluator

GOLDEN = json.loads((pathlib.Path(__file__).parent / "evaluator_golden_values.json").read_text())
# Rollouts over long games are too slow to record; their golden entries omit them.
NO_ROLLOUT = ("backgammon", "2048", "yacht", "maedn", "banqi")


def _states(game: pyspiel.Game, n: int, seed: int) -> list[pyspiel.State]:
    """States along seeded random playouts: about one in seven, plus each terminal."""
    rng = random.Random(seed)
    out: list[pyspiel.State] = []
    while len(out) < n:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            if rng.random() < 0.15:
                out.append(s.clone())
            if len(out) >= n:
                break
        out.append(s.clone())
    return out[:n]


@pytest.mark.parametrize("spec", sorted(GOLDEN))
def test_evaluator_values_unchanged(spec):
    game = pyspiel.load_game(spec)
    states = _states(game, 12, 2024)
    expected = {name: values for name, values in GOLDEN[spec]}
    names = ["default", "zero"] + ([] if spec.startswith(NO_ROLLOUT) else ["rollout(n=2,seed=5)"])
    assert sorted(expected) == sorted(names)
    for name in names:
        evaluator = make_evaluator(name, game)
        got = [float(x) for s in states for x in evaluator.evaluate(s)]
        want = [x for values in expected[name] for x in values]
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (spec, name)
