"""One tournament from a configuration: validate, play what is missing, summarise."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import pyspiel

from bots.spec import parse_spec
from experiments.common import game_loader, results, runner
from experiments.common.errors import ExperimentError
from experiments.common.runner import RunnerOptions, Task
from experiments.tournament import play
from experiments.tournament.report import Summary
from experiments.tournament.schedule import (
    DEFAULT_SEATING,
    SCHEDULES,
    SEATINGS,
    build_tasks,
    matches,
    seatings,
)
from games.upstream import upstream_problem

RECORDS_FILE = "games.jsonl"
DEFAULT_GAME_TIMEOUT = 600.0


def check_schedule(config: dict, num_players: int) -> dict:
    """The configuration with its seating resolved; raises ExperimentError if it cannot run.

    Games of three or more players record their seating in the configuration
    (rotations unless given), and play whole deals: games_per_pair must be a
    multiple of the seatings per deal. One- and two-player configurations are
    kept as they are, so their folders and hashes do not change.
    """
    seating = config.get("seating", DEFAULT_SEATING)
    if seating not in SEATINGS:
        raise ExperimentError(f"unknown seating {seating!r}; accepted: {', '.join(SEATINGS)}")
    config = dict(config, num_players=num_players)
    if num_players <= 2:
        return config
    config["seating"] = seating
    per_deal = len(seatings(num_players, seating))
    if config["games_per_pair"] % per_deal:
        lower = config["games_per_pair"] // per_deal * per_deal
        options = " or ".join(str(g) for g in (lower, lower + per_deal) if g > 0)
        raise ExperimentError(
            f"--games_per_pair={config['games_per_pair']}: a {num_players}-player match plays "
            f"whole deals of {per_deal} games (one per seating, {seating}), so give a multiple "
            f"of {per_deal}, e.g. {options}"
        )
    return config


def validate_bots(specs: Sequence[str], game: pyspiel.Game) -> list[bool]:
    """Builds every bot once per seat so a bad spec fails before any game; returns takes_seed."""
    if not specs:
        raise ExperimentError("no --bot given")
    if game.num_players() == 2 and len(specs) < 2:
        raise ExperimentError("a two-player tournament needs at least two --bot flags")
    if game.num_players() > 2 and len(specs) < game.num_players():
        raise ExperimentError(
            f"a {game.num_players()}-player tournament needs at least {game.num_players()} "
            f"--bot flags, got {len(specs)}; give a --bot again to seat that bot more than once"
        )
    takes_seed = []
    for spec in specs:
        try:
            name, params = parse_spec(spec)
        except ValueError as error:
            raise ExperimentError(f"bad bot spec {spec!r}: {error}") from None
        try:
            for player in range(game.num_players()):
                play.create_bot(spec, game, player, None)
        except Exception as e:
            raise ExperimentError(
                f"bad bot spec {spec!r} for game {game.get_type().short_name}: "
                f"{type(e).__name__}: {str(e).strip()}"
            ) from e
        seeded = "seed" not in params
        if seeded:
            try:
                play.create_bot(spec, game, 0, 1)
            except Exception:
                seeded = False  # this bot takes no seed parameter
        takes_seed.append(seeded)
    return takes_seed


def default_out(config: dict) -> str:
    """results/tournament-<game>-<hash>: the same command resumes the same folder."""
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    game = re.sub(r"[^A-Za-z0-9_.-]+", "_", config["game"]).strip("_")
    return os.path.join("results", f"tournament-{game}-{digest}")


def _failed_game(task: Task, message: str) -> dict[str, Any]:
    return play.failed_game_record(task.payload, message)


def run_tournament(
    config: dict,
    out: str,
    *,
    options: RunnerOptions | None = None,
    bootstrap: int = 1000,
    plots: bool = True,
    limit: int | None = None,
) -> Summary:
    """Plays what is missing in `out`, then writes and returns the summary.

    `config`: game, bots, schedule, games_per_pair, seed, max_moves and, optionally,
    seating (as the flags).
    `options`: workers, executor, retries, task_timeout (the game timeout); the
    default plays in this process with a timeout of DEFAULT_GAME_TIMEOUT.
    `limit`: play and summarise only the first `limit` games of the schedule (an
    interim look of a study); the folder's configuration is the whole schedule's, so
    a later call with a larger limit resumes it.
    Raises ExperimentError for a bad configuration or results folder.
    """
    options = options or RunnerOptions(task_timeout=DEFAULT_GAME_TIMEOUT)
    if options.executor == "ray" and not runner.ray_available():
        raise ExperimentError(runner.RAY_MISSING)
    if config.get("schedule") not in SCHEDULES:
        raise ExperimentError(
            f"unknown schedule {config.get('schedule')!r}; accepted: {', '.join(SCHEDULES)}"
        )
    game = game_loader.load_game(config["game"])
    problem = upstream_problem(game)
    if problem is not None:
        raise ExperimentError(problem)
    config = check_schedule(config, game.num_players())
    takes_seed = validate_bots(config["bots"], game)
    game_tasks = build_tasks(
        config["game"],
        config["bots"],
        game.num_players(),
        config["schedule"],
        config["games_per_pair"],
        config["seed"],
        config["max_moves"],
        takes_seed,
        config.get("seating", DEFAULT_SEATING),
    )
    if limit is not None:
        game_tasks = game_tasks[: max(0, limit)]
    tasks = [Task(t.id, t) for t in game_tasks]
    options = dataclasses.replace(
        options, preload=options.preload or ("experiments.tournament.play",)
    )
    extra = {
        "workers": options.workers,
        "executor": options.executor,
        "ray_address": options.ray_address,
        "retries": options.retries,
        "game_timeout": options.task_timeout,
    }
    try:
        with results.ResultsFolder(out, config, records_file=RECORDS_FILE, extra=extra) as folder:
            if folder.existing:
                print(
                    f"resuming {out}: {len(folder.existing)} of {len(tasks)} games already played"
                )
            report = runner.run_missing(
                play.play_game, tasks, folder, options, error_record=_failed_game, unit="games"
            )
            ids = {t.id for t in tasks}
            records = [r for r in folder.records() if r["id"] in ids]
    except (results.ResultsError, runner.RunnerError) as error:
        raise ExperimentError(
            f"{error}" if "rerun" in str(error) else f"{error}; finished games are kept in {out}"
        ) from None
    if report.ran:
        print(
            f"played {report.ran} games in {report.seconds:.1f} s"
            + (f" ({report.errors} with errors, see {RECORDS_FILE})" if report.errors else "")
        )
    _print_errors(records)
    pairs = (
        [(b,) for b in range(len(config["bots"]))]
        if game.num_players() == 1
        else matches(len(config["bots"]), game.num_players(), config["schedule"])
    )
    summary = Summary(config, records, pairs, bootstrap=bootstrap)
    try:
        summary.write(out, make_plots=plots)
    except OSError as error:
        raise ExperimentError(
            f"cannot write the summary in {out}: {error.strerror or error}. The games are "
            "kept; fix the folder, then rerun the same command to write the summary"
        ) from None
    return summary


def _print_errors(records: Sequence[dict]) -> None:
    """One line per game recorded with an error: the last line of its message."""
    failed = [r for r in records if r.get("error")]
    for record in failed[:20]:
        last = record["error"].strip().splitlines()[-1]
        print(f"game {record['id']}: error, not counted: {last}", file=sys.stderr)
    if len(failed) > 20:
        print(f"... and {len(failed) - 20} more games with errors", file=sys.stderr)
    if failed:
        print(
            "these games are not counted; once the cause is fixed, rerun the same command "
            "with --rerun_errors to play them again",
            file=sys.stderr,
        )
