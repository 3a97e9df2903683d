r"""Garbage-collection pauses inside moves when many games share one process.

  python -m experiments.benchmark.gc_pauses --game=dice --engine=python --games=8

Plays --games whole games in this process through `pyspiel.evaluate_bots`, as an
outside script would, with `star2(time_limit=T,engine=E)` in both seats, and
times every move and every collection of CPython's cyclic collector that runs
inside one (`gc.callbacks`). The full-games benchmark plays each game in a fresh
process; this shows what a long-lived process adds.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from typing import Any

import pyspiel

import bots
import games
from bots.spec import with_params
from experiments.common import flags
from experiments.common.measure import move_time_tolerance

FLAGS, _define = flags.program_flags()
_define.string("game", "dice", "Game string; custom games load as their Python twins.")
_define.string("engine", "python", "The search bots' engine: python, native or auto.")
_define.float("time_limit", 0.05, "Seconds per move.", lower_bound=0.001)
_define.integer("games", 8, "Whole games, one after another in this process.", lower_bound=1)
_define.bool("collect_between_games", False, "Run gc.collect() before each game.")


class _TimedBot(pyspiel.Bot):
    """Times each step of the bot it wraps and the collections inside it."""

    def __init__(self, bot: Any, collections: list[tuple[int, float]]):
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.collections = collections
        self.moves: list[tuple[float, list[tuple[int, float]]]] = []

    def step(self, state: pyspiel.State) -> int:
        before = len(self.collections)
        start = time.perf_counter()
        action = self.bot.step(state)
        seconds = time.perf_counter() - start
        self.moves.append((seconds, self.collections[before:]))
        return int(action)

    def restart_at(self, state: pyspiel.State) -> None:
        self.bot.restart_at(state)

    def inform_action(self, state: pyspiel.State, player: int, action: int) -> None:
        self.bot.inform_action(state, player, action)


def measure(
    game_string: str, engine: str, time_limit: float, n_games: int, collect: bool = False
) -> dict[str, Any]:
    custom = game_string.partition("(")[0] in games.PYTHON_GAMES
    game = games.python_game(game_string) if custom else pyspiel.load_game(game_string)
    collections: list[tuple[int, float]] = []
    started: list[float] = []

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        else:
            collections.append((int(info["generation"]), time.perf_counter() - started.pop()))

    spec = with_params("star2", time_limit=time_limit, engine=engine)
    moves: list[tuple[float, list[tuple[int, float]]]] = []
    gc.callbacks.append(on_gc)
    try:
        for seed in range(n_games):
            if collect:
                gc.collect()
            seats = [
                _TimedBot(bots.make_bot(spec, game, p), collections)
                for p in range(game.num_players())
            ]
            pyspiel.evaluate_bots(game.new_initial_state(), seats, seed)
            moves += [m for seat in seats for m in seat.moves]
    finally:
        gc.callbacks.remove(on_gc)
    worst = max(moves, key=lambda m: m[0])
    in_moves = [c for _, cs in moves for c in cs]
    return {
        "moves": len(moves),
        "worst_move": worst[0],
        "worst_move_gc": sum(s for _, s in worst[1]),
        "over_tolerance": sum(s > move_time_tolerance(time_limit) for s, _ in moves),
        "collections_in_moves": len(in_moves),
        "longest_in_move": max(in_moves, key=lambda c: c[1], default=(None, 0.0)),
    }


def main(argv: Sequence[str]) -> None:
    del argv
    r = measure(
        FLAGS.game, FLAGS.engine, FLAGS.time_limit, FLAGS.games, FLAGS.collect_between_games
    )
    generation, seconds = r["longest_in_move"]
    print(
        f"{FLAGS.game}, engine={FLAGS.engine}, {r['moves']} moves: worst {r['worst_move']:.4f} s "
        f"({r['worst_move_gc']:.4f} s of it in GC), {r['over_tolerance']} over the tolerance; "
        f"{r['collections_in_moves']} collections inside moves, the longest "
        f"{seconds:.4f} s (generation {generation})"
    )


if __name__ == "__main__":
    flags.run(main, FLAGS)
