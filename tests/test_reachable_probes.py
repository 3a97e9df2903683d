"""Star2 that skips the probes which can no longer cut (``reachable_probes``).

Skipping a probe only leaves a bound wider, so the value must stay plain
expectiminimax's: on generated trees (two moves in a row, chance deciding who
moves next, non-uniform chance, one player) and in real games. In Pig, where a
roll of 1 hands the turn over, it must also search fewer nodes than Star2:
node counts are deterministic, so this is a count, not a timing.
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.engines import ENGINES
from helpers.exactness import OPTION_SETS, real_game_problems, tree_case_problems
from helpers.plain_expectiminimax import sample_positions
from helpers.soak import PROFILE, examples
from helpers.tree_strategies import search_cases
from hypothesis import given, settings

import bots
import games  # noqa: F401  (registers dice)
from bots.calibration import probcut_settings
from bots.search import search


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(120), **PROFILE)
@given(search_cases())
def test_reachable_probes_equal_plain_on_random_trees(engine, case):
    problems = tree_case_problems(
        case, OPTION_SETS["reachable_trees"], engine=engine, count_evaluations=True
    )
    assert not problems, "\n".join(problems) + "\n" + case[0].literal()


@pytest.mark.parametrize(
    "name, depth, count, max_moves",
    [
        ("pig", 4, 4, 30),
        ("backgammon", 1, 2, 20),
        ("2048", 2, 2, 30),
        ("einstein_wurfelt_nicht", 3, 3, 8),
        ("dice(n=4,k=3)", 3, 3, 6),
    ],
)
def test_reachable_probes_equal_plain_in_real_games(name, depth, count, max_moves, engine):
    sets = OPTION_SETS["reachable_games"]
    problems = real_game_problems(name, depth, count, max_moves, sets, seed=23, engine=engine)
    assert not problems, "\n".join(problems)


def test_reachable_probes_search_fewer_nodes_in_pig(engine):
    game = pyspiel.load_game("pig")
    star2 = reachable = 0
    for state in sample_positions(game, 4, seed=3, max_moves=20):
        options = dict(tt_size=100_000, engine=engine)
        star2 += search(game, state, "star2", 5, **options).stats["nodes"]
        reachable += search(game, state, "star2", 5, reachable_probes=True, **options).stats[
            "nodes"
        ]
    assert reachable < 0.8 * star2, (reachable, star2)


def test_chanceprobcut_with_reachable_probes_plays_the_same_moves_in_pig_with_fewer_nodes(engine):
    # Forward pruning is not exact, so the bot default rests on measured move agreement:
    # skipping hopeless probes must not change chanceprobcut's move, only its work.
    game = pyspiel.load_game("pig")
    settings = probcut_settings(game, None, 1.5)
    plain = reachable = 0
    for state in sample_positions(game, 12, seed=7, max_moves=60):
        runs = [
            search(
                game,
                state,
                "chanceprobcut",
                5,
                tt_size=100_000,
                probcut=settings,
                engine=engine,
                **option,
            )
            for option in ({}, {"reachable_probes": True})
        ]
        assert runs[0].action == runs[1].action, state.history()
        assert abs(runs[0].value - runs[1].value) < 0.01, state.history()
        plain += runs[0].stats["nodes"]
        reachable += runs[1].stats["nodes"]
    assert reachable < 0.8 * plain, (reachable, plain)


def test_bot_spec_takes_reachable_probes_and_refuses_non_booleans(engine):
    game = pyspiel.load_game("pig")
    bot = bots.make_bot("star2(max_depth=2,reachable_probes=true)", game, 0, engine=engine)
    assert bot.searcher.options.study.reachable_probes is True
    assert bot.searcher.engine == engine
    with pytest.raises(ValueError, match="reachable_probes must be true or false"):
        bots.make_bot("star2(max_depth=2,reachable_probes=3)", game, 0)


def test_star2_bot_defaults_per_game_and_the_spec_wins():
    pig = pyspiel.load_game("pig")
    backgammon = pyspiel.load_game("backgammon")
    dice = pyspiel.load_game("dice(n=4,k=3)")
    searcher = bots.make_bot("star2(max_depth=2)", pig, 0).searcher
    assert (searcher.options.study.reachable_probes, searcher.probing_factor) == (True, 1)
    searcher = bots.make_bot("star2(max_depth=2)", backgammon, 0).searcher
    assert (searcher.options.study.reachable_probes, searcher.probing_factor) == (False, 1)
    searcher = bots.make_bot("star2(max_depth=2)", dice, 0).searcher
    assert (searcher.options.study.reachable_probes, searcher.probing_factor) == (False, 1)
    spec = "star2(max_depth=2,reachable_probes=false,probing_factor=2)"
    for game in (pig, backgammon):
        searcher = bots.make_bot(spec, game, 0).searcher
        assert (searcher.options.study.reachable_probes, searcher.probing_factor) == (False, 2)
    # ChanceProbCut skips them in pig too; MCMS keeps Star2's own probing everywhere.
    assert (
        bots.make_bot("chanceprobcut(max_depth=2)", pig, 0).searcher.options.study.reachable_probes
        is True
    )
    spec = "chanceprobcut(max_depth=2,reachable_probes=false)"
    assert bots.make_bot(spec, pig, 0).searcher.options.study.reachable_probes is False
    searcher = bots.make_bot("chanceprobcut(max_depth=2)", backgammon, 0).searcher
    assert searcher.options.study.reachable_probes is False
    assert (
        bots.make_bot("mcms(max_depth=2)", pig, 0).searcher.options.study.reachable_probes is False
    )
