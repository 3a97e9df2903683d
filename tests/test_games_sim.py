"""OpenSpiel-level checks of the custom games: simulation, serialization,
observations, the fast-path position against its pyspiel wrapper, evaluators.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pyspiel
import pytest

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


@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test_with_serialization(spec):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def _random_playout(game, rng):
    """Yields (state, position) pairs along one random game."""
    state = game.new_initial_state()
    pos = state.search_position()
    while True:
        yield state, pos
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        pos = pos.child(action)


@pytest.mark.parametrize("spec", SPECS)
def test_position_agrees_with_wrapped_state(spec):
    game = pyspiel.load_game(spec)
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
def test_serialization_clone_pickle_keep_equality(spec):
    game = pyspiel.load_game(spec)
    rng = random.Random(1)
    for state, pos in _random_playout(game, rng):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
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


def test_clone_is_independent():
    game = pyspiel.load_game("dice(n=3,k=3)")
    state = game.new_initial_state()
    state.apply_action(1)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.is_player_node() and clone.is_chance_node()


@pytest.mark.parametrize("spec", SPECS)
def test_observations_and_action_strings(spec):
    game = pyspiel.load_game(spec)
    shape = game.observation_tensor_shape()
    rng = random.Random(2)
    for state, _ in _random_playout(game, rng):
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


def test_observation_tensor_contents_dice():
    game = pyspiel.load_game("dice(n=3,k=3)")
    state = game.new_initial_state()
    state.apply_action(2)  # x rolls column 2
    state.apply_action(5)  # x at (1, 2)
    obs = np.asarray(state.observation_tensor(0))
    board = obs[:27].reshape(3, 3, 3)
    assert board[1, 1, 2] == 1 and board[0, 1, 2] == 0
    assert board[0].sum() == 8
    assert list(obs[27:29]) == [0, 1]  # o to roll next


def test_equal_positions_from_different_move_orders():
    game = pyspiel.load_game("dice(n=4,k=3)")
    s1 = game.new_initial_state()
    # (roll, cell) pairs: x col 0 -> cell 0, o row 1 -> 5, x col 3 -> 15, ...
    for a in (0, 0, 1, 5, 3, 15, 3, 13):
        s1.apply_action(a)
    s2 = game.new_initial_state()
    for a in (3, 15, 3, 13, 0, 0, 1, 5):
        s2.apply_action(a)
    p1, p2 = s1.search_position(), s2.search_position()
    assert s1.history() != s2.history()
    assert p1 == p2 and hash(p1) == hash(p2)
    assert len({p1, p2}) == 1
    ttt = pyspiel.load_game("chance_tic_tac_toe")
    a, b = ttt.new_initial_state(), ttt.new_initial_state()
    for x in (0, 9, 4, 9, 8):
        a.apply_action(x)
    for x in (8, 9, 4, 9, 0):
        b.apply_action(x)
    assert a.search_position() == b.search_position()


def test_positions_of_different_games_differ():
    p1 = pyspiel.load_game("dice(n=4,k=3)").new_initial_state()
    p2 = pyspiel.load_game("dice(n=4,k=4)").new_initial_state()
    assert p1.search_position() != p2.search_position()
    p3 = pyspiel.load_game("dice(n=4,k=3)").new_initial_state()
    assert p1.search_position() == p3.search_position()


def test_illegal_action_is_refused():
    game = pyspiel.load_game("dice(n=3,k=3)")
    state = game.new_initial_state()
    state.apply_action(0)  # column 0: cells 0, 3, 6
    with pytest.raises(Exception, match="illegal action 1"):
        state.apply_action(1)


@pytest.mark.parametrize("spec", SPECS)
def test_games_register_their_evaluators(spec):
    game = pyspiel.load_game(spec)
    assert {"dice", "ballard_tree", "chance_tic_tac_toe"} <= set(EVALUATORS)
    ev = EVALUATORS[game.get_type().short_name](game)
    assert ev.accepts_positions is True
    lo, hi = ev.bounds
    rng = random.Random(3)
    for _ in range(5):
        for state, pos in _random_playout(game, rng):
            values = ev.evaluate(pos)
            assert list(ev.evaluate(state)) == list(values)
            assert len(values) == 2 and values[0] == -values[1]
            for p in range(2):
                plo, phi = ev.player_bounds(p)
                assert lo <= plo <= values[p] <= phi <= hi
            if pos.is_terminal():
                assert list(values) == list(pos.returns())
            else:
                prior = ev.prior(state)
                assert sum(p for _, p in prior) == pytest.approx(1.0)
                assert [a for a, _ in prior] == state.legal_actions()


def test_evaluator_prefers_the_better_side():
    game = pyspiel.load_game("dice(n=5,k=4)")
    ev = EVALUATORS["dice"](game)
    rules = game.rules
    pos = games.dice.DicePosition.from_board(rules, "xxx.. ..... ..... ..o.. .....", -1, 1)
    assert ev.evaluate(pos)[0] > 0
    ttt = games.chance_tic_tac_toe.ChanceTTTPosition.from_board("o.. .o. ...", 0)
    assert EVALUATORS["chance_tic_tac_toe"](None).evaluate(ttt)[0] < 0


def test_measure_speed_runs():
    res = measure_speed(specs=("dice(n=3,k=3)",), seconds=0.01, num_positions=1, verbose=False)
    assert res["dice(n=3,k=3)"]["position_nodes_per_s"] > 0
    assert res["pig"]["state_nodes_per_s"] > 0
