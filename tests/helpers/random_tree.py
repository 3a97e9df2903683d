"""Explicit random game trees (DAGs) for the exactness tests: the literal, its generator
and its shrinker. The pyspiel game that walks a tree is random_tree_game.py; the hypothesis
strategies that draw trees are tree_strategies.py.

Why: real games rarely hit the awkward cases of chance-node pruning on demand.
Here every case is cheap to produce and to shrink: a player may move twice in a
row, chance decides who moves next, chance probabilities are non-uniform, chance
children may be terminal, one-player (max/chance) trees, sparse action ids, and
transpositions (the tree is a DAG, so one node can be reached along paths that
spend different amounts of depth).

A tree is a tuple of node descriptions; node 0 is the root and every child index
is larger than its parent's (so the graph is acyclic):

* ``("T", v)``: terminal, returns ``[v, -v]`` (two players) or ``[v]``.
* ``("D", player, ((action, child), ...), h)``: decision node of ``player``.
* ``("C", ((outcome, prob, child), ...), h)``: chance node.

``h`` is the heuristic value for player 0 that ``TreeEvaluator`` returns
when the search stops at that node (per-player values ``[h, -h]`` or ``[h]``).
The description is a plain literal, so a failing case can be pasted into a bug
report and rebuilt with ``RandomTreeGame(RandomTree(nodes, ...))``.
"""

from __future__ import annotations

import collections
import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

Node = tuple  # ("T", v) | ("D", p, ((a, c), ...), h) | ("C", ((o, p, c), ...), h)


class TreeLiteral:
    """What every generated tree (a frozen dataclass) shares: it is never copied, and it
    prints as a Python expression that rebuilds it, to paste from a failure into a bug
    report."""

    def __deepcopy__(self, memo: dict) -> TreeLiteral:
        return self  # immutable; states are deep-copied on every clone

    def literal(self) -> str:
        """A Python expression that rebuilds this tree (for bug reports)."""
        fields = ", ".join(
            f"{field.name}={getattr(self, field.name)!r}" for field in dataclasses.fields(self)
        )
        return f"{type(self).__name__}({fields})"


@dataclasses.dataclass(frozen=True)
class RandomTree(TreeLiteral):
    """An explicit tree (DAG) plus the value bounds that hold on it.

    ``utility_bounds`` bound terminal values (the game's min/max utility);
    ``eval_bounds`` bound the evaluator's values (defaults to the same).
    """

    nodes: tuple
    num_players: int = 2
    utility_bounds: tuple[float, float] = (-1.0, 1.0)
    eval_bounds: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.eval_bounds is None:
            object.__setattr__(self, "eval_bounds", self.utility_bounds)
        object.__setattr__(self, "nodes", tuple(self.nodes))
        _validate(self)


def _in(v: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] <= v <= bounds[1]


def _validate(tree: RandomTree) -> None:
    """Rejects malformed trees early, naming the offending node."""
    if tree.num_players not in (1, 2):
        raise ValueError(f"num_players must be 1 or 2, got {tree.num_players}")
    if not tree.nodes:
        raise ValueError("tree has no nodes")
    ub, eb = tree.utility_bounds, tree.eval_bounds
    for i, node in enumerate(tree.nodes):
        kind = node[0]
        vals: list[float] = []
        if kind == "T":
            vals = [node[1]] if tree.num_players == 1 else [node[1], -node[1]]
            if not all(_in(v, ub) for v in vals):
                raise ValueError(f"node {i}: terminal value {node[1]} outside utility bounds {ub}")
            continue
        if kind == "D":
            _, player, edges, h = node
            if player not in range(tree.num_players):
                raise ValueError(f"node {i}: player {player} not in 0..{tree.num_players - 1}")
            children = [c for _, c in edges]
            actions = [a for a, _ in edges]
        elif kind == "C":
            _, edges, h = node
            children = [c for _, _, c in edges]
            actions = [o for o, _, _ in edges]
            probs = [p for _, p, _ in edges]
            if any(p <= 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-9:
                raise ValueError(f"node {i}: chance probabilities {probs} must be > 0 and sum to 1")
        else:
            raise ValueError(f"node {i}: kind {kind!r} is not one of 'T', 'D', 'C'")
        if not edges:
            raise ValueError(f"node {i}: non-terminal node without children")
        if sorted(set(actions)) != list(actions):
            raise ValueError(f"node {i}: actions {actions} must be strictly increasing")
        if any(not (i < c < len(tree.nodes)) for c in children):
            raise ValueError(f"node {i}: children {children} must lie in ({i}, {len(tree.nodes)})")
        hv = [h] if tree.num_players == 1 else [h, -h]
        if not all(_in(v, eb) for v in hv):
            raise ValueError(f"node {i}: heuristic value {h} outside eval bounds {eb}")


def _children(node: Node) -> list[int]:
    if node[0] == "D":
        return [c for _, c in node[2]]
    if node[0] == "C":
        return [c for _, _, c in node[1]]
    return []


def max_length(nodes: Sequence[Node]) -> int:
    """The most moves (decisions and chance events) from the root to a terminal, at least 1."""
    length = [0] * len(nodes)
    for i in range(len(nodes) - 1, -1, -1):
        children = _children(nodes[i])
        if children:
            length[i] = 1 + max(length[c] for c in children)
    return max(1, length[0])


def random_tree(
    rng: random.Random,
    *,
    num_players: int = 2,
    max_nodes: int = 60,
    max_level: int = 9,
    grid: bool = False,
    utility_bounds: tuple[float, float] | None = None,
    eval_bounds: tuple[float, float] | None = None,
    reuse: float = 0.1,
    max_branching: int = 3,
    layered: bool = False,
) -> RandomTree:
    """A seeded random tree with every awkward feature (see module docstring).

    ``grid=True`` draws values from a coarse grid so ties (and values equal to
    the bounds) are frequent; ``reuse`` is the chance that a child slot points
    at an already built node (a transposition). ``layered=True`` makes the tree
    look like a dice game: decision and chance levels mostly alternate, the
    player mostly alternates, few early terminals, at least two successors per
    node (the shapes where Star2's probing and alpha-beta cutoffs happen); the
    irregular cases still occur, only less often.
    """
    if utility_bounds is None:
        utility_bounds = (-1.0, 1.0) if num_players == 2 else (-2.0, 5.0)
    if eval_bounds is None:
        eval_bounds = utility_bounds
    # Terminals within both: declared evaluator bounds must cover terminal values.
    terminal_bounds = (
        max(utility_bounds[0], eval_bounds[0]),
        min(utility_bounds[1], eval_bounds[1]),
    )
    p_terminal = 0.05 if layered else 0.15
    min_branching = 2 if layered else 1

    def value(bounds: tuple[float, float]) -> float:
        lo, hi = bounds
        if grid:
            return lo + (hi - lo) * rng.randint(0, 4) / 4
        return rng.uniform(lo, hi)

    # Built breadth first so the node budget thins out every branch evenly.
    nodes: list[Any] = [None]
    queue = collections.deque([(0, 0, "T", -1)])  # (index, level, parent kind, last player)

    def child(idx: int, level: int, parent_kind: str, last_player: int) -> int:
        later = len(nodes) - idx - 1  # nodes created after idx: never its ancestors
        if later > 0 and rng.random() < reuse:
            return rng.randint(idx + 1, len(nodes) - 1)  # transposition
        nodes.append(None)
        queue.append((len(nodes) - 1, level + 1, parent_kind, last_player))
        return len(nodes) - 1

    while queue:
        idx, level, parent_kind, last_player = queue.popleft()
        r = rng.random()
        if layered and parent_kind != "T" and rng.random() < 0.85:
            kind = "C" if parent_kind == "D" else "D"
        else:
            kind = "D" if rng.random() < 0.6 else "C"
        if idx == 0:
            kind = "D"
        elif level >= max_level or len(nodes) >= max_nodes or r < p_terminal:
            kind = "T"
        if kind == "T":
            nodes[idx] = ("T", value(terminal_bounds))
        elif kind == "D":
            if num_players == 1:
                player = 0
            elif layered and last_player >= 0:
                player = 1 - last_player if rng.random() < 0.75 else last_player
            else:
                player = rng.randint(0, 1)
            k = rng.randint(min_branching, max_branching)
            actions = sorted(rng.sample(range(max_branching + 2), k))
            edges = tuple((a, child(idx, level, "D", player)) for a in actions)
            nodes[idx] = ("D", player, edges, value(eval_bounds))
        else:
            k = rng.randint(min_branching, max_branching)
            outcomes = sorted(rng.sample(range(max_branching + 1), k))
            weights = [rng.randint(1, 6) for _ in outcomes]
            total = sum(weights)
            edges = tuple(
                (o, w / total, child(idx, level, "C", last_player))
                for o, w in zip(outcomes, weights)
            )
            nodes[idx] = ("C", edges, value(eval_bounds))
    return reorder(nodes, num_players, utility_bounds, eval_bounds)


def reorder(
    nodes: Sequence[Node],
    num_players: int,
    utility_bounds: tuple[float, float],
    eval_bounds: tuple[float, float] | None = None,
    root: int = 0,
) -> RandomTree:
    """Renumbers the DAG below ``root`` topologically (children after parents).

    Nodes not reachable from ``root`` are dropped; ``root`` becomes node 0.
    """
    order: list[int] = []
    seen: set[int] = set()

    def visit(i: int) -> None:  # post-order DFS, reversed = topological order
        if i in seen:
            return
        seen.add(i)
        for c in _children(nodes[i]):
            visit(c)
        order.append(i)

    visit(root)
    order.reverse()
    new = {old: k for k, old in enumerate(order)}
    out = []
    for old in order:
        n = nodes[old]
        if n[0] == "D":
            out.append(("D", n[1], tuple((a, new[c]) for a, c in n[2]), n[3]))
        elif n[0] == "C":
            out.append(("C", tuple((o, p, new[c]) for o, p, c in n[1]), n[2]))
        else:
            out.append(n)
    return RandomTree(
        tuple(out), num_players=num_players, utility_bounds=utility_bounds, eval_bounds=eval_bounds
    )


def minimize_tree(
    tree: RandomTree, fails: Callable[[RandomTree], bool], root: int = 0, max_checks: int = 5000
) -> RandomTree:
    """Greedily simplifies a failing tree while ``fails`` stays true (for bug reports).

    Re-roots at ``root``, then repeatedly tries: a non-terminal node becomes a
    terminal (its heuristic value, clipped into the terminal range), one edge
    is dropped (chance probabilities renormalised), a value becomes 0 (or the
    lower bound when 0 is out of range). ``fails`` gets trees rooted at node 0.
    """
    terminal_lo = max(tree.utility_bounds[0], tree.eval_bounds[0])
    terminal_hi = min(tree.utility_bounds[1], tree.eval_bounds[1])

    def rebuild(nodes: Sequence[Node], r: int = 0) -> RandomTree:
        return reorder(nodes, tree.num_players, tree.utility_bounds, tree.eval_bounds, r)

    def candidates(t: RandomTree):
        for i in range(len(t.nodes) - 1, -1, -1):
            n = t.nodes[i]
            if n[0] != "T" and i != 0:
                h = min(max(n[-1], terminal_lo), terminal_hi)
                yield rebuild(t.nodes[:i] + (("T", h),) + t.nodes[i + 1 :])
            edges = n[2] if n[0] == "D" else (n[1] if n[0] == "C" else ())
            for j in range(len(edges)) if len(edges) > 1 else ():
                rest = edges[:j] + edges[j + 1 :]
                if n[0] == "D":
                    new = ("D", n[1], rest, n[3])
                else:
                    total = sum(p for _, p, _ in rest)
                    new = ("C", tuple((o, p / total, c) for o, p, c in rest), n[2])
                yield rebuild(t.nodes[:i] + (new,) + t.nodes[i + 1 :])
            value_at = 1 if n[0] == "T" else len(n) - 1
            lo, hi = (terminal_lo, terminal_hi) if n[0] == "T" else tree.eval_bounds
            simple = 0.0 if lo <= 0.0 <= hi else lo  # one target value: no cycles
            if n[value_at] != simple:
                yield rebuild(
                    t.nodes[:i] + (n[:value_at] + (simple,) + n[value_at + 1 :],) + t.nodes[i + 1 :]
                )

    current = rebuild(tree.nodes, root)
    if not fails(current):
        return current
    checks = 0
    improved = True
    while improved and checks < max_checks:
        improved = False
        for candidate in candidates(current):
            checks += 1
            try:
                ok = candidate != current and fails(candidate)
            except ValueError:
                ok = False
            if ok:
                current, improved = candidate, True
                break
    return current
