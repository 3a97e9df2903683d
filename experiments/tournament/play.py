"""Plays one tournament game: the unit of work sent to worker processes.

The runner plays the game loop itself rather than calling evaluate_bots, so it
can (1) sample chance outcomes from the game pair's common random-number
stream, (2) time each move and read the search bots' `last_search`, and
(3) record a bot's exception as the game's result instead of crashing the run,
and (4) name the bot to move when the game runs past --game_timeout.
"""

from __future__ import annotations

import dataclasses
import gc
import time
import traceback
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from bots.arithmetic import ordered_sum
from experiments.common.game_loader import load_game
from experiments.common.measure import TimedGame, TimedMove
from experiments.common.runner import TaskTimeout
from experiments.tournament.milestones import measure

# Keys copied from a search bot's last_search into the per-move record.
SEARCH_KEYS = ("nodes", "depth", "partial_depth", "value", "engine")


@dataclasses.dataclass(frozen=True)
class GameTask:
    """Everything one game needs; plain data so it pickles to any backend."""

    id: str
    game: str
    specs: tuple[str, ...]  # bot spec per seat
    bot_index: tuple[int, ...]  # index into the tournament's bot list, per seat
    pairing: tuple[int, ...]  # bot indices of the match (a pairing for two players)
    game_index: int  # index within the match
    deal: int  # the games of a match sharing a chance stream: one per seating
    seating: int  # which seating of the deal (0 for one player)
    chance_seed: int
    bot_seeds: tuple[int | None, ...]  # None: the spec keeps its own seed / takes none
    max_moves: int


def create_bot(spec: str, game: pyspiel.Game, player_id: int, seed: int | None) -> pyspiel.Bot:
    """Builds one bot through the project factory; tests monkeypatch this hook."""
    import bots  # imported late so a worker pays for it once, on first use

    if seed is None:
        return bots.make_bot(spec, game, player_id)
    return bots.make_bot(spec, game, player_id, seed=seed)


class ChanceStream:
    """Common random numbers: the k-th chance event consumes the k-th uniform draw.

    Two games built from the same seed therefore get the same outcome at their
    k-th chance event whenever the two chance nodes have the same distribution.
    """

    def __init__(self, seed: int):
        self._rng = np.random.Generator(np.random.PCG64(seed))

    def sample(self, outcomes: Sequence[tuple[int, float]]) -> int:
        return outcome_for(self._rng.random(), outcomes)


def outcome_for(u: float, outcomes: Sequence[tuple[int, float]]) -> int:
    """Inverse-CDF map of u in [0, 1) through the outcomes in their given order."""
    total = ordered_sum(p for _, p in outcomes)  # as acc adds below, so acc ends at total
    x = u * total
    acc = 0.0
    for action, prob in outcomes:
        acc += prob
        if x < acc:
            return int(action)
    return int(outcomes[-1][0])  # rounding: u*total landed on the last edge


def _restart(bot: pyspiel.Bot, state: pyspiel.State) -> None:
    """restart_at as evaluate_bots does; Python bots that lack it get restart()."""
    for cls in type(bot).__mro__:
        if cls is pyspiel.Bot:
            break  # reached the abstract base: nobody implements restart_at
        if cls.__module__ == "pyspiel" or "restart_at" in cls.__dict__:
            bot.restart_at(state)  # a C++ bot or a Python override
            return
    if type(bot) is pyspiel.Bot:  # C++ bot exposed as the base type (uniform random)
        bot.restart_at(state)
        return
    bot.restart()  # Python bot without restart_at: pyspiel.Bot's would raise


def _winner(returns: list[float]) -> int | None:
    """Seat with the strictly highest return; None when seats tie for it or for one player."""
    if len(returns) < 2:
        return None
    best = max(returns)
    leaders = [seat for seat, r in enumerate(returns) if r == best]
    return leaders[0] if len(leaders) == 1 else None


def play_game(task: GameTask) -> dict[str, Any]:
    """Plays `task` to the end (or to max_moves decisions) and returns its record."""
    # The previous game's bots and tables are garbage in reference cycles; collected
    # during this game's timed moves they would cost whichever bot was moving.
    gc.collect()
    start = time.perf_counter()
    cpu_start = time.process_time()
    n_seats = len(task.specs)
    search: list[dict[str, Any]] = []
    seconds_by_seat = [0.0] * n_seats
    moves_by_seat = [0] * n_seats
    state = None
    error = None
    error_seat = None
    cut_off = False
    acting: int | None = None
    try:
        game = load_game(task.game)
        state = game.new_initial_state()
        bots_by_seat = []
        for seat, (spec, seed) in enumerate(zip(task.specs, task.bot_seeds)):
            acting = seat
            bots_by_seat.append(create_bot(spec, game, seat, seed))
        for seat, bot in enumerate(bots_by_seat):
            acting = seat
            _restart(bot, state)
        acting = None
        play = TimedGame(
            state,
            bots_by_seat,
            ChanceStream(task.chance_seed).sample,
            max_moves=task.max_moves,
            inform=True,
        )
        try:
            for move in play.moves():
                seconds_by_seat[move.player] += move.seconds
                moves_by_seat[move.player] += 1
                if move.search is not None:
                    search.append(_search_fields(move))
        finally:
            acting = play.acting
        cut_off = play.cut_off
    except TaskTimeout as e:  # --game_timeout: the runner stopped this game
        error_seat = acting
        error = timeout_message(task, e.limit, sum(moves_by_seat), acting)
    except Exception as e:  # a failing bot voids its game, not the tournament
        error = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        error_seat = acting
    history = [] if state is None else [int(a) for a in state.history()]
    returns = None if error or state is None else [float(r) for r in state.returns()]
    milestone = None if returns is None or state is None else measure(state)
    return {
        **task_fields(task),
        "returns": returns,
        "winner": None if returns is None else _winner(returns),
        "moves": sum(moves_by_seat),
        "chance_events": len(history) - sum(moves_by_seat),
        "cut_off": cut_off,
        "error": error,
        "error_seat": error_seat,
        "moves_by_seat": moves_by_seat,
        "seconds_by_seat": seconds_by_seat,
        "seconds": time.perf_counter() - start,
        # CPU time of this worker for the game: far below "seconds" means the
        # process was starved (a busy machine), not that the bots thought longer.
        "cpu_seconds": time.process_time() - cpu_start,
        "history": history,
        "search": search,
        "milestone": milestone,
    }


def _search_fields(move: TimedMove) -> dict[str, Any]:
    """A move's entry in the record: who, what, how long, and what the search reported."""
    fields = {"player": move.player, "action": move.action, "seconds": round(move.seconds, 6)}
    for key in SEARCH_KEYS:
        fields[key] = _plain((move.search or {}).get(key))
    return fields


def task_fields(task: GameTask) -> dict[str, Any]:
    """The fields of a game's record that its task alone decides.

    One and two players: the deal is "pair" (the seating is the game index's
    parity); more players: "deal" and "seating".
    """
    deal = (
        {"pair": task.deal}
        if len(task.specs) <= 2
        else {"deal": task.deal, "seating": task.seating}
    )
    return {
        "id": task.id,
        "game": task.game,
        "bots": list(task.specs),
        "bot_index": list(task.bot_index),
        "pairing": list(task.pairing),
        "game_index": task.game_index,
        **deal,
        "seed": {"chance": task.chance_seed, "bots": list(task.bot_seeds)},
    }


def timeout_message(task: GameTask, limit: float, moves: int, seat: int | None) -> str:
    who = (
        f"bot to move: seat {seat}, {task.specs[seat]!r}"
        if seat is not None
        else "no bot was thinking (the game itself was slow)"
    )
    return f"game stopped by --game_timeout={limit:g} s after {moves} moves; {who}"


def failed_game_record(task: GameTask, message: str) -> dict[str, Any]:
    """The record of a game the runner had to stop or give up (dead or stuck worker)."""
    return {
        **task_fields(task),
        "returns": None,
        "winner": None,
        "moves": 0,
        "chance_events": 0,
        "cut_off": False,
        "error": message,
        "error_seat": None,
        "moves_by_seat": [0] * len(task.specs),
        "seconds_by_seat": [0.0] * len(task.specs),
        "seconds": None,
        "cpu_seconds": None,
        "history": [],
        "search": [],
        "milestone": None,
    }


def _plain(value: Any) -> Any:
    """numpy scalars and the like to JSON-friendly Python values."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
