"""Generated game trees with 3 or 4 players, for the multiplayer exactness tests.

The sibling of random_tree_game.py (which stays two-player): every value is a vector,
one component per player. A tree is a tuple of nodes, node 0 the root, every child's
index larger than its parent's:

* ``("T", values)``: terminal, returns ``values``.
* ``("D", player, ((action, child), ...), values)``: a decision node of ``player``.
* ``("C", ((outcome, prob, child), ...), values)``: a chance node.

``values`` of a non-terminal node is what ``VectorTreeEvaluator`` returns when the
search stops there. Constant-sum trees keep every vector's sum at ``total`` (the
max^n shallow cut needs it); general-sum ones draw each component alone. The
awkward cases come up on purpose: non-uniform chance, chance choosing who moves
next, a player moving twice in a row, terminal chance children, ties (grid values).
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from typing import Any

import numpy as np
import pyspiel

from helpers.random_tree import TreeLiteral, max_length
from helpers.random_tree_game import RandomTreeState, game_type

SHORT_NAME = "python_starspiel_nplayer_tree"


@dataclasses.dataclass(frozen=True)
class VectorTree(TreeLiteral):
    """The nodes, the player count, the component bounds and the sum (None: general-sum)."""

    nodes: tuple
    num_players: int
    bounds: tuple[float, float]
    total: float | None


def spread(units: list[float], low: float, high: float, total: float) -> tuple[float, ...]:
    """Values in [low, high] summing to ``total`` (up to rounding), from units in [0, 1]:
    around the centre ``total / n``, as far as the bounds allow."""
    n = len(units)
    centre = total / n
    radius = 0.99 * min(centre - low, high - centre)
    mean = sum(units) / n
    return tuple(centre + radius * (u - mean) for u in units)


def random_vector_tree(
    rng: random.Random,
    num_players: int,
    *,
    constant_sum: bool = True,
    grid: bool = False,
    max_nodes: int = 50,
    max_level: int = 8,
) -> VectorTree:
    """A seeded tree: breadth first, so the node budget thins every branch evenly."""
    bounds, total = ((-1.0, 2.0), 0.0) if num_players == 3 else ((0.0, 1.0), 1.0)
    if not constant_sum:
        total = None

    def unit() -> float:
        return rng.randint(0, 4) / 4 if grid else rng.random()

    def vector() -> tuple[float, ...]:
        units = [unit() for _ in range(num_players)]
        if total is None:
            return tuple(bounds[0] + (bounds[1] - bounds[0]) * u for u in units)
        # A point of the whole simplex {v >= L, sum v = S}: its corners reach U = S - (N-1) L,
        # where shallow pruning cuts most.
        weights = [u + 0.25 for u in units]
        scale = (total - num_players * bounds[0]) / sum(weights)
        return tuple(bounds[0] + scale * w for w in weights)

    nodes: list[Any] = [None]
    queue = [(0, 0, -1)]  # (index, level, last mover)
    while queue:
        index, level, last = queue.pop(0)
        roll = rng.random()
        if index == 0:
            kind = "D"
        elif level >= max_level or len(nodes) >= max_nodes or roll < 0.12:
            kind = "T"
        else:
            kind = "D" if rng.random() < 0.55 else "C"
        if kind == "T":
            nodes[index] = ("T", vector())
            continue
        edges = []
        count = rng.randint(1, 3)
        if kind == "D":
            # Mostly the next player; sometimes the same one again, or anyone.
            if last >= 0 and rng.random() < 0.6:
                player = (last + 1) % num_players
            elif last >= 0 and rng.random() < 0.5:
                player = last
            else:
                player = rng.randrange(num_players)
            for action in sorted(rng.sample(range(5), count)):
                nodes.append(None)
                queue.append((len(nodes) - 1, level + 1, player))
                edges.append((action, len(nodes) - 1))
            nodes[index] = ("D", player, tuple(edges), vector())
        else:
            weights = [rng.randint(1, 6) for _ in range(count)]
            for outcome, weight in zip(sorted(rng.sample(range(4), count)), weights):
                nodes.append(None)
                queue.append((len(nodes) - 1, level + 1, last))
                edges.append((outcome, weight / sum(weights), len(nodes) - 1))
            nodes[index] = ("C", tuple(edges), vector())
    return VectorTree(tuple(nodes), num_players, bounds, total)


def _game_type(num_players: int, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Python starspiel N-player tree (tests)",
        pyspiel.GameType.Utility.CONSTANT_SUM
        if constant_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        (3, 4),
        {},
    )


class VectorTreeGame(pyspiel.Game):
    """The pyspiel game whose states walk ``tree``."""

    def __init__(self, tree: VectorTree) -> None:
        self.tree = tree
        edges = [e for n in tree.nodes if n[0] != "T" for e in (n[2] if n[0] == "D" else n[1])]
        info = pyspiel.GameInfo(
            num_distinct_actions=5,
            max_chance_outcomes=4,
            num_players=tree.num_players,
            min_utility=tree.bounds[0],
            max_utility=tree.bounds[1],
            utility_sum=tree.total,
            max_game_length=max_length(tree.nodes),
        )
        assert edges
        super().__init__(_game_type(tree.num_players, tree.total is not None), info, {})

    def new_initial_state(self) -> VectorTreeState:
        return VectorTreeState(self, 0)

    def __deepcopy__(self, memo: dict) -> VectorTreeGame:
        return self


class VectorTreeState(RandomTreeState):
    """A node of the tree as a pyspiel state: the two-player tree's rules (the node
    layout is the same) with vector returns; no fast path, so the engines key it by
    history."""

    def __init__(self, game: VectorTreeGame, node: int) -> None:
        super().__init__(game, node)
        self.tree = game.tree

    def returns(self) -> list[float]:
        n = self.tree.nodes[self.node]
        return list(n[1]) if n[0] == "T" else [0.0] * self.tree.num_players


class VectorTreeEvaluator:
    """The node's stored vector; declares the tree's component bounds."""

    def __init__(self, game: VectorTreeGame) -> None:
        self.tree = game.tree
        self.bounds = game.tree.bounds

    def evaluate(self, state: Any) -> np.ndarray:
        return np.array(self.tree.nodes[state.node][-1], dtype=float)


class HashVectorEvaluator:
    """Deterministic pseudo-random vectors for a real game: a hash of ``str(state)``
    spread around ``utility_sum / n`` within the game's utility range (ties on a grid
    with ``levels``). Arbitrary-looking values exercise the cuts more than a heuristic."""

    def __init__(self, game: pyspiel.Game, levels: int = 0) -> None:
        self.num_players = game.num_players()
        self.bounds = (float(game.min_utility()), float(game.max_utility()))
        total = game.utility_sum()
        self.total = float(total) if total is not None else 0.0
        self.levels = levels

    def evaluate(self, state: Any) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        text = str(state).encode()
        units = []
        for p in range(self.num_players):
            u = zlib.crc32(text + bytes([p])) / 2**32
            units.append(round(u * self.levels) / self.levels if self.levels else u)
        return np.array(spread(units, *self.bounds, self.total))


def tree_game(tree: VectorTree) -> tuple[VectorTreeGame, VectorTreeEvaluator]:
    game = VectorTreeGame(tree)
    return game, VectorTreeEvaluator(game)
