"""Measurement core of the benchmark: positions, our searches, OpenSpiel's baseline.

Everything here returns plain dicts of numbers so the benchmark program can
store them as JSONL records and aggregate them later. Fixed-depth searches
record both this thread's CPU time (``time.thread_time``, the default
``seconds``: robust when other processes share the cores) and wall time
(``time.perf_counter``), each the minimum over the repeats, with the garbage
collector paused (as ``timeit`` does) so a collection triggered by one side's
garbage is not charged to the other side. Time-limited moves are judged by
wall time with the collector running, because that is what a bot in a real
game lives with; their CPU time is recorded beside it.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel
from open_spiel.python.algorithms import minimax as os_minimax

import bots
from bots import search as search_lib
from bots.evaluators import default_evaluator
from experiments.common import games as common_games
from experiments.common import positions as common_positions

# (label, engine algorithm, tt_size) in table order; tt_size None = the --tt_size flag.
ALGORITHMS: tuple[tuple[str, str, int | None], ...] = (
    ("expectiminimax", "expectiminimax", 0),
    ("star1", "star1", 0),
    ("star2", "star2", 0),
    ("star2+tt", "star2", None),
)
ALGORITHM_LABELS = tuple(label for label, _, _ in ALGORITHMS)

# Decision plies of seeded random play before a position is taken, per game
# short name: (min, max). Chosen so positions are mid-game for each game's
# typical length (catch: 10 rows; dice 5x5 and tic-tac-toe fill up quickly).
PLY_RANGES: dict[str, tuple[int, int]] = {
    "backgammon": (2, 40),
    "pig": (0, 30),
    "einstein_wurfelt_nicht": (0, 16),
    "2048": (0, 60),
    "yacht": (0, 30),
    "maedn": (0, 40),
    "catch": (0, 4),
    "banqi": (0, 30),
    "dice": (0, 8),
    "chance_tic_tac_toe": (0, 4),
}
DEFAULT_PLY_RANGE = (0, 20)

VALUE_TOLERANCE = 1e-9


class BenchmarkError(ValueError):
    """A configuration problem reported to the user without a traceback."""


def load_game(game_string: str) -> pyspiel.Game:
    """The one game loader of the experiments, with the benchmark's error type."""
    try:
        return common_games.load_game(game_string)
    except common_games.GameError as error:
        raise BenchmarkError(str(error)) from error


def sample_positions(
    game: pyspiel.Game, game_string: str, count: int, seed: int
) -> list[pyspiel.State]:
    """Decision nodes from the project's one seeded sampler (experiments.common.positions).

    Position i plays a number of random decisions drawn from the game's
    PLY_RANGES entry; the same (game, seed, i) always gives the same position.
    """
    plies = PLY_RANGES.get(common_games.short_name(game_string), DEFAULT_PLY_RANGE)
    try:
        return common_positions.sample_positions(game, count, seed, plies)
    except ValueError as error:
        raise BenchmarkError(str(error)) from error


state_from_history = common_positions.state_from_history


CLOCKS = ("cpu", "wall")


def _timed(fn: Callable[[], Any], repeats: int, clock: str = "cpu") -> tuple[Any, dict[str, float]]:
    """Result of ``fn`` and its fastest time over ``repeats`` runs, GC paused.

    Both clocks are read around every run and minimised separately:
    ``cpu_seconds`` (this thread's CPU time, robust when other processes share
    the cores) and ``wall_seconds``; ``seconds`` is the one named by ``clock``.
    """
    if clock not in CLOCKS:
        raise BenchmarkError(f"unknown clock {clock!r}; accepted: {', '.join(CLOCKS)}")
    best_wall = best_cpu = float("inf")
    result = None
    enabled = gc.isenabled()
    for _ in range(repeats):
        gc.disable()
        try:
            cpu_start = time.thread_time()
            start = time.perf_counter()
            result = fn()
            wall = time.perf_counter() - start
            cpu = time.thread_time() - cpu_start
        finally:
            if enabled:
                gc.enable()
        best_wall = min(best_wall, wall)
        best_cpu = min(best_cpu, cpu)
    times = {"wall_seconds": best_wall, "cpu_seconds": best_cpu}
    times["seconds"] = times[f"{clock}_seconds"]
    return result, times


# ------------------------------------------------------------ OpenSpiel side


def openspiel_value_fn(evaluator: Any, player: int) -> Callable[[pyspiel.State], float]:
    """The value function the brief prescribes: the same evaluator object, one player's entry."""
    return lambda s: evaluator.evaluate(s)[player]


def openspiel_timed(
    state: pyspiel.State,
    depth: int,
    evaluator: Any,
    player: int,
    repeats: int = 1,
    clock: str = "cpu",
) -> dict[str, Any]:
    """OpenSpiel's own Python expectiminimax, unmodified: value, action, seconds."""
    value_fn = openspiel_value_fn(evaluator, player)
    (value, action), times = _timed(
        lambda: os_minimax.expectiminimax(state, depth, value_fn, player), repeats, clock
    )
    return {"value": float(value), "action": action, **times}


def openspiel_count(state: pyspiel.State, depth: int, player: int) -> dict[str, int]:
    """Nodes OpenSpiel's expectiminimax visits, by a counting clone of its recursion.

    The clone has the same control flow (terminal test, then depth 0, then
    chance / max / min, every child cloned and searched, no pruning), so the
    tree it visits does not depend on the values: a constant value function
    gives the same counts at a fraction of the cost. Counted like our
    ``nodes``: every call of the recursion (root, decision, chance, terminal
    and depth-0 leaf states); ``leaves`` = depth-0 value-function calls
    (= evaluator calls), ``terminals`` = terminal states.
    """
    counts = {"nodes": 0, "leaves": 0, "terminals": 0}

    def visit(node: pyspiel.State, remaining: int) -> None:
        counts["nodes"] += 1
        if node.is_terminal():
            counts["terminals"] += 1
            return
        if remaining == 0:
            counts["leaves"] += 1
            return
        if node.is_chance_node():
            for outcome, _ in node.chance_outcomes():
                child = node.clone()
                child.apply_action(outcome)
                visit(child, remaining)
        else:
            for action in node.legal_actions():
                child = node.clone()
                child.apply_action(action)
                visit(child, remaining - 1)

    visit(state, depth)
    del player  # the tree shape does not depend on whose point of view
    return counts


# ------------------------------------------------------------------ our side


def ours_timed(
    game: pyspiel.Game,
    state: pyspiel.State,
    algorithm: str,
    depth: int,
    evaluator: Any,
    tt_size: int,
    player: int,
    repeats: int = 1,
    clock: str = "cpu",
) -> dict[str, Any]:
    """One ``bots.search.search`` call (fresh Searcher and table) timed as a whole."""
    result, times = _timed(
        lambda: search_lib.search(
            game, state, algorithm, depth, evaluator=evaluator, tt_size=tt_size, player=player
        ),
        repeats,
        clock,
    )
    record = {"value": float(result.value), "action": result.action, "engine": result.engine}
    record.update(times)
    record.update(result.stats)
    return record


def measure_position(
    game: pyspiel.Game,
    state: pyspiel.State,
    depth: int,
    evaluator: Any,
    tt_size: int,
    repeats: int = 1,
    algorithms: Sequence[str] = ALGORITHM_LABELS,
    clock: str = "cpu",
) -> dict[str, Any]:
    """OpenSpiel's expectiminimax and each of our algorithms on one position and depth.

    They run back to back on the same state and evaluator object so that
    background load hits both sides alike.
    """
    player = state.current_player()
    baseline = openspiel_timed(state, depth, evaluator, player, repeats, clock)
    baseline.update(openspiel_count(state, depth, player))
    ours = {}
    for label, algorithm, table in ALGORITHMS:
        if label not in algorithms:
            continue
        size = tt_size if table is None else table
        record = ours_timed(game, state, algorithm, depth, evaluator, size, player, repeats, clock)
        record["agrees"] = abs(record["value"] - baseline["value"]) <= VALUE_TOLERANCE
        ours[label] = record
    return {"player": player, "openspiel": baseline, "ours": ours}


# ------------------------------------------------------- time-limited moves


class _GcTimer:
    """Sums the wall time of garbage collections (via gc.callbacks) while installed."""

    def __init__(self):
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

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self)


def time_limited_moves(
    game: pyspiel.Game, game_string: str, spec: str, moves: int, seed: int, time_limit: float
) -> list[dict[str, Any]]:
    """Wall time of ``moves`` bot moves in seeded games where the bot plays every seat.

    One bot per seat is kept for the whole run (its table persists across
    moves, as in a match); chance events are drawn from a seeded generator.
    Each move's time is measured around ``bot.step`` from the outside, so it
    includes everything the caller waits for; the thread's CPU time of the
    same call is recorded beside it, to tell the engine's overrun from time
    the operating system gave to other processes, and so is the time spent in
    garbage collections during the call.
    """
    rng = random.Random(f"benchmark-overrun:{game_string}:{seed}")
    seats = [bots.make_bot(spec, game, player) for player in range(game.num_players())]
    records: list[dict[str, Any]] = []
    state = game.new_initial_state()
    game_index = 0
    with _GcTimer() as gc_timer:
        while len(records) < moves:
            if state.is_terminal():
                state = game.new_initial_state()
                game_index += 1
                continue
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(
                    rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                )
                continue
            bot = seats[state.current_player()]
            gc_before = gc_timer.total
            cpu_start = time.thread_time()
            start = time.perf_counter()
            action = bot.step(state)
            elapsed = time.perf_counter() - start
            cpu = time.thread_time() - cpu_start
            info = bot.last_search
            records.append(
                {
                    "game_index": game_index,
                    "seconds": elapsed,
                    "cpu_seconds": cpu,
                    "gc_seconds": gc_timer.total - gc_before,
                    "overrun": elapsed - time_limit,
                    "depth": info["depth"],
                    "completed": bool(info["completed"]),
                    "nodes": info["nodes"],
                    "legal_actions": len(state.legal_actions()),
                }
            )
            state.apply_action(action)
    return records


# ---------------------------------------------------------- nodes per second


def nodes_per_second(
    game: pyspiel.Game,
    positions: Sequence[pyspiel.State],
    depth: int,
    algorithm: str,
    tt_size: int,
    repeats: int = 1,
    clock: str = "cpu",
) -> dict[str, Any]:
    """Total nodes and seconds of fixed-depth searches over the positions."""
    evaluator = default_evaluator(game)
    nodes = 0
    seconds = 0.0
    for state in positions:
        record = ours_timed(
            game,
            state,
            algorithm,
            depth,
            evaluator,
            tt_size,
            state.current_player(),
            repeats,
            clock,
        )
        nodes += record["nodes"]
        seconds += record["seconds"]
    return {
        "nodes": nodes,
        "seconds": seconds,
        "nodes_per_second": nodes / seconds if seconds > 0 else float("nan"),
        "evaluator": type(evaluator).__name__,
    }
