"""The Python engine's recursion: alpha-beta at decision nodes, the table, the leaves.

``ExpectiminimaxSearcher`` is expectiminimax: a fail-soft alpha-beta at max/min nodes and
every outcome of a chance node searched with an open window. ``bots.star.StarSearcher``
adds the pruning at chance nodes (Star1, Star2, ChanceProbCut); MCMS samples them
(bots/mcms.py). Move ordering (bots/ordering.py), key choice (bots/keys.py) and the
options (bots/options.py) live apart.

Nodes are pyspiel states or, for games in ``games/``, plain-Python positions that
implement the same small subset of the State API (bots/node.py). Values are from the
searching player's point of view throughout; there is no negamax, so any sequence of
players is handled.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Hashable, Sequence
from types import TracebackType
from typing import Any, TypeVar, cast

import pyspiel

from bots.adapters import default_key_function
from bots.counters import STAT_KEYS
from bots.frames import ProbedChild
from bots.keys import HistoryDigestNode, digest_key, history_key, root_key_function
from bots.node import Position, SearchNode, to_search_node
from bots.options import SearchOptions, as_options
from bots.ordering import MoveOrdering
from bots.searcher_protocol import (
    LeafValueOutOfBounds,
    SearcherBase,
    SearchTimeout,
)
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable

CHANCE = int(pyspiel.PlayerId.CHANCE)
# What `_enter` finds at a node when no player is to move there: a leaf, either the
# game's end or the search's frontier (depth 0); else the mover, or CHANCE.
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
FRONTIER = TERMINAL - 1
INF = math.inf
# The clock is read once per this many nodes (and outcomes of a huge chance node).
TIME_CHECK_INTERVAL = 64


_Value = TypeVar("_Value")


def value_after(
    child: SearchNode,
    terminal: Callable[[SearchNode], _Value],
    frontier: Callable[[SearchNode], _Value],
) -> _Value:
    """A child's terminal or frontier value (a scalar, or max^n's vector) for static
    move ordering: one test of the child's kind for both searchers."""
    kind = child.current_player()
    if kind < 0 and kind != CHANCE:
        return terminal(child)
    return frontier(child)


class ExpectiminimaxSearcher(SearcherBase):
    """Runs fixed-depth searches from one player's point of view (``SearcherProtocol``).

    One searcher (and its table) is kept by a bot across moves; ``search`` may be
    called with increasing depths for iterative deepening.
    """

    engine = "python"  # bots/native_searcher.py's NativeSearcher says "native"
    samples_chance_nodes = False  # MCMSSearcher samples them
    searches_maxn = False  # bots/maxn.py's MaxnSearcher does

    def __init__(
        self,
        game: pyspiel.Game,
        player: int,
        options: SearchOptions | str = "star2",
        **settings: Any,
    ):
        """``options``, or an algorithm name and ``SearchOptions.create``'s settings."""
        options = as_options(options, settings)
        if options.samples is not None and not self.samples_chance_nodes:
            raise ValueError("samples (MCMS) needs MCMSSearcher: build it with make_searcher")
        SearcherBase.__init__(self, game, player, options)
        if self.maxn != self.searches_maxn:
            raise ValueError(
                f"multiplayer={options.multiplayer} needs "
                f"{'MaxnSearcher' if options.multiplayer == 'maxn' else 'StarSearcher'}: "
                f"build it with make_searcher"
            )
        self._eval_takes_positions = bool(getattr(self.evaluator, "accepts_positions", False))
        # Built-in evaluators offer player_value(): the same number, no array.
        player_value = getattr(self.evaluator, "player_value", None)
        self._player_value = player_value if callable(player_value) else None
        self.move_ordering = options.move_ordering
        self.deeper_cutoffs = options.study.deeper_cutoffs
        self.ordering = MoveOrdering(game, self.player, options, self._value_after)
        self.table = TranspositionTable(options.tt_size) if options.tt_size > 0 else None
        self.game_key_fn = default_key_function(game)
        self.key_fn = options.key_fn or self.game_key_fn
        self.deadline: float | None = None
        self._abandoned: TracebackType | None = None
        # Set per search from its root (_search_root).
        self._convert_leaves = False
        self._cache_leaves = False
        self._lookup_children = False
        self._configure(options)
        self.reset_stats()

    def _configure(self, options: SearchOptions) -> None:
        """What a subclass reads from ``options`` beyond this class (its one constructor
        serves every Python searcher)."""

    # ----------------------------------------------------------------- public

    def reset_stats(self) -> None:
        self.nodes = 0
        self.leaves = 0
        self.evaluations = 0
        self.probe_nodes = 0
        self.tt_hits = 0
        self.cutoffs_alpha_beta = 0
        self.cutoffs_star1 = 0
        self.cutoffs_star2_probe = 0
        self.cutoffs_probcut = 0
        self.probcut_nodes = 0
        self.probe_reuses = 0
        self.probcut_researches = 0
        # Nesting of probes and of ChanceProbCut's shallow searches: their nodes are
        # counted once, by the outermost.
        self._probe_level = 0
        self._probcut_level = 0
        self._next_time_check = TIME_CHECK_INTERVAL

    def stats(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in STAT_KEYS}

    def _run(
        self, state: Any, depth: int, root_order: Sequence[int] | None, partial: dict | None
    ) -> tuple[float, int | None]:
        """``SearcherBase.search`` past its checks, with the cyclic collector paused."""
        # A search allocates millions of short-lived objects and no cycles; the
        # cyclic collector would only rescan the table (pauses of tens of ms).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search_root(state, depth, root_order, partial)
        except SearchTimeout as timeout:
            # Freeing the abandoned path's frames (thousands of game states under a
            # wide chance node: 10-15 ms in yacht) would make the move late. Keep
            # them until the next search, whose deadline then pays for them.
            self._abandoned = timeout.__traceback__
        finally:
            if collecting:
                gc.enable()
        raise SearchTimeout()  # outside the handler: no link to the kept traceback

    def _search_root(
        self, state: Any, depth: int, root_order: Sequence[int] | None, partial: dict | None
    ) -> tuple[float, int | None]:
        node = self._prepare_root(state)
        player = node.current_player()
        if depth == 0 or player < 0:
            return self._search(node, depth, -INF, INF), None
        return self._root(node, int(player), depth, root_order, partial)

    def _prepare_root(self, state: Any) -> SearchNode:
        """The node a search starts from, with this search's keys and leaf handling set."""
        self._abandoned = None
        node: SearchNode = to_search_node(state)
        key_fn = self.options.key_fn
        if key_fn is None:
            node, key_fn = root_key_function(state, node, self.game_key_fn, self.table is not None)
        self.key_fn = key_fn
        # History keys and their digests only meet again on the same path, so
        # leaf values and chance children are not worth a table lookup there.
        self._lookup_children = key_fn is not history_key and key_fn is not digest_key
        self._cache_leaves = self.table is not None and self._lookup_children
        self._convert_leaves = node is not state and (
            isinstance(node, HistoryDigestNode) or not self._eval_takes_positions
        )
        if self.table is not None:
            self.table.new_search()
        return node

    # ------------------------------------------------------------------ clock

    def _tick(self) -> None:
        self._next_time_check = self.nodes + TIME_CHECK_INTERVAL
        self._check_clock()

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchTimeout()

    # ----------------------------------------------------------------- leaves

    def _evaluate(self, node: SearchNode) -> float:
        self.evaluations += 1
        target = cast(Position, node).to_state() if self._convert_leaves else node
        if self._player_value is not None:
            value = float(self._player_value(target, self.player))
        else:
            value = float(self.evaluator.evaluate(target)[self.player])
        if not self.lower_bound <= value <= self.upper_bound:
            raise self._out_of_bounds(value, terminal=False)
        return value

    def _terminal_value(self, node: SearchNode) -> float:
        value = float(node.returns()[self.player])
        if not self.lower_bound <= value <= self.upper_bound:
            raise self._out_of_bounds(value, terminal=True)
        return value

    def _out_of_bounds(self, value: float, terminal: bool) -> LeafValueOutOfBounds:
        """The error of a leaf (or terminal) value outside the bounds Star1/Star2 rely on."""
        bounds = f"[{self.lower_bound}, {self.upper_bound}]"
        name = type(self.evaluator).__name__
        if terminal:
            return LeafValueOutOfBounds(
                f"terminal utility {value} for player {self.player} in game {self.game} lies "
                f"outside the bounds {bounds} declared by evaluator {name}; declared bounds "
                f"must cover the game's terminal utilities too"
            )
        return LeafValueOutOfBounds(
            f"evaluator {name} returned {value} for player {self.player}, outside its declared "
            f"bounds {bounds} in game {self.game}; Star1/Star2 are only exact when every leaf "
            f"lies within the bounds: fix the evaluator or declare wider `bounds`"
        )

    def _value_after(self, child: SearchNode) -> float:
        """A child's terminal or frontier value, for static move ordering."""
        return value_after(child, self._terminal_value, self._leaf)

    def _leaf(self, node: SearchNode) -> float:
        """A frontier value, from the table's leaf store when the position was evaluated.

        Only where keys find transpositions (not history keys). The stored value
        is exactly the evaluator's, so this never changes a result. Leaf values
        live apart from the search entries, so a leaf neither overwrites a deeper
        entry of the same position nor pushes deep entries out (bots/transposition.py).
        """
        table = self.table
        if not self._cache_leaves or table is None:
            return self._evaluate(node)
        key = self.key_fn(node)
        value = table.leaf_values.get(key)
        if value is not None:
            self.tt_hits += 1
            return value
        value = self._evaluate(node)
        table.store_leaf(key, value)
        return value

    # ------------------------------------------------------------------- root

    def _root(
        self,
        node: SearchNode,
        player: int,
        depth: int,
        root_order: Sequence[int] | None,
        partial: dict | None,
    ) -> tuple[float, int | None]:
        key, actions = self._open_root(node, player, depth, root_order)
        maximize = player == self.player
        best_value = -INF if maximize else INF
        best_action = None
        alpha, beta = -INF, INF
        for action in actions:
            value = self._search(node.child(action), depth - 1, alpha, beta)
            if (value > best_value) if maximize else (value < best_value):
                best_value, best_action = value, action
                if maximize:
                    alpha = value
                else:
                    beta = value
                if partial is not None:
                    partial["value"], partial["action"] = best_value, best_action
        if best_action is not None:
            self.ordering.reward(player, best_action, depth)
        if self.table is not None:
            self.table.store(key, depth, best_value, best_value, best_action)
        return best_value, best_action

    def _open_root(
        self, node: SearchNode, player: int, depth: int, root_order: Sequence[int] | None
    ) -> tuple[Hashable, Sequence[int]]:
        """The root counted, its table key (None without a table) and its moves in order;
        shared by the scalar root and max^n's."""
        self.nodes += 1
        key = self.key_fn(node) if self.table is not None else None
        entry = self.table.get(key) if self.table is not None else None
        return key, self._root_actions(node, player, depth, entry, root_order)

    def _root_actions(
        self,
        node: SearchNode,
        player: int,
        depth: int,
        entry: Any,
        root_order: Sequence[int] | None,
    ) -> Sequence[int]:
        """The root's moves in search order: ``root_order``'s legal ones first (the
        caller's preference, e.g. the last iteration's best), then the ordering's."""
        tt_move = entry[MOVE] if entry is not None else None
        actions: Sequence[int] = self.ordering.ordered_actions(node, player, depth, tt_move)
        if root_order:
            preferred = [a for a in root_order if a in actions]
            actions = preferred + [a for a in actions if a not in preferred]
        return actions

    # ---------------------------------------------------------------- interior

    def _search(
        self, node: SearchNode, depth: int, alpha: float, beta: float, key: Hashable = None
    ) -> float:
        """The fail-soft value of ``node`` searched to ``depth`` with window (alpha, beta).

        ``key`` is the node's table key where the caller already built it.
        """
        kind = self._enter(node, depth)
        if kind >= 0:
            return self._decision(node, kind, depth, alpha, beta, key=key)
        if kind == CHANCE:
            return self._chance(node, depth, alpha, beta)
        return self._leaf(node) if kind == FRONTIER else self._terminal_value(node)

    def _enter(self, node: SearchNode, depth: int) -> int:
        """Counts the visit (and the leaf, where it is one) and says what ``node`` is at
        ``depth``: the player to move, CHANCE, TERMINAL or FRONTIER. Every recursion
        (this one, max^n's) classifies its nodes here, so they count alike."""
        self.nodes += 1
        if self.nodes >= self._next_time_check:
            self._tick()
        player = node.current_player()
        if player >= 0 or player == CHANCE:
            if depth:
                return player
            self.leaves += 1
            return FRONTIER
        self.leaves += 1
        return TERMINAL

    def _decision(
        self,
        node: SearchNode,
        player: int,
        depth: int,
        alpha: float,
        beta: float,
        probed: ProbedChild | None = None,
        key: Hashable = None,
    ) -> float:
        """A max or min node; ``probed``: its search resumes from Star2's probes of it."""
        table = self.table
        tt_move = None
        if table is not None:
            if key is None:
                key = self.key_fn(node)
            entry = table.get(key)
            if entry is not None:
                tt_move = entry[MOVE]
                if self._entry_decides(entry[DEPTH], depth):
                    cutoff = self._table_cutoff(entry, alpha, beta)
                    if cutoff is not None:
                        return cutoff
        alpha0, beta0 = alpha, beta
        if probed is None:
            actions = self.ordering.ordered_actions(node, player, depth, tt_move)
        else:
            actions = probed.ordered  # the probed moves come first, in probing order
        maximizing = player == self.player
        best = -INF if maximizing else INF
        best_action = actions[0]
        for action in actions:
            if probed is not None and probed.reused < len(probed.moves):
                value = self._reuse_probe(probed, node, action, depth - 1, alpha, beta)
            else:
                value = self._search(node.child(action), depth - 1, alpha, beta)
            if maximizing:
                if value > best:
                    best, best_action = value, action
                    if value >= beta:
                        self.cutoffs_alpha_beta += 1
                        break
                    alpha = max(alpha, value)
            elif value < best:
                best, best_action = value, action
                if value <= alpha:
                    self.cutoffs_alpha_beta += 1
                    break
                beta = min(beta, value)
        if self.move_ordering:
            self.ordering.reward(player, best_action, depth)
        if table is not None:
            self._store(key, depth, best, alpha0, beta0, best_action)
        return best

    def _reuse_probe(
        self,
        probed: ProbedChild,
        node: SearchNode,
        action: int,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """A probed move's value: its probe's, where that decides the window the way a
        fresh search would (exact inside its own window, or a bound on the side the
        new window needs), else a fresh search.

        The full search walks ``probed.ordered``, whose first moves are the probed
        ones in probing order, so the n-th call answers the n-th probed move.
        """
        move = probed.moves[probed.reused]
        probed.reused += 1
        if move.decides(alpha, beta):
            self.probe_reuses += 1
            return move.value
        return self._search(node.child(action), depth, alpha, beta)

    def sampled_outcomes(self, node: SearchNode) -> Sequence[tuple[int, float]] | None:
        """The outcomes searched in place of the node's own (MCMS's draws), None for all.

        The one hook sampling searchers override (bots/mcms.py), so every chance node
        method, Star's and max^n's alike, draws once and before its table lookup.
        """
        return None

    def _chance(self, node: SearchNode, depth: int, alpha: float, beta: float) -> float:
        """A chance node: every outcome searched with an open window, as expectiminimax."""
        outcomes = self.sampled_outcomes(node)
        if outcomes is None:
            outcomes = self._chance_outcomes(node)
        total = 0.0
        for action, prob in outcomes:
            total += prob * self._search(node.child(action), depth, -INF, INF)
        return total

    def _chance_outcomes(self, node: SearchNode) -> Sequence[tuple[int, float]]:
        """The node's outcomes in search order: most likely first, with move ordering
        (equal probabilities keep the game's order)."""
        outcomes = node.chance_outcomes()
        if self.move_ordering and len(outcomes) > 1:
            outcomes = sorted(outcomes, key=lambda outcome: outcome[1], reverse=True)
        return outcomes

    # ------------------------------------------------------------------ table

    def _entry_decides(self, entry_depth: int, depth: int) -> bool:
        """Whether an entry searched to ``entry_depth`` may bound a search to ``depth``."""
        return entry_depth == depth or entry_depth > depth and self.deeper_cutoffs

    def _table_cutoff(self, entry: tuple, alpha: float, beta: float) -> float | None:
        """The value an entry of the node's own depth decides for this window, if any."""
        lower, upper = entry[LOWER], entry[UPPER]
        if lower >= beta or lower == upper:
            self.tt_hits += 1
            return lower
        if upper <= alpha:
            self.tt_hits += 1
            return upper
        return None

    def _store(
        self,
        key: Hashable,
        depth: int,
        value: float,
        alpha: float,
        beta: float,
        move: int | None,
    ) -> None:
        """Stores a fail-soft result as the bound (or exact value) it is for (alpha, beta)."""
        table = cast(TranspositionTable, self.table)
        if value <= alpha:
            table.store(key, depth, -INF, value, move)
        elif value >= beta:
            table.store(key, depth, value, INF, move)
        else:
            table.store(key, depth, value, value, move)
