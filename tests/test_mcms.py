"""MCMS (Monte Carlo *-Minimax Search): exact on the tree it sampled, reproducible, legal.

The sampled tree is rebuilt here independently of the engine: the sampling rule
of bots/mcms.py (SplitMix64 draws seeded by the seed and the node's key text,
``samples`` draws with replacement, merged into weights count/samples) is
replayed in a small recursive expectiminimax without pruning, table or move
ordering. MCMS must return that value to 1e-9 with every table and probing
setting, and star2's value when ``samples`` covers every outcome.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from helpers.plain_expectiminimax import HashEvaluator, sample_positions
from open_spiel.python.algorithms import evaluate_bots as python_evaluate_bots

import bots
import games  # noqa: F401  registers the custom games
from bots.adapters.einstein_wurfelt_nicht import einstein_key
from bots.keys import history_digest
from bots.native_searcher import make_searcher
from bots.search import search
from games.splitmix import SplitMix64

TOL = 1e-9
TT = 100_000


def _text(key: Any) -> str:
    """The engine's canonical key text, written again: tuples recursively, numbers and
    strings by repr, other objects (a position's rules table) by type name."""
    if isinstance(key, tuple):
        return "(" + ",".join(_text(item) for item in key) + ")"
    if key is None or isinstance(key, (bool, int, float, str)):
        return repr(key)
    return type(key).__name__


def _key(game_name: str, node: Any) -> Any:
    """The key the draws of a chance node are seeded with (the table key of the game)."""
    if game_name.startswith(("pig", "backgammon")):
        return (node.current_player(), str(node))
    if game_name.startswith("einstein"):
        return einstein_key(node)
    if game_name.startswith("dice"):
        # Custom games seed with their immutable position (rebuilt from a C++ twin's state).
        if hasattr(node, "search_position"):
            return node.search_position()
        if isinstance(node, tuple):
            return node
        from games.dice import DicePosition

        return DicePosition.from_state(node)
    return history_digest(node.history())  # 2048, yacht: history digests


def _draws(key: Any, outcomes: list[tuple[int, float]], samples: int, seed: int) -> dict:
    actions, probs = zip(*outcomes)
    drawn = SplitMix64.seeded(seed, _text(key)).choices(probs, samples)
    counts = Counter(actions[index] for index in drawn)
    return {action: count / samples for action, count in counts.items()}


def sampled_expectiminimax(
    game_name: str, node: Any, depth: int, evaluator: Any, player: int, samples: int, seed: int
) -> float:
    """Plain expectiminimax over the sampled tree (chance nodes above depth 0 with more
    than ``samples`` outcomes replaced by their draws)."""
    current = node.current_player()
    if current < 0 and current != pyspiel.PlayerId.CHANCE:
        return float(node.returns()[player])
    if depth == 0:
        state = node.to_state() if hasattr(node, "to_state") else node
        return float(evaluator.evaluate(state)[player])
    if current == pyspiel.PlayerId.CHANCE:
        outcomes = list(node.chance_outcomes())
        if len(outcomes) > samples:
            weights = _draws(_key(game_name, node), outcomes, samples, seed)
            outcomes = list(weights.items())
        return sum(
            p
            * sampled_expectiminimax(
                game_name, node.child(a), depth, evaluator, player, samples, seed
            )
            for a, p in outcomes
        )
    values = [
        sampled_expectiminimax(
            game_name, node.child(a), depth - 1, evaluator, player, samples, seed
        )
        for a in node.legal_actions()
    ]
    return max(values) if current == player else min(values)


def _evaluator(game: pyspiel.Game) -> HashEvaluator:
    if game.num_players() == 1:
        return HashEvaluator(game, (0.0, 2000.0))
    return HashEvaluator(game)


def _mcms(
    game, state, depth, evaluator, samples, seed, tt_size=0, probing_factor=None, engine="python"
):
    searcher = make_searcher(
        engine,
        game,
        state.current_player(),
        "star2",
        samples=samples,
        seed=seed,
        evaluator=evaluator,
        tt_size=tt_size,
        probing_factor=probing_factor,
    )
    assert searcher.engine == engine
    value, action = searcher.search(state, depth)
    return value, action, searcher.stats()


CASES = [
    # game, depth, samples, positions, max random moves before a position
    ("pig(winscore=30)", 3, 3, 4, 20),
    ("einstein_wurfelt_nicht", 2, 2, 3, 12),
    ("einstein_wurfelt_nicht", 2, 5, 2, 12),  # 6 outcomes: repeated draws merge
    ("backgammon", 2, 2, 2, 20),
    ("2048(max_tile=256)", 2, 3, 3, 20),
    ("yacht", 2, 3, 2, 10),
    ("dice(n=4,k=3)", 3, 3, 3, 4),
]


@pytest.mark.parametrize("game_name,depth,samples,count,max_moves", CASES)
def test_mcms_is_plain_expectiminimax_on_the_sampled_tree(
    game_name, depth, samples, count, max_moves, engine
):
    game = pyspiel.load_game(game_name)
    evaluator = _evaluator(game)
    sampled_any = False
    for index, state in enumerate(sample_positions(game, count, 11, max_moves)):
        player = state.current_player()
        root = state.search_position() if hasattr(state, "search_position") else state
        for seed in (0, 7):
            expected = sampled_expectiminimax(
                game_name, root, depth, evaluator, player, samples, seed
            )
            for tt_size in (0, TT):
                for probing_factor in (0, 1):
                    value, _, stats = _mcms(
                        game,
                        state,
                        depth,
                        evaluator,
                        samples,
                        seed,
                        tt_size,
                        probing_factor,
                        engine,
                    )
                    assert value == pytest.approx(expected, abs=TOL), (
                        f"{game_name} {engine} position {index} seed {seed} tt {tt_size} "
                        f"k {probing_factor}: mcms {value}, sampled plain {expected}"
                    )
                    sampled_any = sampled_any or stats["sampled_chance_nodes"] > 0
    assert sampled_any, f"{game_name}: no chance node was sampled; the test proves nothing"


def test_different_seeds_sample_different_trees(engine):
    """The seed matters: over a few yacht positions two seeds disagree somewhere."""
    game = pyspiel.load_game("yacht")
    evaluator = _evaluator(game)
    positions = sample_positions(game, 3, 5, 10)
    values = {
        seed: [_mcms(game, s, 2, evaluator, 3, seed, engine=engine)[0] for s in positions]
        for seed in (0, 1)
    }
    assert values[0] != values[1]


@pytest.mark.parametrize(
    "game_name,depth,samples",
    [("pig(winscore=30)", 3, 6), ("einstein_wurfelt_nicht", 2, 6), ("dice(n=4,k=3)", 3, 4)],
)
def test_mcms_with_enough_samples_is_star2(game_name, depth, samples, engine):
    game = pyspiel.load_game(game_name)
    evaluator = _evaluator(game)
    for state in sample_positions(game, 3, 3, 10):
        for tt_size in (0, TT):
            value, action, stats = _mcms(
                game, state, depth, evaluator, samples, 0, tt_size, engine=engine
            )
            star2 = search(
                game, state, "star2", depth, evaluator=evaluator, tt_size=tt_size, engine=engine
            )
            assert stats["sampled_chance_nodes"] == stats["samples_drawn"] == 0
            assert value == pytest.approx(star2.value, abs=TOL)
            # Enumerating, mcms is star2 node for node.
            assert (action, stats["nodes"]) == (star2.action, star2.stats["nodes"])


@pytest.mark.parametrize("game_name", ["yacht", "backgammon", "pig"])
def test_same_seed_same_move_and_node_counts(game_name, engine):
    game = pyspiel.load_game(game_name)
    # The position with the most choices: a sampled chance node must lie within depth 2.
    state = max(sample_positions(game, 5, 2, 10), key=lambda s: len(s.legal_actions()))
    player = state.current_player()
    records = []
    for _ in range(2):
        bot = bots.make_bot("mcms(samples=4,seed=3,max_depth=2)", game, player, engine=engine)
        action = bot.step(state)
        stats = bot.last_search
        assert stats["engine"] == engine
        records.append((action, stats["value"], stats["nodes"], stats["samples_drawn"]))
        assert stats["action"] == action
        assert stats["sampled_chance_nodes"] > 0 and stats["samples_drawn"] > 0
    assert records[0] == records[1]


def test_draws_are_fixed_across_iterations(engine):
    """Iterative deepening revisits chance nodes: their draws are reused, not redrawn."""
    game = pyspiel.load_game("pig(winscore=30)")
    state = game.new_initial_state()
    # A generous time limit with max_depth: iterative deepening over depths 1..4.
    bot = bots.make_bot("mcms(samples=3,max_depth=4,time_limit=600)", game, 0, engine=engine)
    bot.step(state)
    stats = bot.last_search
    assert stats["depth"] == 4
    assert stats["sample_reuses"] > 0
    # Every draw made belongs to a distinct chance node: draws are never repeated.
    assert stats["samples_drawn"] % 3 == 0
    assert stats["samples_drawn"] // 3 + stats["sample_reuses"] == stats["sampled_chance_nodes"]
    # Same value as one fixed-depth search: earlier iterations did not change the tree.
    fixed = bots.make_bot("mcms(samples=3,max_depth=4)", game, 0, engine=engine)
    fixed.step(state)
    assert stats["value"] == pytest.approx(fixed.last_search["value"], abs=TOL)


def test_factory_checks_mcms_parameters():
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError, match="samples"):
        bots.make_bot("mcms(samples=0)", game, 0)
    with pytest.raises(ValueError, match="accepted"):
        bots.make_bot("mcms(R=2)", game, 0)
    bot = bots.make_bot("mcms(samples=2,seed=4,probing_factor=0,tt_size=0,max_depth=1)", game, 0)
    assert bot.searcher.samples == 2 and bot.searcher.seed == 4


GAMES = [
    "backgammon(hyper_backgammon=true)",
    "pig(winscore=20)",
    "einstein_wurfelt_nicht",
    "yacht",
    "2048(max_tile=64)",
    "dice(n=4,k=3)",
]


@pytest.mark.slow
@pytest.mark.parametrize("game_name", GAMES)
def test_mcms_plays_legal_games_through_both_evaluate_bots(game_name, engine):
    """Both runners reject an illegal move; a finished game is the proof of legality."""
    game = pyspiel.load_game(game_name)
    spec = "mcms(samples=3,seed=1,time_limit=0.01)"
    players = [bots.make_bot(spec, game, 0, engine=engine)]
    if game.num_players() == 2:
        players.append(bots.make_bot("random(seed=2)", game, 1))
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 5)
    assert len(returns) == game.num_players()
    players = [bots.make_bot(spec, game, 0, engine=engine)]
    if game.num_players() == 2:
        players.append(bots.make_bot("star2(time_limit=0.01)", game, 1, engine=engine))
    returns = python_evaluate_bots.evaluate_bots(
        game.new_initial_state(), players, np.random.RandomState(5)
    )
    assert len(returns) == game.num_players()
    assert players[0].last_search["time"] < 5.0
