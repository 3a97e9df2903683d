r"""Tournament: plays bots against each other and reports who wins, at what search effort.

  python -m experiments.tournament                      # default: pig, 4 bots
  python -m experiments.tournament --game=einstein_wurfelt_nicht \
      --bot="star2(time_limit=0.2)" --bot="mcts(time_limit=0.2)" --bot=random \
      --games_per_pair=100 --out=results/ewn

Seat-swapped game pairs share their dice (common random numbers). Results go
to --out (games.jsonl, config.json, summary.md, summary.csv, PNG plots);
rerunning the same command on the same folder resumes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

from absl import app

from experiments import cli, results_io, tournament_play
from experiments.tournament_exec import (
    EXECUTORS,
    RAY_MISSING,
    Progress,
    WorkerDied,
    ray_available,
    run_tasks,
)
from experiments.tournament_report import Summary
from experiments.tournament_schedule import SCHEDULES, build_tasks, pairings

RECORDS_FILE = "games.jsonl"

# Equal thinking time per move; about two minutes on 2 cores with the default 10 games per pair.
DEFAULT_BOTS = [
    "star2(time_limit=0.05)",
    "expectiminimax(time_limit=0.05)",
    "mcts(time_limit=0.05)",
    "random",
]

FLAGS, _define = cli.program_flags()
_define.string("game", "pig", "OpenSpiel game string, e.g. pig or 'pig(winscore=50)'.")
_define.multi_string("bot", DEFAULT_BOTS, "A bots.make_bot spec; repeat the flag per bot.")
_define.enum(
    "schedule",
    "round_robin",
    SCHEDULES,
    "round_robin: every pair of bots; gauntlet: the first bot against each other.",
)
_define.integer(
    "games_per_pair",
    10,
    "Games per pairing (seats alternate; pairs of two "
    "share dice). One-player games: games per bot.",
    lower_bound=1,
)
_define.integer("seed", 0, "Tournament seed; every game's seeds derive from it.", lower_bound=0)
_define.string(
    "out",
    None,
    "Results folder (default: results/tournament-<game>-<hash of "
    "the configuration>, so the same command resumes the same folder).",
)
_define.integer(
    "workers",
    os.cpu_count() or 1,
    "Parallel games (processes or Ray tasks); 1 plays in this process.",
    lower_bound=1,
)
_define.enum("executor", "local", EXECUTORS, "local process pool or a Ray cluster.")
_define.string("ray_address", None, "Ray cluster address (default: start a local Ray).")
_define.integer(
    "max_moves",
    1000,
    "Safeguard: a game is cut off after this many bot "
    "moves (chance events not counted) and recorded with cut_off=true.",
    lower_bound=1,
)
_define.integer("bootstrap", 1000, "Bootstrap samples for the Elo intervals.", lower_bound=0)
_define.bool("plots", True, "Write PNG plots (needs matplotlib).")


class TournamentError(ValueError):
    """A configuration problem to report to the user without a traceback."""


def _spec_name(spec: str) -> str:
    return re.split(r"[(\s]", spec.strip(), maxsplit=1)[0]


def _spec_sets_seed(spec: str) -> bool:
    return re.search(r"[(,]\s*seed\s*=", spec) is not None


def load_game(game_string: str):
    """Loads the game (custom games registered) or raises TournamentError."""
    import pyspiel

    name = re.split(r"[(\s]", game_string.strip(), maxsplit=1)[0]
    if name not in pyspiel.registered_names():
        stochastic = sorted(
            t.short_name
            for t in pyspiel.registered_games()
            if t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
            and t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        raise TournamentError(
            f"unknown game {name!r} in --game={game_string!r}; stochastic "
            f"perfect-information games registered: {', '.join(stochastic)} "
            "(any registered OpenSpiel game name is accepted)"
        )
    try:
        game = tournament_play.load_game(game_string)
    except Exception as e:  # pyspiel.SpielError: bad parameters
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise TournamentError(f"cannot load game {game_string!r}: {first}") from e
    if game.num_players() not in (1, 2):
        raise TournamentError(
            f"game {game_string!r} has {game.num_players()} players; "
            "the tournament plays one- and two-player games"
        )
    return game


def validate_bots(specs: Sequence[str], game) -> list[bool]:
    """Builds every bot once per seat so a bad spec fails before any game; returns takes_seed."""
    import pyspiel

    if not specs:
        raise TournamentError("no --bot given")
    if game.num_players() == 2 and len(specs) < 2:
        raise TournamentError("a two-player tournament needs at least two --bot flags")
    rewards = game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    takes_seed = []
    for spec in specs:
        if _spec_name(spec) == "mcts" and rewards:
            raise TournamentError(
                f"bot {spec!r}: OpenSpiel's MCTS (pyspiel.MCTSBot) only plays games with "
                f"terminal rewards, and {game.get_type().short_name} has intermediate rewards. "
                "Use a search bot instead (e.g. --bot='expectiminimax(time_limit=0.1)' or "
                "star2) or random."
            )
        try:
            for player in range(game.num_players()):
                tournament_play.create_bot(spec, game, player, None)
        except Exception as e:
            raise TournamentError(
                f"bad bot spec {spec!r} for game {game.get_type().short_name}: "
                f"{type(e).__name__}: {str(e).strip()}"
            ) from e
        seeded = not _spec_sets_seed(spec)
        if seeded:
            try:
                tournament_play.create_bot(spec, game, 0, 1)
            except Exception:
                seeded = False  # this bot takes no seed parameter
        takes_seed.append(seeded)
    return takes_seed


def config_from_flags() -> dict[str, Any]:
    """The part of the flags that decides the results (compared when resuming)."""
    return {
        "program": "experiments.tournament",
        "game": FLAGS.game,
        "bots": list(FLAGS.bot),
        "schedule": FLAGS.schedule,
        "games_per_pair": FLAGS.games_per_pair,
        "seed": FLAGS.seed,
        "max_moves": FLAGS.max_moves,
    }


def default_out(config: dict) -> str:
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    game = re.sub(r"[^A-Za-z0-9_.-]+", "_", config["game"]).strip("_")
    return os.path.join("results", f"tournament-{game}-{digest}")


def run_tournament(
    config: dict,
    out: str,
    *,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    bootstrap: int = 1000,
    plots: bool = True,
    progress: bool = True,
) -> Summary:
    """Plays what is missing in `out`, then writes and returns the summary.

    `config`: game, bots, schedule, games_per_pair, seed, max_moves (as the flags).
    Raises TournamentError for a bad configuration or output folder.
    """
    if executor == "ray" and not ray_available():
        raise TournamentError(RAY_MISSING)
    if config.get("schedule") not in SCHEDULES:
        raise TournamentError(
            f"unknown schedule {config.get('schedule')!r}; accepted: {', '.join(SCHEDULES)}"
        )
    game = load_game(config["game"])
    takes_seed = validate_bots(config["bots"], game)
    config = dict(config, num_players=game.num_players())
    try:
        existing = results_io.prepare_output_dir(
            out,
            config,
            records_file=RECORDS_FILE,
            key="id",
            extra={"workers": workers, "executor": executor, "ray_address": ray_address},
        )
    except results_io.OutputDirError as e:
        raise TournamentError(str(e)) from e
    tasks = build_tasks(
        config["game"],
        config["bots"],
        game.num_players(),
        config["schedule"],
        config["games_per_pair"],
        config["seed"],
        config["max_moves"],
        takes_seed,
    )
    todo = [t for t in tasks if t.id not in existing]
    if existing:
        print(f"resuming {out}: {len(tasks) - len(todo)} of {len(tasks)} games already played")
    records_path = os.path.join(out, RECORDS_FILE)
    bar = Progress(len(tasks), len(tasks) - len(todo)) if progress else None
    n_errors = 0

    def on_record(record: dict) -> None:
        nonlocal n_errors
        results_io.append_record(records_path, record)
        if record["error"] is not None:
            n_errors += 1
            first = record["error"].strip().splitlines()[-1]
            print(
                f"\ngame {record['id']}: bot error, recorded and skipped: {first}", file=sys.stderr
            )
        if bar:
            bar.update()

    t0 = time.monotonic()
    try:
        run_tasks(todo, on_record, executor=executor, workers=workers, ray_address=ray_address)
    except WorkerDied as e:
        raise TournamentError(
            f"{e}. The finished games are saved in {out}: rerun the same "
            "command to resume (try --workers=1 to see the failure)"
        ) from e
    finally:
        if bar:
            bar.close()
    if todo:
        print(
            f"played {len(todo)} games in {time.monotonic() - t0:.1f} s"
            + (f" ({n_errors} with bot errors, see games.jsonl)" if n_errors else "")
        )
    ids = {t.id for t in tasks}
    records = [r for r in results_io.read_records(records_path).values() if r["id"] in ids]
    pairs = (
        [(b,) for b in range(len(config["bots"]))]
        if game.num_players() == 1
        else pairings(len(config["bots"]), config["schedule"])
    )
    summary = Summary(config, records, pairs, bootstrap=bootstrap)
    summary.write(out, make_plots=plots)
    return summary


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    config = config_from_flags()
    out = FLAGS.out or default_out(config)
    try:
        summary = run_tournament(
            config,
            out,
            workers=FLAGS.workers,
            executor=FLAGS.executor,
            ray_address=FLAGS.ray_address,
            bootstrap=FLAGS.bootstrap,
            plots=FLAGS.plots,
        )
    except TournamentError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; finished games are saved in {out}: rerun the same command to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    print()
    print(summary.markdown())
    print("\n".join(summary.result_lines()))
    print(f"\nresults in {out}/ (summary.md, summary.csv, games.jsonl)")


if __name__ == "__main__":
    cli.run(main, FLAGS)
