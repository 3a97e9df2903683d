"""OpenSpiel's bot registry entries ``starspiel_<name>`` (bots/native/bot_registry.cc).

``pyspiel.load_bot("starspiel_star2", game, player, params)`` must be the bot that
``bots.make_bot("star2", game, player, **params)`` builds: the same Python bot, so
the same moves and the same ``last_search`` step after step, and make_bot's errors
as ``pyspiel.SpielError``; and it must play whole games through OpenSpiel's C++
``evaluate_bots`` (Python calling C++ calling Python) and its Python one.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pyspiel
import pytest
from helpers.playouts import numpy_random_action
from open_spiel.python.algorithms import evaluate_bots as python_evaluate_bots

import bots
from bots import factory, native_engine
from bots.factory import BOT_NAMES, SEARCH_BOTS, make_bot
from bots.options import YARDSTICKS

try:
    import games
except ImportError:  # pragma: no cover - games is part of the tree
    games = None

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=f"native engine: {native_engine.problem()}"
)

PREFIX = native_engine.NATIVE_BOT_PREFIX


def load(name: str, game: pyspiel.Game, player: int, params: dict[str, Any]) -> pyspiel.Bot:
    return pyspiel.load_bot(PREFIX + name, game, player, params)


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[pyspiel.Bot, tuple, dict]]:
    """Every bot make_bot builds, with its arguments: the registry's included."""
    built: list[tuple[pyspiel.Bot, tuple, dict]] = []
    real = factory.make_bot

    def recording(*args: Any, **kwargs: Any) -> pyspiel.Bot:
        bot = real(*args, **kwargs)
        built.append((bot, args, kwargs))
        return bot

    monkeypatch.setattr(factory, "make_bot", recording)
    return built


def positions(game: pyspiel.Game, count: int, seed: int, max_moves: int = 60):
    """Decision nodes along seeded random playouts, in a fixed order."""
    rng = np.random.RandomState(seed)
    found: list[pyspiel.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randint(1, max_moves)):
            if state.is_terminal():
                break
            state.apply_action(numpy_random_action(state, rng))
        while state.is_chance_node():
            state.apply_action(numpy_random_action(state, rng))
        if not state.is_terminal():
            found.append(state)
    return found


def python_dice() -> pyspiel.Game:
    """Hauk's Dice as the Python game (outside the registry, which holds its C++ twin)."""
    if games is None:
        pytest.skip("the custom games do not import here")
    return games.python_game("dice(n=3,k=3)")


def test_registered_names():
    names = sorted(PREFIX + name for name in BOT_NAMES)
    assert bots.register_native_bots() == names
    assert set(names) <= set(pyspiel.registered_bots())
    yardsticks = {PREFIX + name for name in YARDSTICKS}  # gnubg plays backgammon only
    assert set(names) - yardsticks <= set(
        pyspiel.bots_that_can_play_game(pyspiel.load_game("pig"), 0)
    )
    assert not yardsticks & set(pyspiel.bots_that_can_play_game(pyspiel.load_game("pig"), 0))
    # What make_bot refuses with no parameters: the searches and imperfect information.
    kuhn = set(pyspiel.bots_that_can_play_game(pyspiel.load_game("kuhn_poker"), 0))
    assert not {PREFIX + name for name in SEARCH_BOTS} & kuhn


GAMES = [
    ("pig", {"max_depth": 2}),
    ("einstein_wurfelt_nicht", {"max_depth": 2}),
    ("backgammon", {"max_depth": 1}),
    ("dice", {"max_depth": 2}),
    ("python_dice", {"max_depth": 2}),
    ("catch", {"max_depth": 3}),
]


def game_named(name: str) -> pyspiel.Game:
    if name == "python_dice":
        return python_dice()
    if name == "dice" and games is None:
        pytest.skip("the custom games do not import here")
    return pyspiel.load_game(name)


@pytest.mark.parametrize("name", SEARCH_BOTS)
@pytest.mark.parametrize(("game_name", "params"), GAMES)
def test_whole_games_through_cpp_evaluate_bots(name, game_name, params):
    game = game_named(game_name)
    for registry_player in range(game.num_players()):
        players = [
            load(name, game, p, params)
            if p == registry_player
            else make_bot(name, game, p, **params)
            for p in range(game.num_players())
        ]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 7)
        assert len(returns) == game.num_players()


@pytest.mark.parametrize(
    ("name", "params"), [("mcts", {"max_simulations": 20, "seed": 1}), ("random", {"seed": 2})]
)
def test_mcts_and_random_play_whole_games(name, params):
    game = pyspiel.load_game("pig")
    players = [load(name, game, 0, params), make_bot("star2", game, 1, max_depth=1)]
    assert len(pyspiel.evaluate_bots(game.new_initial_state(), players, 3)) == 2


def test_one_player_game_and_python_evaluate_bots():
    game = pyspiel.load_game("2048")
    assert pyspiel.evaluate_bots(
        game.new_initial_state(), [load("star2", game, 0, {"max_depth": 1})], 3
    )
    # MCTS in a game with intermediate rewards: OpenSpiel's Python MCTSBot, from C++.
    small = pyspiel.load_game("2048(max_tile=64)")
    mcts = load("mcts", small, 0, {"max_simulations": 10, "seed": 1})
    assert pyspiel.evaluate_bots(small.new_initial_state(), [mcts], 3)[0] > 0
    # OpenSpiel's Python game loop calls restart_at, inform_action and step.
    game = pyspiel.load_game("pig")
    players = [load("star2", game, p, {"max_depth": 2}) for p in range(2)]
    state = game.new_initial_state()
    returns = python_evaluate_bots.evaluate_bots(state, players, np.random.RandomState(3))
    assert state.is_terminal() and list(returns) == state.returns()


def comparable(last_search: dict[str, Any]) -> dict[str, Any]:
    """last_search without its clock readings."""
    kept = {key: value for key, value in last_search.items() if key != "time"}
    kept["iterations"] = [
        {key: value for key, value in item.items() if key != "time"}
        for item in last_search["iterations"]
    ]
    return kept


@pytest.mark.parametrize(
    ("name", "game_name", "params"),
    [
        ("star2", "pig", {"max_depth": 3}),  # a per-game default: reachable probes
        ("star2", "backgammon", {"max_depth": 2}),  # static ordering
        ("star2", "einstein_wurfelt_nicht", {"max_depth": 3}),  # history from depth 1
        ("star2", "dice", {"max_depth": 3}),  # a custom game's C++ twin
        ("star2", "python_dice", {"max_depth": 3}),  # a Python game, its Python evaluator
        ("chanceprobcut", "pig", {"max_depth": 4}),  # calibration, R and t
        ("chanceprobcut", "einstein_wurfelt_nicht", {"max_depth": 3}),
        ("expectiminimax", "catch", {"max_depth": 3}),
        ("star1", "2048", {"max_depth": 2}),
        ("mcms", "pig", {"max_depth": 3, "seed": 4}),
        ("star2", "pig", {"max_depth": 2, "evaluator": "zero", "tt_size": 0}),
    ],
)
def test_registry_bot_is_make_bots_bot(made, name, game_name, params):
    game = game_named(game_name)
    players = range(game.num_players())
    registry = {p: load(name, game, p, params) for p in players}
    inner = {p: made[p][0] for p in players}
    twin = {p: make_bot(name, game, p, **params) for p in players}
    assert [args for _, args, _ in made[: len(players)]] == [(name, game, p) for p in players]
    for state in positions(game, 12, seed=len(game_name)):
        player = state.current_player()
        assert registry[player].step(state) == twin[player].step(state), str(state)
        assert comparable(inner[player].last_search) == comparable(twin[player].last_search)


def test_step_with_policy_and_step_verbose_forward(made):
    game = pyspiel.load_game("pig")
    bot = load("star2", game, 0, {"max_depth": 2})
    twin = make_bot("star2", game, 0, max_depth=2)
    state = game.new_initial_state()
    assert bot.provides_policy() and bot.step_with_policy(state) == twin.step_with_policy(state)
    # SearchBot has no get_policy: the registry bot fails as make_bot's does.
    for either in (bot, twin):
        with pytest.raises(pyspiel.SpielError, match="GetPolicy not implemented"):
            either.get_policy(state)
    assert bot.step_verbose(state)[0] == twin.step(state)
    bot.restart_at(state)
    bot.inform_action(state, 0, 0)
    assert made[0][0].last_search["depth"] == 2


@pytest.mark.parametrize(
    ("params", "passed"),
    [
        ({"time_limit": 1, "t": 0.5}, {"time_limit": 1, "t": 0.5}),
        ({"max_depth": 2, "reachable_probes": False}, {"max_depth": 2, "reachable_probes": False}),
        ({"evaluator": "zero", "max_depth": "none"}, {"evaluator": "zero", "max_depth": None}),
    ],
)
def test_parameters_are_typed_as_in_a_spec_string(made, params, passed):
    game = pyspiel.load_game("pig")
    load("chanceprobcut", game, 0, params)
    kwargs = made[-1][2]
    assert kwargs == passed
    assert [type(kwargs[key]) for key in passed] == [type(value) for value in passed.values()]


def test_a_bot_spec_string(made):
    # OpenSpiel's LoadBot("name(params)") passes the name too; it is not make_bot's.
    game = pyspiel.load_game("pig")
    bot = pyspiel.load_bot(f"{PREFIX}star2(time_limit=0.01,tt_size=0,max_depth=none)", game, 0)
    assert made[-1][2] == {"time_limit": 0.01, "tt_size": 0, "max_depth": None}
    assert bot.step(game.new_initial_state()) in (0, 1)


BAD = [
    ("star2", {"depth": 3}),
    ("star2", {"max_depth": 0}),
    ("star2", {"max_depth": 2.5}),
    ("star2", {"time_limit": -1.0}),
    ("star2", {"time_limit": 0}),
    ("star2", {"time_limit": "1s"}),
    ("star2", {"tt_size": -1}),
    ("star2", {"move_ordering": 1}),
    ("star2", {"probing": "zigzag"}),
    ("star2", {"evaluator": "nope"}),
    ("star2", {"evaluator": "backgammon"}),
    ("star2", {"engine": "turbo"}),
    ("star1", {"probing_factor": 2}),
    ("mcms", {"samples": 0}),
    ("chanceprobcut", {"t": 0.0}),
    ("chanceprobcut", {"R": 7}),
    ("chanceprobcut", {"calibration": "/nonexistent.json"}),
    ("mcts", {"uct_c": -1.0}),
    ("random", {"seed": -1}),
]


@pytest.mark.parametrize(("name", "params"), BAD)
def test_bad_parameters_are_make_bots_errors(name, params):
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError) as expected:
        make_bot(name, game, 0, **params)
    with pytest.raises(pyspiel.SpielError) as error:
        load(name, game, 0, params)
    assert str(error.value) == f"{PREFIX}{name}: {expected.value}"


@pytest.mark.parametrize(
    ("name", "game_string", "player", "message"),
    [
        ("star2", "kuhn_poker", 0, "imperfect information"),
        ("expectiminimax", "pig", 2, "player_id must be in 0..1"),
    ],
)
def test_unsupported_games_and_players_are_refused(name, game_string, player, message):
    game = pyspiel.load_game(game_string)
    with pytest.raises(pyspiel.SpielError, match=message):
        load(name, game, player, {})
    if 0 <= player < game.num_players():
        assert PREFIX + name not in pyspiel.bots_that_can_play_game(game, player)


def test_errors_while_playing_are_the_python_bots():
    game = pyspiel.load_game("pig")
    bot = load("star2", game, 1, {"max_depth": 1})
    with pytest.raises(ValueError, match="bot plays player 1 but it is player 0's turn"):
        bot.step(game.new_initial_state())


def test_games_in_threads_do_not_deadlock():
    # Each thread holds the GIL into evaluate_bots; the searches release it and the
    # registry's calls take it back, so the two games interleave and both finish.
    game = pyspiel.load_game("pig")
    results: dict[int, list[float]] = {}

    def play(seed: int) -> None:
        players = [load("star2", game, p, {"max_depth": 3}) for p in range(2)]
        results[seed] = pyspiel.evaluate_bots(game.new_initial_state(), players, seed)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(results) == [1, 2, 3]
