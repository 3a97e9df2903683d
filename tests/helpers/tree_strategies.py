"""Hypothesis strategies that draw random trees (random_tree.py) and whole search cases,
shrinking towards small trees; hypothesis is a test-only dependency."""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import strategies as st

from helpers.random_tree import random_tree, reorder


@functools.cache  # built once: st.composite reads its function's source on every build
def tree_strategy(
    num_players: int | None = None,
    max_nodes: int = 60,
    max_level: int = 8,
    eval_bounds: str = "same",
):
    """Hypothesis strategy for RandomTree (shrinks towards small trees).

    ``eval_bounds``: "same" (evaluator bounds = utility bounds), or "mixed"
    (evaluator bounds tighter or wider than the game's min/max utility; terminal
    values lie within both, as the evaluator contract requires).
    """

    @st.composite
    def build_tree(draw):
        players = num_players or draw(st.sampled_from([2, 1]))
        if players == 2:
            b = draw(st.sampled_from([1.0, 2.5]))
            ub = (-b, b)
        else:
            ub = draw(st.sampled_from([(-2.0, 5.0), (0.0, 1.0), (1.0, 3.0)]))
        eb = ub
        if eval_bounds == "mixed":
            scale = draw(st.sampled_from([0.5, 2.0]))
            mid, half = (ub[0] + ub[1]) / 2, (ub[1] - ub[0]) / 2
            eb = (mid - scale * half, mid + scale * half)
        grid = draw(st.booleans())  # grid values: many ties and values on the bounds

        def value(bounds: tuple[float, float]) -> float:
            lo, hi = bounds
            if grid:
                return lo + (hi - lo) * draw(st.integers(0, 4)) / 4
            return draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))

        nodes: list[Any] = []
        finished: list[int] = []

        def build(level: int, force_decision: bool = False) -> int:
            idx = len(nodes)
            nodes.append(None)
            if force_decision:
                kind = "D"
            elif level >= max_level or len(nodes) >= max_nodes:
                kind = "T"
            else:
                kind = draw(st.sampled_from(["T", "D", "C", "D", "C", "D", "C"]))
            if kind == "T":
                nodes[idx] = ("T", value((max(ub[0], eb[0]), min(ub[1], eb[1]))))
            elif kind == "D":
                player = 0 if players == 1 else draw(st.integers(0, 1))
                k = draw(st.sampled_from([1, 2, 3, 4]))
                actions = sorted(
                    draw(st.lists(st.integers(0, 5), min_size=k, max_size=k, unique=True))
                )
                edges = tuple((a, child(level)) for a in actions)
                nodes[idx] = ("D", player, edges, value(eb))
            else:
                k = draw(st.sampled_from([1, 2, 3, 4]))
                outcomes = sorted(
                    draw(st.lists(st.integers(0, 4), min_size=k, max_size=k, unique=True))
                )
                weights = [draw(st.integers(1, 20)) for _ in outcomes]
                total = sum(weights)
                edges = tuple((o, w / total, child(level)) for o, w in zip(outcomes, weights))
                nodes[idx] = ("C", edges, value(eb))
            finished.append(idx)
            return idx

        def child(level: int) -> int:
            if finished and draw(st.sampled_from(range(5))) == 0:
                return draw(st.sampled_from(finished))  # transposition
            return build(level + 1)

        build(0, force_decision=True)
        return reorder(nodes, players, ub, eb)

    @st.composite
    def seeded_tree(draw):
        # Bigger, bushier trees with more transpositions; no shrinking, but the
        # seed and the printed literal reproduce them.
        players = num_players or draw(st.sampled_from([2, 1]))
        ub = (-1.0, 1.0) if players == 2 else (-2.0, 5.0)
        eb = ub
        if eval_bounds == "mixed":
            scale = draw(st.sampled_from([0.5, 2.0]))
            mid, half = (ub[0] + ub[1]) / 2, (ub[1] - ub[0]) / 2
            eb = (mid - scale * half, mid + scale * half)
        return random_tree(
            random.Random(draw(st.integers(0, 2**32))),
            num_players=players,
            max_nodes=2 * max_nodes,
            grid=draw(st.booleans()),
            utility_bounds=ub,
            eval_bounds=eb,
            reuse=0.25,
            max_branching=4,
            layered=draw(st.booleans()),
        )

    return st.one_of(build_tree(), seeded_tree())


@functools.cache
def search_cases(eval_bounds: str = "same"):
    """Hypothesis strategy for one search of a generated tree: (tree, root node, searching
    player, depth, fast_path, evaluator accepts positions, move_ordering)."""

    @st.composite
    def case(draw):
        tree = draw(tree_strategy(eval_bounds=eval_bounds))
        roots = [i for i, n in enumerate(tree.nodes) if n[0] != "T"]
        # Mostly the whole tree; sometimes an inner node (chance roots, opponent's nodes).
        root = draw(st.sampled_from(roots)) if draw(st.integers(0, 3)) == 0 else 0
        player = draw(st.integers(0, tree.num_players - 1))
        depth = draw(st.sampled_from([1, 2, 3, 4]))
        return (
            tree,
            root,
            player,
            depth,
            draw(st.booleans()),
            draw(st.booleans()),
            draw(st.booleans()),
        )

    return case()
