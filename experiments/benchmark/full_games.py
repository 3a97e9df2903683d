r"""Whole games under a time limit: the worst move and the memory a long game costs.

  python -m experiments.benchmark.full_games --out=results/full_games
  python -m experiments.benchmark.full_games --games=2048,banqi --time_limit=0.1 --seeds=0-2

Every seat of each game is a `star2(time_limit=T)` bot (or --bot) that keeps its
transposition table across moves, as in a match; chance events are drawn from
a seeded generator. Each move is timed from outside, around `bot.step`, in wall
time, against the tolerance time_limit + 10% + 20 ms. Each game is one task of
the shared runner, played one at a time, each in a fresh process, so the maximum
resident memory reported is that game's own and no two games share the cores.
"""

from __future__ import annotations

import multiprocessing
import random
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any

import bots
from bots.spec import with_params
from experiments.common import flags, parsing, results, runner
from experiments.common.game_loader import load_game
from experiments.common.measure import TimedGame, move_time_tolerance, seeded_chance
from experiments.common.tables import markdown_table

GAMES = ("2048", "yacht", "maedn", "banqi")
RECORDS_FILE = "records.jsonl"

FLAGS, _define = flags.program_flags()
_define.list("games", list(GAMES), "Games to play to the end (OpenSpiel game strings).")
_define.float("time_limit", 0.05, "Seconds per move of every seat.", lower_bound=0.001)
_define.string("bot", "star2", "Bot name or spec without time_limit, e.g. 'star2(tt_size=10000)'.")
_define.string("seeds", "0", "Seeds of the chance events, one game per game and seed: '0-2'.")
_define.string("out", None, "Results folder (default results/full_games-<time_limit>).")
_define.float("game_timeout", 3600.0, "Wall-time limit of one game in seconds.", lower_bound=1)


def play_full_game(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: the game in a fresh process, so its peak memory is its own."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(play_in_this_process, (payload,))


def play_in_this_process(payload: dict[str, Any]) -> dict[str, Any]:
    """A whole game; move times, depths and this process's peak memory."""
    game = load_game(payload["game"])
    spec = with_params(payload["bot"], time_limit=payload["time_limit"])
    seats = [bots.make_bot(spec, game, player) for player in range(game.num_players())]
    choose_chance = seeded_chance(random.Random(f"full_games:{payload['game']}:{payload['seed']}"))
    play = TimedGame(game.new_initial_state(), seats, choose_chance)
    move_times: list[float] = []
    gc_times: list[float] = []  # garbage collection inside each move
    depths: list[int] = []
    start = time.perf_counter()
    for move in play.moves():
        move_times.append(move.seconds)
        gc_times.append(move.gc_seconds)
        depths.append(int((move.search or {})["depth"]))
    state = play.state
    limit = move_time_tolerance(payload["time_limit"])
    worst = max(move_times) if move_times else 0.0
    return {
        "id": payload["id"],
        "game": payload["game"],
        "seed": payload["seed"],
        "bot": spec,
        "moves": len(move_times),
        "returns": [float(r) for r in state.returns()],
        "worst_move": worst,
        "worst_move_index": move_times.index(worst) if move_times else None,
        "mean_move": sum(move_times) / len(move_times) if move_times else 0.0,
        "worst_move_gc": gc_times[move_times.index(worst)] if move_times else 0.0,
        "max_gc_in_move": max(gc_times, default=0.0),
        "tolerance": limit,
        "over_tolerance": sum(t > limit for t in move_times),
        "mean_depth": sum(depths) / len(depths) if depths else 0.0,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "wall": time.perf_counter() - start,
    }


def summary_table(records: Sequence[dict[str, Any]]) -> str:
    header = [
        "game",
        "seed",
        "moves",
        "mean depth",
        "mean move s",
        "worst move s",
        "of it in GC s",
        "tolerance s",
        "moves over tolerance",
        "max RSS MB",
    ]
    rows = []
    for r in sorted(records, key=lambda r: (r["game"], r["seed"])):
        if r.get("error"):
            rows.append([r["id"], "", "", "", "", "", "", "", f"error: {r['error'][:60]}", ""])
            continue
        rows.append(
            [
                r["game"],
                r["seed"],
                r["moves"],
                f"{r['mean_depth']:.2f}",
                f"{r['mean_move']:.4f}",
                f"{r['worst_move']:.4f}",
                f"{r.get('worst_move_gc', 0.0):.4f}",
                f"{r['tolerance']:.3f}",
                r["over_tolerance"],
                f"{r['max_rss_mb']:.0f}",
            ]
        )
    return markdown_table(header, rows, "-rrrrrrrrr") + "\n"


def run(
    game_strings: Sequence[str],
    time_limit: float,
    bot: str,
    seeds: Sequence[int],
    out: str,
    options: runner.RunnerOptions,
) -> list[dict[str, Any]]:
    for game_string in game_strings:
        load_game(game_string)  # a bad game string fails before anything runs
    spec = with_params(bot, time_limit=time_limit)  # a bad spec fails before anything runs
    tasks = []
    for game_string in game_strings:
        for seed in seeds:
            task_id = f"{game_string}#{seed}"
            payload = {
                "id": task_id,
                "game": game_string,
                "seed": seed,
                "bot": bot,
                "time_limit": time_limit,
            }
            tasks.append(runner.Task(task_id, payload))
    config = {"games": list(game_strings), "time_limit": time_limit, "bot": bot}
    with results.ResultsFolder(out, config, records_file=RECORDS_FILE) as folder:
        runner.run_missing(play_full_game, tasks, folder, options, unit="games")
        records = folder.records()
    command = "python -m experiments.benchmark.full_games " + " ".join(sys.argv[1:])
    text = (
        f"# Whole games, {spec} in every seat\n\n"
        + summary_table(records)
        + f"\nCommand: `{command}`\n"
    )
    results.write_atomic(f"{out}/summary.md", text)
    print(text)
    return records


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    options = runner.RunnerOptions(workers=1, task_timeout=FLAGS.game_timeout)
    try:
        run(
            FLAGS.games,
            FLAGS.time_limit,
            FLAGS.bot,
            parsing.parse_int_list(FLAGS.seeds, "--seeds"),
            FLAGS.out or f"results/full_games-{FLAGS.time_limit}",
            options,
        )
    except ValueError as error:
        flags.fail(str(error))


if __name__ == "__main__":
    flags.run(main, FLAGS)
