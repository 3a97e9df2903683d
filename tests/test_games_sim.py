"""OpenSpiel-level checks of the custom games: simulation, serialization,
observations, the fast-path position against its pyspiel wrapper, evaluators.

Positions, rules and pickling are the Python game's (built directly with
``games.python_game``); public-API checks also run on the registered game,
the C++ twin where the native engine is loaded.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pyspiel
import pytest
from helpers.playouts import random_action

import games
from bots.evaluators import EVALUATORS
from experiments.benchmark.game_speed import measure_speed

SPECS = [
    "dice(n=5,k=4)",
    "dice(n=3,k=3)",
    "dice(n=4,k=2)",
    "dice(n=2,k=1)",
    "dice(n=6,k=5)",
    "ballard_tree(n=4,plies=2)",
    "ballard_tree(n=3,plies=3,order=random,seed=7)",
    "ballard_tree(n=2,plies=2,final_chance=true,order=random,seed=1)",
    "ballard_tree(n=5,plies=1)",
    "chance_tic_tac_toe",
]


# "registered": what pyspiel.load_game builds (the C++ twin where the native
# engine is loaded); "python": the Python game, built directly. Tests of the
# rules through the public pyspiel API run on both.
IMPLS = ["registered", "python"]


def _load(spec, impl):
    return pyspiel.load_game(spec) if impl == "registered" else games.python_game(spec)


@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test_with_serialization(spec):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test_of_the_python_game(spec):
    # Deserialization goes through the registry (possibly the C++ twin), so the
    # Python game's serialization is checked in the round-trip test below.
    game = games.python_game(spec)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def _random_states(game, rng):
    """Yields the states along one random game (public pyspiel API only)."""
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply_action(random_action(state, rng))


def _random_playout(game, rng):
    """Yields (state, position) pairs along one random game of a Python game."""
    pos = None
    for state in _random_states(game, rng):
        pos = state.search_position() if pos is None else pos.child(state.history()[-1])
        yield state, pos


@pytest.mark.parametrize("spec", SPECS)
def test_position_agrees_with_wrapped_state(spec):
    game = games.python_game(spec)
    rng = random.Random(0)
    for _ in range(10):
        for state, pos in _random_playout(game, rng):
            assert state.search_position() == pos
            assert hash(state.search_position()) == hash(pos)
            assert state.current_player() == pos.current_player()
            assert state.is_terminal() == pos.is_terminal()
            assert state.is_chance_node() == pos.is_chance_node()
            assert state.returns() == list(pos.returns())
            assert state.legal_actions() == list(pos.legal_actions())
            if pos.is_chance_node():
                assert state.chance_outcomes() == list(pos.chance_outcomes())
                assert sum(p for _, p in pos.chance_outcomes()) == (pytest.approx(1.0))
                assert [a for a, _ in pos.chance_outcomes()] == list(pos.legal_actions())
            # Position methods never mutate: the parent is unchanged.
            before = tuple(pos)
            for a in pos.legal_actions():
                pos.child(a)
            assert tuple(pos) == before
        assert pos.is_terminal()
        lo, hi = game.min_utility(), game.max_utility()
        assert all(lo <= r <= hi for r in pos.returns())
        assert sum(pos.returns()) == 0


@pytest.mark.parametrize("spec", SPECS)
def test_serialization_and_clone_round_trip(spec):
    """The registered game: serialized, deserialized and cloned states are the same."""
    game = pyspiel.load_game(spec)
    rng = random.Random(1)
    for state in _random_states(game, rng):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.history() == state.history()
        assert str(state2) == str(state)
        assert state2.returns() == state.returns()
        assert state2.legal_actions() == state.legal_actions()
        clone = state.clone()
        assert clone.history() == state.history()
        assert str(clone) == str(state)


@pytest.mark.parametrize("spec", SPECS)
def test_python_serialization_clone_pickle_keep_equality(spec):
    game = games.python_game(spec)
    rng = random.Random(1)
    for state, pos in _random_playout(game, rng):
        assert f"[Game]\n{game}\n" in pyspiel.serialize_game_and_state(game, state)
        state2 = game.deserialize_state(state.serialize())
        assert state2.search_position() == pos
        assert state2.history() == state.history()
        assert str(state2) == str(state)
        clone = state.clone()
        assert clone.search_position() == pos
        assert clone.history() == state.history()
        for other in (pickle.loads(pickle.dumps(pos)), copy.deepcopy(pos), copy.copy(pos)):
            assert other == pos and hash(other) == hash(pos)
        # to_state() rebuilds a full state for the same position.
        assert pos.to_state().search_position() == pos


@pytest.mark.parametrize("impl", IMPLS)
def test_clone_is_independent(impl):
    game = _load("dice(n=3,k=3)", impl)
    state = game.new_initial_state()
    state.apply_action(1)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.is_player_node() and clone.is_chance_node()


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("spec", SPECS)
def test_observations_and_action_strings(spec, impl):
    game = _load(spec, impl)
    shape = game.observation_tensor_shape()
    rng = random.Random(2)
    for state in _random_states(game, rng):
        for player in range(2):
            obs = np.asarray(state.observation_tensor(player))
            assert obs.shape == (int(np.prod(shape)),)
            assert set(np.unique(obs)) <= {0.0, 1.0}
            assert isinstance(state.observation_string(player), str)
            assert isinstance(state.information_state_string(player), str)
        if not state.is_terminal():
            player = state.current_player()
            strings = [state.action_to_string(player, a) for a in state.legal_actions()]
            assert all(strings) and len(set(strings)) == len(strings)


@pytest.mark.parametrize("impl", IMPLS)
def test_observation_tensor_contents_dice(impl):
    game = _load("dice(n=3,k=3)", impl)
    state = game.new_initial_state()
    state.apply_action(2)  # x rolls column 2
    state.apply_action(5)  # x at (1, 2)
    obs = np.asarray(state.observation_tensor(0))
    board = obs[:27].reshape(3, 3, 3)
    assert board[1, 1, 2] == 1 and board[0, 1, 2] == 0
    assert board[0].sum() == 8
    assert list(obs[27:29]) == [0, 1]  # o to roll next


# (roll, cell) pairs: x col 0 -> cell 0, o row 1 -> 5, x col 3 -> 15, ...
_DICE_ORDERS = ((0, 0, 1, 5, 3, 15, 3, 13), (3, 15, 3, 13, 0, 0, 1, 5))
_TTT_ORDERS = ((0, 9, 4, 9, 8), (8, 9, 4, 9, 0))


def _play(game, actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def test_equal_positions_from_different_move_orders():
    game = games.python_game("dice(n=4,k=3)")
    s1, s2 = (_play(game, order) for order in _DICE_ORDERS)
    p1, p2 = s1.search_position(), s2.search_position()
    assert s1.history() != s2.history()
    assert p1 == p2 and hash(p1) == hash(p2)
    assert len({p1, p2}) == 1
    ttt = games.python_game("chance_tic_tac_toe")
    a, b = (_play(ttt, order) for order in _TTT_ORDERS)
    assert a.search_position() == b.search_position()


def test_registered_games_print_transpositions_alike():
    s1, s2 = (_play(pyspiel.load_game("dice(n=4,k=3)"), order) for order in _DICE_ORDERS)
    assert s1.history() != s2.history()
    assert str(s1) == str(s2) and s1.legal_actions() == s2.legal_actions()
    a, b = (_play(pyspiel.load_game("chance_tic_tac_toe"), order) for order in _TTT_ORDERS)
    assert str(a) == str(b) and a.chance_outcomes() == b.chance_outcomes()


def test_positions_of_different_games_differ():
    p1 = games.python_game("dice(n=4,k=3)").new_initial_state()
    p2 = games.python_game("dice(n=4,k=4)").new_initial_state()
    assert p1.search_position() != p2.search_position()
    p3 = games.python_game("dice(n=4,k=3)").new_initial_state()
    assert p1.search_position() == p3.search_position()


@pytest.mark.parametrize("impl", IMPLS)
def test_illegal_action_is_refused(impl):
    game = _load("dice(n=3,k=3)", impl)
    state = game.new_initial_state()
    state.apply_action(0)  # column 0: cells 0, 3, 6
    with pytest.raises(Exception, match="illegal action 1"):
        state.apply_action(1)


@pytest.mark.parametrize("spec", SPECS)
def test_custom_game_evaluators_agree_on_either_twin(spec):
    game = games.python_game(spec)
    registered = pyspiel.load_game(spec)
    name = games.plain_name(game.get_type().short_name)
    assert {"dice", "ballard_tree", "chance_tic_tac_toe"} <= set(EVALUATORS)
    ev = EVALUATORS[name](game)
    # The evaluator of the registered game (either twin) gives the same values.
    ev_registered = EVALUATORS[name](registered)
    assert ev.accepts_positions is True
    assert ev_registered.bounds == ev.bounds
    lo, hi = ev.bounds
    rng = random.Random(3)
    for _ in range(5):
        for state, pos in _random_playout(game, rng):
            values = ev.evaluate(pos)
            assert list(ev.evaluate(state)) == list(values)
            twin = _play(registered, state.history())
            assert list(ev_registered.evaluate(twin)) == list(values)
            assert len(values) == 2 and values[0] == -values[1]
            for p in range(2):
                plo, phi = ev.player_bounds(p)
                assert lo <= plo <= values[p] <= phi <= hi
                assert ev_registered.player_bounds(p) == (plo, phi)
            if pos.is_terminal():
                assert list(values) == list(pos.returns())
            else:
                prior = ev.prior(state)
                assert sum(p for _, p in prior) == pytest.approx(1.0)
                assert [a for a, _ in prior] == state.legal_actions()
                assert ev_registered.prior(twin) == prior


def test_evaluator_prefers_the_better_side():
    game = games.python_game("dice(n=5,k=4)")
    ev = EVALUATORS["dice"](game)
    rules = game.rules
    pos = games.dice.DicePosition.from_board(rules, "xxx.. ..... ..... ..o.. .....", -1, 1)
    assert ev.evaluate(pos)[0] > 0
    ttt = games.chance_tic_tac_toe.ChanceTTTPosition.from_board("o.. .o. ...", 0)
    ttt_game = games.python_game("chance_tic_tac_toe")
    assert EVALUATORS["chance_tic_tac_toe"](ttt_game).evaluate(ttt)[0] < 0


def test_measure_speed_reports_each_game_against_the_reference():
    res = measure_speed(specs=("dice(n=3,k=3)",), seconds=0.01, num_positions=1, verbose=False)
    assert set(res) == {"pig", "dice(n=3,k=3)"}
    dice, pig = res["dice(n=3,k=3)"], res["pig"]
    assert dice["ratio_to_reference"] == dice["position_nodes_per_s"] / pig["state_nodes_per_s"]
    # The C++ twin is measured exactly where the native engine registered one.
    assert (dice["twin_nodes_per_s"] is None) is not games.native_twins()
