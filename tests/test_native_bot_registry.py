"""The native search bots in OpenSpiel's bot registry (bots/native/bot.cc).

``pyspiel.load_bot("starspiel_star2", game, player, params)`` must give a C++ bot
that plays whole games through OpenSpiel's C++ and Python ``evaluate_bots``, and
searches exactly like ``bots.make_bot(..., engine="native")``: the same move and
the same node count position after position (so the same parameters, per-game
defaults, bounds and table).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots as python_evaluate_bots

import bots
from bots import native_engine
from bots.factory import GAME_DEFAULTS

try:
    import games  # noqa: F401 - registers the custom games (dice) GAME_DEFAULTS names
except ImportError:
    pass

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=f"native engine: {native_engine.problem()}"
)

NAMES = [
    "starspiel_chanceprobcut",
    "starspiel_expectiminimax",
    "starspiel_mcms",
    "starspiel_star1",
    "starspiel_star2",
]


def report(bot: pyspiel.Bot, state: pyspiel.State) -> tuple[int, dict[str, str]]:
    """The bot's move and its step_verbose statistics."""
    action, text = bot.step_verbose(state)
    return action, dict(item.split("=", 1) for item in text.split())


def positions(game: pyspiel.Game, count: int, seed: int, max_moves: int = 60):
    """Decision nodes along seeded random playouts, in a fixed order."""
    rng = np.random.RandomState(seed)
    found: list[pyspiel.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randint(1, max_moves)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        if not state.is_terminal():
            found.append(state)
    return found


def test_registered_names():
    assert bots.register_native_bots() == NAMES
    assert set(NAMES) <= set(pyspiel.registered_bots())
    game = pyspiel.load_game("pig")
    assert set(NAMES) <= set(pyspiel.bots_that_can_play_game(game, 0))


@pytest.mark.parametrize(
    ("game_name", "params"),
    [
        ("pig", {"max_depth": 3}),
        ("einstein_wurfelt_nicht", {"max_depth": 2}),
        ("catch", {"max_depth": 3}),
        ("2048", {"max_depth": 1}),
        ("backgammon", {"max_depth": 1}),
        ("pig", {"time_limit": 0.002}),
    ],
)
def test_whole_games_through_evaluate_bots(game_name, params):
    game = pyspiel.load_game(game_name)
    players = range(game.num_players())
    # OpenSpiel's C++ game loop: no Python between the moves.
    players_bots = [pyspiel.load_bot("starspiel_star2", game, p, params) for p in players]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players_bots, 7)
    assert len(returns) == game.num_players()
    # OpenSpiel's Python game loop (restart_at, inform_action, step).
    players_bots = [pyspiel.load_bot("starspiel_star2", game, p, params) for p in players]
    state = game.new_initial_state()
    returns = python_evaluate_bots.evaluate_bots(state, players_bots, np.random.RandomState(3))
    assert state.is_terminal() and list(returns) == state.returns()


@pytest.mark.parametrize("name", NAMES)
def test_every_bot_plays_pig(name):
    game = pyspiel.load_game("pig")
    players_bots = [pyspiel.load_bot(name, game, p, {"max_depth": 2}) for p in range(2)]
    assert len(pyspiel.evaluate_bots(game.new_initial_state(), players_bots, 1)) == 2


def check_same_search(spec: str, algorithm: str, game: pyspiel.Game, params: dict, states) -> None:
    """The registered bot and make_bot's native bot: same moves, values and nodes."""
    players = range(game.num_players())
    cpp = {p: pyspiel.load_bot(f"starspiel_{algorithm}", game, p, params) for p in players}
    python = {p: bots.make_bot(spec, game, p, engine="native") for p in players}
    for state in states:
        player = state.current_player()
        action, stats = report(cpp[player], state)
        assert action == python[player].step(state), str(state)
        last = python[player].last_search
        assert float(stats["value"]) == pytest.approx(last["value"], abs=1e-12)
        for key in ("nodes", "evaluations", "tt_hits", "probe_nodes", "cutoffs_star2_probe"):
            assert int(stats[key]) == last[key], (key, str(state))


@pytest.mark.parametrize(
    ("game_name", "depth", "count"),
    [
        ("pig", 3, 40),
        ("einstein_wurfelt_nicht", 3, 25),
        ("catch", 3, 20),
        ("2048", 2, 10),
        ("backgammon", 2, 8),
    ],
)
def test_fixed_depth_star2_equals_make_bot(game_name, depth, count):
    game = pyspiel.load_game(game_name)
    states = positions(game, count, seed=len(game_name))
    check_same_search(f"star2(max_depth={depth})", "star2", game, {"max_depth": depth}, states)


@pytest.mark.parametrize(
    ("algorithm", "game_name"),
    [(algorithm, game) for algorithm, games in GAME_DEFAULTS.items() for game in games]
    + [("mcms", "pig"), ("expectiminimax", "einstein_wurfelt_nicht"), ("star1", "pig")],
)
def test_game_defaults_and_algorithms_equal_make_bot(algorithm, game_name):
    # Node counts differ when a per-game default (reachable probes, history
    # ordering, static ordering, ChanceProbCut's t) is not applied the same way.
    try:
        game = pyspiel.load_game(game_name)
    except pyspiel.SpielError:
        pytest.skip(f"{game_name} is not registered with pyspiel here")
    depth = 2 if game_name == "backgammon" else 3
    params: dict = {"max_depth": depth}
    if game_name == "dice":
        params["evaluator"] = "zero"  # its heuristic is Python only; the C++ bot has none
    spec = f"{algorithm}({','.join(f'{k}={v}' for k, v in params.items())})"
    check_same_search(spec, algorithm, game, params, positions(game, 6, seed=11))


def test_iterative_deepening_keeps_a_completed_depth():
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    state = positions(game, 1, seed=5)[0]
    bot = pyspiel.load_bot("starspiel_star2", game, state.current_player(), {"time_limit": 0.05})
    action, stats = report(bot, state)
    assert action in state.legal_actions()
    assert int(stats["depth"]) >= 2 and stats["completed"] in ("0", "1")
    assert float(stats["time"]) < 0.5


def test_iterative_deepening_stops_when_every_leaf_is_terminal():
    # Catch ends within the rows; once every leaf is terminal deeper iterations are
    # the same search, so the bot stops and says it completed.
    # (Without a table: table hits also count as information from deeper down.)
    game = pyspiel.load_game("catch(rows=4,columns=3)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    params = {"time_limit": 5.0, "tt_size": 0}
    action, stats = report(pyspiel.load_bot("starspiel_star2", game, 0, params), state)
    assert stats["completed"] == "1" and int(stats["depth"]) <= 5
    assert float(stats["time"]) < 1.0
    python = bots.make_bot("star2", game, 0, engine="native", **params)
    assert python.step(state) == action and python.last_search["depth"] == int(stats["depth"])


@pytest.mark.parametrize(
    ("game_name", "algorithm", "partial_iteration"),
    [
        ("yacht", "expectiminimax", True),
        ("pig", "star2", True),
        ("einstein_wurfelt_nicht", "star2", False),
        ("backgammon", "chanceprobcut", True),
    ],
)
def test_deadline_handling_equals_make_bot(game_name, algorithm, partial_iteration):
    # A deadline already past when the clock is first read (after 64 nodes, or at
    # the first of a chance node's many outcomes) stops both bots at the same node:
    # the same completed depth, the same unfinished iteration and the same move.
    game = pyspiel.load_game(game_name)
    params = {"time_limit": 1e-9, "seed": 3, "partial_iteration": partial_iteration}
    for state in positions(game, 5, seed=3):
        player = state.current_player()
        cpp = pyspiel.load_bot(f"starspiel_{algorithm}", game, player, params)
        python = bots.make_bot(algorithm, game, player, engine="native", **params)
        action, stats = report(cpp, state)
        assert action == python.step(state)
        last = python.last_search
        assert int(stats["depth"]) == last["depth"] and int(stats["nodes"]) == last["nodes"]
        assert stats["partial_depth"] == str(last["partial_depth"]).lower()
        assert stats["completed"] == str(int(last["completed"]))


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("starspiel_star2", {"depth": 3}, "unknown parameter(s) depth"),
        ("starspiel_star2", {"max_depth": 0}, "max_depth must be an integer >= 1, got 0"),
        ("starspiel_star2", {"max_depth": 2.5}, "max_depth must be an integer >= 1, got 2.5"),
        ("starspiel_star2", {"time_limit": -1.0}, "time_limit must be a number >= 0"),
        ("starspiel_star2", {"time_limit": 0}, "time_limit must be > 0 seconds"),
        ("starspiel_star2", {"time_limit": "1s"}, "time_limit must be a number"),
        ("starspiel_star2", {"tt_size": -1}, "tt_size must be an integer >= 0"),
        ("starspiel_star2", {"move_ordering": 1}, "move_ordering must be true or false"),
        ("starspiel_star2", {"probing": "zigzag"}, "unknown probing 'zigzag'; accepted: cyclic"),
        ("starspiel_star2", {"probing_factor": -1}, "probing_factor must be an integer >= 0"),
        ("starspiel_star2", {"evaluator": "nope"}, "unknown evaluator 'nope'; accepted"),
        ("starspiel_star2", {"evaluator": "backgammon"}, "is for game 'backgammon', not for 'pig'"),
        ("starspiel_star2", {"engine": "python"}, "unknown engine 'python'"),
        ("starspiel_star1", {"probing_factor": 2}, "unknown parameter(s) probing_factor"),
        ("starspiel_mcms", {"samples": 0}, "samples must be an integer >= 1"),
        ("starspiel_chanceprobcut", {"t": 0.0}, "confidence t must be > 0"),
        ("starspiel_chanceprobcut", {"R": 7}, "has no models for R=7"),
        ("starspiel_chanceprobcut", {"calibration": "/nonexistent.json"}, "/nonexistent.json"),
    ],
)
def test_bad_parameters_are_clear_errors(name, params, message):
    with pytest.raises(pyspiel.SpielError) as error:
        pyspiel.load_bot(name, pyspiel.load_game("pig"), 0, params)
    assert message in str(error.value)
    assert name in str(error.value)


def test_unsupported_games_and_players_are_refused():
    with pytest.raises(pyspiel.SpielError, match="cannot play .*it has 3 players"):
        pyspiel.load_bot("starspiel_star2", pyspiel.load_game("pig(players=3)"), 0, {})
    with pytest.raises(pyspiel.SpielError, match="imperfect information"):
        pyspiel.load_bot("starspiel_star2", pyspiel.load_game("kuhn_poker"), 0, {})
    with pytest.raises(pyspiel.SpielError, match="player_id must be in 0..1"):
        pyspiel.load_bot("starspiel_star2", pyspiel.load_game("pig"), 2, {})
    with pytest.raises(pyspiel.SpielError, match="no ChanceProbCut calibration for game 'catch"):
        pyspiel.load_bot("starspiel_chanceprobcut", pyspiel.load_game("catch"), 0, {})


def test_step_checks_whose_turn_it_is():
    game = pyspiel.load_game("pig")
    bot = pyspiel.load_bot("starspiel_star2", game, 1, {"max_depth": 1})
    with pytest.raises(pyspiel.SpielError, match="bot plays player 1 but it is player 0's turn"):
        bot.step(game.new_initial_state())


def test_default_time_limit_and_a_spec_string():
    # No max_depth and no time_limit: one second of iterative deepening, as make_bot.
    game = pyspiel.load_game("pig")
    bot = pyspiel.load_bot("starspiel_star2(time_limit=0.01,tt_size=0)", game, 0)
    action, stats = report(bot, game.new_initial_state())
    assert action in (0, 1) and int(stats["depth"]) >= 1
