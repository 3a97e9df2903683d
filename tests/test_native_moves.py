"""The native engine's move generators (the games' adapters, bots/native/adapters/) against
OpenSpiel's own LegalActions(): the same list at every decision of random games of
backgammon (bar entries, doubles, bear-offs and passes included), EinStein, catch,
2048 and ballard_tree; EinStein's and 2048's moves applied by the engine against ApplyAction; and their
CurrentPlayer() (2048's end test) against OpenSpiel's. Skipped where the native engine is
not built."""

from __future__ import annotations

import random

import pyspiel
import pytest
from helpers.playouts import random_action

from bots import native_engine

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=str(native_engine.problem())
)


def _random_states(game: pyspiel.Game, games: int, seed: int):
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                yield state
            state.apply_action(random_action(state, rng))


@pytest.mark.parametrize("spec", ["backgammon", "backgammon(hyper_backgammon=true)"])
def test_backgammon_moves_are_openspiels(spec):
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    seen = {"pass": 0, "single": 0, "bar": 0, "bear_off": 0}
    for state in _random_states(game, games=12, seed=5):
        expected = state.legal_actions()
        assert module.fast_legal_actions(state) == expected, str(state)
        strings = [state.action_to_string(a) for a in expected]
        seen["pass"] += any("Pass" in s for s in strings)
        seen["single"] += len(expected) and all(s.count("/") == 1 for s in strings)
        seen["bar"] += any("Bar" in s for s in strings)
        seen["bear_off"] += any("Off" in s for s in strings)
    # The awkward rules were all exercised.
    assert all(count > 0 for count in seen.values()), seen


def test_einstein_moves_are_openspiels():
    module = native_engine.require()
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    sizes = set()
    captures = 0
    for state in _random_states(game, games=60, seed=3):
        expected = state.legal_actions()
        assert module.fast_legal_actions(state) == expected, str(state)
        sizes.add(len(expected))
        captures += any(action % 2 for action in expected)
    # One cube or two (the die's cube gone), at the edge or not, and captures.
    assert {1, 2, 3, 4, 6} <= sizes and captures > 0, (sizes, captures)


@pytest.mark.parametrize("spec", ["catch", "catch(rows=5,columns=3)"])
def test_catch_moves_are_openspiels(spec):
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    decisions = 0
    for state in _random_states(game, games=10, seed=2):
        assert module.fast_legal_actions(state) == state.legal_actions(), str(state)
        decisions += 1
    assert decisions >= 10 * (game.get_parameters()["rows"] - 1)


def test_einstein_moves_applied_by_the_engine_are_openspiels():
    """The engine applies EinStein's moves and die rolls itself (field_undo.cc
    EinsteinApply): every field, the history and the move number equal ApplyAction's,
    after setups, rolls, captures and wins; and it tells the player to move itself."""
    module = native_engine.require()
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    rng = random.Random(11)
    checked = captures = wins = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert module.fast_current_player(state) == state.current_player(), str(state)
            assert module.fast_apply_mismatches(state) == [], str(state)
            if not state.is_chance_node():
                checked += len(state.legal_actions())
                captures += any(action % 2 for action in state.legal_actions())
                for action in state.legal_actions():
                    wins += state.child(action).is_terminal()
            state.apply_action(random_action(state, rng))
        assert module.fast_current_player(state) == pyspiel.PlayerId.TERMINAL
    assert checked > 1000 and captures > 0 and wins > 0, (checked, captures, wins)
    assert module.fast_apply_mismatches(pyspiel.load_game("pig").new_initial_state()) is None


@pytest.mark.parametrize("spec", ["2048", "2048(max_tile=64)"])
def test_2048_moves_and_ends_are_openspiels(spec):
    """2048's moves made, applied and its end told by the engine (its adapter,
    field_undo.cc Game2048Apply): the same move lists (merge flags of the last move
    included), every field, history and move number equal after ApplyAction, and the
    same player to move, at every state of random games, ends on a full board and on the
    target tile among them."""
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    rng = random.Random(5)
    decisions = full_boards = targets = 0
    for _ in range(6):
        state = game.new_initial_state()
        while True:
            assert module.fast_current_player(state) == state.current_player(), str(state)
            if state.is_terminal():
                values = [int(v) for v in str(state).split()]
                full_boards += 0 not in values
                targets += game.get_parameters()["max_tile"] in values
                break
            assert module.fast_apply_mismatches(state) == [], str(state)
            if state.is_chance_node():
                assert module.fast_legal_actions(state) is None
            else:
                assert module.fast_legal_actions(state) == state.legal_actions(), str(state)
                decisions += 1
            state.apply_action(random_action(state, rng))
    assert decisions > 200 and full_boards + targets == 6, (decisions, full_boards, targets)
    if spec == "2048":
        assert full_boards > 0
    else:
        assert targets > 0


def test_other_states_are_left_to_the_game():
    module = native_engine.require()
    for spec in ("backgammon", "einstein_wurfelt_nicht", "catch"):  # chance nodes
        assert module.fast_legal_actions(pyspiel.load_game(spec).new_initial_state()) is None
    assert module.fast_legal_actions(pyspiel.load_game("pig").new_initial_state()) is None
    assert module.fast_current_player(pyspiel.load_game("pig").new_initial_state()) is None
    finished = pyspiel.load_game("catch").new_initial_state()
    while not finished.is_terminal():
        finished.apply_action(0)
    assert module.fast_legal_actions(finished) is None


@pytest.mark.parametrize(
    "spec",
    [
        "ballard_tree(n=5,plies=3,order=random,seed=4,final_chance=True)",
        "ballard_tree(n=3,plies=4,order=best)",
    ],
)
def test_ballard_moves_players_and_undo_are_the_games(spec):
    """ballard_tree's player and moves told by the engine (its adapter) equal the
    game's own, and its UndoAction (which keeps each move's arc) gives back the state:
    at every node of random walks, chance and terminal nodes included."""
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    rng = random.Random(7)
    undone = 0
    for _ in range(30):
        state = game.new_initial_state()
        while True:
            assert module.fast_current_player(state) == state.current_player(), str(state)
            if state.is_terminal():
                assert module.fast_legal_actions(state) is None
                break
            if state.is_chance_node():
                assert module.fast_legal_actions(state) is None
                actions = [action for action, _ in state.chance_outcomes()]
            else:
                actions = state.legal_actions()
                assert module.fast_legal_actions(state) == actions, str(state)
            for action in actions:
                moved = state.clone()
                mover = moved.current_player()
                moved.apply_action(action)
                child = str(moved), moved.returns()
                moved.undo_action(mover, action)
                assert (str(moved), moved.history()) == (str(state), state.history())
                moved.apply_action(action)
                assert (str(moved), moved.returns()) == child
                undone += 1
            state.apply_action(rng.choice(actions))
    assert undone > 300, undone
