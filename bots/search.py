"""One search engine for Expectiminimax, Star1, Star2 and ChanceProbCut.

All algorithms share a fail-soft alpha-beta at max/min nodes; they differ only
at chance nodes:

* ``expectiminimax``: every outcome searched with an open window.
* ``star1``: Ballard's windows, generalised to non-uniform probabilities and
  to per-outcome bounds ``lo[i] <= V_i <= hi[i]`` (initially L and U).
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
from operator import itemgetter, mul
from types import TracebackType
from typing import Any, NamedTuple, cast

import pyspiel

from bots.evaluators import evaluator_bounds, make_evaluator
from bots.keys import (
    HistoryDigestNode,
    KeyFunction,
    default_key_function,
    digest_key,
    history_key,
    position_key,
    python_state_key,
)
from bots.node import Position, SearchNode, to_search_node
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable

ALGORITHMS = ("expectiminimax", "star1", "star2", "chanceprobcut")
PROBING_ORDERS = ("cyclic", "sequential")
CHANCE = int(pyspiel.PlayerId.CHANCE)
INF = math.inf
_TIME_CHECK_INTERVAL = 64
_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__

STAT_KEYS = (
    "nodes",
    "leaves",
    "evaluations",
    "probe_nodes",
    "tt_hits",
    "cutoffs_alpha_beta",
    "cutoffs_star1",
    "cutoffs_star2_probe",
    "cutoffs_probcut",
    "probcut_nodes",
    "probcut_researches",
    "probe_reuses",
)


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


@dataclasses.dataclass(frozen=True)
class ProbCutModel:
    """v_deep ~ a * v_shallow + b with residual sigma, for one remaining depth.

    The optional mover-relative fit (``mover``: a, b, sigma on values seen by
    the side to move at the outcome) separates the two bands a fixed-view fit
    mixes in two-player games, where shallow and deep searches end on different
    players' moves. From the searching player's view it predicts
    ``a * v + s * b`` with s = +1 when the searching player moves, -1 otherwise.
    """

    a: float
    b: float
    sigma: float
    mover: tuple[float, float, float] | None = None


class ProbCutSettings:
    """Calibrated models by remaining depth for one (game, R)."""

    def __init__(self, reduction: int, t: float, models: dict[int, ProbCutModel]):
        if reduction < 1:
            raise ValueError(f"ChanceProbCut reduction R must be >= 1, got {reduction}")
        if not t > 0:
            raise ValueError(f"ChanceProbCut confidence t must be > 0, got {t}")
        if not models:
            raise ValueError("ChanceProbCut needs at least one calibrated depth")
        self.reduction = int(reduction)
        self.t = float(t)
        self.models = dict(models)
        self._depths = sorted(self.models)

    def model_for(self, depth: int) -> ProbCutModel:
        """The model for this remaining depth, else the nearest calibrated one."""
        model = self.models.get(depth)
        if model is None:
            nearest = min(self._depths, key=lambda d: (abs(d - depth), -d))
            model = self.models[nearest]
        return model


class Searcher:
    """Runs fixed-depth searches from one player's point of view.

    One Searcher (and its table) is kept by a bot across moves; ``search`` may
    be called with increasing depths for iterative deepening.
    """

    engine = "python"  # bots/native_search.py's NativeSearcher says "native"

    def __init__(
        self,
        game: pyspiel.Game,
        player: int,
        algorithm: str = "star2",
        evaluator: Any = None,
        tt_size: int = 0,
        move_ordering: bool = True,
        probcut: ProbCutSettings | None = None,
        reuse_probes: bool = True,
        key_fn: KeyFunction | None = None,
        probing_factor: Any = None,  # checked below, with a clear error
        probing: str = "cyclic",
        reachable_probes: bool = False,
        deeper_cutoffs: bool = False,
        history_min_depth: Any = 2,  # checked below
        static_ordering: bool = False,
        bounds: tuple[float, float] | None = None,
    ):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}")
        if algorithm == "chanceprobcut" and probcut is None:
            raise ValueError("chanceprobcut needs ProbCutSettings (a calibration)")
        self.game = game
        self.player = int(player)
        self.algorithm = algorithm
        self.evaluator = make_evaluator(evaluator, game)
        self.lower_bound, self.upper_bound, self._declared_bounds = search_bounds(
            self.evaluator, game, self.player
        )
        if bounds is not None:
            # Known bounds on every leaf value for this player (Ballard's trees).
            low, high = (float(x) for x in bounds)
            if not low <= high:
                raise ValueError(f"bounds must satisfy L <= U, got {bounds!r}")
            self.lower_bound, self.upper_bound, self._declared_bounds = low, high, True
        self._eval_lower, self._eval_upper = self.lower_bound, self.upper_bound
        self._eval_takes_positions = bool(getattr(self.evaluator, "accepts_positions", False))
        # Built-in evaluators offer player_value(): the same number, no array.
        player_value = getattr(self.evaluator, "player_value", None)
        self._player_value = player_value if callable(player_value) else None
        # Star1's windows at chance nodes: every algorithm but expectiminimax.
        self.chance_pruning = algorithm != "expectiminimax"
        # Successors probed per decision child before the Star1 phase (0: none),
        # and in which order (Ballard's Star2.5; k=1 is Star2, k=0 Star1).
        self.probing_factor = _probing_factor(algorithm, probing_factor)
        if probing not in PROBING_ORDERS:
            raise ValueError(f"unknown probing {probing!r}; accepted: {', '.join(PROBING_ORDERS)}")
        self.probing = probing
        # Star2 (k=1) probes only while a probe cut is reachable (bots do; the
        # studies keep Ballard's probe-every-child phase and its node counts).
        self.reachable_probes = bool(reachable_probes)
        # Table entries searched deeper than asked may decide too (bots only: the
        # value is then no longer the fixed-depth value the studies compare).
        self.deeper_cutoffs = bool(deeper_cutoffs)
        self.probcut = probcut if algorithm == "chanceprobcut" else None
        self.move_ordering = bool(move_ordering)
        # The history heuristic orders moves from this remaining depth up. At
        # depth 1 sorting costs about what the cuts save in most games; where
        # an action means the same move in every position (dice, einstein) the
        # bots order there too (bots/factory.py, docs/benchmark.md).
        if (
            isinstance(history_min_depth, bool)
            or not isinstance(history_min_depth, int)
            or history_min_depth < 1
        ):
            raise ValueError(
                f"history_min_depth must be an integer >= 1, got {history_min_depth!r}"
            )
        self.history_min_depth = history_min_depth
        # Where the table knows no move (a node the previous iteration pruned), moves
        # at depth >= 2 are ordered by the evaluator's value of the position after
        # them: Hauk et al. ordered backgammon moves by hits, blots and points made,
        # which the backgammon evaluator weighs (pips, blots, home points). Costs one
        # evaluation per move.
        self.static_ordering = bool(static_ordering)
        self.reuse_probes = bool(reuse_probes)
        self.table = TranspositionTable(tt_size) if tt_size and tt_size > 0 else None
        self._custom_key = key_fn
        self._state_key = key_fn or default_key_function(game)
        self.key_fn = self._state_key
        # History heuristic: per player, minus the score of each action.
        self._history_order = [[0] * game.num_distinct_actions() for _ in range(game.num_players())]
        self._history_rewarded = False
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
        key_fn = self._custom_key or self._state_key
        if self._custom_key is None:
            if node is not state:
                key_fn = position_key
            elif key_fn is history_key and type(state).__module__ != "pyspiel":
                key_fn = python_state_key
            elif key_fn is history_key and self.table is not None:
                node = HistoryDigestNode.root(state)
                key_fn = digest_key
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
        if not self._eval_lower <= value <= self._eval_upper:
            raise LeafValueOutOfBounds(
                f"evaluator {type(self.evaluator).__name__} returned {value} for player "
                f"{self.player}, outside its declared bounds [{self._eval_lower}, "
                f"{self._eval_upper}] in game {self.game}; Star1/Star2 are only exact when "
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

    def _ordered_actions(
        self, node: SearchNode, player: int, depth: int, tt_move: int | None
    ) -> Sequence[int]:
        actions = node.legal_actions()
        if not self.move_ordering:
            return actions
        if depth >= self.history_min_depth and len(actions) > 1 and self._history_rewarded:
            # Negated scores in a list: a C-level sort key, ties in legal order.
            actions = sorted(actions, key=self._history_order[player].__getitem__)
        if tt_move is not None and len(actions) > 1 and tt_move in actions:
            if actions[0] != tt_move:
                actions = list(actions)  # a game may hand out a cached tuple
                actions.remove(tt_move)
                actions.insert(0, tt_move)
        elif self.static_ordering and depth >= 2 and len(actions) > 1:
            actions = self._statically_ordered(node, player, actions)
        return actions

    def _statically_ordered(self, node: SearchNode, player: int, actions: Sequence[int]) -> list:
        """``actions`` best first for ``player`` by the value after each (ties keep their order)."""
        values = {}
        for action in actions:
            child = node.child(action)
            kind = child.current_player()
            if kind < 0 and kind != CHANCE:
                values[action] = self._terminal_value(child)
            else:
                values[action] = self._leaf(child)
        if player == self.player:
            return sorted(actions, key=lambda a: -values[a])
        return sorted(actions, key=values.__getitem__)

    def _reward_move(self, player: int, action: int, depth: int) -> None:
        self._history_order[player][action] -= depth * depth
        self._history_rewarded = True

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
        live apart from the search entries: stored among them, a leaf overwrote
        a deeper entry of the same position (its bounds and best move) and the
        many leaves pushed deep entries out first (star2, pig depth 7: 62% more nodes).
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

    def _chance(self, node: SearchNode, depth: int, alpha: float, beta: float) -> float:
        table = self.table if self.chance_pruning else None
        if table is not None:
            # Before the outcomes are read: the table settles about half of pig's.
            key: Hashable = node if self._key_is_node else self.key_fn(node)  # type: ignore[assignment]
            entry = table.entries.get(key)
            if entry is not None and self._entry_decides(entry[DEPTH], depth):
                cutoff = self._table_cutoff(entry, alpha, beta)
                if cutoff is not None:
                    return cutoff
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
        low_bound, high_bound = self.lower_bound, self.upper_bound
        probs = [prob for _, prob in outcomes]
        lo = [low_bound] * count
        hi = [high_bound] * count
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
            children, players, keys = self._expand(node, outcomes, depth, lo, hi)
            # Forward pruning only where a cut is possible: not inside the
            # open-window shallow searches themselves.
            if (
                self.probcut is not None
                and depth > self.probcut.reduction
                and (alpha > low_bound or beta < high_bound)
            ):
                proven = (list(lo), list(hi))
                cut = self._probcut(children, probs, depth, alpha, beta, lo, hi)
                if cut is not None:
                    return cut
            if self.probing_factor > 0:
                cut = self._probe(
                    children,
                    probs,
                    depth,
                    alpha,
                    beta,
                    lo,
                    hi,
                    players,
                    probes,
                    keys,
                    tol_low,
                    tol_high,
                )
                if cut is not None:
                    return cut

        # Star1 phase. later_hi/later_lo are the probability-weighted bounds of
        # the outcomes not yet searched. A cut is decided on the node's own bound
        # with a tolerance for rounding (1/6 is not exact in binary, and Ballard's
        # ties must cut), and the bound returned is clamped to the window so a
        # parent never mistakes it for an exact value.
        later_hi = sum(map(mul, probs, hi))
        later_lo = sum(map(mul, probs, lo))
        done = 0.0
        for i in range(count):
            prob = probs[i]
            lo_i, hi_i = lo[i], hi[i]
            later_hi -= prob * hi_i
            later_lo -= prob * lo_i
            if lo_i == hi_i:
                done += prob * lo_i
                continue
            bound = done + prob * hi_i + later_hi
            if bound <= alpha + tol_low:
                self.cutoffs_star1 += 1
                return bound if bound < alpha else alpha
            bound = done + prob * lo_i + later_lo
            if bound >= beta - tol_high:
                self.cutoffs_star1 += 1
                return bound if bound > beta else beta
            # The child's window is widened by half the tolerance so that a child
            # value tying the cut value (up to rounding) fails low or high there.
            lower_cut = (alpha - done - later_hi + 0.5 * tol_low) / prob
            upper_cut = (beta - done - later_lo - 0.5 * tol_high) / prob
            window_low = lower_cut if lower_cut > lo_i else lo_i
            window_high = upper_cut if upper_cut < hi_i else hi_i
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
            bound = done + prob * value + later_hi
            if bound <= alpha + tol_low:
                self.cutoffs_star1 += 1
                return bound if bound < alpha else alpha
            bound = done + prob * value + later_lo
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
        proven_low: float,
        proven_high: float,
    ) -> float:
        """Re-searches a child that failed against a bound ChanceProbCut only guessed.

        Failing low against a proven bound makes the value exact, but against a
        probable one it is only an upper bound; the child is searched again with
        the window its proven bounds allow.
        """
        if lower_cut < value <= window_low and proven_low < value:
            self.probcut_researches += 1
            return self._search(child, depth, max(lower_cut, proven_low), window_high)
        if upper_cut > value >= window_high and proven_high > value:
            self.probcut_researches += 1
            return self._search(child, depth, window_low, min(upper_cut, proven_high))
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
        lo: list[float],
        hi: list[float],
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
                lo[i] = hi[i] = self._terminal_value(child)
            elif table is not None:
                key: Hashable = child if key_is_node else key_fn(child)  # type: ignore[assignment]
                keys[i] = key  # type: ignore[index]
                entry = table.entries.get(key)
                if entry is not None and (
                    entry[DEPTH] == depth or entry[DEPTH] > depth and self.deeper_cutoffs
                ):
                    if entry[LOWER] > lo[i]:
                        lo[i] = entry[LOWER]
                    if entry[UPPER] < hi[i]:
                        hi[i] = entry[UPPER]
        return children, players, keys

    def _probe(
        self,
        children: list[SearchNode],
        probs: list[float],
        depth: int,
        alpha: float,
        beta: float,
        lo: list[float],
        hi: list[float],
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
        result of it and of every later probe of its kind could not reach a cut.
        Whether that pays depends on the game: in Pig, where a roll of 1 hands
        the turn over, such probes had doubled a search's nodes; in backgammon the
        bounds they leave narrow the Star1 windows and skipping them costs nodes.
        Exact either way: probing only narrows bounds.
        """
        sum_hi = sum(map(mul, probs, hi))
        sum_lo = sum(map(mul, probs, lo))
        if sum_hi <= alpha + tol_low:
            self.cutoffs_star2_probe += 1
            return sum_hi if sum_hi < alpha else alpha
        if sum_lo >= beta - tol_high:
            self.cutoffs_star2_probe += 1
            return sum_lo if sum_lo > beta else beta
        count = len(children)
        probed: list[ProbedChild | None] = probes if probes is not None else [None] * count
        rounds = self.probing_factor
        # reachable_probes: how far the min children's probes could still lower
        # sum_hi (drop) and the max children's raise sum_lo (rise).
        kinds = None
        if rounds == 1 and self.reachable_probes:
            kinds, drop, rise = self._probe_kinds(players, probs, lo, hi)
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
                if lo[i] == hi[i]:  # terminal, or settled by the table
                    continue
                if kinds is not None:
                    # Skip a probe whose best result could not reach a cut, even
                    # with every later probe of its kind at its best too.
                    kind = kinds[i]
                    if kind == 0:
                        continue
                    span = probs[i] * (hi[i] - lo[i])
                    if kind < 0:
                        hopeless = sum_hi - drop > alpha + tol_low
                        drop -= span
                    else:
                        hopeless = sum_lo + rise < beta - tol_high
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
                    hi_i = hi[i]
                    lower_cut = (alpha - (sum_hi - prob * hi_i) + 0.5 * tol_low) / prob
                    window_low = lower_cut if lower_cut > lo[i] else lo[i]
                    if window_low >= hi_i:
                        continue
                    value = self._search(child.child(action), child_depth, window_low, hi_i)
                    record.moves.append(_new_tuple(ProbedMove, (action, value, window_low, hi_i)))
                    if value < hi_i:
                        sum_hi -= prob * (hi_i - value)
                        hi[i] = value
                        if sum_hi <= alpha + tol_low:
                            self.cutoffs_star2_probe += 1
                            return sum_hi if sum_hi < alpha else alpha
                else:
                    lo_i = lo[i]
                    upper_cut = (beta - (sum_lo - prob * lo_i) - 0.5 * tol_high) / prob
                    window_high = upper_cut if upper_cut < hi[i] else hi[i]
                    if window_high <= lo_i:
                        continue
                    value = self._search(child.child(action), child_depth, lo_i, window_high)
                    record.moves.append(_new_tuple(ProbedMove, (action, value, lo_i, window_high)))
                    if value > lo_i:
                        sum_lo += prob * (value - lo_i)
                        lo[i] = value
                        if sum_lo >= beta - tol_high:
                            self.cutoffs_star2_probe += 1
                            return sum_lo if sum_lo > beta else beta
        finally:
            self._probe_level -= 1
            if self._probe_level == 0:
                self.probe_nodes += self.nodes - nodes_before
        return None

    def _probe_kinds(
        self, players: list[int], probs: list[float], lo: list[float], hi: list[float]
    ) -> tuple[list[int], float, float]:
        """Per child: -1 a min child, +1 a max child, 0 nothing to probe; and how far
        the min children's probes could lower the expected upper bound (drop) and
        the max children's raise the lower (rise)."""
        me = self.player
        kinds = [0] * len(players)
        drop = rise = 0.0
        for i, player in enumerate(players):
            if player < 0 or lo[i] == hi[i]:
                continue
            if player == me:
                kinds[i] = 1
                rise += probs[i] * (hi[i] - lo[i])
            else:
                kinds[i] = -1
                drop += probs[i] * (hi[i] - lo[i])
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
        self, children: list, probs: list, depth: int, alpha: float, beta: float, lo: list, hi: list
    ) -> float | None:
        """ChanceProbCut: shallow searches turned into probable per-outcome bounds."""
        settings = self.probcut
        assert settings is not None, "_probcut runs only for chanceprobcut"
        model = settings.model_for(depth)
        shallow_depth = depth - settings.reduction
        nodes_before = self.nodes
        self._probcut_level += 1
        probable_lo = list(lo)
        probable_hi = list(hi)
        try:
            for i, child in enumerate(children):
                if lo[i] == hi[i]:
                    continue
                shallow = self._search(child, shallow_depth, -INF, INF)
                mover = child.current_player()
                if model.mover is not None and mover >= 0:
                    slope, intercept, sigma = model.mover
                    sign = 1.0 if mover == self.player else -1.0
                    predicted = slope * shallow + sign * intercept
                else:
                    predicted, sigma = model.a * shallow + model.b, model.sigma
                margin = settings.t * sigma
                if predicted - margin > probable_lo[i]:
                    probable_lo[i] = min(predicted - margin, hi[i])
                if predicted + margin < probable_hi[i]:
                    probable_hi[i] = max(predicted + margin, lo[i])
        finally:
            self._probcut_level -= 1
            if self._probcut_level == 0:
                self.probcut_nodes += self.nodes - nodes_before
        expected_hi = sum(map(mul, probs, probable_hi))
        expected_lo = sum(map(mul, probs, probable_lo))
        if expected_hi <= alpha + _tolerance(alpha):
            self.cutoffs_probcut += 1
            return expected_hi if expected_hi < alpha else alpha
        if expected_lo >= beta - _tolerance(beta):
            self.cutoffs_probcut += 1
            return expected_lo if expected_lo > beta else beta
        lo[:] = probable_lo
        hi[:] = probable_hi
        return None


def _probing_factor(algorithm: str, probing_factor: Any) -> int:
    """Star2's probing factor k: 1 unless given; only star2 and chanceprobcut probe."""
    probes = algorithm in ("star2", "chanceprobcut")
    if probing_factor is None:
        return 1 if probes else 0
    if isinstance(probing_factor, bool) or not isinstance(probing_factor, int):
        raise ValueError(f"probing_factor must be an integer >= 0, got {probing_factor!r}")
    if probing_factor < 0:
        raise ValueError(f"probing_factor must be an integer >= 0, got {probing_factor}")
    if not probes and probing_factor > 0:
        raise ValueError(
            f"{algorithm} does not probe; probing_factor applies to star2 and chanceprobcut"
        )
    return probing_factor


def _tolerance(edge: float) -> float:
    """Rounding slack for comparing a probability-weighted sum with a window edge."""
    return 1e-12 * (1.0 + abs(edge)) if edge not in (INF, -INF) else 0.0


def search_bounds(evaluator: Any, game: pyspiel.Game, player: int) -> tuple[float, float, bool]:
    """L and U for Star1 from the searching player's view, and whether declared.

    An evaluator may declare ``player_bounds(player)`` (asymmetric trees such as
    deep Ballard trees) or ``bounds``; declared bounds must cover terminal
    utilities too, which the engine checks. Otherwise the game's utility range.
    """
    per_player = getattr(evaluator, "player_bounds", None)
    if callable(per_player):
        low, high = (float(x) for x in per_player(player))
        if not low <= high:
            raise ValueError(
                f"{type(evaluator).__name__}.player_bounds({player}) must "
                f"satisfy L <= U, got ({low}, {high})"
            )
        return low, high, True
    if getattr(evaluator, "bounds", None) is not None:
        low, high = evaluator_bounds(evaluator, game)
        return low, high, True
    return float(game.min_utility()), float(game.max_utility()), False


def search(
    game: pyspiel.Game,
    state: Any,
    algorithm: str,
    depth: int,
    *,
    evaluator: Any = None,
    tt_size: int = 0,
    move_ordering: bool = True,
    player: int | None = None,
    probcut: ProbCutSettings | None = None,
    reuse_probes: bool = True,
    probing_factor: Any = None,
    probing: str = "cyclic",
    reachable_probes: bool = False,
    deeper_cutoffs: bool = False,
    history_min_depth: Any = 2,
    static_ordering: bool = False,
    engine: str = "auto",
) -> SearchResult:
    """One fixed-depth search with fresh statistics (no iterative deepening).

    ``engine`` as for bots: ``auto`` (native where built and the game and evaluator
    allow it), ``native`` or ``python``; ``SearchResult.engine`` says which ran.
    """
    from bots.native_search import make_searcher  # imports this module

    if player is None:
        player = state.current_player()
        if player < 0:
            raise ValueError("state is a chance or terminal node: pass `player` explicitly")
    searcher = make_searcher(
        engine,
        game,
        player,
        algorithm,
        evaluator=evaluator,
        tt_size=tt_size,
        move_ordering=move_ordering,
        probcut=probcut,
        reuse_probes=reuse_probes,
        probing_factor=probing_factor,
        probing=probing,
        reachable_probes=reachable_probes,
        deeper_cutoffs=deeper_cutoffs,
        history_min_depth=history_min_depth,
        static_ordering=static_ordering,
    )
    value, action = searcher.search(state, depth)
    return SearchResult(
        value=value, action=action, depth=depth, stats=searcher.stats(), engine=searcher.engine
    )
