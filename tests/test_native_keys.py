"""The native engine keys states exactly as bots/keys.py does.

Two states must share a native key exactly when their Python keys are equal: a key
that merges more would break exactness, one that merges less would change node
counts. Games whose native key is read from the state's fields (pig, einstein) are
checked against the Python key over many states, transpositions included.
"""

from __future__ import annotations

import random

import pyspiel
import pytest
from helpers.playouts import random_action

import games  # noqa: F401  (registers the custom games)
from bots import native_engine
from bots.adapters import default_key_function

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=str(native_engine.problem())
)

GAMES = [
    "dice",
    "dice(n=4,k=3)",
    "ballard_tree(n=4,plies=3,order=random,seed=3)",
    "pig",
    "pig(winscore=20,diceoutcomes=3)",
    "pig(players=3,winscore=15)",
    "einstein_wurfelt_nicht",
    "backgammon",
    "catch",
]


def _states(game: pyspiel.Game, seed: int, walks: int) -> list[pyspiel.State]:
    """States along random walks and their children two plies deep: transpositions
    (the same position by another order of moves) come up often."""
    rng = random.Random(seed)
    found = []
    for _ in range(walks):
        state = game.new_initial_state()
        while not state.is_terminal() and rng.random() > 0.03:
            found.append(state.clone())
            for action in state.legal_actions()[:6]:
                child = state.child(action)
                found.append(child)
                if not child.is_terminal():
                    found.extend(child.child(a) for a in child.legal_actions()[:6])
            state.apply_action(random_action(state, rng))
    return [s for s in found if not s.is_terminal()]


@pytest.mark.parametrize("spec", GAMES)
def test_native_keys_partition_states_as_the_python_keys_do(spec):
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    python_key = default_key_function(game)
    to_native: dict = {}
    to_python: dict = {}
    merged = 0
    for state in _states(game, seed=7, walks=20 if spec != "backgammon" else 3):
        key = python_key(state)
        native = module.state_key(state)
        assert to_native.setdefault(key, native) == native, (spec, str(state))
        if to_python.setdefault(native, key) != key:
            pytest.fail(f"{spec}: two different Python keys share a native key: {key!r}")
        merged += 1
    assert len(to_native) < merged, "no transposition was sampled: the test proves nothing"


@pytest.mark.parametrize(
    "spec",
    ["pig", "einstein_wurfelt_nicht", "backgammon", "catch", "dice", "ballard_tree(n=3,plies=3)"],
)
def test_field_keys_equal_text_keys_partition(spec):
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    pairs = {}
    for state in _states(game, seed=3, walks=10):
        fields, text = module.state_key(state), module.state_key(state, from_fields=False)
        assert pairs.setdefault(fields, text) == text
    assert len(set(pairs.values())) == len(pairs)
