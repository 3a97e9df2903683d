"""Move ordering at decision nodes: the table's move, the history heuristic, static values.

Ordering never changes a value, only how soon alpha-beta and the Star2 probes
cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from bots.node import SearchNode
from bots.options import SearchOptions


class MoveOrdering:
    """The order in which one searcher tries the moves of a decision node.

    The table's best move goes first. The history heuristic then sorts the
    moves from ``history_min_depth`` up: at depth 1 sorting costs about what
    the cuts save in most games; where an action means the same move in every
    position the bots order there too (docs/guide/bots.md, "Per-game defaults").
    With ``static_ordering``, where the table knows no move (a node the
    previous iteration pruned), moves at depth >= 2 are ordered by the value
    of the position after them, as Hauk et al. ordered their game's moves by
    hits, blots and points made; it costs one evaluation per move.
    """

    def __init__(
        self,
        game: pyspiel.Game,
        player: int,
        options: SearchOptions,
        value_after: Callable[[SearchNode], Any],
    ):
        self.player = player
        self.enabled = options.move_ordering
        self.history_min_depth = options.history_min_depth
        self.static_ordering = options.static_ordering
        self._value_after = value_after  # a child's terminal or frontier value
        # max^n: value_after gives vectors, and each mover sorts by its own component.
        self.own_component = False
        # Per player, the history score of each action.
        self._history = [[0] * game.num_distinct_actions() for _ in range(game.num_players())]
        self._history_rewarded = False

    def ordered_actions(
        self, node: SearchNode, player: int, depth: int, tt_move: int | None
    ) -> Sequence[int]:
        actions = node.legal_actions()
        if not self.enabled:
            return actions
        if depth >= self.history_min_depth and len(actions) > 1 and self._history_rewarded:
            # Highest score first; ties keep their legal order (the sort is stable).
            scores = self._history[player]
            actions = sorted(actions, key=lambda action: -scores[action])
        if tt_move is not None and len(actions) > 1 and tt_move in actions:
            if actions[0] != tt_move:
                actions = list(actions)  # a game may hand out a cached tuple
                actions.remove(tt_move)
                actions.insert(0, tt_move)
        elif self.static_ordering and depth >= 2 and len(actions) > 1:
            actions = self._statically_ordered(node, player, actions)
        return actions

    def reward(self, player: int, action: int, depth: int) -> None:
        """Credits the best move of a node searched to ``depth``."""
        self._history[player][action] += depth * depth
        self._history_rewarded = True

    def _statically_ordered(self, node: SearchNode, player: int, actions: Sequence[int]) -> list:
        """``actions`` best first for ``player`` by the value after each (ties keep their order)."""
        values = {action: self._value_after(node.child(action)) for action in actions}
        if self.own_component:
            return sorted(actions, key=lambda a: -values[a][player])
        if player == self.player:
            return sorted(actions, key=lambda a: -values[a])
        return sorted(actions, key=values.__getitem__)
