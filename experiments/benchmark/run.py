"""Benchmark: our searches against OpenSpiel's expectiminimax, time control, speed.

  python -m experiments.benchmark --out=results/benchmark   # full run
  python -m experiments.benchmark --quick                   # CI smoke run, seconds

Three sections (fixed depth, time-limited moves, nodes per second), each printed as a
table, then the headline targets with their verdicts. With --out the records resume
from the same folder. What each section measures: docs/guide/benchmark.md, "The benchmark
programs".
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from bots.spec import with_params
from experiments.benchmark import core, report
from experiments.common import flags, parsing, results
from experiments.common.errors import ExperimentError
from experiments.common.game_loader import load_game
from games.position_sampler import sample_positions

FULL_GAMES = (
    "backgammon",
    "pig",
    "einstein_wurfelt_nicht",
    "2048",
    "yacht",
    "maedn",
    "catch",
    "banqi",
    "dice(n=5,k=4)",
    "chance_tic_tac_toe",
)

PRESETS: dict[str, dict[str, Any]] = {
    "full": {
        "games": FULL_GAMES,
        "depths": {
            "backgammon": "1-2",
            "pig": "1-6",
            "einstein_wurfelt_nicht": "1-4",
            "2048": "1-3",
            "yacht": "1",
            "maedn": "1-5",
            "catch": "1-7",
            "banqi": "1-2",
            "dice(n=5,k=4)": "1-4",
            "chance_tic_tac_toe": "1-4",
        },
        "default_depths": "1-2",
        "positions": {"backgammon": 20},
        "default_positions": 10,
        "overrun_games": (
            "pig",
            "backgammon",
            "yacht",
            "2048",
            "einstein_wurfelt_nicht",
            "maedn",
            "dice(n=5,k=4)",
        ),
        "overrun_moves": 40,
        "nps": {"dice(n=5,k=4)": 4, "pig": 5},
        "nps_positions": 10,
        "repeats": 3,
    },
    "quick": {
        "games": ("pig", "backgammon", "dice(n=5,k=4)"),
        "depths": {"pig": "1-2", "backgammon": "1", "dice(n=5,k=4)": "1-2"},
        "default_depths": "1",
        "positions": {},
        "default_positions": 2,
        "overrun_games": ("pig",),
        "overrun_moves": 4,
        "nps": {"dice(n=5,k=4)": 2, "pig": 2},
        "nps_positions": 2,
        "repeats": 1,
    },
}
SECTIONS = ("fixed", "overrun", "nps")

FLAGS, _define = flags.program_flags()
_define.enum("preset", "full", list(PRESETS), "Defaults for every flag left unset.")
_define.bool("quick", False, "Shorthand for --preset=quick (CI smoke run).")
_define.string(
    "games",
    None,
    "Comma-separated game strings (commas inside "
    "parentheses belong to the game), e.g. 'pig,dice(n=5,k=4)'.",
)
_define.string(
    "depths",
    None,
    "Depths in decision plies: '1,2' or '1-3' for every "
    "game, or per game 'pig:1-6;backgammon:1,2' (a bare entry is the "
    "default for the others).",
)
_define.string("positions", None, "Positions per game: '10' or 'backgammon:20;10'.")
_define.integer(
    "seed", 0, "Seed of the position sampler and the time-limited games.", lower_bound=0
)
_define.integer(
    "repeats",
    None,
    "Time each fixed-depth search this many times and keep "
    "the fastest, on both sides (preset: full 3, quick 1).",
    lower_bound=1,
)
_define.enum(
    "clock",
    "cpu",
    list(core.CLOCKS),
    "Clock of the fixed-depth and "
    "nodes-per-second timings: cpu (this thread's CPU time; stable on a shared "
    "machine) or wall. Both are recorded; time-limited moves always use wall.",
)
_define.integer("tt_size", 100_000, "Table entries of the star2+tt runs.", lower_bound=1)
_define.list(
    "algorithms", list(core.ALGORITHM_LABELS), f"Subset of {', '.join(core.ALGORITHM_LABELS)}."
)
_define.list("sections", list(SECTIONS), f"Subset of {', '.join(SECTIONS)}.")
_define.float("time_limit", 0.05, "Seconds per move in the time-limited section.")
_define.string("overrun_bot", "star2", "Search bot name for the time-limited moves.")
_define.string("overrun_games", None, "Games of the time-limited section.")
_define.integer("overrun_moves", None, "Timed moves per game in that section.", lower_bound=1)
_define.string(
    "nps", None, "Games and depths of the nodes-per-second section, e.g. 'dice(n=5,k=4):5;pig:6'."
)
_define.integer("nps_positions", None, "Positions per game in that section.", lower_bound=1)
_define.string(
    "out",
    None,
    "Optional results folder (records.jsonl, config.json, "
    "summary.md, summary.json); the same command on the same folder resumes.",
)


# ---------------------------------------------------------------- parsing


def _per_game(
    preset: dict[str, Any], name: str, text: Any, named: set[str]
) -> tuple[Any, dict[str, Any]]:
    """The default and per-game values of ``--<name>`` over the preset's (a default given
    on the command line replaces the preset's per-game values too); adds the games the
    flag names to ``named``."""
    default, values = preset[f"default_{name}"], dict(preset[name])
    if text:
        given_default, given = parsing.parse_per_game(text, f"--{name}")
        if given_default is not None:
            default, values = given_default, {}
        values.update(given)
        named |= set(given)
    return default, values


def resolve_config(argv_flags: Any) -> dict[str, Any]:
    """The full configuration (everything that decides the results) from flags and preset."""
    preset = PRESETS["quick" if argv_flags.quick else argv_flags.preset]
    games = parsing.split_games(argv_flags.games) if argv_flags.games else list(preset["games"])

    named: set[str] = set()
    depth_default, depth_map = _per_game(preset, "depths", argv_flags.depths, named)
    positions_default, positions_map = _per_game(preset, "positions", argv_flags.positions, named)
    strays = sorted(named - set(games))
    if strays:
        raise ExperimentError(
            f"--depths/--positions name {', '.join(strays)}, not in the games ({', '.join(games)})"
        )
    fixed = []
    for game in games:
        depths = parsing.parse_int_list(
            str(depth_map.get(game, depth_default)), f"--depths for {game}"
        )
        count = parsing.parse_int_list(
            str(positions_map.get(game, positions_default)), f"--positions for {game}"
        )
        if len(count) != 1 or count[0] < 1:
            raise ExperimentError(f"--positions for {game}: need one integer >= 1")
        fixed.append({"game": game, "depths": depths, "positions": count[0]})

    algorithms = [a.strip() for a in argv_flags.algorithms]
    unknown = sorted(set(algorithms) - set(core.ALGORITHM_LABELS))
    if unknown:
        raise ExperimentError(
            f"--algorithms: unknown {', '.join(unknown)}; accepted: "
            f"{', '.join(core.ALGORITHM_LABELS)}"
        )
    sections = [s.strip() for s in argv_flags.sections]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ExperimentError(
            f"--sections: unknown {', '.join(unknown)}; accepted: {', '.join(SECTIONS)}"
        )
    if not argv_flags.time_limit > 0:
        raise ExperimentError(f"--time_limit must be > 0 seconds, got {argv_flags.time_limit}")

    overrun_games = (
        parsing.split_games(argv_flags.overrun_games)
        if argv_flags.overrun_games
        else list(preset["overrun_games"])
    )
    nps = dict(preset["nps"])
    if argv_flags.nps:
        default, given = parsing.parse_per_game(argv_flags.nps, "--nps")
        if default is not None:
            raise ExperimentError("--nps: every entry needs GAME:DEPTH")
        nps = {
            game: parsing.parse_int_list(depth, f"--nps for {game}")[-1]
            for game, depth in given.items()
        }
    return {
        "fixed": fixed,
        "algorithms": [a for a in core.ALGORITHM_LABELS if a in algorithms],
        "sections": [s for s in SECTIONS if s in sections],
        "seed": argv_flags.seed,
        "repeats": argv_flags.repeats or preset["repeats"],
        "clock": argv_flags.clock,
        "tt_size": argv_flags.tt_size,
        "overrun": {
            "games": overrun_games,
            "spec": argv_flags.overrun_bot,
            "time_limit": argv_flags.time_limit,
            "moves": argv_flags.overrun_moves or preset["overrun_moves"],
        },
        "nps": {"games": nps, "positions": argv_flags.nps_positions or preset["nps_positions"]},
    }


# ---------------------------------------------------------------- running


class _Store:
    """Records already measured (when resuming --out) and the JSONL writer."""

    def __init__(self, out: str | None, config: dict[str, Any]):
        self.path = None
        self.records: dict[str, dict] = {}
        if out:
            self.records = results.prepare_output_dir(out, config, records_file="records.jsonl")
            self.path = os.path.join(out, "records.jsonl")

    def get(self, record_id: str) -> dict | None:
        return self.records.get(record_id)

    def put(self, record: dict) -> dict:
        self.records[record["id"]] = record
        if self.path:
            results.append_record(self.path, record)
        return record


def run_fixed(config: dict[str, Any], store: _Store, log=print) -> tuple[list[dict], list[str]]:
    records: list[dict] = []
    skipped: list[str] = []
    for item in config["fixed"]:
        game_string = item["game"]
        try:
            game = load_game(game_string)
        except ExperimentError as e:
            skipped.append(f"{game_string}: {e}")
            log(f"  skipped {game_string}: {e}")
            continue
        evaluator = core.default_evaluator(game)
        positions = sample_positions(
            game, item["positions"], config["seed"], core.plies(game_string)
        )
        start = time.perf_counter()
        for depth in item["depths"]:
            for index, state in enumerate(positions):
                record_id = f"fixed|{game_string}|{depth}|{index}"
                record = store.get(record_id)
                if record is None:
                    measured = core.measure_position(
                        game,
                        state,
                        depth,
                        evaluator,
                        config["tt_size"],
                        config["repeats"],
                        config["algorithms"],
                        config["clock"],
                    )
                    record = store.put(
                        {
                            "id": record_id,
                            "kind": "fixed",
                            "game": game_string,
                            "depth": depth,
                            "index": index,
                            "history": [int(a) for a in state.history()],
                            "evaluator": type(evaluator).__name__,
                            **measured,
                        }
                    )
                records.append(record)
        log(
            f"  {game_string}: depths {item['depths']}, {len(positions)} positions, "
            f"{time.perf_counter() - start:.1f} s"
        )
    return records, skipped


def run_overrun(config: dict[str, Any], store: _Store, log=print) -> list[dict]:
    settings = config["overrun"]
    spec = with_params(settings["spec"], time_limit=settings["time_limit"])
    records = []
    for game_string in settings["games"]:
        record_id = f"overrun|{game_string}"
        record = store.get(record_id)
        if record is None:
            try:
                game = load_game(game_string)
            except ExperimentError as e:
                log(f"  skipped {game_string}: {e}")
                continue
            start = time.perf_counter()
            moves = core.time_limited_moves(
                game, game_string, spec, settings["moves"], config["seed"], settings["time_limit"]
            )
            record = store.put(
                {
                    "id": record_id,
                    "kind": "overrun",
                    "game": game_string,
                    "spec": spec,
                    "moves": moves,
                }
            )
            log(f"  {game_string}: {len(moves)} moves, {time.perf_counter() - start:.1f} s")
        records.append(record)
    return records


def run_nps(config: dict[str, Any], store: _Store, log=print) -> list[dict]:
    settings = config["nps"]
    records = []
    for game_string, depth in settings["games"].items():
        try:
            game = load_game(game_string)
        except ExperimentError as e:
            log(f"  skipped {game_string}: {e}")
            continue
        positions = None
        for label, algorithm, table in core.ALGORITHMS:
            if algorithm != "star2":
                continue
            record_id = f"nps|{game_string}|{label}"
            record = store.get(record_id)
            if record is None:
                if positions is None:
                    positions = sample_positions(
                        game, settings["positions"], config["seed"], core.plies(game_string)
                    )
                size = config["tt_size"] if table is None else table
                measured = core.nodes_per_second(
                    game, positions, depth, algorithm, size, config["repeats"], config["clock"]
                )
                record = store.put(
                    {
                        "id": record_id,
                        "kind": "nps",
                        "game": game_string,
                        "algorithm": label,
                        "depth": depth,
                        "positions": settings["positions"],
                        **measured,
                    }
                )
            records.append(record)
    return records


def render(
    config: dict,
    fixed_rows: list[dict],
    overrun_rows: list[dict],
    nps_records: list[dict],
    heads: list[dict],
    skipped: Sequence[str],
    markdown: bool,
) -> str:
    table = report.markdown if markdown else report.text_table
    title = (lambda s: f"### {s}\n") if markdown else (lambda s: f"== {s} ==")
    parts = []
    if fixed_rows:
        d_head, d_rows, c_head, c_rows = report.fixed_tables(fixed_rows)
        clock = "CPU" if config["clock"] == "cpu" else "wall-clock"
        parts += [
            title(
                f"Fixed-depth searches (sums over positions; {clock} seconds, best of "
                f"{config['repeats']}; OpenSpiel nodes from a counting clone of its "
                f"recursion)"
            ),
            table(d_head, d_rows),
            "",
            title(
                "Against OpenSpiel's expectiminimax (speedup = OS s / star2+tt s; "
                "cost ratio = our expectiminimax s/node / OS s/node)"
            ),
            table(c_head, c_rows),
            "",
        ]
    if skipped:
        parts += ["Skipped: " + "; ".join(skipped), ""]
    if overrun_rows:
        spec = next(iter(r["spec"] for r in overrun_rows if r["spec"] != "-"), "")
        parts += [
            title(
                f"Time-limited moves: {spec} (wall time around bot.step; "
                f"tolerance {overrun_rows[0]['tolerance']:.3f} s)"
            ),
            table(*report.overrun_table(overrun_rows)),
            "",
        ]
    if nps_records:
        parts += [
            title(f"Nodes per second of fixed-depth searches ({config['clock']} time)"),
            table(*report.nps_table(nps_records)),
            "",
        ]
    if heads and markdown:
        parts += [title("Headline targets"), table(*report.headline_table(heads)), ""]
    elif heads:
        parts += [title("Headline targets")]
        parts += [
            f"[{'met' if h['met'] else 'MISSED'}] {h['name']}: {h['measured']} "
            f"(wanted {h['target']})"
            for h in heads
        ]
        parts.append("")
    return "\n".join(parts)


def engine_fingerprint() -> str:
    """One sha1 over bots/ and games/: which engine a summary was measured with."""
    digests = results.source_digests(("bots", "games"))
    return hashlib.sha1(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:12]


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def run(config: dict[str, Any], out: str | None = None, log=print) -> dict[str, Any]:
    """Runs the configured sections; returns the summary (also written to ``out``)."""
    store = _Store(out, config)
    fingerprint = engine_fingerprint()
    started = time.perf_counter()
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    fixed_records, skipped, overrun_records, nps_records = [], [], [], []
    if "fixed" in config["sections"]:
        log("Fixed-depth searches:")
        fixed_records, skipped = run_fixed(config, store, log)
    if "overrun" in config["sections"]:
        log("Time-limited moves:")
        overrun_records = run_overrun(config, store, log)
    if "nps" in config["sections"]:
        log("Nodes per second:")
        nps_records = run_nps(config, store, log)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    fixed_rows = report.summarize_fixed(fixed_records)
    overrun_rows = report.summarize_overrun(overrun_records, config["overrun"]["time_limit"])
    heads = report.headlines(fixed_rows, overrun_rows, nps_records)
    elapsed = time.perf_counter() - started
    summary = {
        "config": config,
        "fixed": fixed_rows,
        "overrun": overrun_rows,
        "nps": nps_records,
        "headlines": heads,
        "skipped": list(skipped),
        "engine_sha1": fingerprint,
        "git": results.git_revision(),
        "seconds": elapsed,
        "load_average_1min_at_start": load_start,
        "load_average_1min_at_end": load[0] if load else None,
        "cpu_count": os.cpu_count(),
    }
    log("")
    log(render(config, fixed_rows, overrun_rows, nps_records, heads, skipped, False))
    machine = (
        f"engine (bots/, games/ sources) sha1 {fingerprint}; load average {load_start:.2f} at the start, {load[0]:.2f} at the end, "
        f"{os.cpu_count()} CPUs"
        if load
        else f"engine sha1 {fingerprint}"
    )
    log(f"Total {elapsed:.0f} s; {machine}.")
    if out:
        command = "python -m experiments.benchmark " + " ".join(sys.argv[1:])
        with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
            f.write(
                f"# Benchmark\n\nCommand: `{command.strip()}`\n\n"
                f"Run time {elapsed:.0f} s; {machine}.\n\n"
            )
            f.write(render(config, fixed_rows, overrun_rows, nps_records, heads, skipped, True))
        with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
            json.dump(_json_safe(summary), f, indent=1, sort_keys=True)
    return summary


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    try:
        config = resolve_config(FLAGS)
        run(config, FLAGS.out)
    except ValueError as e:  # BenchmarkError, ResultsError and GameError
        flags.fail(str(e))
