"""The bot factory, refusals, and whole games through OpenSpiel's evaluation code."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from helpers.exactness import LAST_SEARCH_KEYS
from helpers.games_in_scope import GAMES_IN_SCOPE
from helpers.node_budget import NodeBudgetSearcher
from helpers.plain_expectiminimax import plain_expectiminimax
from helpers.random_tree import random_tree
from helpers.random_tree_game import (
    RandomTreeGame,
    RandomTreeStateFast,
    TreeEvaluator,
    TreePosition,
    game_type,
)
from open_spiel.python.algorithms import evaluate_bots as python_evaluate_bots

import bots
import games  # noqa: F401  registers the custom games
from bots.deepening_bot import SearchBot
from bots.search import SearchTimeout
from bots.spec import parse_spec

SEARCH_SPECS = [
    "expectiminimax(time_limit=0.01)",
    "star1(time_limit=0.01)",
    "star2(time_limit=0.01)",
    "star2(time_limit=0.01,tt_size=0)",
]
OTHER_SPECS = ["mcts(max_simulations=20,seed=1)", "random(seed=3)"]


def _play(game: pyspiel.Game, spec: str, seed: int) -> list[float]:
    """One whole game: the bot in seat 0 against a random bot, through pyspiel."""
    players = [bots.make_bot(spec, game, 0)]
    if game.num_players() == 2:
        players.append(bots.make_bot(f"random(seed={seed})", game, 1))
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, seed)
    return list(returns)


@pytest.mark.parametrize("game_string", GAMES_IN_SCOPE)
@pytest.mark.parametrize("spec", SEARCH_SPECS + OTHER_SPECS)
def test_every_bot_plays_whole_games(game_string, spec):
    game = pyspiel.load_game(game_string)
    returns = _play(game, spec, seed=7)
    assert len(returns) == game.num_players()
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL:
        # (2048's max_utility is the score of one max tile, not a bound on returns.)
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_search_bot_in_python_evaluate_bots_records_statistics():
    game = pyspiel.load_game("pig(winscore=15)")
    star2 = bots.make_bot("star2(max_depth=2)", game, 0)
    opponent = bots.make_bot("expectiminimax(max_depth=2)", game, 1)
    returns = python_evaluate_bots.evaluate_bots(
        game.new_initial_state(), [star2, opponent], np.random.RandomState(0)
    )
    assert sorted(returns) == [-1.0, 1.0]
    stats = star2.last_search
    missing = [key for key in LAST_SEARCH_KEYS if key not in stats]
    assert not missing, missing
    assert stats["depth"] == 2 and stats["completed"]
    assert stats["nodes"] >= stats["leaves"] >= 1


def test_bot_protocol_matches_openspiel_bots():
    game = pyspiel.load_game("pig(winscore=15)")
    bot = bots.make_bot("star2(max_depth=2)", game, 0)
    assert isinstance(bot, pyspiel.Bot) and isinstance(bot, SearchBot)
    state = game.new_initial_state()
    assert bot.provides_policy()
    policy, action = bot.step_with_policy(state)
    assert policy == [(action, 1.0)] and action in state.legal_actions()
    bot.restart_at(state)
    bot.inform_action(state, 0, action)
    assert bot.player_id() == 0
    with pytest.raises(ValueError, match="player 0"):
        bots.make_bot("star2(max_depth=1)", game, 1).step(state)


def test_time_limited_search_plays_the_deepest_completed_iteration():
    game = pyspiel.load_game("yacht")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # A roll decision fans out into up to 7,776 dice outcomes per move: iteration 1
    # visits a few dozen nodes, iteration 2 about 240,000. A node budget (a clock that
    # stops at the same node on every machine) ends the move inside iteration 2.
    player = state.current_player()
    searcher = NodeBudgetSearcher(game, player, "star2", tt_size=100_000)
    searcher.budget = 5_000
    bot = SearchBot(game, player, searcher, None, 1000.0, seed=0)
    action = bot.step(state)
    stats = bot.last_search
    assert action in state.legal_actions() and stats["action"] == action
    # The reported depth is the deepest iteration that finished.
    assert [iteration["depth"] for iteration in stats["iterations"]] == [1]
    assert stats["depth"] == 1 and stats["completed"] is False


def test_fixed_depth_is_deterministic_and_reports_depth():
    game = pyspiel.load_game("backgammon")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[3][0])
    first = bots.make_bot("star2(max_depth=1)", game, state.current_player())
    second = bots.make_bot("star2(max_depth=1)", game, state.current_player())
    assert first.step(state) == second.step(state)
    assert first.last_search == {
        **second.last_search,
        "time": first.last_search["time"],
        "iterations": first.last_search["iterations"],
    }
    assert first.last_search["depth"] == 1


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphazero", "unknown bot 'alphazero'; accepted: expectiminimax"),
        ("star2(depth=3)", "unknown parameter\\(s\\) depth for bot 'star2'; accepted:"),
        ("star2(max_depth=-1)", "max_depth must be an integer >= 1"),
        ("star2(max_depth=0)", "max_depth must be an integer >= 1"),
        ("star2(time_limit=-0.5)", "time_limit must be a number > 0 or none, got -0.5"),
        ("star2(time_limit=0)", "time_limit must be a number > 0 or none, got 0"),
        ("star2(tt_size=-3)", "tt_size must be an integer >= 0"),
        ("star2(evaluator=nonsense)", "nonsense"),
        ("star2(max_depth=2", "must end with"),
        ("mcts(max_simulations=0)", "max_simulations must be an integer >= 1"),
        ("random(max_depth=2)", "unknown parameter\\(s\\) max_depth for bot 'random'"),
    ],
)
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        bots.make_bot(spec, pyspiel.load_game("pig"), 0)


@pytest.mark.parametrize(
    "game_string, reason",
    [
        ("kuhn_poker", "imperfect information"),
        ("goofspiel(num_cards=3)", "simultaneous moves"),
        ("matrix_pd", "simultaneous moves"),
    ],
)
def test_unsupported_games_are_refused_with_the_reason(game_string, reason):
    game = pyspiel.load_game(game_string)
    with pytest.raises(ValueError, match=reason) as error:
        bots.make_bot("star2", game, 0)
    assert str(game) in str(error.value)


class _GeneralSumState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._done = False

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self._done else 0

    def _legal_actions(self, player):
        return [0]

    def _apply_action(self, action):
        self._done = True

    def is_terminal(self):
        return self._done

    def returns(self):
        return [1.0, 1.0] if self._done else [0.0, 0.0]

    def __str__(self):
        return str(self._done)


class _GeneralSumGame(pyspiel.Game):
    """Two players who both win: the smallest two-player general-sum game."""

    TYPE = game_type(
        "starspiel_test_general_sum",
        "general sum test",
        pyspiel.GameType.Utility.GENERAL_SUM,
        (2, 2),
        {},
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    )

    def __init__(self, params=None):
        super().__init__(
            self.TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=1,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=0.0,
                max_utility=1.0,
                max_game_length=1,
            ),
            params or {},
        )

    def new_initial_state(self):
        return _GeneralSumState(self)


def test_two_player_general_sum_is_refused():
    game = _GeneralSumGame()
    with pytest.raises(ValueError, match="two-player general-sum"):
        bots.make_bot("star2", game, 0)


def test_bad_player_id():
    with pytest.raises(ValueError, match="player_id must be in 0..1"):
        bots.make_bot("star2", pyspiel.load_game("pig"), 2)


def test_overrides_beat_spec_and_accept_objects():
    game = pyspiel.load_game("pig(winscore=15)")

    class Half:
        bounds = (-1.0, 1.0)

        def evaluate(self, state):
            return [0.5, -0.5] if not state.is_terminal() else state.returns()

        def prior(self, state):
            return []

    bot = bots.make_bot("star2(max_depth=5)", game, 0, max_depth=1, evaluator=Half())
    bot.step(game.new_initial_state())
    assert bot.last_search["depth"] == 1


def test_parse_spec_nested_values():
    assert parse_spec("star2(evaluator=rollout(n=3),max_depth=2,time_limit=none)") == (
        "star2",
        {"evaluator": "rollout(n=3)", "max_depth": 2, "time_limit": None},
    )


def test_persistent_table_tells_mid_game_python_states_apart():
    """The bot's table outlives a move, and states a Python game builds mid-game share a
    short history: two different roots built by ``to_state()`` (both with an empty
    history) must not collide in it."""
    failures = []
    for seed in range(40):
        tree = random_tree(random.Random(seed))
        game = RandomTreeGame(tree, fast_path=False)
        evaluator = TreeEvaluator(game)
        roots = [i for i, node in enumerate(tree.nodes) if node[0] == "D" and node[1] == 0][:4]
        bot = bots.make_bot("star1(max_depth=2)", game, 0, evaluator=evaluator, tt_size=3)
        for root in roots:
            state = TreePosition(game, root).to_state()
            expected = plain_expectiminimax(state, 2, evaluator, 0).value
            bot.step(state)
            if abs(bot.last_search["value"] - expected) > 1e-9:
                failures.append((seed, root))
    assert failures == []


class _CountedPosition(TreePosition):
    """A random-tree position that counts how many of its kind are alive."""

    __slots__ = ()
    alive = 0

    def __init__(self, game: RandomTreeGame, node: int) -> None:
        super().__init__(game, node)
        _CountedPosition.alive += 1

    def __del__(self) -> None:
        _CountedPosition.alive -= 1

    def child(self, action: int) -> _CountedPosition:
        return _CountedPosition(self.game, self.child_node(action))


class _CountedState(RandomTreeStateFast):
    def search_position(self) -> _CountedPosition:
        return _CountedPosition(self._pos.game, self.node)


def test_an_interrupted_search_frees_its_tree_in_the_next_search():
    # Freeing thousands of abandoned states (a wide chance node in yacht) would make
    # the move late; the searcher keeps them until its next search, which pays inside
    # its own budget. A node budget interrupts the search at the same node on
    # every machine; with no table, nothing else holds a position once a search ends.
    tree = random_tree(random.Random(0), max_nodes=150, layered=True, reuse=0.3)
    game = RandomTreeGame(tree)
    state = _CountedState(game, 0)
    searcher = NodeBudgetSearcher(game, 0, "star2", evaluator=TreeEvaluator(game), tt_size=0)
    searcher.search(state, 6)
    assert _CountedPosition.alive == 0 and searcher.nodes > 500
    searcher.budget, searcher.deadline = 100, 0.0
    with pytest.raises(SearchTimeout):
        searcher.search(state, 6)
    assert _CountedPosition.alive > 0  # the interrupted path is still held
    searcher.deadline = None
    searcher.search(state, 1)
    assert _CountedPosition.alive == 0


def test_import_bots_loads_the_engine_only_on_use():
    # `import bots` alone loads neither engine; attributes still work.
    code = (
        "import sys, bots\n"
        "assert 'bots.search' not in sys.modules\n"
        "assert isinstance(bots.evaluators.EVALUATORS, dict)\n"
        "assert bots.search.StarSearcher and callable(bots.make_bot) and bots.SEARCH_BOTS\n"
        "try:\n"
        "    bots.no_such_thing\n"
        "except AttributeError as error:\n"
        "    assert 'no_such_thing' in str(error)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
