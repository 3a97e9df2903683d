"""Move-ordering options: history from depth 1 and ordering by the evaluator.

``history_min_depth=1`` is the star2 and chanceprobcut bots' default in dice and
einstein, ``static_ordering`` star2's in backgammon. Ordering changes which moves
are searched first, never a value: under iterative deepening (history and table
filled by earlier iterations, as in a bot) every depth must still return plain
expectiminimax's value, also on generated trees. Where a default is set, the
option must search fewer nodes: node counts are deterministic, so these are
counts, not timings.
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.engines import ENGINES
from helpers.exactness import OPTION_SETS, ORDERINGS, real_game_problems, tree_case_problems
from helpers.plain_expectiminimax import sample_positions
from helpers.soak import PROFILE, examples
from helpers.tree_strategies import search_cases
from hypothesis import given, settings
from hypothesis import strategies as st

import bots
import games  # noqa: F401  (registers dice)
from bots.native_searcher import make_searcher


def _deepening(game, state, algorithm, max_depth, engine="python", **options):
    """One searcher deepened to ``max_depth``, table and history kept."""
    searcher = make_searcher(engine, game, state.current_player(), algorithm, **options)
    assert searcher.engine == engine
    for depth in range(1, max_depth + 1):
        searcher.search(state, depth)
    return searcher


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(80), **PROFILE)
@given(search_cases(), st.sampled_from(list(ORDERINGS)))
def test_ordering_options_equal_plain_on_random_trees(engine, case, ordering):
    sets = OPTION_SETS[f"ordering_trees_{ordering}"]
    problems = tree_case_problems(case, sets, engine=engine, case_ordering=False, deepening=True)
    assert not problems, "\n".join(problems) + "\n" + case[0].literal()


@pytest.mark.parametrize("ordering", list(ORDERINGS))
@pytest.mark.parametrize(
    "name, depth, count, max_moves",
    [
        ("dice(n=4,k=3)", 4, 3, 6),
        ("einstein_wurfelt_nicht", 3, 3, 8),
        ("backgammon", 2, 2, 20),
        ("pig", 4, 3, 30),
    ],
)
def test_ordering_options_equal_plain_in_real_games(
    name, depth, count, max_moves, ordering, engine
):
    sets = OPTION_SETS[f"ordering_games_{ordering}"]
    problems = real_game_problems(
        name,
        depth,
        count,
        max_moves,
        sets,
        seed=31,
        engine=engine,
        decisions_only=True,
        deepening=True,
    )
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, depth, positions, option, default, other",
    [
        ("dice(n=5,k=4)", 4, 3, "history_min_depth", 1, 2),
        ("backgammon", 3, 2, "static_ordering", True, False),
    ],
)
def test_bot_default_searches_fewer_nodes(name, depth, positions, option, default, other, engine):
    game = pyspiel.load_game(name)
    nodes = {default: 0, other: 0}
    for state in sample_positions(game, positions, seed=5, max_moves=10):
        if state.current_player() < 0:
            continue
        for setting in nodes:
            options = {option: setting}
            searcher = _deepening(game, state, "star2", depth, engine, tt_size=100_000, **options)
            nodes[setting] += searcher.nodes
    assert nodes[default] < nodes[other], nodes


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
            assert bot.searcher.options.history_min_depth == expected, (name, spec)
        assert (
            bots.make_bot("expectiminimax(max_depth=2)", game, 0).searcher.options.history_min_depth
            == 2
        )
    dice = pyspiel.load_game("dice")
    bot = bots.make_bot("star2(max_depth=2,history_min_depth=3)", dice, 0)
    assert bot.searcher.options.history_min_depth == 3


def test_bots_order_by_the_evaluator_by_default_in_backgammon_only():
    for name in ("backgammon", "pig", "dice", "einstein_wurfelt_nicht"):
        game = pyspiel.load_game(name)
        expected = name == "backgammon"
        assert (
            bots.make_bot("star2(max_depth=2)", game, 0).searcher.options.static_ordering
            is expected
        )
        for other in ("expectiminimax", "chanceprobcut", "mcms"):
            assert (
                bots.make_bot(f"{other}(max_depth=2)", game, 0).searcher.options.static_ordering
                is False
            )
    backgammon = pyspiel.load_game("backgammon")
    bot = bots.make_bot("star2(max_depth=2,static_ordering=false)", backgammon, 0)
    assert bot.searcher.options.static_ordering is False
    with pytest.raises(ValueError, match="static_ordering must be true or false"):
        bots.make_bot("star2(max_depth=2,static_ordering=2)", backgammon, 0)


@pytest.mark.parametrize("bad", ["0", "1.5", "true", "'x'"])
def test_history_min_depth_refuses_bad_values(bad, engine):
    game = pyspiel.load_game("dice")
    with pytest.raises(ValueError, match="history_min_depth"):
        bots.make_bot(f"star2(max_depth=2,history_min_depth={bad})", game, 0, engine=engine)
    with pytest.raises(ValueError, match="history_min_depth must be an integer >= 1"):
        make_searcher(engine, game, 0, "star2", history_min_depth=0)
