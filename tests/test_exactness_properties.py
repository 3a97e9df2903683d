"""Property-based exactness tests on generated trees (hypothesis, deterministic).

Trees have random players per node (two moves in a row, chance deciding who
moves next), non-uniform chance probabilities, terminal chance children,
transpositions reached with different remaining depths, one-player variants,
and values on a coarse grid (ties, values equal to the bounds) or continuous.
On a failure hypothesis shrinks the case, then the falsifying tree is
minimized greedily (minimize_tree); the message carries both as
``RandomTree(...)`` literals so the case can be rebuilt and handed on.
"""

from __future__ import annotations

import pytest
from helpers.engines import ENGINES
from helpers.exactness import OPTION_SETS, TOL, tree_case_problems
from helpers.plain_expectiminimax import plain_expectiminimax
from helpers.random_tree import RandomTree, minimize_tree
from helpers.random_tree_game import RandomTreeGame, TreeEvaluator, TreePosition
from helpers.soak import PROFILE, examples
from helpers.tree_strategies import search_cases, tree_strategy
from hypothesis import given, settings
from hypothesis import strategies as st

import bots

TREE_SETS = OPTION_SETS["exact_trees"]


def _problems(
    tree: RandomTree,
    root: int,
    player: int,
    depth: int,
    fast: bool,
    positions: bool,
    ordering: bool,
    engine: str = "python",
) -> list[str]:
    """Every way the exact configurations on ``engine`` disagree with plain on one search."""
    case = (tree, root, player, depth, fast, positions, ordering)
    return tree_case_problems(
        case, TREE_SETS, engine=engine, count_evaluations=True, bounds=tree.eval_bounds
    )


def _is_final_example() -> bool:
    """True while hypothesis replays the shrunk falsifying example."""
    try:
        from hypothesis.control import current_build_context

        return bool(current_build_context().is_final)
    except Exception:  # hypothesis internals moved: just skip minimization
        return False


def _check_all_configs(case, engine: str) -> None:
    tree, root, player, depth, fast, positions, ordering = case
    problems = _problems(*case, engine)
    if not problems:
        return
    settings_text = (
        f"engine={engine} player={player} depth={depth} fast_path={fast} "
        f"accepts_positions={positions} move_ordering={ordering}"
    )
    message = f"\n{tree.literal()}\nroot node={root} {settings_text}:\n" + "\n".join(problems)
    if _is_final_example():
        small = minimize_tree(tree, lambda t: bool(_problems(t, 0, *case[2:], engine)), root)
        message += (
            f"\n\nMinimized (root node 0, {settings_text}):\n{small.literal()}\n"
            + "\n".join(_problems(small, 0, *case[2:], engine))
        )
    raise AssertionError(message)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(150), **PROFILE)
@given(search_cases())
def test_exact_algorithms_equal_plain_on_random_trees(engine, case):
    _check_all_configs(case, engine)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(100), **PROFILE)
@given(search_cases(eval_bounds="mixed"))
def test_exact_when_evaluator_bounds_differ_from_game_utilities(engine, case):
    """Evaluator bounds tighter or wider than the game's min/max utility."""
    _check_all_configs(case, engine)


@st.composite
def bot_cases(draw):
    tree = draw(tree_strategy())
    player = draw(st.integers(0, tree.num_players - 1))
    own = [i for i, n in enumerate(tree.nodes) if n[0] == "D" and n[1] == player]
    if not own:  # the root is always a decision node; search for its player
        player = tree.nodes[0][1]
        own = [i for i, n in enumerate(tree.nodes) if n[0] == "D" and n[1] == player]
    roots = draw(st.lists(st.sampled_from(own), min_size=1, max_size=3))
    return (
        tree,
        player,
        roots,
        draw(st.integers(1, 4)),
        draw(st.sampled_from(["star1", "star2", "expectiminimax"])),
        draw(st.sampled_from([3, 100_000])),
        draw(st.booleans()),
    )


def _check_bot(case, engine: str, deepening: bool) -> None:
    """One bot (one table) on each root: plain's value and an optimal move. A fixed-depth bot
    is stepped twice (the second step meets its own entries); an iterative-deepening bot
    (iterations 1..d share the table) once, and must finish its deepest iteration."""
    tree, player, roots, depth, algorithm, tt_size, fast = case
    game = RandomTreeGame(tree, fast_path=fast)
    evaluator = TreeEvaluator(game)
    spec = f"{algorithm}(max_depth={depth}{',time_limit=600' if deepening else ''})"
    bot = bots.make_bot(spec, game, player, evaluator=evaluator, tt_size=tt_size, engine=engine)
    for root in roots:
        state = TreePosition(game, root).to_state()
        plain = plain_expectiminimax(state, depth, evaluator, player)
        for step in range(1 if deepening else 2):
            action = bot.step(state)
            record = bot.last_search
            if deepening:
                assert record["completed"], record
            assert abs(record["value"] - plain.value) <= TOL, (
                f"\n{tree.literal()}\nbot {spec} tt_size={tt_size} engine={engine} "
                f"fast_path={fast} player={player} roots={roots}: step #{step + 1} on node "
                f"{root} got {record['value']!r} at depth {record['depth']}, plain {plain.value!r}"
            )
            assert action in plain.best_actions()


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(100), **PROFILE)
@given(bot_cases())
def test_persistent_table_keeps_bot_exact(engine, case):
    """One bot (one table) stepped twice on each of several states stays exact."""
    _check_bot(case, engine, deepening=False)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(100), **PROFILE)
@given(bot_cases())
def test_iterative_deepening_reaches_plain_value(engine, case):
    """Iterations 1..d share one table; the final value is plain's at depth d."""
    _check_bot(case, engine, deepening=True)
