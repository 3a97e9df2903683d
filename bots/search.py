"""One search engine for Expectiminimax, Star1, Star2 and ChanceProbCut.

All algorithms share a fail-soft alpha-beta at max/min nodes; they differ only
at chance nodes:

* ``expectiminimax``: every outcome searched with an open window.
* ``star1``: Ballard's windows, generalised to non-uniform probabilities and
  to per-outcome bounds ``lower[i] <= V_i <= upper[i]`` (initially the
  search's ``lower_bound`` L and ``upper_bound`` U).
* ``star2``: a probing phase first searches one successor of each decision
  child; a min child's probe is an upper bound, a max child's a lower bound
  (Hauk et al. 2004). Probing uses only the node kind of the child, so it stays
  exact when chance decides who moves next or a player moves twice in a row.
  With a probing factor k (Ballard's Star2.5) it probes up to k successors of
  each child, in rounds (cyclic) or child by child (sequential); k=0 is Star1.
* ``chanceprobcut``: before probing, shallow searches of every outcome are
  mapped through a calibrated linear model into probable bounds (Schadd et al.
  2009); the node is cut when those lie outside the window, otherwise they
  narrow the Star1 windows. Forward pruning: not exact.

Move ordering (bots/ordering.py), ProbCut's models (bots/probcut.py), key
choice (bots/keys.py) and the options (bots/options.py) live apart; the
recursion lives here.

Nodes are pyspiel states or, for games in ``games/``, plain-Python positions
that implement the same small subset of the State API (see README). Values are
from the searching player's point of view throughout; there is no negamax, so
any sequence of players is handled.
"""

from __future__ import annotations

import dataclasses
import gc
import math
import time
from collections.abc import Hashable, Iterable, Sequence
from itertools import repeat
from operator import itemgetter
from types import TracebackType
from typing import Any, NamedTuple, cast

import pyspiel

from bots.arithmetic import dot_pair
from bots.counters import STAT_KEYS
from bots.evaluators import evaluator_bounds, make_evaluator
from bots.keys import (
    HistoryDigestNode,
    default_key_function,
    digest_key,
    history_key,
    position_key,
    root_key_function,
)
from bots.node import Position, SearchNode, to_search_node
from bots.options import SearchOptions, as_options
from bots.ordering import MoveOrdering
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable

CHANCE = int(pyspiel.PlayerId.CHANCE)
INF = math.inf
_TIME_CHECK_INTERVAL = 64
_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__


class SearchTimeout(Exception):
    """Raised inside the tree when the deadline passes; the caller keeps the last result."""


class LeafValueOutOfBounds(ValueError):
    """An evaluator returned a value outside the bounds it (or the game) declared."""


@dataclasses.dataclass
class SearchResult:
    value: float
    action: int | None
    depth: int
    stats: dict[str, int]
    engine: str = "python"


class ProbedMove(NamedTuple):
    """One successor searched by the probing phase, with the window it had."""

    action: int
    value: float
    window_low: float
    window_high: float

    def decides(self, alpha: float, beta: float) -> bool:
        """Whether this fail-soft result answers a search with window (alpha, beta)."""
        value = self.value
        return (
            self.window_low < value < self.window_high
            or value <= self.window_low
            and value <= alpha
            or value >= self.window_high
            and value >= beta
        )


@dataclasses.dataclass(slots=True)
class ProbedChild:
    """A decision child partly searched by probing; its full search resumes from here.

    ``ordered`` is the child's move order; its first ``len(moves)`` moves were
    probed, in that order, and ``moves`` holds their results. A min child's
    probes bound it from above, a max child's from below.
    """

    ordered: Sequence[int]
    moves: list[ProbedMove]
    minimizing: bool
    key: Hashable = None  # the child's table key, computed once for probe and search
    reused: int = 0  # probed moves the full search has consumed


class Searcher:
    """Runs fixed-depth searches from one player's point of view.

    One Searcher (and its table) is kept by a bot across moves; ``search`` may
    be called with increasing depths for iterative deepening.
    """

    engine = "python"  # bots/native_search.py's NativeSearcher says "native"
    samples_chance_nodes = False  # MCMSSearcher samples them

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
        self.options = options
        self.game = game
        self.player = int(player)
        self.algorithm = options.name
        self.evaluator = make_evaluator(options.evaluator, game)
        self.lower_bound, self.upper_bound = search_bounds(
            self.evaluator, game, self.player, options.bounds
        )
        self._eval_takes_positions = bool(getattr(self.evaluator, "accepts_positions", False))
        # Built-in evaluators offer player_value(): the same number, no array.
        player_value = getattr(self.evaluator, "player_value", None)
        self._player_value = player_value if callable(player_value) else None
        # Star1's windows at chance nodes: every algorithm but expectiminimax.
        self.chance_pruning = options.algorithm != "expectiminimax"
        # Successors probed per decision child before the Star1 phase (0: none).
        self.probing_factor = options.probes_per_child
        self.probing = options.probing
        self.probcut = options.probcut if options.algorithm == "chanceprobcut" else None
        self.move_ordering = options.move_ordering
        self.static_ordering = options.static_ordering
        self.reuse_probes = options.study.reuse_probes
        self.deeper_cutoffs = options.study.deeper_cutoffs
        self.reachable_probes = options.study.reachable_probes
        ordering = MoveOrdering(game, self.player, options, self._value_after)
        # Bound once: a node pays no attribute lookup on the ordering object.
        self._ordered_actions = ordering.ordered_actions
        self._reward_move = ordering.reward
        self.table = TranspositionTable(options.tt_size) if options.tt_size > 0 else None
        self.game_key_fn = default_key_function(game)
        self.key_fn = options.key_fn or self.game_key_fn
        self.deadline: float | None = None
        self._abandoned: TracebackType | None = None
        self._convert_leaves = False
        self._cache_leaves = False
        self._lookup_children = False
        self._key_is_node = False
        self.reset_stats()

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
        self._probe_level = 0
        self._probcut_level = 0
        self._next_time_check = _TIME_CHECK_INTERVAL

    def stats(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in STAT_KEYS}

    def search(
        self,
        state: Any,
        depth: int,
        root_order: Sequence[int] | None = None,
        partial: dict | None = None,
    ) -> tuple[float, int | None]:
        """Searches ``state`` to ``depth`` decision plies; returns (value, action).

        ``partial``, if given, receives the best fully searched root move so far,
        so a caller interrupted by the deadline still has a move.
        """
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
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
        self._abandoned = None
        node: SearchNode = to_search_node(state)
        key_fn = self.options.key_fn
        if key_fn is None:
            node, key_fn = root_key_function(state, node, self.game_key_fn, self.table is not None)
        self.key_fn = key_fn
        # A custom game's position is its own key: no call per lookup.
        self._key_is_node = key_fn is position_key
        # History keys and their digests only meet again on the same path, so
        # leaf values and chance children are not worth a table lookup there.
        self._lookup_children = key_fn is not history_key and key_fn is not digest_key
        self._cache_leaves = self.table is not None and self._lookup_children
        self._convert_leaves = node is not state and (
            isinstance(node, HistoryDigestNode) or not self._eval_takes_positions
        )
        if self.table is not None:
            self.table.new_search()
        player = node.current_player()
        if depth == 0 or player < 0:
            return self._search(node, depth, -INF, INF), None
        return self._root(node, int(player), depth, root_order, partial)

    # ---------------------------------------------------------------- helpers

    def _tick(self) -> None:
        self._next_time_check = self.nodes + _TIME_CHECK_INTERVAL
        self._check_clock()

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchTimeout()

    def _evaluate(self, node: SearchNode) -> float:
        self.evaluations += 1
        target = cast(Position, node).to_state() if self._convert_leaves else node
        if self._player_value is not None:
            value = float(self._player_value(target, self.player))
        else:
            value = float(self.evaluator.evaluate(target)[self.player])
        if not self.lower_bound <= value <= self.upper_bound:
            raise LeafValueOutOfBounds(
                f"evaluator {type(self.evaluator).__name__} returned {value} for player "
                f"{self.player}, outside its declared bounds [{self.lower_bound}, "
                f"{self.upper_bound}] in game {self.game}; Star1/Star2 are only exact when "
                f"every leaf lies within the bounds: fix the evaluator or declare wider "
                f"`bounds`"
            )
        return value

    def _terminal_value(self, node: SearchNode) -> float:
        value = float(node.returns()[self.player])
        if not self.lower_bound <= value <= self.upper_bound:
            raise LeafValueOutOfBounds(
                f"terminal utility {value} for player {self.player} in game {self.game} lies "
                f"outside the bounds [{self.lower_bound}, {self.upper_bound}] declared by "
                f"evaluator {type(self.evaluator).__name__}; declared bounds must cover the "
                f"game's terminal utilities too"
            )
        return value

    def _value_after(self, child: SearchNode) -> float:
        """A child's terminal or frontier value, for static move ordering."""
        kind = child.current_player()
        if kind < 0 and kind != CHANCE:
            return self._terminal_value(child)
        return self._leaf(child)

    # ------------------------------------------------------------------- root

    def _root(
        self,
        node: SearchNode,
        player: int,
        depth: int,
        root_order: Sequence[int] | None,
        partial: dict | None,
    ) -> tuple[float, int | None]:
        self.nodes += 1
        maximize = player == self.player
        entry = self.table.get(self.key_fn(node)) if self.table is not None else None
        tt_move = entry[MOVE] if entry is not None else None
        actions = self._ordered_actions(node, player, depth, tt_move)
        if root_order:
            preferred = [a for a in root_order if a in actions]
            actions = preferred + [a for a in actions if a not in preferred]
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
            self._reward_move(player, best_action, depth)
        if self.table is not None:
            self.table.store(self.key_fn(node), depth, best_value, best_value, best_action)
        return best_value, best_action

    # ---------------------------------------------------------------- interior

    def _search(self, node: SearchNode, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes >= self._next_time_check:
            self._tick()
        player = node.current_player()
        if player < 0:
            if player != CHANCE:
                self.leaves += 1
                return self._terminal_value(node)
            if depth == 0:
                self.leaves += 1
                return self._leaf(node)
            return self._chance(node, depth, alpha, beta)
        if depth == 0:
            self.leaves += 1
            return self._leaf(node)
        return self._decision(node, player, depth, alpha, beta)

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
        key: Hashable = node if self._key_is_node else self.key_fn(node)  # type: ignore[assignment]
        leaf_values = table.leaf_values
        value = leaf_values.get(key)
        if value is not None:
            self.tt_hits += 1
            return value
        value = self._evaluate(node)
        table.store_leaf(key, value)
        return value

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
        """A max or min node. ``key`` is its table key where the caller already built it."""
        table = self.table
        tt_move = None
        if table is not None:
            if key is None:
                key = node if self._key_is_node else self.key_fn(node)  # type: ignore[assignment]
            entry = table.entries.get(key)
            if entry is not None:
                tt_move = entry[MOVE]
                if entry[DEPTH] == depth or entry[DEPTH] > depth and self.deeper_cutoffs:
                    cutoff = self._table_cutoff(entry, alpha, beta)
                    if cutoff is not None:
                        return cutoff
        alpha0, beta0 = alpha, beta
        if probed is None:
            actions = self._ordered_actions(node, player, depth, tt_move)
            reusable = 0
        else:
            actions = probed.ordered  # the probed moves come first, in probing order
            reusable = len(probed.moves)
        best_action = actions[0]
        child_depth = depth - 1
        if player == self.player:
            best = -INF
            for action in actions:
                if reusable:
                    value = self._reuse_probe(
                        cast(ProbedChild, probed), node, action, child_depth, alpha, beta
                    )
                    reusable -= 1
                else:
                    value = self._search(node.child(action), child_depth, alpha, beta)
                if value > best:
                    best, best_action = value, action
                    if value >= beta:
                        self.cutoffs_alpha_beta += 1
                        break
                    if value > alpha:
                        alpha = value
        else:
            best = INF
            for action in actions:
                if reusable:
                    value = self._reuse_probe(
                        cast(ProbedChild, probed), node, action, child_depth, alpha, beta
                    )
                    reusable -= 1
                else:
                    value = self._search(node.child(action), child_depth, alpha, beta)
                if value < best:
                    best, best_action = value, action
                    if value <= alpha:
                        self.cutoffs_alpha_beta += 1
                        break
                    if value < beta:
                        beta = value
        if self.move_ordering:
            self._reward_move(player, best_action, depth)
        if table is not None:
            self._store(table, key, depth, best, alpha0, beta0, best_action)
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

    @staticmethod
    def _store(
        table: TranspositionTable,
        key: Hashable,
        depth: int,
        value: float,
        alpha: float,
        beta: float,
        move: int | None,
    ) -> None:
        """Stores a fail-soft result as the bound (or exact value) it is for (alpha, beta)."""
        if value <= alpha:
            table.store(key, depth, -INF, value, move)
        elif value >= beta:
            table.store(key, depth, value, INF, move)
        else:
            table.store(key, depth, value, value, move)

    # ------------------------------------------------------------------ chance

    def _chance(
        self,
        node: SearchNode,
        depth: int,
        alpha: float,
        beta: float,
        outcomes: Sequence[tuple[int, float]] | None = None,
    ) -> float:
        """A chance node; ``outcomes``, where given, are searched in place of the node's
        own (MCMS's sample), else the node's are read once the table has not settled it."""
        table = self.table if self.chance_pruning else None
        if table is not None:
            # Before the outcomes are read: the table settles about half of pig's.
            key: Hashable = node if self._key_is_node else self.key_fn(node)  # type: ignore[assignment]
            entry = table.entries.get(key)
            if entry is not None and self._entry_decides(entry[DEPTH], depth):
                cutoff = self._table_cutoff(entry, alpha, beta)
                if cutoff is not None:
                    return cutoff
        if outcomes is None:
            outcomes = node.chance_outcomes()
            if self.move_ordering and len(outcomes) > 1:
                # Most likely first; reverse keeps equal probabilities in the game's order.
                outcomes = sorted(outcomes, key=itemgetter(1), reverse=True)
        if not self.chance_pruning:
            total = 0.0
            for action, prob in outcomes:
                total += prob * self._search(node.child(action), depth, -INF, INF)
            return total
        value = self._star(node, outcomes, depth, alpha, beta)
        if table is not None:
            self._store(table, key, depth, value, alpha, beta, None)
        return value

    def _star(
        self,
        node: SearchNode,
        outcomes: Sequence[tuple[int, float]],
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Star1 (with optional probing and ProbCut bounds) at one chance node."""
        count = len(outcomes)
        lower_bound, upper_bound = self.lower_bound, self.upper_bound
        probs = [prob for _, prob in outcomes]
        lower = [lower_bound] * count
        upper = [upper_bound] * count
        probes: list[ProbedChild | None] | None = (
            [None] * count if self.probing_factor > 0 and self.reuse_probes else None
        )
        proven: tuple[list, list] | None = None  # bounds before ChanceProbCut narrowed them
        # Rounding slack for comparing probability-weighted sums with the window.
        tol_low = _tolerance(alpha)
        tol_high = _tolerance(beta)

        children: list[SearchNode] | None = None
        players: list[int] | None = None
        keys: list | None = None
        # Children are expanded up front only where probing or the table reads them.
        if self.probing_factor > 0 or self.table is not None:
            children, players, keys = self._expand(node, outcomes, depth, lower, upper)
            # Forward pruning only where a cut is possible: not inside the
            # open-window shallow searches themselves.
            if (
                self.probcut is not None
                and depth > self.probcut.reduction
                and (alpha > lower_bound or beta < upper_bound)
            ):
                proven = (list(lower), list(upper))
                cut = self._probcut(children, probs, depth, alpha, beta, lower, upper)
                if cut is not None:
                    return cut
            if self.probing_factor > 0:
                cut = self._probe(
                    children,
                    probs,
                    depth,
                    alpha,
                    beta,
                    lower,
                    upper,
                    players,
                    probes,
                    keys,
                    tol_low,
                    tol_high,
                )
                if cut is not None:
                    return cut

        # Star1 phase. later_upper/later_lower are the probability-weighted bounds of
        # the outcomes not yet searched. A cut is decided on the node's own bound
        # with a tolerance for rounding (1/6 is not exact in binary, and Ballard's
        # ties must cut), and the bound returned is clamped to the window so a
        # parent never mistakes it for an exact value.
        later_upper, later_lower = dot_pair(probs, upper, lower)
        done = 0.0
        for i in range(count):
            prob = probs[i]
            lower_i, upper_i = lower[i], upper[i]
            later_upper -= prob * upper_i
            later_lower -= prob * lower_i
            if lower_i == upper_i:
                done += prob * lower_i
                continue
            bound = done + prob * upper_i + later_upper
            if bound <= alpha + tol_low:
                self.cutoffs_star1 += 1
                return bound if bound < alpha else alpha
            bound = done + prob * lower_i + later_lower
            if bound >= beta - tol_high:
                self.cutoffs_star1 += 1
                return bound if bound > beta else beta
            # The child's window is widened by half the tolerance so that a child
            # value tying the cut value (up to rounding) fails low or high there.
            lower_cut = (alpha - done - later_upper + 0.5 * tol_low) / prob
            upper_cut = (beta - done - later_lower - 0.5 * tol_high) / prob
            window_low = lower_cut if lower_cut > lower_i else lower_i
            window_high = upper_cut if upper_cut < upper_i else upper_i
            if players is None:
                value = self._search(node.child(outcomes[i][0]), depth, window_low, window_high)
            else:
                value = self._search_child(
                    cast(list, children)[i],
                    players[i],
                    keys[i] if keys is not None else None,
                    probes[i] if probes is not None else None,
                    depth,
                    window_low,
                    window_high,
                )
            if proven is not None:
                value = self._verify_probable(
                    cast(list, children)[i],
                    depth,
                    value,
                    lower_cut,
                    upper_cut,
                    window_low,
                    window_high,
                    proven[0][i],
                    proven[1][i],
                )
            bound = done + prob * value + later_upper
            if bound <= alpha + tol_low:
                self.cutoffs_star1 += 1
                return bound if bound < alpha else alpha
            bound = done + prob * value + later_lower
            if bound >= beta - tol_high:
                self.cutoffs_star1 += 1
                return bound if bound > beta else beta
            done += prob * value
        return done

    def _verify_probable(
        self,
        child: SearchNode,
        depth: int,
        value: float,
        lower_cut: float,
        upper_cut: float,
        window_low: float,
        window_high: float,
        proven_lower: float,
        proven_upper: float,
    ) -> float:
        """Re-searches a child that failed against a bound ChanceProbCut only guessed.

        Failing low against a proven bound makes the value exact, but against a
        probable one it is only an upper bound; the child is searched again with
        the window its proven bounds allow.
        """
        if lower_cut < value <= window_low and proven_lower < value:
            self.probcut_researches += 1
            return self._search(child, depth, max(lower_cut, proven_lower), window_high)
        if upper_cut > value >= window_high and proven_upper > value:
            self.probcut_researches += 1
            return self._search(child, depth, window_low, min(upper_cut, proven_upper))
        return value

    def _search_child(
        self,
        child: SearchNode,
        player: int,
        key: Hashable,
        probed: ProbedChild | None,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """``_search`` of a chance node's non-terminal child whose player (and table
        key, where looked up) ``_expand`` already read; a probed child's
        search resumes from its probes. Depth is > 0 below a chance node."""
        if probed is not None and probed.moves:
            return self._decision(child, player, depth, alpha, beta, probed, probed.key)
        self.nodes += 1
        if self.nodes >= self._next_time_check:
            self._tick()
        if player < 0:
            return self._chance(child, depth, alpha, beta)
        return self._decision(child, player, depth, alpha, beta, None, key)

    def _expand(
        self,
        node: SearchNode,
        outcomes: Sequence[tuple[int, float]],
        depth: int,
        lower: list[float],
        upper: list[float],
    ) -> tuple[list[SearchNode], list[int], list | None]:
        """Every outcome's child, its player and, where looked up, its table key.

        Terminal children are exact; table entries of this depth (or deeper, with
        ``deeper_cutoffs``) bound the rest. Probing and the full search read
        neither player nor key again. The clock is checked on huge chance nodes.
        """
        count = len(outcomes)
        children: list[SearchNode] = [node] * count
        players = [0] * count
        key_fn = self.key_fn
        key_is_node = self._key_is_node
        # With history keys the children of a fresh chance node rarely have an
        # entry yet: a lookup costs more than it finds.
        table = self.table if self._lookup_children else None
        keys: list | None = [None] * count if table is not None else None
        check_clock = count > _TIME_CHECK_INTERVAL and self.deadline is not None
        for i in range(count):
            if check_clock and i % _TIME_CHECK_INTERVAL == 0:
                self._check_clock()
            child = children[i] = node.child(outcomes[i][0])
            player = players[i] = child.current_player()
            if player < 0 and player != CHANCE:
                self.nodes += 1
                self.leaves += 1
                lower[i] = upper[i] = self._terminal_value(child)
            elif table is not None:
                key: Hashable = child if key_is_node else key_fn(child)  # type: ignore[assignment]
                keys[i] = key  # type: ignore[index]
                entry = table.entries.get(key)
                if entry is not None and (
                    entry[DEPTH] == depth or entry[DEPTH] > depth and self.deeper_cutoffs
                ):
                    if entry[LOWER] > lower[i]:
                        lower[i] = entry[LOWER]
                    if entry[UPPER] < upper[i]:
                        upper[i] = entry[UPPER]
        return children, players, keys

    def _probe(
        self,
        children: list[SearchNode],
        probs: list[float],
        depth: int,
        alpha: float,
        beta: float,
        lower: list[float],
        upper: list[float],
        players: list[int],
        probes: list[ProbedChild | None] | None,
        keys: list | None,
        tol_low: float,
        tol_high: float,
    ) -> float | None:
        """Star2's probing phase, and Ballard's Star2.5 for a probing factor k > 1.

        A probe searches one successor of a decision child: a min child is at
        most its successor's value, a max child at least (Hauk et al. 2004), so
        probing uses only the child's node kind and stays exact when chance
        decides who moves next. Cyclic probing probes one more successor of every
        child per round, for at most k rounds; sequential probing probes k
        successors of each child in turn. Both stop at the first cutoff; k=1 is
        Star2. Probed children are returned in ``probes`` for their full search.

        With ``reachable_probes`` (k=1) a probe is skipped once even the best
        result of it and of every later probe of its kind could not reach a cut;
        exact either way, since probing only narrows bounds. Whether it pays
        depends on the game (docs/engine.md, "Reachable probes").
        """
        sum_upper, sum_lower = dot_pair(probs, upper, lower)
        if sum_upper <= alpha + tol_low:
            self.cutoffs_star2_probe += 1
            return sum_upper if sum_upper < alpha else alpha
        if sum_lower >= beta - tol_high:
            self.cutoffs_star2_probe += 1
            return sum_lower if sum_lower > beta else beta
        count = len(children)
        probed: list[ProbedChild | None] = probes if probes is not None else [None] * count
        rounds = self.probing_factor
        # reachable_probes: how far the min children's probes could still lower
        # sum_upper (drop) and the max children's raise sum_lower (rise).
        kinds = None
        if rounds == 1 and self.reachable_probes:
            kinds, drop, rise = self._probe_kinds(players, probs, lower, upper)
        schedule: Iterable[tuple[int, int]]
        if rounds == 1:
            schedule = zip(repeat(0, count), range(count))
        elif self.probing == "sequential":
            schedule = ((rank, i) for i in range(count) for rank in range(rounds))
        else:
            schedule = ((rank, i) for rank in range(rounds) for i in range(count))
        child_depth = depth - 1
        nodes_before = self.nodes
        self._probe_level += 1
        try:
            for rank, i in schedule:
                if lower[i] == upper[i]:  # terminal, or settled by the table
                    continue
                if kinds is not None:
                    # Skip a probe whose best result could not reach a cut, even
                    # with every later probe of its kind at its best too.
                    kind = kinds[i]
                    if kind == 0:
                        continue
                    span = probs[i] * (upper[i] - lower[i])
                    if kind < 0:
                        hopeless = sum_upper - drop > alpha + tol_low
                        drop -= span
                    else:
                        hopeless = sum_lower + rise < beta - tol_high
                        rise -= span
                    if hopeless:
                        continue
                child = children[i]
                record = probed[i]
                if record is None:
                    if rank > 0:
                        continue  # not probed in the first round: never probed
                    key = keys[i] if keys is not None else None
                    record = self._start_probing(child, players[i], depth, alpha, beta, key)
                    if record is None:
                        continue
                    probed[i] = record
                elif len(record.moves) != rank or rank >= len(record.ordered):
                    continue  # probes stay a prefix of the child's move order
                action = record.ordered[rank]
                prob = probs[i]
                if record.minimizing:
                    upper_i = upper[i]
                    lower_cut = (alpha - (sum_upper - prob * upper_i) + 0.5 * tol_low) / prob
                    window_low = lower_cut if lower_cut > lower[i] else lower[i]
                    if window_low >= upper_i:
                        continue
                    value = self._search(child.child(action), child_depth, window_low, upper_i)
                    record.moves.append(
                        _new_tuple(ProbedMove, (action, value, window_low, upper_i))
                    )
                    if value < upper_i:
                        sum_upper -= prob * (upper_i - value)
                        upper[i] = value
                        if sum_upper <= alpha + tol_low:
                            self.cutoffs_star2_probe += 1
                            return sum_upper if sum_upper < alpha else alpha
                else:
                    lower_i = lower[i]
                    upper_cut = (beta - (sum_lower - prob * lower_i) - 0.5 * tol_high) / prob
                    window_high = upper_cut if upper_cut < upper[i] else upper[i]
                    if window_high <= lower_i:
                        continue
                    value = self._search(child.child(action), child_depth, lower_i, window_high)
                    record.moves.append(
                        _new_tuple(ProbedMove, (action, value, lower_i, window_high))
                    )
                    if value > lower_i:
                        sum_lower += prob * (value - lower_i)
                        lower[i] = value
                        if sum_lower >= beta - tol_high:
                            self.cutoffs_star2_probe += 1
                            return sum_lower if sum_lower > beta else beta
        finally:
            self._probe_level -= 1
            if self._probe_level == 0:
                self.probe_nodes += self.nodes - nodes_before
        return None

    def _probe_kinds(
        self, players: list[int], probs: list[float], lower: list[float], upper: list[float]
    ) -> tuple[list[int], float, float]:
        """Per child: -1 a min child, +1 a max child, 0 nothing to probe; and how far
        the min children's probes could lower the expected upper bound (drop) and
        the max children's raise the lower (rise)."""
        me = self.player
        kinds = [0] * len(players)
        drop = rise = 0.0
        for i, player in enumerate(players):
            if player < 0 or lower[i] == upper[i]:
                continue
            if player == me:
                kinds[i] = 1
                rise += probs[i] * (upper[i] - lower[i])
            else:
                kinds[i] = -1
                drop += probs[i] * (upper[i] - lower[i])
        return kinds, drop, rise

    def _start_probing(
        self,
        child: SearchNode,
        player: int,
        depth: int,
        alpha: float,
        beta: float,
        key: Hashable = None,
    ) -> ProbedChild | None:
        """The probe record of a decision child, or None where no probe can cut.

        A chance child has no one-sided bound from one successor; a min child's
        upper bound cannot cut against alpha = -inf, nor a max child's against
        beta = +inf.
        """
        if player < 0:
            return None
        minimizing = player != self.player
        if minimizing and alpha == -INF or not minimizing and beta == INF:
            return None
        tt_move = None
        table = self.table
        if table is not None:
            if key is None:
                key = self.key_fn(child)
            entry = table.entries.get(key)
            if entry is not None:
                tt_move = entry[MOVE]
        self.nodes += 1  # the probed decision child itself
        ordered = self._ordered_actions(child, player, depth, tt_move)
        return ProbedChild(ordered, [], minimizing, key)

    def _probcut(
        self,
        children: list,
        probs: list,
        depth: int,
        alpha: float,
        beta: float,
        lower: list,
        upper: list,
    ) -> float | None:
        """ChanceProbCut: shallow searches turned into probable per-outcome bounds."""
        settings = self.probcut
        assert settings is not None, "_probcut runs only for chanceprobcut"
        model = settings.model_for(depth)
        shallow_depth = depth - settings.reduction
        nodes_before = self.nodes
        self._probcut_level += 1
        probable_lower = list(lower)
        probable_upper = list(upper)
        try:
            for i, child in enumerate(children):
                if lower[i] == upper[i]:
                    continue
                shallow = self._search(child, shallow_depth, -INF, INF)
                low, high = model.probable_range(
                    shallow, child.current_player(), self.player, settings.t
                )
                if low > probable_lower[i]:
                    probable_lower[i] = min(low, upper[i])
                if high < probable_upper[i]:
                    probable_upper[i] = max(high, lower[i])
        finally:
            self._probcut_level -= 1
            if self._probcut_level == 0:
                self.probcut_nodes += self.nodes - nodes_before
        expected_upper, expected_lower = dot_pair(probs, probable_upper, probable_lower)
        if expected_upper <= alpha + _tolerance(alpha):
            self.cutoffs_probcut += 1
            return expected_upper if expected_upper < alpha else alpha
        if expected_lower >= beta - _tolerance(beta):
            self.cutoffs_probcut += 1
            return expected_lower if expected_lower > beta else beta
        lower[:] = probable_lower
        upper[:] = probable_upper
        return None


def _tolerance(edge: float) -> float:
    """Rounding slack for comparing a probability-weighted sum with a window edge."""
    return 1e-12 * (1.0 + abs(edge)) if edge not in (INF, -INF) else 0.0


def search_bounds(
    evaluator: Any, game: pyspiel.Game, player: int, bounds: tuple[float, float] | None = None
) -> tuple[float, float]:
    """The search's ``lower_bound`` L and ``upper_bound`` U from the searching player's view.

    ``bounds`` when given (known bounds on every leaf, as in Ballard's trees).
    Else an evaluator may declare ``player_bounds(player)`` (asymmetric trees
    such as deep Ballard trees) or ``bounds``; declared bounds must cover
    terminal utilities too, which the engine checks. Else the game's utility range.
    """
    if bounds is not None:
        return bounds
    per_player = getattr(evaluator, "player_bounds", None)
    if callable(per_player):
        lower_bound, upper_bound = (float(x) for x in per_player(player))
        if not lower_bound <= upper_bound:
            raise ValueError(
                f"{type(evaluator).__name__}.player_bounds({player}) must "
                f"satisfy L <= U, got ({lower_bound}, {upper_bound})"
            )
        return lower_bound, upper_bound
    if getattr(evaluator, "bounds", None) is not None:
        return evaluator_bounds(evaluator, game)
    return float(game.min_utility()), float(game.max_utility())


def search(
    game: pyspiel.Game,
    state: Any,
    algorithm: SearchOptions | str,
    depth: int,
    *,
    player: int | None = None,
    engine: str = "auto",
    **settings: Any,
) -> SearchResult:
    """One fixed-depth search with fresh statistics (no iterative deepening).

    ``algorithm`` is ``SearchOptions``, or an algorithm name with ``settings``
    (``SearchOptions.create``'s). ``engine`` as for bots: ``auto`` (native where
    built and the game and evaluator allow it), ``native`` or ``python``;
    ``SearchResult.engine`` says which ran.
    """
    from bots.native_search import make_searcher  # imports this module

    if player is None:
        player = state.current_player()
        if player < 0:
            raise ValueError("state is a chance or terminal node: pass `player` explicitly")
    searcher = make_searcher(engine, game, player, as_options(algorithm, settings))
    value, action = searcher.search(state, depth)
    return SearchResult(
        value=value, action=action, depth=depth, stats=searcher.stats(), engine=searcher.engine
    )
