"""The pyspiel.Bot that runs the search engine, with iterative deepening."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import pyspiel

from bots.bot_base import BotBase
from bots.searcher_protocol import SearcherProtocol, SearchTimeout

# Deepest iteration tried under a time limit when no max_depth is given.
DEFAULT_DEPTH_CAP = 100


class SearchBot(BotBase):
    """Expectiminimax, Star1, Star2, ChanceProbCut or MCMS as an OpenSpiel bot.

    With ``time_limit`` the bot deepens one ply at a time and plays the move of
    the deepest completed iteration, or, with ``partial_iteration``, the best of
    the root moves the unfinished iteration searched completely: each iteration
    searches the previous best move first, so once that one is done a move that
    beats it is better at the deeper depth too. If not even depth 1 completes
    (yacht's 7,776 dice outcomes), it plays the best root move fully searched so
    far, else a random legal move: a move always comes back in time.

    ``build`` makes the searcher on first use instead (the first ``step``, or a read
    of ``searcher``): a ChanceProbCut bot whose game must first be self-calibrated
    fits there, not in ``make_bot`` (bots/calibration.py).
    """

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: int,
        searcher: SearcherProtocol | None,
        max_depth: int | None,
        time_limit: float | None,
        seed: int | None = None,
        partial_iteration: bool = True,
        *,
        build: Callable[[], SearcherProtocol] | None = None,
    ):
        super().__init__(game, player_id, seed)
        if (searcher is None) == (build is None):
            raise ValueError("SearchBot needs a searcher or a build function, not both")
        self._partial_iteration = bool(partial_iteration)
        self._searcher = searcher
        self._build = build
        self._max_depth = max_depth
        self._time_limit = time_limit
        self.last_search: dict[str, Any] = {}

    @property
    def searcher(self) -> SearcherProtocol:
        if self._searcher is None:
            assert self._build is not None
            self._searcher = self._build()
        return self._searcher

    def _act(self, state: pyspiel.State) -> int:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError(
                "step() needs a decision node of the bot's player, got a "
                + ("terminal" if state.is_terminal() else "chance")
                + " state"
            )
        if state.current_player() != self._player_id:
            raise ValueError(
                f"bot plays player {self._player_id} but it is player "
                f"{state.current_player()}'s turn"
            )
        # Search allocates millions of short-lived objects and no cycles; the
        # cyclic collector would only add pauses of tens of milliseconds.
        collecting = gc.isenabled()
        gc.disable()
        try:
            if self._time_limit is not None:
                return self._iterative_deepening(state, self._time_limit)
            if self._max_depth is None:
                raise ValueError("a search bot needs max_depth or time_limit, got neither")
            return self._fixed_depth(state, self._max_depth)
        finally:
            if collecting:
                gc.enable()

    # ------------------------------------------------------------------------

    def _fixed_depth(self, state: pyspiel.State, depth: int) -> int:
        searcher = self.searcher
        searcher.reset_stats()
        searcher.deadline = None
        start = time.perf_counter()
        value, action = searcher.search(state, depth)
        if action is None:
            action = self._fallback_action(state)
        self._record(
            value,
            action,
            depth,
            start,
            completed=True,
            iterations=[self._iteration(depth, value, action, start)],
            values=self._root_values(),
        )
        return action

    def _iterative_deepening(self, state: pyspiel.State, time_limit: float) -> int:
        searcher = self.searcher
        searcher.reset_stats()
        start = time.perf_counter()
        searcher.deadline = start + time_limit
        cap = self._max_depth or DEFAULT_DEPTH_CAP
        value, action, depth = None, None, 0
        values: list[float] | None = None
        iterations: list[dict[str, Any]] = []
        order: list[int] = []
        completed = False
        partial_depth = None
        try:
            for target in range(1, cap + 1):
                evaluations_before, hits_before = searcher.evaluations, searcher.tt_hits
                partial: dict[str, Any] = {}
                iteration_start = time.perf_counter()
                try:
                    value, action = searcher.search(
                        state, target, root_order=order, partial=partial
                    )
                except SearchTimeout:
                    # partial holds a move only once the previous best (searched
                    # first) is complete, so its best is sound at this depth.
                    if partial and (action is None or self._partial_iteration):
                        value, action = partial["value"], partial["action"]
                        values = partial.get("values")
                        partial_depth = target
                    break
                depth = target
                values = self._root_values()
                iterations.append(self._iteration(target, value, action, iteration_start))
                order = [action] if action is not None else []
                if target == cap:
                    completed = True
                if searcher.evaluations == evaluations_before and searcher.tt_hits == hits_before:
                    completed = True  # every leaf was terminal: deeper search cannot differ
                    break
        finally:
            searcher.deadline = None
        if action is None:
            action = self._fallback_action(state)
        self._record(value, action, depth, start, completed, iterations, partial_depth, values)
        return action

    def _root_values(self) -> list[float] | None:
        """The root's whole value vector under max^n (bots/maxn.py), else None."""
        values = getattr(self.searcher, "root_values", None)
        return list(values) if values is not None else None

    def _fallback_action(self, state: pyspiel.State) -> int:
        return int(self._rng.choice(state.legal_actions()))

    def _iteration(
        self, depth: int, value: float, action: int | None, start: float
    ) -> dict[str, Any]:
        return {
            "depth": depth,
            "value": value,
            "action": action,
            "time": time.perf_counter() - start,
            "nodes": self.searcher.nodes,
        }

    def _record(
        self,
        value: float | None,
        action: int,
        depth: int,
        start: float,
        completed: bool,
        iterations: list[dict[str, Any]],
        partial_depth: int | None = None,
        values: list[float] | None = None,
    ) -> None:
        stats = self.searcher.stats()
        # max^n: the whole vector besides the bot's own component.
        extra = {"values": values} if self.searcher.options.multiplayer == "maxn" else {}
        self.last_search = {
            "value": value,
            "action": action,
            "depth": depth,
            "time": time.perf_counter() - start,
            "completed": completed,
            "partial_depth": partial_depth,
            "iterations": iterations,
            "engine": self.searcher.engine,
            **stats,  # the counters of bots/counters.py (MCMS_STAT_KEYS with samples)
            **extra,
        }
