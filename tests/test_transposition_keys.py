"""Transposition keys must determine the game: equal keys, equal futures.

Games without a checked string key are keyed by a 127-bit digest of their
history (bots/keys.py); the digests are checked here the same way.

A key that merges two different states silently corrupts exactness (the state
strings of einstein_wurfelt_nicht, yacht, maedn and banqi omit parts of the
state, and 2048 has hidden merge flags), so every string-based key is checked
here on whole search trees, where such collisions actually happen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pyspiel
import pytest
from helpers.playouts import random_action

from bots.adapters import KEY_FUNCTIONS, default_key_function
from bots.keys import (
    DIGEST_MODULUS,
    HistoryDigestNode,
    custom_game_key,
    digest_key,
    history_digest,
)


def _signature(state, key):
    """Everything the search reads at a node, with children named by key."""
    if state.is_terminal():
        return ("terminal", tuple(state.returns()))
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return (
            "chance",
            tuple(outcomes),
            tuple(key(state.child(action)) for action, _ in outcomes),
        )
    actions = state.legal_actions()
    return (
        state.current_player(),
        tuple(actions),
        tuple(key(state.child(action)) for action in actions),
    )


def _nodes_near_random_states(
    game: pyspiel.Game, rng: random.Random, positions: int, max_plies: int, depth: int
) -> Iterator[pyspiel.State]:
    """Every node up to ``depth`` decisions below each of ``positions`` states reached by
    seeded random play (up to ``max_plies`` steps, drawn per state)."""
    for _ in range(positions):
        state = game.new_initial_state()
        for _ in range(rng.randint(0, max_plies)):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
        stack = [(state, depth)]
        while stack:
            node, remaining = stack.pop()
            yield node
            if node.is_terminal() or remaining == 0:
                continue
            if node.is_chance_node():
                stack.extend((node.child(a), remaining) for a, _ in node.chance_outcomes())
            else:
                stack.extend((node.child(a), remaining - 1) for a in node.legal_actions())


def _collisions(game_string: str, positions: int, depth: int, seed: int = 0, key=None) -> list:
    game = pyspiel.load_game(game_string)
    key = key or default_key_function(game)
    seen: dict = {}
    collisions = []
    for node in _nodes_near_random_states(game, random.Random(seed), positions, 40, depth):
        signature = _signature(node, key)
        if seen.setdefault(key(node), signature) != signature:
            collisions.append(node.history())
    return collisions


@pytest.mark.parametrize(
    "game_string, positions, depth",
    [
        ("pig", 20, 3),
        ("backgammon", 4, 1),
        ("einstein_wurfelt_nicht", 20, 1),
        ("catch", 10, 3),
    ],
)
def test_string_keys_do_not_merge_different_states(game_string, positions, depth):
    assert game_string.split("(")[0] in KEY_FUNCTIONS
    assert _collisions(game_string, positions, depth) == []


def test_other_games_use_history_keys():
    for name in ("2048", "yacht", "maedn", "banqi"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        assert default_key_function(game)(state) == tuple(state.history())


def test_a_plain_string_key_would_be_unsound_for_einstein():
    """Guards the reason for the special key: the board string omits the die."""
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 3:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])  # a move; the next die roll follows
    chance = state.clone()
    assert chance.is_chance_node()
    children = [chance.child(action) for action, _ in chance.chance_outcomes()]
    strings = {str(child) for child in children}
    keys = {KEY_FUNCTIONS["einstein_wurfelt_nicht"](child) for child in children}
    assert len(strings) == 1 and len(keys) == len(children)


@pytest.mark.parametrize(
    "game_string, positions, depth",
    [("2048", 6, 2), ("yacht", 2, 0), ("maedn", 10, 2), ("banqi", 6, 1)],
)
def test_history_digests_do_not_merge_different_states(game_string, positions, depth):
    assert game_string not in KEY_FUNCTIONS
    assert (
        _collisions(game_string, positions, depth, key=lambda s: history_digest(s.history())) == []
    )


@pytest.mark.parametrize("game_string", ["2048", "maedn", "banqi"])
def test_digest_kept_along_the_path_equals_the_digest_of_the_history(game_string):
    game = pyspiel.load_game(game_string)
    rng = random.Random(1)
    node = HistoryDigestNode.root(game.new_initial_state())
    for _ in range(60):
        if node.state.is_terminal():
            break
        node = node.child(random_action(node.state, rng))
        assert node.digest == history_digest(node.state.history())
        assert digest_key(node) == node.digest


def test_digests_tell_apart_histories_a_plain_hash_might_merge():
    # Action 0 must count (the +1), and order and length must matter.
    histories = [(), (0,), (0, 0), (1,), (0, 1), (1, 0), (2, 0), (0, 2)]
    assert len({history_digest(h) for h in histories}) == len(histories)
    assert all(0 <= history_digest(h) < DIGEST_MODULUS for h in histories)


# The custom games of games/: the registry's game is the C++ twin where the native
# engine is built (keyed by custom_game_key), else the Python game (its positions are
# their own keys in the engine, and custom_game_key keys its states the same way).
CUSTOM_GAMES = [
    ("dice(n=4,k=3)", 20, 3),
    ("dice(n=3,k=2)", 20, 3),
    pytest.param("chance_tic_tac_toe", 10, 3, marks=pytest.mark.slow),
    ("ballard_tree(n=3,plies=3,order=random,seed=5,final_chance=true)", 3, 6),
    ("ballard_tree(n=4,plies=2)", 3, 3),
]


@pytest.mark.parametrize("game_string, positions, depth", CUSTOM_GAMES)
def test_custom_game_keys_do_not_merge_different_states(game_string, positions, depth):
    import games  # noqa: F401, PLC0415 - registers the games (C++ twins where built)

    assert KEY_FUNCTIONS[game_string.split("(")[0]] is custom_game_key
    assert _collisions(game_string, positions, depth) == []


@pytest.mark.parametrize("game_string, positions, depth", CUSTOM_GAMES)
def test_custom_game_keys_equal_exactly_when_positions_do(game_string, positions, depth):
    """The table merges what the Python engine's position keys merge, no more, no less.

    Checked on the Python game (instantiated directly), whose strings
    tests/test_native_games.py shows equal to the C++ twin's at every step.
    """
    import games  # noqa: PLC0415

    name = game_string.split("(")[0]
    python_game = {
        "dice": games.dice.DiceGame,
        "chance_tic_tac_toe": games.chance_tic_tac_toe.ChanceTTTGame,
        "ballard_tree": games.ballard_tree.BallardGame,
    }[name]
    params = {k: v for k, v in pyspiel.game_parameters_from_string(game_string).items()}
    params.pop("name")
    game = python_game(params)
    by_key: dict = {}
    by_position: dict = {}
    plies = 1 if name == "ballard_tree" else 12
    for node in _nodes_near_random_states(game, random.Random(3), positions, plies, depth):
        key, position = custom_game_key(node), node.search_position()
        assert by_key.setdefault(key, position) == position
        assert by_position.setdefault(position, key) == key
    assert len(by_key) == len(by_position) > 10
