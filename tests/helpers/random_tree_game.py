"""A pyspiel game that walks an explicit random tree (random_tree.py), with the engine's
fast-path positions and an evaluator that returns the nodes' stored heuristic values.

``fast_path=False`` hides ``search_position()`` so the engine has to use the plain
pyspiel.State interface; ``StateOnlyTreeEvaluator`` makes it call ``to_state()``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from helpers.random_tree import Node, RandomTree, max_length, random_tree

SHORT_NAME = "python_starspiel_random_tree"


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


class SeededRandomTreeGame(RandomTreeGame):
    """What pyspiel.load_game('python_starspiel_random_tree(seed=3,players=1)') builds."""

    def __init__(self, params: dict | None = None) -> None:
        super().__init__(params=params or {"seed": 0, "players": 2, "fast_path": True})


def register() -> None:
    """Registers the game with pyspiel once (a class, not a lambda: a lambda crashes at exit)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(2), SeededRandomTreeGame)


register()


def game_and_evaluator(tree: RandomTree, fast: bool, positions: bool) -> tuple[RandomTreeGame, Any]:
    """The tree's game (fast path or not) and an evaluator that takes positions or not."""
    game = RandomTreeGame(tree, fast_path=fast)
    evaluator = TreeEvaluator(game) if positions else StateOnlyTreeEvaluator(game)
    return game, evaluator
