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

import random
from collections.abc import Sequence
from typing import Any

import pyspiel

import bots
from bots.evaluators import default_evaluator
from experiments.common import game_loader as common_games
from experiments.common import measure
from experiments.common.errors import ExperimentError

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


def plies(game_string: str) -> tuple[int, int]:
    """The PLY_RANGES entry of a game (by short name), for the shared position sampler."""
    return PLY_RANGES.get(common_games.short_name(game_string), DEFAULT_PLY_RANGE)


CLOCKS = ("cpu", "wall")


def _seconds(timing: measure.Timing, clock: str) -> dict[str, float]:
    """The record's time fields: both clocks, and ``seconds`` on the one asked for."""
    if clock not in CLOCKS:
        raise ExperimentError(f"unknown clock {clock!r}; accepted: {', '.join(CLOCKS)}")
    times = {"wall_seconds": timing.wall, "cpu_seconds": timing.cpu}
    return {**times, "seconds": times[f"{clock}_seconds"]}


# ------------------------------------------------------------ OpenSpiel side


def openspiel_timed(
    state: pyspiel.State,
    depth: int,
    evaluator: Any,
    player: int,
    repeats: int = 1,
    clock: str = "cpu",
) -> dict[str, Any]:
    """OpenSpiel's own Python expectiminimax, unmodified: value, action, seconds."""
    (value, action, _), timing = measure.timed(
        lambda: measure.openspiel_expectiminimax(state, depth, evaluator, player),
        repeats,
        pause_gc=True,
    )
    return {"value": value, "action": action, **_seconds(timing, clock)}


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
    """One ``bots.search.search`` call (fresh StarSearcher and table) timed as a whole."""
    record, timing = measure.timed_search(
        game,
        state,
        algorithm,
        depth,
        repeats=repeats,
        pause_gc=True,
        evaluator=evaluator,
        tt_size=tt_size,
        player=player,
    )
    return {**record, **_seconds(timing, clock)}


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


def time_limited_moves(
    game: pyspiel.Game, game_string: str, spec: str, moves: int, seed: int, time_limit: float
) -> list[dict[str, Any]]:
    """Wall time of ``moves`` bot moves in seeded games where the bot plays every seat.

    One bot per seat is kept for the whole run (its table persists across moves and
    games, as in a match). Besides the wall time, each move records the thread's
    CPU time, which tells the engine's overrun from time the operating system gave
    to other processes, and the time spent in garbage collections.
    """
    choose_chance = measure.seeded_chance(random.Random(f"benchmark-overrun:{game_string}:{seed}"))
    seats = [bots.make_bot(spec, game, player) for player in range(game.num_players())]
    records: list[dict[str, Any]] = []
    game_index = -1
    while len(records) < moves:
        game_index += 1
        for move in measure.TimedGame(game.new_initial_state(), seats, choose_chance).moves():
            info = move.search or {}
            records.append(
                {
                    "game_index": game_index,
                    "seconds": move.seconds,
                    "cpu_seconds": move.cpu_seconds,
                    "gc_seconds": move.gc_seconds,
                    "overrun": move.seconds - time_limit,
                    "depth": info["depth"],
                    "completed": bool(info["completed"]),
                    "nodes": info["nodes"],
                    "legal_actions": move.legal_actions,
                }
            )
            if len(records) >= moves:
                break
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
