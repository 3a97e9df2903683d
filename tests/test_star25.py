"""Ballard's Star2.5 (probing factor k, cyclic or sequential probing).

Fig. 10 of Ballard (1983) gives the order in which each algorithm examines
the 16 leaves below one chance node with four min children of four leaves
each when nothing is cut off; the tests below reproduce it leaf by leaf. Then
exactness: every k and both orders return plain expectiminimax's value, on
generated trees (two moves in a row, chance deciding who moves next,
non-uniform chance, one-player trees) and in real games.
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.engines import ENGINES
from helpers.exactness import OPTION_SETS, TOL, real_game_problems, tree_case_problems
from helpers.plain_expectiminimax import plain_expectiminimax, sample_positions
from helpers.random_tree import RandomTree
from helpers.random_tree_game import RandomTreeGame, TreeEvaluator
from helpers.soak import PROFILE, examples
from helpers.tree_strategies import search_cases
from hypothesis import given, settings

import games  # noqa: F401  (registers dice)
from bots.native_searcher import make_searcher
from bots.search import search


def _fig10_tree() -> RandomTree:
    """Max root: a terminal (it sets alpha), then a chance node of 4 min nodes x 4 leaves.

    Leaf (c, j) is node 7 + 4c + j; its value stays far above alpha, so no
    probe, Star1 or alpha-beta cutoff happens and every leaf is examined once.
    """
    nodes: list = [
        ("D", 0, ((0, 1), (1, 2)), 0.0),
        ("T", -0.9),
        ("C", tuple((c, 0.25, 3 + c) for c in range(4)), 0.0),
    ]
    for c in range(4):
        nodes.append(("D", 1, tuple((j, 7 + 4 * c + j) for j in range(4)), 0.0))
    for c in range(4):
        for j in range(4):
            nodes.append(("D", 0, ((0, 23),), 0.1 + 0.05 * j + 0.01 * c))
    nodes.append(("T", 0.0))
    return RandomTree(nodes=tuple(nodes))


class _RecordingEvaluator(TreeEvaluator):
    def __init__(self, game: RandomTreeGame) -> None:
        super().__init__(game)
        self.order: list[int] = []

    def evaluate(self, state):
        self.order.append(state.node)
        return super().evaluate(state)


def _fig10_visit_numbers(algorithm: str, engine: str, **kwargs) -> list[list[int]]:
    game = RandomTreeGame(_fig10_tree())
    evaluator = _RecordingEvaluator(game)
    result = search(
        game,
        game.new_initial_state(),
        algorithm,
        2,
        evaluator=evaluator,
        move_ordering=False,
        engine=engine,
        **kwargs,
    )
    assert result.engine == engine
    plain = plain_expectiminimax(game.new_initial_state(), 2, TreeEvaluator(game), 0)
    assert abs(result.value - plain.value) <= TOL
    assert sorted(evaluator.order) == list(range(7, 23)), "every leaf exactly once"
    visit = {node: n for n, node in enumerate(evaluator.order, start=1)}
    return [[visit[7 + 4 * c + j] for j in range(4)] for c in range(4)]


FIG10 = {
    "star1": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],
    "star2": [[1, 5, 6, 7], [2, 8, 9, 10], [3, 11, 12, 13], [4, 14, 15, 16]],
    "cyclic k=2": [[1, 5, 9, 10], [2, 6, 11, 12], [3, 7, 13, 14], [4, 8, 15, 16]],
    "sequential k=2": [[1, 2, 9, 10], [3, 4, 11, 12], [5, 6, 13, 14], [7, 8, 15, 16]],
}


@pytest.mark.parametrize(
    "name, algorithm, kwargs",
    [
        ("star1", "star1", {}),
        ("star1", "star2", {"probing_factor": 0}),
        ("star2", "star2", {}),
        ("star2", "star2", {"probing_factor": 1, "probing": "sequential"}),
        ("cyclic k=2", "star2", {"probing_factor": 2, "probing": "cyclic"}),
        ("sequential k=2", "star2", {"probing_factor": 2, "probing": "sequential"}),
    ],
)
def test_leaf_order_of_ballard_fig10(name, algorithm, kwargs, engine):
    assert _fig10_visit_numbers(algorithm, engine, **kwargs) == FIG10[name]


def test_probing_factor_one_is_star2_and_zero_is_star1_node_for_node(engine):
    game = pyspiel.load_game("dice(n=4,k=3)")
    for state in sample_positions(game, 4, seed=5, max_moves=6):
        for tt_size in (0, 10_000):
            options = dict(tt_size=tt_size, engine=engine)
            star1 = search(game, state, "star1", 3, **options)
            star2 = search(game, state, "star2", 3, **options)
            k0 = search(game, state, "star2", 3, probing_factor=0, **options)
            k1 = search(game, state, "star2", 3, probing_factor=1, **options)
            assert {star1.engine, star2.engine, k0.engine, k1.engine} == {engine}
            assert (k0.value, k0.action, k0.stats) == (star1.value, star1.action, star1.stats)
            assert (k1.value, k1.action, k1.stats) == (star2.value, star2.action, star2.stats)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(120), **PROFILE)
@given(search_cases())
def test_star25_equals_plain_on_random_trees(engine, case):
    problems = tree_case_problems(
        case, OPTION_SETS["star25_trees"], engine=engine, count_evaluations=True
    )
    tree, root, _, depth, *_ = case
    assert not problems, "\n".join(problems) + f"\nroot={root} depth={depth}\n" + tree.literal()


# Non-uniform chance (backgammon), chance deciding who moves next (pig), one
# player (2048), a roll before every move (einstein), and Dice.
REAL_GAMES = [
    ("pig", 3, 4, 30),
    ("backgammon", 1, 2, 20),
    ("2048", 2, 2, 30),
    ("einstein_wurfelt_nicht", 2, 3, 8),
    ("dice(n=4,k=3)", 3, 3, 6),
]


@pytest.mark.parametrize("name, depth, count, max_moves", REAL_GAMES)
def test_star25_equals_plain_in_real_games(name, depth, count, max_moves, engine):
    sets = OPTION_SETS["star25_games"]
    problems = real_game_problems(name, depth, count, max_moves, sets, seed=17, engine=engine)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "algorithm, kwargs, message",
    [
        ("star2", {"probing_factor": -1}, "probing_factor must be an integer >= 0"),
        ("star2", {"probing_factor": 1.5}, "probing_factor must be an integer >= 0"),
        ("star2", {"probing": "random"}, "accepted: cyclic, sequential"),
        ("star1", {"probing_factor": 2}, "star1 does not probe"),
        ("expectiminimax", {"probing_factor": 1}, "expectiminimax does not probe"),
    ],
)
def test_bad_probing_parameters_are_refused_clearly(algorithm, kwargs, message, engine):
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError, match=message):
        make_searcher(engine, game, 0, algorithm, **kwargs)


def test_bot_spec_takes_the_probing_factor_and_order(engine):
    import bots

    game = pyspiel.load_game("pig")
    spec = "star2(max_depth=2,probing_factor=3,probing=sequential)"
    bot = bots.make_bot(spec, game, 0, engine=engine)
    assert bot.searcher.engine == engine
    assert (bot.searcher.probing_factor, bot.searcher.probing) == (3, "sequential")
    default = bots.make_bot("star2(max_depth=2)", game, 0, engine=engine)
    assert (default.searcher.probing_factor, default.searcher.probing) == (1, "cyclic")
    with pytest.raises(ValueError, match="accepted: cyclic, sequential"):
        bots.make_bot("star2(probing=round_robin)", game, 0)
