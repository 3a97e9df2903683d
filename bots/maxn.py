"""max^n with expectation at chance nodes (Luckhardt and Irani 1986), for 3+ players.

A value is a vector, one component per player. A decision node takes the child
vector whose component of its mover is largest; ties go to the smallest action id,
whatever order the moves were searched in, so move ordering, the table and the two
engines never change which vector comes back. A chance node averages its children's
vectors component by component (bots/arithmetic.py's order: outcomes in the game's
order, or MCMS's draws in theirs).

Pruning (docs/guide/multiplayer.md says why each is or is not sound):

* Shallow pruning (Korf 1991), where the game is constant-sum with sum S and every
  component lies in [L, U]: once a node of player p has a child worth ``b_p`` to
  p, the node is worth at most ``S - (N - 2) L - b_p`` to its parent's mover q.
  If that is below what q already has (by a rounding margin, so that a tie, which
  the action-id rule could decide either way, is never cut), q will not take the
  node and its other moves are skipped. Counted as ``cutoffs_alpha_beta``.
* No deep pruning (unsound), and no cuts at chance nodes (not proven here): every
  algorithm (expectiminimax, star1, star2, chanceprobcut) runs this one search under
  max^n; mcms samples its chance nodes.
* The table supplies best moves for ordering only (no values: a stored vector would
  need its own store and its cut flag).

Leaf vectors are checked: each component within [L, U], and, where shallow
pruning runs, their sum within ``tolerance`` of S. Otherwise the cut would be unsound.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

import pyspiel

from bots.arithmetic import ordered_sum
from bots.evaluators import evaluator_bounds
from bots.expectiminimax import CHANCE, FRONTIER, INF, ExpectiminimaxSearcher, value_after
from bots.node import Position, SearchNode
from bots.options import SearchOptions
from bots.searcher_protocol import LeafValueOutOfBounds
from bots.transposition import MOVE

Vector = tuple[float, ...]


@dataclasses.dataclass(frozen=True)
class MaxnBounds:
    """What max^n knows of every value vector: each component in [lower, upper]; in a
    constant-sum game, components summing to ``total`` (within ``tolerance``), and the
    shallow cut's ``offset``: a node whose mover has ``b`` is worth at most
    ``offset - b`` (rounding margin included) to anyone else."""

    players: int
    lower: float
    upper: float
    total: float | None = None
    tolerance: float = 0.0
    offset: float | None = None

    @classmethod
    def of(
        cls, game: pyspiel.Game, evaluator: Any, bounds: tuple[float, float] | None = None
    ) -> MaxnBounds:
        """The game's (or the evaluator's, or the given) bounds and its utility sum."""
        lower, upper = bounds if bounds is not None else evaluator_bounds(evaluator, game)
        players = game.num_players()
        constant = game.get_type().utility in (
            pyspiel.GameType.Utility.ZERO_SUM,
            pyspiel.GameType.Utility.CONSTANT_SUM,
        )
        utility_sum = game.utility_sum() if constant and players > 2 else None
        if utility_sum is None:  # general-sum (or no max^n): no shallow pruning
            return cls(players, float(lower), float(upper))
        total = float(utility_sum)
        tolerance = 1e-9 * (1.0 + abs(total) + players * max(abs(lower), abs(upper)))
        offset = total - (players - 2) * lower + 2.0 * tolerance
        return cls(players, float(lower), float(upper), total, tolerance, offset)

    def native(self) -> dict[str, list[float]]:
        """The native engine's ``maxn_bounds`` and ``maxn_sum`` settings."""
        pruning = (
            [] if self.total is None else [self.total, self.tolerance, cast(float, self.offset)]
        )
        return {"maxn_bounds": [self.lower, self.upper], "maxn_sum": pruning}

    def problem(self, values: Vector) -> str | None:
        """What is wrong with a leaf vector (after "<what> "), or None: it has a
        component outside the bounds, or is off the constant sum."""
        if len(values) != self.players:
            return f"has {len(values)} components for {self.players} players"
        for player, value in enumerate(values):
            if not self.lower <= value <= self.upper:
                return (
                    f"gives player {player} {value}, outside the bounds [{self.lower}, "
                    f"{self.upper}]; max^n's shallow pruning needs every component within "
                    f"them: fix the evaluator or declare wider `bounds`"
                )
        if self.total is not None and not abs(ordered_sum(values) - self.total) <= self.tolerance:
            return (
                f"sums to {ordered_sum(values)}, but the game's utilities sum to {self.total}; "
                f"max^n's shallow pruning needs every value vector to keep that sum: fix the "
                f"evaluator"
            )
        return None


class MaxnSearcher(ExpectiminimaxSearcher):
    """max^n with expectation at chance nodes and shallow pruning: the Python engine.

    ``search`` returns the searching player's component and the root move;
    ``root_values`` holds the whole vector of the last completed search.
    """

    searches_maxn = True

    def _configure(self, options: SearchOptions) -> None:
        self.num_players = self.game.num_players()
        self.maxn_bounds = MaxnBounds.of(self.game, self.evaluator, options.bounds)
        self.ordering.own_component = True
        self.root_values: list[float] | None = None

    def _search_root(
        self, state: Any, depth: int, root_order: Sequence[int] | None, partial: dict | None
    ) -> tuple[float, int | None]:
        node = self._prepare_root(state)
        self._cache_leaves = False  # the leaf store holds one number per position
        player = node.current_player()
        action = None
        if depth == 0 or player < 0:
            values = self._maxn(node, depth, -1, -INF)
        else:
            values, action = self._maxn_root(node, int(player), depth, root_order, partial)
        self.root_values = list(values)
        return values[self.player], action

    # ----------------------------------------------------------------- leaves

    def _leaf_vector(self, node: SearchNode) -> Vector:
        self.evaluations += 1
        target = cast(Position, node).to_state() if self._convert_leaves else node
        raw = self.evaluator.evaluate(target)
        values = tuple(float(raw[p]) for p in range(self.num_players))
        problem = self.maxn_bounds.problem(values)
        if problem is not None:
            name = type(self.evaluator).__name__
            raise LeafValueOutOfBounds(f"evaluator {name} {problem} (game {self.game})")
        return values

    def _terminal_vector(self, node: SearchNode) -> Vector:
        raw = node.returns()
        values = tuple(float(raw[p]) for p in range(self.num_players))
        problem = self.maxn_bounds.problem(values)
        if problem is not None:
            raise LeafValueOutOfBounds(f"a terminal's returns {problem} (game {self.game})")
        return values

    def _value_after(self, child: SearchNode) -> Any:
        """A child's terminal or frontier vector, for static move ordering."""
        return value_after(child, self._terminal_vector, self._leaf_vector)

    # ------------------------------------------------------------------ tree

    def _maxn_root(
        self,
        node: SearchNode,
        player: int,
        depth: int,
        root_order: Sequence[int] | None,
        partial: dict | None,
    ) -> tuple[Vector, int | None]:
        key, actions = self._open_root(node, player, depth, root_order)
        best: Vector | None = None
        best_action = None
        for action in actions:
            bound = -INF if best is None else best[player]
            values = self._maxn(node.child(action), depth - 1, player, bound)
            if best is None or _better(values, action, best, cast(int, best_action), player):
                best, best_action = values, action
                if partial is not None:
                    partial["value"], partial["action"] = best[self.player], best_action
                    partial["values"] = list(best)
        if best_action is not None:
            self.ordering.reward(player, best_action, depth)
        if self.table is not None:
            self.table.store(key, depth, -INF, INF, best_action)
        return cast(Vector, best), best_action

    def _maxn(self, node: SearchNode, depth: int, parent: int, bound: float) -> Vector:
        """The vector of ``node`` to ``depth``; ``parent`` (the mover of a decision
        parent, else -1) has ``bound`` already, so a child worth less to it may be cut."""
        kind = self._enter(node, depth)
        if kind >= 0:
            return self._maxn_decision(node, kind, depth, parent, bound)
        if kind == CHANCE:
            return self._maxn_chance(node, depth)
        return self._leaf_vector(node) if kind == FRONTIER else self._terminal_vector(node)

    def _maxn_decision(
        self, node: SearchNode, player: int, depth: int, parent: int, bound: float
    ) -> Vector:
        table = self.table
        key = None
        tt_move = None
        if table is not None:
            key = self.key_fn(node)
            entry = table.get(key)
            if entry is not None:
                tt_move = entry[MOVE]
        actions = self.ordering.ordered_actions(node, player, depth, tt_move)
        offset = self.maxn_bounds.offset
        # Shallow pruning: cut once this node's best for its mover exceeds cut_above.
        cut_above = (
            offset - bound
            if offset is not None and parent >= 0 and parent != player and bound > -INF
            else INF
        )
        best: Vector | None = None
        best_action = actions[0]
        for action in actions:
            values = self._maxn(
                node.child(action), depth - 1, player, -INF if best is None else best[player]
            )
            if best is None or _better(values, action, best, best_action, player):
                best, best_action = values, action
                if best[player] > cut_above:
                    self.cutoffs_alpha_beta += 1
                    break
        if self.move_ordering:
            self.ordering.reward(player, best_action, depth)
        if table is not None:
            table.store(key, depth, -INF, INF, best_action)
        return cast(Vector, best)

    def _maxn_chance(self, node: SearchNode, depth: int) -> Vector:
        """Every outcome's vector, weighted; MCMS's draws where it samples, else the
        node's own in the game's order (the sum's order must not move)."""
        outcomes = self.sampled_outcomes(node)
        if outcomes is None:
            outcomes = node.chance_outcomes()
        totals = [0.0] * self.num_players
        for action, prob in outcomes:
            values = self._maxn(node.child(action), depth, -1, -INF)
            for p in range(self.num_players):
                totals[p] += prob * values[p]
        return tuple(totals)


def _better(values: Vector, action: int, best: Vector, best_action: int, player: int) -> bool:
    """The tie-break: more for ``player``, or as much by a smaller action id."""
    mine, theirs = values[player], best[player]
    return mine > theirs or mine == theirs and action < best_action
