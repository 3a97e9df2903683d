"""How every experiment measures: a timed call, a timed search, OpenSpiel's expectiminimax
as the baseline, and games whose moves are timed from outside the bot.

Kept in one place so that two programs reporting "seconds" or "nodes" of the same
search mean the same thing.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import pyspiel
from open_spiel.python.algorithms import minimax

from bots.search import search

Result = TypeVar("Result")
ChanceChooser = Callable[[Sequence[tuple[int, float]]], int]

# A time-limited move may overrun its limit by this much before it counts as late:
# the deadline is checked between nodes, and a bot returns through Python.
MOVE_SLACK_FRACTION = 0.10
MOVE_SLACK_SECONDS = 0.020


def move_time_tolerance(time_limit: float) -> float:
    """The longest a move under ``time_limit`` may take: time_limit + 10% + 20 ms."""
    return time_limit * (1 + MOVE_SLACK_FRACTION) + MOVE_SLACK_SECONDS


class BudgetExceeded(Exception):
    """A search ran past the seconds it was given (OpenSpiel's or the engine's)."""


# ---- timing ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Timing:
    """Seconds of one call on three clocks (over repeats: each clock's minimum).

    ``cpu`` is this thread's CPU time, robust when other processes share the cores;
    ``process`` is the whole process's; ``wall`` is what a player waits for.
    """

    wall: float
    cpu: float
    process: float


def timed(
    fn: Callable[[], Result], repeats: int = 1, pause_gc: bool = False
) -> tuple[Result, Timing]:
    """``fn()``'s result and its fastest time over ``repeats`` calls.

    With ``pause_gc`` the collector is paused during each call (as ``timeit`` does), so
    a collection of garbage left by an earlier call is not charged to this one.
    """
    best = [float("inf")] * 3
    result: Any = None
    enabled = gc.isenabled()
    for _ in range(max(1, repeats)):
        if pause_gc:
            gc.disable()
        try:
            start = (time.perf_counter(), time.thread_time(), time.process_time())
            result = fn()
            end = (time.perf_counter(), time.thread_time(), time.process_time())
        finally:
            if pause_gc and enabled:
                gc.enable()
        best = [min(b, e - s) for b, e, s in zip(best, end, start)]
    return result, Timing(*best)


def timed_search(
    game: pyspiel.Game,
    state: pyspiel.State,
    algorithm: str,
    depth: int,
    *,
    repeats: int = 1,
    pause_gc: bool = False,
    **options: Any,
) -> tuple[dict[str, Any], Timing]:
    """One fixed-depth ``bots.search.search`` (a fresh searcher and table) timed as a whole:
    ({value, action, engine, statistics...}, its Timing)."""
    result, timing = timed(
        lambda: search(game, state, algorithm, depth, **options), repeats, pause_gc
    )
    record = {"value": float(result.value), "action": result.action, "engine": result.engine}
    return {**record, **result.stats}, timing


def timed_iteration(
    searcher: Any,
    state: pyspiel.State,
    depth: int,
    *,
    budget: float | None = None,
    root_order: Sequence[int] | None = None,
) -> tuple[float, int | None, Timing]:
    """One ``searcher.search`` to ``depth`` (value, action, Timing) on a searcher that may
    keep its table and statistics, as a bot's iterative deepening does.

    With ``budget`` the searcher's deadline stops it after that many wall seconds
    (SearchTimeout); the deadline is cleared again either way.
    """
    if budget is not None:
        searcher.deadline = time.perf_counter() + budget
    kwargs = {} if root_order is None else {"root_order": root_order}
    try:
        (value, action), timing = timed(lambda: searcher.search(state, depth, **kwargs))
    finally:
        if budget is not None:
            searcher.deadline = None
    return value, action, timing


def openspiel_expectiminimax(
    state: pyspiel.State, depth: int, evaluator: Any, player: int, budget: float | None = None
) -> tuple[float, int | None, int]:
    """OpenSpiel's own Python expectiminimax, unmodified, with ``evaluator``'s entry for
    ``player`` as its value function: (value, action, evaluator calls).

    With ``budget`` the clock is checked at every leaf and BudgetExceeded raised past it
    (not a timer signal: SIGALRM belongs to the task runner's timeout).
    """
    calls = 0
    deadline = None if budget is None else time.perf_counter() + budget

    def value_fn(leaf: pyspiel.State) -> float:
        nonlocal calls
        calls += 1
        if deadline is not None and time.perf_counter() > deadline:
            raise BudgetExceeded()
        return evaluator.evaluate(leaf)[player]

    value, action = minimax.expectiminimax(state, depth, value_fn, player)
    return float(value), action, calls


# ---- games with timed moves --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TimedMove:
    """One bot move, timed around ``bot.step`` from outside (what the caller waits for)."""

    player: int
    action: int
    seconds: float  # wall
    cpu_seconds: float  # this thread's
    gc_seconds: float  # wall time of garbage collections during the move
    legal_actions: int
    search: dict[str, Any] | None  # the bot's last_search, if it keeps one


def seeded_chance(rng: random.Random) -> ChanceChooser:
    """Chance outcomes drawn by their probabilities from ``rng``."""

    def choose(outcomes: Sequence[tuple[int, float]]) -> int:
        actions, probs = zip(*outcomes)
        return rng.choices(actions, probs)[0]

    return choose


class _GcTimer:
    """Sums the wall time of garbage collections (via gc.callbacks) while installed."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.total += time.perf_counter() - self._start

    def __enter__(self) -> _GcTimer:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        gc.callbacks.remove(self)


class TimedGame:
    """Plays ``state`` on to its end with one bot per seat, timing every move from outside.

    ``moves()`` yields each move after the bot chose it and before it is applied.
    ``acting`` names the seat whose bot is running (choosing, or being informed of
    a move) so a caller can say whose exception or timeout it was; ``cut_off`` is
    set when ``max_moves`` decisions were played before the end.
    """

    def __init__(
        self,
        state: pyspiel.State,
        seats: Sequence[Any],
        choose_chance: ChanceChooser,
        *,
        max_moves: int | None = None,
        inform: bool = False,
    ):
        self.state = state
        self.seats = seats
        self.choose_chance = choose_chance
        self.max_moves = max_moves
        self.inform = inform
        self.acting: int | None = None
        self.cut_off = False
        self.decisions = 0

    def moves(self) -> Iterator[TimedMove]:
        state = self.state
        with _GcTimer() as gc_timer:
            while not state.is_terminal():
                if state.is_chance_node():
                    player = pyspiel.PlayerId.CHANCE
                    action = self.choose_chance(state.chance_outcomes())
                else:
                    if self.max_moves is not None and self.decisions >= self.max_moves:
                        self.cut_off = True
                        return
                    player = state.current_player()
                    move = self._step(player, gc_timer)
                    self.decisions += 1
                    yield move
                    action = move.action
                if self.inform:
                    for seat, bot in enumerate(self.seats):
                        if seat != player:
                            self.acting = seat
                            bot.inform_action(state, player, action)
                    self.acting = None
                state.apply_action(action)

    def _step(self, player: int, gc_timer: _GcTimer) -> TimedMove:
        state, bot = self.state, self.seats[player]
        self.acting = player
        gc_before = gc_timer.total
        cpu_start = time.thread_time()
        start = time.perf_counter()
        action = int(bot.step(state))
        seconds = time.perf_counter() - start
        cpu = time.thread_time() - cpu_start
        legal = state.legal_actions()
        if action not in legal:
            raise ValueError(
                f"the bot of seat {player} chose illegal action {action} in state:\n{state}"
            )
        self.acting = None
        last = getattr(bot, "last_search", None)
        return TimedMove(
            player=player,
            action=action,
            seconds=seconds,
            cpu_seconds=cpu,
            gc_seconds=gc_timer.total - gc_before,
            legal_actions=len(legal),
            search=last if isinstance(last, dict) else None,
        )
