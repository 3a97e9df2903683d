"""Evaluator values are part of every published node count: they must not change.

`evaluator_golden_values.json` holds the values of the default, "zero" and
"rollout(n=2,seed=5)" evaluators on seeded random states of every game in
scope. Moving or restructuring evaluator code must reproduce them exactly;
regenerate the file only for a deliberate, documented change of a heuristic
(and of the node counts).
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.evaluator_golden import GOLDEN, golden_states

import games  # noqa: F401 - registers the custom games
from bots.evaluators import make_evaluator

pytestmark = pytest.mark.parity  # engine parity and golden values: every supported Python

# Rollouts over long games are too slow to record; their golden entries omit them.
NO_ROLLOUT = ("backgammon", "2048", "yacht", "maedn", "banqi")


@pytest.mark.parametrize("spec", sorted(GOLDEN))
def test_evaluator_values_unchanged(spec):
    game = pyspiel.load_game(spec)
    states = golden_states(game)
    expected = {name: values for name, values in GOLDEN[spec]}
    names = ["default", "zero"] + ([] if spec.startswith(NO_ROLLOUT) else ["rollout(n=2,seed=5)"])
    assert sorted(expected) == sorted(names)
    for name in names:
        evaluator = make_evaluator(name, game)
        got = [float(x) for s in states for x in evaluator.evaluate(s)]
        want = [x for values in expected[name] for x in values]
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (spec, name)
