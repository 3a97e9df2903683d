"""Ballard's (1983) *-complete n-ary test tree as an OpenSpiel game.

Levels from the root alternate decision and chance: max, chance, min,
chance, max, ... with ``plies`` decision levels; leaves sit below the last
decision level, or below one more chance level if ``final_chance`` is set.
So a tree has D = 2*plies - 1 (+1 with final_chance) arc levels and n^D
leaves; Ballard's analysed unit (+ node, n chance nodes, n min nodes each,
n leaves each; n^3 leaves) is plies=2, D=3.

Leaf value = sum of the arc values on its path. Arcs below max nodes are
0, -1, ..., -(n-1); below min nodes 0, 1, ..., n-1; below chance nodes
-n/2..-1, 1..n/2 for even n and -(n-1)/2..(n-1)/2 (with 0) for odd n, so
chance arcs always average 0. Since every subtree of a level is a copy of the
others, a node's value is its arc value plus a per-level constant; ordering
successors by arc value is ordering them by true value.

order=best: max nodes list their arcs highest first, min nodes lowest first,
chance nodes lowest first below a max node (fail-low cutoffs against alpha
come earliest) and highest first below a min node (fail-high against beta).
order=random: each node's successors are a permutation of those arcs, a
Fisher-Yates shuffle by SplitMix64 seeded with the tree's ``seed`` and the key
``"a1,a2,..."`` (the path from the root; "" at the root; games/splitmix.py): tree
``seed`` is one of Ballard's random trees, the same in every process and engine.
Player 0 (max) receives the leaf value, player 1 minus it.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import pyspiel

from games import _common
from games._common import CHANCE, TERMINAL
from games.splitmix import SplitMix64

SHORT_NAME = "ballard_tree"  # the C++ game's name (games/native/), in messages too
# This Python twin's registered name, OpenSpiel's convention for a Python twin.
PYTHON_NAME = "python_ballard_tree"
_ORDERS = ("best", "random")
_DEFAULT_PARAMS = {"n": 4, "plies": 2, "order": "best", "seed": 0, "final_chance": False}

_GAME_TYPE = _common.chance_game_type(
    PYTHON_NAME, "Ballard's *-complete n-ary test tree", _DEFAULT_PARAMS
)

_new = tuple.__new__
_MAX, _MIN = 0, 1


def chance_arcs(n: int) -> tuple[int, ...]:
    """Chance arc values, ascending: -n/2..-1, 1..n/2 (even n), else with 0."""
    h = n // 2
    if n % 2 == 0:
        return tuple(range(-h, 0)) + tuple(range(1, h + 1))
    return tuple(range(-h, h + 1))


class BallardRules(_common.Rules):
    """Level structure, arc tables and the leaf bounds of one tree."""

    __slots__ = (
        "n",
        "plies",
        "order",
        "seed",
        "final_chance",
        "depth",
        "players",
        "level_arcs",
        "fixed",
        "actions",
        "chance",
        "leaf_min",
        "leaf_max",
        "_perm",
        "_game",
    )

    def __init__(self, n, plies, order, seed, final_chance):
        self.n, self.plies, self.order = n, plies, order
        self.seed, self.final_chance = seed, final_chance
        self.depth = 2 * plies - 1 + int(final_chance)
        players, arcs = [], []
        for j in range(self.depth):
            if j % 2 == 0:
                kind = _MAX if (j // 2) % 2 == 0 else _MIN
                players.append(kind)
                arcs.append(tuple(range(0, -n, -1)) if kind == _MAX else tuple(range(n)))
            else:
                players.append(CHANCE)
                parent_is_max = ((j - 1) // 2) % 2 == 0
                up = chance_arcs(n)
                arcs.append(up if parent_is_max else up[::-1])
        players.append(TERMINAL)
        self.players = tuple(players)
        self.level_arcs = tuple(arcs)
        self.leaf_min = sum(min(a) for a in arcs)
        self.leaf_max = sum(max(a) for a in arcs)
        self.fixed = order == "best"
        self.actions = tuple(range(n))
        self.chance = tuple((i, 1.0 / n) for i in range(n))
        self._perm: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._game = None

    def __reduce__(self):
        return (ballard_rules, (self.n, self.plies, self.order, self.seed, self.final_chance))

    def arcs_at(self, path: tuple[int, ...]) -> tuple[int, ...]:
        """Arc value of each action at the node reached by ``path``."""
        if self.fixed:
            return self.level_arcs[len(path)]
        arcs = self._perm.get(path)
        if arcs is None:
            shuffled = list(self.level_arcs[len(path)])
            SplitMix64.seeded(self.seed, ",".join(map(str, path))).shuffle(shuffled)
            arcs = tuple(shuffled)
            if len(self._perm) >= 2_000_000:
                self._perm.clear()
            self._perm[path] = arcs
        return arcs

    def game(self) -> BallardGame:
        """The Python game of these rules (not the registry's, which may be the C++ twin)."""
        if self._game is None:
            self._game = BallardGame(
                {
                    "n": self.n,
                    "plies": self.plies,
                    "order": self.order,
                    "seed": self.seed,
                    "final_chance": self.final_chance,
                },
            )
        return self._game


@functools.cache
def ballard_rules(n, plies, order, seed, final_chance) -> BallardRules:
    return BallardRules(n, plies, order, seed, final_chance)


def rules_of(game: pyspiel.Game) -> BallardRules:
    """The rules of a ballard_tree game, the Python one or its C++ twin."""
    if isinstance(game, BallardGame):
        return game.rules
    if game.get_type().short_name != SHORT_NAME:
        raise ValueError(f"game {game} is not a ballard_tree")
    p = game.get_parameters()
    return ballard_rules(
        int(p["n"]), int(p["plies"]), str(p["order"]), int(p["seed"]), bool(p["final_chance"])
    )


def leaf_bounds(game: pyspiel.Game) -> tuple[int, int]:
    """(L, U): the smallest and largest leaf value (player 0's view), on either twin."""
    r = rules_of(game)
    return (r.leaf_min, r.leaf_max)


class _BallardFields(NamedTuple):
    rules: BallardRules
    path: tuple[int, ...]  # the actions from the root
    arc_sum: int  # the sum of the arc values along the path


class BallardPosition(_common.Position, _BallardFields):
    """A node of the tree: its path from the root and the arc sum so far."""

    __slots__ = ()

    @classmethod
    def initial(cls, rules: BallardRules) -> BallardPosition:
        return _new(cls, (rules, (), 0))

    def is_terminal(self) -> bool:
        return len(self.path) == self.rules.depth

    def is_chance_node(self) -> bool:
        return self.rules.players[len(self.path)] == CHANCE

    def current_player(self) -> int:
        return self.rules.players[len(self.path)]

    def legal_actions(self) -> tuple[int, ...]:
        r = self.rules
        return () if len(self.path) == r.depth else r.actions

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        r = self.rules
        return r.chance if r.players[len(self.path)] == CHANCE else ()

    def child(self, action: int) -> BallardPosition:
        r, path, v = self
        arcs = r.level_arcs[len(path)] if r.fixed else r.arcs_at(path)
        return _new(BallardPosition, (r, path + (action,), v + arcs[action]))

    def returns(self) -> tuple[float, float]:
        if len(self.path) == self.rules.depth:
            v = float(self.arc_sum)
            return (v, -v)
        return (0.0, 0.0)

    def to_state(self) -> BallardState:
        """A full pyspiel state for this position (history = the path)."""
        state = self.rules.game().new_initial_state()
        for a in self.path:
            state.apply_action(a)
        return state

    @classmethod
    def from_state(cls, state: pyspiel.State) -> BallardPosition:
        """The position of a state of the C++ twin (games/native/ballard_tree.cc).

        Its string prints the path and the value (``path=0,2 value=-1 node=min``).
        """
        path_text, value_text, _ = str(state).split(" ")
        path = path_text[5:]
        return _new(
            cls,
            (
                rules_of(state.get_game()),
                tuple(int(a) for a in path.split(",")) if path else (),
                int(value_text[6:]),
            ),
        )


class BallardState(_common.PositionState):
    """pyspiel wrapper around a BallardPosition."""

    def _action_to_string(self, player, action):
        r, path, _ = self._pos
        kind = {0: "max", 1: "min", CHANCE: "chance"}.get(player, "?")
        if len(path) < r.depth and 0 <= action < r.n:
            return f"{kind} {action} (arc {r.arcs_at(path)[action]:+d})"
        return f"{kind} {action}"

    def __str__(self):
        r, path, v = self._pos
        kind = {0: "max", 1: "min", CHANCE: "chance", TERMINAL: "leaf"}[r.players[len(path)]]
        return f"path={','.join(map(str, path))} value={v} node={kind}"


class BallardObserver(_common.TensorObserver):
    """Tensor: one-hot action per level of the path, one-hot current depth."""

    def __init__(self, params, game: BallardGame):
        n, depth = game.rules.n, game.rules.depth
        super().__init__(params, {"path": (depth, n), "depth": (depth + 1,)})

    def fill(self, pos):
        path = pos.path
        for j, a in enumerate(path):
            self.dict["path"][j, a] = 1
        self.dict["depth"][len(path)] = 1


class BallardGame(_common.PositionGame):
    """Parameters: n, plies, order (best|random), seed, final_chance."""

    position_class = BallardPosition
    state_class = BallardState
    observer_class = BallardObserver
    rules: BallardRules

    def __init__(self, params=None):
        params = _common.with_defaults(params, _DEFAULT_PARAMS, SHORT_NAME)
        n = _common.check_int("n", params["n"], 2, None, SHORT_NAME, " (branching factor)")
        plies = _common.check_int(
            "plies", params["plies"], 1, None, SHORT_NAME, " (decision levels)"
        )
        seed = _common.check_int("seed", params["seed"], -(2**63), 2**63 - 1, SHORT_NAME)
        order = params["order"]
        if order not in _ORDERS:
            raise ValueError(
                f"{SHORT_NAME}: parameter order={order!r} is not "
                f"accepted; accepted: {list(_ORDERS)}"
            )
        final_chance = params["final_chance"]
        if not isinstance(final_chance, bool):
            raise ValueError(
                f"{SHORT_NAME}: parameter final_chance={final_chance!r} must be a bool (true/false)"
            )
        rules = ballard_rules(n, plies, order, seed, final_chance)
        lo, hi = rules.leaf_min, rules.leaf_max
        super().__init__(
            _GAME_TYPE,
            {"n": n, "plies": plies, "order": order, "seed": seed, "final_chance": final_chance},
            actions=n,
            chance_outcomes=n,
            max_game_length=plies,
            max_chance_nodes=plies - 1 + int(final_chance),
            # Per-player bounds: player 1 gets -leaf, so take the union.
            utility=(min(lo, -hi), max(hi, -lo)),
        )
        self.rules = rules

    def leaf_bounds(self) -> tuple[int, int]:
        """(L, U): the smallest and largest leaf value (player 0's view)."""
        return (self.rules.leaf_min, self.rules.leaf_max)


_common.register_game(_GAME_TYPE, BallardGame)
