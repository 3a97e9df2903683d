"""History ordering from depth 1 (``history_min_depth``), the bots' default in dice and einstein.

Ordering changes which moves are searched first, never a value: under iterative
deepening (the history filled by earlier iterations, as in a bot) every depth
must still return plain expectiminimax's value, also on generated trees. In
dice it must search fewer nodes than ordering from depth 2: node counts are
deterministic, so this is a count, not a timing.
"""

from __future__ import annotations

import pyspiel
import pytest
from hypothesis import given, settings
from plain_expectiminimax import plain_expectiminimax, sample_positions
from random_tree_game import TreePosition
from test_exactness_properties import PROFILE, _game_and_evaluator, search_cases

import bots
import games  # noqa: F401  (registers dice)
from bots.evaluators import make_evaluator
from bots.search import Searcher

TOL = 1e-9


def _deepening(game, state, algorithm, max_depth, **options):
    """(value, action) of each iteration of one Searcher, table and history kept."""
    searcher = Searcher(game, state.current_player(), algorithm, **options)
    return searcher, [searcher.search(state, depth) for depth in range(1, max_depth + 1)]


@settings(max_examples=80, **PROFILE)
@given(search_cases())
def test_history_from_depth_1_equals_plain_on_random_trees(case):
    tree, root, player, depth, fast, positions, _ = case
    game, evaluator = _game_and_evaluator(tree, fast, positions)
    state = TreePosition(game, root).to_state()
    for algorithm in ("star1", "star2"):
        for tt_size in (0, 100_000):
            searcher = Searcher(
                game, player, algorithm, evaluator=evaluator, tt_size=tt_size, history_min_depth=1
            )
            for d in range(1, depth + 1):
                value, _ = searcher.search(state, d)
                plain = plain_expectiminimax(state, d, evaluator, player)
                assert abs(value - plain.value) <= TOL, f"{algorithm} d={d}\n{tree.literal()}"


@pytest.mark.parametrize(
    "name, depth, count, max_moves",
    [
        ("dice(n=4,k=3)", 4, 3, 6),
        ("einstein_wurfelt_nicht", 3, 3, 8),
        ("backgammon", 2, 2, 20),
        ("pig", 4, 3, 30),
    ],
)
def test_history_from_depth_1_equals_plain_in_real_games(name, depth, count, max_moves):
    game = pyspiel.load_game(name)
    evaluator = make_evaluator(None, game)
    for state in sample_positions(game, count, seed=31, max_moves=max_moves):
        if state.current_player() < 0:
            continue
        _, results = _deepening(game, state, "star2", depth, tt_size=10_000, history_min_depth=1)
        for d, (value, action) in enumerate(results, start=1):
            plain = plain_expectiminimax(state, d, evaluator)
            assert abs(value - plain.value) <= TOL, f"{name} d={d} {state.history()}"
            assert action in plain.best_actions()


def test_history_from_depth_1_searches_fewer_nodes_in_dice():
    game = pyspiel.load_game("dice(n=5,k=4)")
    nodes = {1: 0, 2: 0}
    for state in sample_positions(game, 3, seed=5, max_moves=6):
        if state.current_player() < 0:
            continue
        for min_depth in nodes:
            searcher, _ = _deepening(
                game, state, "star2", 4, tt_size=100_000, history_min_depth=min_depth
            )
            nodes[min_depth] += searcher.nodes
    assert nodes[1] < nodes[2], nodes


def test_bots_order_from_depth_1_by_default_only_where_it_paid():
    for name, expected in (
        ("dice", 1),
        ("einstein_wurfelt_nicht", 1),
        ("backgammon", 2),
        ("pig", 2),
    ):
        game = pyspiel.load_game(name)
        for spec in ("star2(max_depth=2)", "chanceprobcut(max_depth=2)"):
            bot = bots.make_bot(spec, game, 0)
            assert bot.searcher.history_min_depth == expected, (name, spec)
        assert bots.make_bot("expectiminimax(max_depth=2)", game, 0).searcher.history_min_depth == 2
    dice = pyspiel.load_game("dice")
    bot = bots.make_bot("star2(max_depth=2,history_min_depth=3)", dice, 0)
    assert bot.searcher.history_min_depth == 3


@pytest.mark.parametrize("bad", ["0", "1.5", "true", "'x'"])
def test_history_min_depth_refuses_bad_values(bad):
    game = pyspiel.load_game("dice")
    with pytest.raises(ValueError, match="history_min_depth"):
        bots.make_bot(f"star2(max_depth=2,history_min_depth={bad})", game, 0)
    with pytest.raises(ValueError, match="history_min_depth must be an integer >= 1"):
        Searcher(game, 0, "star2", history_min_depth=0)
