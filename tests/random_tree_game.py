"""A pyspiel game built from an explicit random game tree, for exactness tests.

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

``h`` is the heuristic value for player 0 that :class:`TreeEvaluator` returns
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

import numpy as np
import pyspiel

SHORT_NAME = "python_starspiel_random_tree"

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


def game_type(
    short_name: str,
    long_name: str,
    utility: pyspiel.GameType.Utility,
    players: tuple[int, int],
    parameters: dict[str, Any],
    chance_mode: pyspiel.GameType.ChanceMode = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
) -> pyspiel.GameType:
    """The GameType of a test game: sequential, perfect information, terminal rewards, no
    observations; ``players`` is (min, max)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


def _game_type(num_players: int) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Python starspiel random tree (tests)",
        pyspiel.GameType.Utility.ZERO_SUM
        if num_players == 2
        else pyspiel.GameType.Utility.GENERAL_SUM,
        (1, 2),
        {"seed": 0, "players": 2, "fast_path": True},
    )


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


class RandomTreeGame(pyspiel.Game):
    """The pyspiel game whose states walk ``tree``.

    ``fast_path=False`` hides ``search_position()`` so the engine has to use the
    plain pyspiel.State interface.
    """

    def __init__(
        self, tree: RandomTree | None = None, fast_path: bool = True, params: dict | None = None
    ) -> None:
        params = dict(params or {})
        if tree is None:
            tree = random_tree(
                random.Random(int(params.get("seed", 0))), num_players=int(params.get("players", 2))
            )
            fast_path = bool(params.get("fast_path", fast_path))
        self.tree = tree
        self.fast_path = fast_path
        max_actions = max(
            [e[0] + 1 for n in tree.nodes if n[0] != "T" for e in (n[2] if n[0] == "D" else n[1])]
            + [1]
        )
        max_outcomes = max([e[0] + 1 for n in tree.nodes if n[0] == "C" for e in n[1]] + [1])
        info = pyspiel.GameInfo(
            num_distinct_actions=max_actions,
            max_chance_outcomes=max_outcomes,
            num_players=tree.num_players,
            min_utility=float(tree.utility_bounds[0]),
            max_utility=float(tree.utility_bounds[1]),
            utility_sum=0.0 if tree.num_players == 2 else None,
            max_game_length=max_length(tree.nodes),
        )
        super().__init__(
            _game_type(tree.num_players),
            info,
            params or {"seed": 0, "players": tree.num_players, "fast_path": fast_path},
        )

    def new_initial_state(self) -> RandomTreeState:
        cls = RandomTreeStateFast if self.fast_path else RandomTreeState
        return cls(self, 0)

    def __deepcopy__(self, memo: dict) -> RandomTreeGame:
        return self


class TreePosition:
    """Immutable, hashable fast-path position (docs/guide/games.md, "Fast-path positions")."""

    __slots__ = ("game", "node")

    def __init__(self, game: RandomTreeGame, node: int) -> None:
        self.game = game
        self.node = node

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TreePosition) and other.node == self.node and other.game is self.game
        )

    def __hash__(self) -> int:
        return hash(("tree", self.node))

    def __repr__(self) -> str:
        return f"TreePosition({self.node})"

    def __deepcopy__(self, memo: dict) -> TreePosition:
        return self

    def _n(self) -> Node:
        return self.game.tree.nodes[self.node]

    def is_terminal(self) -> bool:
        return self._n()[0] == "T"

    def is_chance_node(self) -> bool:
        return self._n()[0] == "C"

    def current_player(self) -> int:
        n = self._n()
        if n[0] == "T":
            return int(pyspiel.PlayerId.TERMINAL)
        if n[0] == "C":
            return int(pyspiel.PlayerId.CHANCE)
        return n[1]

    def legal_actions(self) -> list[int]:
        n = self._n()
        if n[0] == "D":
            return [a for a, _ in n[2]]
        if n[0] == "C":
            return [o for o, _, _ in n[1]]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._n()
        return [(o, p) for o, p, _ in n[1]] if n[0] == "C" else []

    def child_node(self, action: int) -> int:
        n = self._n()
        edges = (
            {a: c for a, c in n[2]}
            if n[0] == "D"
            else ({o: c for o, _, c in n[1]} if n[0] == "C" else {})
        )
        if action not in edges:
            raise ValueError(
                f"action {action} is not legal at node {self.node}; legal: {sorted(edges)}"
            )
        return edges[action]

    def child(self, action: int) -> TreePosition:
        return TreePosition(self.game, self.child_node(action))

    def returns(self) -> list[float]:
        n = self._n()
        v = float(n[1]) if n[0] == "T" else 0.0
        return [v] if self.game.tree.num_players == 1 else [v, -v]

    def to_state(self) -> RandomTreeState:
        cls = RandomTreeStateFast if self.game.fast_path else RandomTreeState
        return cls(self.game, self.node)


class RandomTreeState(pyspiel.State):
    """pyspiel.State wrapper that delegates its rules to a TreePosition."""

    def __init__(self, game: RandomTreeGame, node: int) -> None:
        super().__init__(game)
        self._pos = TreePosition(game, node)

    @property
    def node(self) -> int:
        return self._pos.node

    def current_player(self) -> int:
        return self._pos.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._pos.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._pos.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._pos = self._pos.child(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"p{player}:a{action}"

    def is_terminal(self) -> bool:
        return self._pos.is_terminal()

    def returns(self) -> list[float]:
        return self._pos.returns()

    def __str__(self) -> str:
        # The node id is the whole position: equal nodes are transpositions.
        return f"node {self._pos.node}"


class RandomTreeStateFast(RandomTreeState):
    """Same state, plus the engine's fast path."""

    def search_position(self) -> TreePosition:
        return self._pos


class TreeEvaluator:
    """Returns the node's stored heuristic value; declares the tree's eval bounds."""

    accepts_positions = True

    def __init__(self, game: RandomTreeGame) -> None:
        self.tree = game.tree
        self.bounds = tuple(float(b) for b in game.tree.eval_bounds)

    def evaluate(self, state: Any) -> np.ndarray:
        node = state.node  # pyspiel state wrapper or TreePosition
        n = self.tree.nodes[node]
        if n[0] == "T":
            raise ValueError(f"evaluate() called on terminal node {node}")
        h = float(n[-1])
        return np.array([h] if self.tree.num_players == 1 else [h, -h])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


class StateOnlyTreeEvaluator(TreeEvaluator):
    """Same values, without accepts_positions: the engine must call to_state()."""

    accepts_positions = False

    def evaluate(self, state: Any) -> np.ndarray:
        if not isinstance(state, pyspiel.State):
            raise TypeError(
                f"StateOnlyTreeEvaluator got {type(state).__name__}, expected a pyspiel.State"
            )
        return super().evaluate(state)


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


class SeededRandomTreeGame(RandomTreeGame):
    """What pyspiel.load_game('python_starspiel_random_tree(seed=3,players=1)') builds."""

    def __init__(self, params: dict | None = None) -> None:
        super().__init__(params=params or {"seed": 0, "players": 2, "fast_path": True})


def register() -> None:
    """Registers the game with pyspiel once (a class, not a lambda: a lambda crashes at exit)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(2), SeededRandomTreeGame)


register()


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
    from hypothesis import strategies as st  # test-only dependency

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


def game_and_evaluator(tree: RandomTree, fast: bool, positions: bool) -> tuple[RandomTreeGame, Any]:
    """The tree's game (fast path or not) and an evaluator that takes positions or not."""
    game = RandomTreeGame(tree, fast_path=fast)
    evaluator = TreeEvaluator(game) if positions else StateOnlyTreeEvaluator(game)
    return game, evaluator


def search_cases(eval_bounds: str = "same"):
    """Hypothesis strategy for one search of a generated tree: (tree, root node, searching
    player, depth, fast_path, evaluator accepts positions, move_ordering)."""
    from hypothesis import strategies as st  # test-only dependency

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
