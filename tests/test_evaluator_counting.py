"""``stats["evaluations"]`` is exactly the number of evaluator calls.

Counters are integers incremented where the event happens (docs/guide/bots.md, "What
`last_search` holds").
A counting proxy (which keeps the wrapped evaluator's ``bounds`` and
``accepts_positions``) measures the truth for every algorithm, with and
without a table, through ``search()`` and through bots (fixed depth and
iterative deepening).
"""

from __future__ import annotations

import random

import pyspiel
import pytest
from helpers.plain_expectiminimax import (
    CountingEvaluator,
    HashEvaluator,
    plain_expectiminimax,
    sample_positions,
)
from helpers.random_tree import RandomTree, random_tree
from helpers.random_tree_game import RandomTreeGame, StateOnlyTreeEvaluator, TreeEvaluator

import bots
from bots.probcut_models import ProbCutModel, ProbCutSettings
from bots.search import search

CONFIGS = [
    (alg, tt)
    for alg in ("expectiminimax", "star1", "star2", "chanceprobcut")
    for tt in (0, 100_000)
]
# A crude but valid model: ChanceProbCut is not exact, but must count honestly.
PROBCUT = ProbCutSettings(
    reduction=1, t=1.0, models={d: ProbCutModel(a=1.0, b=0.0, sigma=0.1) for d in (1, 2, 3)}
)


def _evaluator(game: pyspiel.Game):
    if game.num_players() == 1:
        return HashEvaluator(game, (0.0, 2000.0))
    return HashEvaluator(game)


def _cases():
    """(label, game, evaluator, depth, states)."""
    out = []
    for name, depth, count in [
        ("pig", 3, 4),
        ("einstein_wurfelt_nicht", 2, 3),
        ("2048", 2, 2),
        ("backgammon", 1, 2),
    ]:
        game = pyspiel.load_game(name)
        out.append((name, game, _evaluator(game), depth, sample_positions(game, count, 21, 30)))
    for players in (2, 1):
        for fast, positions in [(True, True), (True, False), (False, True)]:
            tree = random_tree(random.Random(players * 10 + fast), num_players=players)
            game = RandomTreeGame(tree, fast_path=fast)
            ev = TreeEvaluator(game) if positions else StateOnlyTreeEvaluator(game)
            out.append(
                (
                    f"tree players={players} fast_path={fast} accepts_positions={positions}",
                    game,
                    ev,
                    3,
                    sample_positions(game, 3, 5, 3),
                )
            )
    return out


CASES = _cases()


@pytest.mark.parametrize("label,game,evaluator,depth,states", CASES, ids=[c[0] for c in CASES])
def test_search_counts_every_evaluator_call(label, game, evaluator, depth, states):
    for state in states:
        plain = plain_expectiminimax(state, depth, evaluator)
        for algorithm, tt_size in CONFIGS:
            counting = CountingEvaluator(evaluator)
            res = search(
                game,
                state,
                algorithm,
                depth,
                evaluator=counting,
                tt_size=tt_size,
                probcut=PROBCUT if algorithm == "chanceprobcut" else None,
            )
            where = f"{label} {algorithm} tt_size={tt_size} depth={depth}"
            assert res.stats["evaluations"] == counting.calls, where
            assert res.stats["leaves"] >= res.stats["evaluations"], where
            if algorithm in ("expectiminimax", "star1") and tt_size == 0:
                # No probes, no table: a subset of plain's leaves, each visited once.
                assert counting.calls <= plain.evaluations, where


def test_counting_proxy_keeps_evaluator_attributes():
    game = RandomTreeGame(
        RandomTree(nodes=(("D", 0, ((0, 1),), 0.0), ("T", 1.0)), eval_bounds=(-0.5, 0.5))
    )
    proxy = CountingEvaluator(TreeEvaluator(game))
    assert proxy.bounds == (-0.5, 0.5) and proxy.accepts_positions is True
    assert CountingEvaluator(StateOnlyTreeEvaluator(game)).accepts_positions is False


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2"])
@pytest.mark.parametrize("time_limit", [None, 0.05])
def test_bot_counts_every_evaluator_call(algorithm, time_limit):
    """Fixed depth and iterative deepening (evaluations summed over iterations)."""
    game = pyspiel.load_game("pig")
    counting = CountingEvaluator(_evaluator(game))
    spec = (
        f"{algorithm}(max_depth=3)"
        if time_limit is None
        else f"{algorithm}(time_limit={time_limit})"
    )
    for state in sample_positions(game, 4, 9, 40):
        bot = bots.make_bot(spec, game, state.current_player(), evaluator=counting)
        before = counting.calls
        bot.step(state)
        assert bot.last_search["evaluations"] == counting.calls - before, spec


class _LyingEvaluator:
    """Declares (-0.5, 0.5) but returns 0.9: must be refused, not clamped."""

    bounds = (-0.5, 0.5)

    def evaluate(self, state):
        return [0.9, -0.9]


def test_leaf_value_outside_declared_bounds_is_an_error():
    game = pyspiel.load_game("pig")
    state = sample_positions(game, 1, 1, 10)[0]
    for algorithm in ("expectiminimax", "star1", "star2"):
        with pytest.raises(ValueError):
            search(game, state, algorithm, 2, evaluator=_LyingEvaluator())


def test_terminal_value_outside_declared_bounds_is_an_error():
    """Declared bounds cover terminal values too (bots/evaluators.py contract)."""
    tree = RandomTree(
        nodes=(("D", 0, ((0, 1), (1, 2)), 0.0), ("T", 1.0), ("T", 0.0)), eval_bounds=(-0.5, 0.5)
    )
    game = RandomTreeGame(tree)
    for algorithm in ("expectiminimax", "star1", "star2"):
        with pytest.raises(ValueError):
            search(game, game.new_initial_state(), algorithm, 2, evaluator=TreeEvaluator(game))
