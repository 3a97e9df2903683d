"""The exactness checks every search test shares: against plain expectiminimax, and between
the two engines.

An exact configuration must return plain expectiminimax's root value (to ``TOL``) and an
optimal root move at the same depth with the same evaluator (docs/guide/search.md,
"Conventions"). ``OPTION_SETS`` lists, in one place, every configuration the exactness
tests run; ``plain_problems`` runs a list of them on one position and says how each
disagrees with plain. ``deepen`` and ``deepening_differences`` check a bot's own iterative
deepening, iteration by iteration and counter by counter: against the golden file or
between the engines.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import pyspiel
import pytest

import bots
from bots.native_searcher import make_searcher
from bots.search import search
from helpers.plain_expectiminimax import CountingEvaluator, plain_expectiminimax, sample_positions
from helpers.random_tree_game import TreePosition, game_and_evaluator

TOL = 1e-9
EXACT_ALGORITHMS = ("expectiminimax", "star1", "star2")
# Star2.5 (Ballard): k=0 probes nothing (Star1's cuts), k=1 is Star2.
STAR25 = tuple(
    [{"probing_factor": 0, "probing": "cyclic"}]
    + [{"probing_factor": k, "probing": p} for k in (1, 2, 3) for p in ("cyclic", "sequential")]
)
ORDERINGS = {"history": {"history_min_depth": 1}, "static": {"static_ordering": True}}
# Table sizes: none; 2 entries, replaced in the middle of a search; room for the whole search.
TREE_TABLES = (0, 2, 100_000)
GAME_TABLES = (0, 10_000)

Options = dict[str, Any]


def option_sets(
    algorithms: Iterable[str], tt_sizes: Iterable[int], variants: Iterable[Options] = ({},)
) -> tuple[Options, ...]:
    """Every algorithm x variant x table size, as ``search()`` keyword arguments."""
    return tuple(
        {"algorithm": algorithm, **variant, "tt_size": tt_size}
        for algorithm, variant, tt_size in itertools.product(algorithms, variants, tt_sizes)
    )


# Every configuration the exactness tests check, by the test that checks it.
OPTION_SETS: dict[str, tuple[Options, ...]] = {
    # test_exactness: real games and seeded trees, without and with a table.
    "exact": option_sets(EXACT_ALGORITHMS, (0, 100_000)),
    # test_exactness_properties: generated trees, a table replaced mid-search included.
    "exact_trees": option_sets(EXACT_ALGORITHMS, TREE_TABLES),
    # test_custom_games_exact: the custom games.
    "custom_games": option_sets(EXACT_ALGORITHMS, (0,)) + option_sets(("star2",), (100_000,)),
    # test_star25: every probing factor and order.
    "star25_trees": option_sets(("star2",), TREE_TABLES, STAR25),
    "star25_games": option_sets(("star2",), GAME_TABLES, STAR25),
    # test_reachable_probes: Star2 skipping the probes that can no longer cut.
    "reachable_trees": option_sets(("star2",), TREE_TABLES, ({"reachable_probes": True},)),
    "reachable_games": option_sets(("star2",), GAME_TABLES, ({"reachable_probes": True},)),
    # test_ordering_options: one searcher deepened, per move-ordering option.
    **{
        f"ordering_trees_{name}": option_sets(("star1", "star2"), (0, 100_000), (ordering,))
        for name, ordering in ORDERINGS.items()
    },
    **{
        f"ordering_games_{name}": option_sets(("star2",), (10_000,), (ordering,))
        for name, ordering in ORDERINGS.items()
    },
}


def with_options(sets: Iterable[Options], **options: Any) -> tuple[Options, ...]:
    """``sets`` with ``options`` added to each (``move_ordering=False``, say)."""
    return tuple({**s, **options} for s in sets)


def tag(options: Options) -> str:
    """``star2(tt_size=0,probing_factor=2)``: an option set as a bot spec names it."""
    rest = ",".join(f"{k}={v}" for k, v in options.items() if k != "algorithm")
    return f"{options['algorithm']}({rest})"


# What a search bot's last_search holds after every step (docs: search statistics).
LAST_SEARCH_KEYS = (
    "value",
    "action",
    "depth",
    "time",
    "nodes",
    "leaves",
    "evaluations",
    "probe_nodes",
    "tt_hits",
    "cutoffs_alpha_beta",
    "cutoffs_star1",
    "cutoffs_star2_probe",
    "cutoffs_probcut",
    "probcut_nodes",
    "completed",
)


@dataclasses.dataclass
class Check:
    """Each way the option sets disagreed with plain, and each one's node count."""

    problems: list[str]
    nodes: dict[str, int]  # tag(options) -> nodes; "plain" -> plain's


def plain_problems(
    game: Any,
    state: Any,
    depth: int,
    sets: Sequence[Options],
    *,
    engine: str,
    evaluator: Any,
    player: int | None = None,
    pass_evaluator: bool = True,
    count_evaluations: bool = False,
    bounds: tuple[float, float] | None = None,
    deepening: bool = False,
    where: str = "",
) -> Check:
    """Runs every option set on ``engine`` and compares it with plain expectiminimax.

    ``evaluator`` is plain's; the search gets it too unless ``pass_evaluator`` is False
    (then the engine's own default, which must equal it, as the bots use). Value and, at a
    decision root, the move are always checked; ``count_evaluations`` also checks
    ``stats["evaluations"]`` against the calls (through a counting proxy, so a native
    search calls back into Python), ``bounds`` that the values lie within them.
    ``deepening`` searches depths 1..``depth`` with one searcher per option set (table and
    history kept, as in a bot) and checks every iteration.
    """
    plains = {
        d: plain_expectiminimax(state, d, evaluator, player) for d in _depths(depth, deepening)
    }
    problems: list[str] = []
    nodes = {"plain": plains[depth].nodes}
    if bounds is not None and not bounds[0] - TOL <= plains[depth].value <= bounds[1] + TOL:
        problems.append(f"{where} plain value {plains[depth].value} outside bounds {bounds}")
    for options in sets:
        counting = CountingEvaluator(evaluator) if count_evaluations else None
        kwargs = dict(options)
        algorithm = kwargs.pop("algorithm")
        if pass_evaluator:
            kwargs["evaluator"] = counting or evaluator
        name = f"{where} {tag(options)} engine={engine}"
        if deepening:
            seat = state.current_player() if player is None else player
            searcher = make_searcher(engine, game, seat, algorithm, **kwargs)
            assert searcher.engine == engine
            runs = [(d, *searcher.search(state, d)) for d in _depths(depth, deepening)]
            evaluations, node_count = searcher.evaluations, searcher.nodes
        else:
            result = search(game, state, algorithm, depth, player=player, engine=engine, **kwargs)
            assert result.engine == engine
            runs = [(depth, result.value, result.action)]
            evaluations, node_count = result.stats["evaluations"], result.stats["nodes"]
        nodes[tag(options)] = node_count
        for d, value, action in runs:
            plain = plains[d]
            if not abs(value - plain.value) <= TOL:
                problems.append(f"{name} depth={d}: value {value!r}, plain {plain.value!r}")
            elif bounds is not None and not bounds[0] - TOL <= value <= bounds[1] + TOL:
                problems.append(f"{name} depth={d}: value {value!r} outside bounds {bounds}")
            elif plain.action_values and action not in plain.best_actions():
                problems.append(
                    f"{name} depth={d}: action {action} is not optimal; "
                    f"plain action values {plain.action_values}"
                )
        if counting is not None and evaluations != counting.calls:
            problems.append(
                f"{name}: stats evaluations {evaluations}, evaluator called {counting.calls} times"
            )
    return Check(problems, nodes)


def tree_case_problems(
    case: tuple, sets: Sequence[Options], *, engine: str, case_ordering: bool = True, **checks: Any
) -> list[str]:
    """``plain_problems`` on one generated case (``random_tree_game.search_cases``); the
    case's ``move_ordering`` is added to every option set unless ``case_ordering`` is False."""
    tree, root, player, depth, fast, positions, ordering = case
    game, evaluator = game_and_evaluator(tree, fast, positions)
    if case_ordering:
        sets = with_options(sets, move_ordering=ordering)
    state = TreePosition(game, root).to_state()
    return plain_problems(
        game, state, depth, sets, engine=engine, evaluator=evaluator, player=player, **checks
    ).problems


def positions_problems(
    game: Any, states: Iterable[Any], depths: Iterable[int], sets: Sequence[Options], **checks: Any
) -> list[str]:
    """``plain_problems`` on each of ``states`` at each of ``depths``, each problem naming
    the game and the position's history."""
    problems = []
    for state in states:
        for depth in depths:
            where = f"{game} history={state.history()}"
            problems += plain_problems(game, state, depth, sets, where=where, **checks).problems
    return problems


def real_game_problems(
    name: str,
    depth: int,
    count: int,
    max_moves: int,
    sets: Sequence[Options],
    *,
    seed: int,
    engine: str,
    decisions_only: bool = False,
    **checks: Any,
) -> list[str]:
    """``positions_problems`` on ``count`` seeded positions of the game ``name`` at ``depth``,
    the search on the bots' own default evaluator (plain on the same one, made here);
    ``decisions_only`` leaves out chance roots."""
    from bots.evaluators import make_evaluator  # noqa: PLC0415

    game = pyspiel.load_game(name)
    states = sample_positions(game, count, seed=seed, max_moves=max_moves)
    if decisions_only:
        states = [state for state in states if state.current_player() >= 0]
    return positions_problems(
        game,
        states,
        (depth,),
        sets,
        engine=engine,
        evaluator=make_evaluator(None, game),
        pass_evaluator=False,
        **checks,
    )


def _depths(depth: int, deepening: bool) -> range:
    return range(1, depth + 1) if deepening else range(depth, depth + 1)


def deepen(
    game: Any, state: Any, spec: str, depth: int, engine: str, **overrides: Any
) -> dict[str, Any]:
    """A bot's own deepening on one position: one searcher, table and history kept, the
    previous iteration's move first. Returns each iteration's [value, action] and the
    final ``stats()``."""
    searcher = bots.make_bot(spec, game, state.current_player(), engine=engine, **overrides)
    searcher = searcher.searcher
    assert searcher.engine == engine
    searcher.reset_stats()
    order: list[int] = []
    iterations = []
    for d in range(1, depth + 1):
        value, action = searcher.search(state, d, root_order=order)
        order = [action] if action is not None else []
        iterations.append([value, action])
    return {"iterations": iterations, "stats": searcher.stats()}


def deepening_differences(
    expected: dict[str, Any], got: dict[str, Any], counters: Iterable[str] | None = None
) -> list[str]:
    """How ``got`` (from ``deepen``) differs from ``expected``: the number of iterations, a
    move, a value (``pytest.approx`` with ``abs=TOL``), or the counters (all of them, or
    only ``counters``)."""
    out = []
    if len(got["iterations"]) != len(expected["iterations"]):
        out.append(f"{len(got['iterations'])} iterations, expected {len(expected['iterations'])}")
    for d, ((value, action), (want, want_action)) in enumerate(
        zip(got["iterations"], expected["iterations"]), start=1
    ):
        if action != want_action:
            out.append(f"depth {d}: action {action}, expected {want_action}")
        elif value != pytest.approx(want, abs=TOL):
            out.append(f"depth {d}: value {value!r}, expected {want!r}")
    stats, want_stats = got["stats"], expected["stats"]
    if counters is not None:
        stats = {key: stats.get(key) for key in counters}
        want_stats = {key: want_stats.get(key) for key in counters}
    if stats != want_stats:
        out.append(f"stats {stats}, expected {want_stats}")
    return out
