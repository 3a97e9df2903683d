r"""Node-reduction study: how much Star1, Star2 (+TT) and ChanceProbCut save over expectiminimax.

  python -m experiments.node_reduction --preset=ballard_table2
  python -m experiments.node_reduction --preset=hauk_backgammon --positions=5 --depths=1,2
  python -m experiments.node_reduction --game=pig --algorithms=expectiminimax,star1,star2 \
      --depths=1,2,3,4 --positions=10 --out=results/pig

Presets: ballard_table1..4, ballard_table6, veness_blair, hauk_backgammon,
lanctot_pig, lanctot_ewn (experiments/node_reduction_presets.py). A preset fills
in game, algorithms, depths and positions; explicit flags override it.
Algorithms: expectiminimax, star1, star2, star2_tt, star2_noorder, chanceprobcut,
openspiel (OpenSpiel's own expectiminimax). Each search has a --budget in
seconds; one that runs over is stopped and recorded as 'skipped', and searches
that cannot fit are skipped without running (see node_reduction_run.py).

Writes to --out: config.json, positions.json (serialized positions; reuse with
--position_file), results.jsonl (one record per position x depth x algorithm),
summary.csv, summary.md, nodes.png. Rerunning the same command resumes. Exits 1
if an exact algorithm's root value differs from expectiminimax's (or a search
failed), 2 on a configuration error.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

from absl import app

from experiments import ballard, cli, results_io
from experiments import node_reduction_positions as positions_io
from experiments.node_reduction_presets import ALGORITHMS, PRESETS, REFERENCE, get_preset
from experiments.node_reduction_report import NodeReport
from experiments.node_reduction_run import Runner, Settings, Unit

RECORDS_FILE = "results.jsonl"
DEFAULTS = {
    "game": "pig",
    "algorithms": "expectiminimax,star1,star2,star2_tt",
    "depths": "1,2,3",
    "positions": 10,
    "moves": (4, 30),
    "budget": 60.0,
}

FLAGS, _define = cli.program_flags()
_define.string("preset", None, f"One of: {', '.join(PRESETS)}.")
_define.string(
    "game", None, f"OpenSpiel game string (default {DEFAULTS['game']} without a preset)."
)
_define.list(
    "algorithms",
    None,
    "Comma-separated, from: "
    + ", ".join(ALGORITHMS)
    + f". {REFERENCE} is always run: it is the reference.",
)
_define.list(
    "depths", None, "Search depths in decision plies (chance levels not counted), e.g. 1,2,3."
)
_define.integer(
    "positions",
    None,
    "Number of positions (sampled, or the first ones of --position_file).",
    lower_bound=1,
)
_define.string(
    "position_file", None, "positions.json of an earlier run: search exactly those positions."
)
_define.string(
    "evaluator",
    None,
    "Evaluator name for bots.evaluators.make_evaluator (default: the game's default evaluator).",
)
_define.integer("seed", 0, "Seed of the position sampling.", lower_bound=0)
_define.string(
    "out",
    None,
    "Results folder (default results/node_reduction-<preset or game>-<hash of the configuration>).",
)
_define.integer(
    "trials",
    None,
    "Ballard average-case presets: random trees per case "
    "(default: the preset's, up to Ballard's 1000).",
    lower_bound=1,
)
_define.list("sizes", None, "Ballard presets: only these N (or B) values.")
_define.integer(
    "probcut_R",
    None,
    "ChanceProbCut depth reduction R (default: the calibration's, R=2 where calibrated).",
    lower_bound=1,
)
_define.float("probcut_t", 1.5, "ChanceProbCut confidence factor t.")
_define.string(
    "probcut_calibration",
    None,
    "ChanceProbCut calibration file (default: the committed one for the game, bots/calibrations/).",
)
_define.float(
    "budget",
    None,
    "Seconds allowed per search call (any algorithm, the "
    "OpenSpiel baseline included); longer ones are stopped and recorded as "
    "'skipped'. Default: the preset's, else 60.",
)
_define.float(
    "max_seconds",
    None,
    "Stop starting new positions after this many "
    "seconds (finished records are kept; rerun to continue).",
)
_define.bool("plots", True, "Write nodes.png (needs matplotlib).")


class NodeReductionError(ValueError):
    """A configuration problem reported to the user without a traceback."""


def _parse_depths(values: Sequence[str]) -> tuple[int, ...]:
    try:
        depths = tuple(sorted({int(v) for v in values}))
    except ValueError:
        raise NodeReductionError(f"--depths must be integers, got {','.join(values)!r}") from None
    if not depths or depths[0] < 1:
        raise NodeReductionError(f"--depths must be integers >= 1, got {','.join(values)!r}")
    return depths


def _check_algorithms(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in ALGORITHMS]
    if unknown or not names:
        raise NodeReductionError(
            f"unknown algorithm(s) {', '.join(unknown) or '(none)'} in "
            f"--algorithms; accepted: {', '.join(ALGORITHMS)}"
        )
    ordered = [REFERENCE] + [n for n in dict.fromkeys(names) if n != REFERENCE]
    return ordered


def build_config(options: dict[str, Any]) -> dict[str, Any]:
    """The result-deciding configuration from flag-like options (None = not given)."""
    name = options.get("preset")
    preset = get_preset(name) if name else None
    config: dict[str, Any] = {
        "program": "experiments.node_reduction",
        "preset": name,
        "seed": options.get("seed", 0),
        "evaluator": options.get("evaluator"),
    }
    algorithms = options.get("algorithms") or (
        preset.algorithms if preset else DEFAULTS["algorithms"].split(",")
    )
    config["algorithms"] = _check_algorithms(list(algorithms))
    if "chanceprobcut" in config["algorithms"]:
        config["probcut"] = {
            "R": options.get("probcut_R"),
            "t": options.get("probcut_t", 1.5),
            "calibration": options.get("probcut_calibration"),
        }
    budget = options.get("budget") or (preset.budget if preset else DEFAULTS["budget"])
    if not budget > 0:
        raise NodeReductionError(f"--budget must be > 0 seconds, got {budget}")
    config["budget"] = float(budget)
    if preset is not None and preset.depth_limits:
        config["depth_limits"] = dict(preset.depth_limits)
    if preset is not None and preset.is_ballard:
        for flag in ("game", "depths", "positions", "position_file"):
            if options.get(flag) is not None:
                raise NodeReductionError(
                    f"--{flag} does not apply to Ballard preset {name!r}: its trees are fixed; use "
                    f"--sizes to pick N values and --trials for the number of random trees"
                )
        cases = list(preset.ballard_cases)
        if options.get("sizes"):
            try:
                sizes = {int(s) for s in options["sizes"]}
            except ValueError:
                raise NodeReductionError(
                    f"--sizes must be integers, got {options['sizes']}"
                ) from None
            known = sorted({c.n for c in cases})
            if not sizes <= set(known):
                raise NodeReductionError(
                    f"--sizes {sorted(sizes - set(known))} not in preset "
                    f"{name!r}; accepted: {known}"
                )
            cases = [c for c in cases if c.n in sizes]
        if options.get("trials"):
            cases = [
                c.__class__(c.n, c.levels, c.order, options["trials"], c.show_levels) for c in cases
            ]
        config["ballard_cases"] = [[c.n, c.levels, c.order, c.trials, c.show_levels] for c in cases]
        return config
    for flag in ("trials", "sizes"):
        if options.get(flag):
            raise NodeReductionError(f"--{flag} applies only to the Ballard presets")
    config["game"] = options.get("game") or (preset.game if preset else DEFAULTS["game"])
    depths = options.get("depths") or (preset.depths if preset else DEFAULTS["depths"].split(","))
    config["depths"] = list(_parse_depths([str(d) for d in depths]))
    config["positions"] = options.get("positions") or (
        preset.positions if preset else DEFAULTS["positions"]
    )
    config["moves"] = list(preset.moves if preset else DEFAULTS["moves"])
    return config


def ballard_cases(config: dict) -> list[ballard.BallardCase]:
    return [
        ballard.BallardCase(n, levels, order, trials, show)
        for n, levels, order, trials, show in config["ballard_cases"]
    ]


def load_game(game_string: str):
    import pyspiel  # noqa: PLC0415

    import games  # noqa: F401, PLC0415 - registers the custom games
    from bots.factory import check_game_supported  # noqa: PLC0415

    try:
        game = pyspiel.load_game(game_string)
    except Exception as error:  # pyspiel.SpielError
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise NodeReductionError(f"cannot load game {game_string!r}: {first}") from None
    check_game_supported(game, "node_reduction")
    return game


def make_positions(config: dict, position_file: str | None) -> list[dict]:
    """The position entries of this configuration (sampled, Ballard trees or from a file)."""
    import games  # noqa: F401, PLC0415 - registers the custom games

    if "ballard_cases" in config:
        return positions_io.ballard_positions(ballard_cases(config))
    game = load_game(config["game"])
    if position_file:
        entries = positions_io.load_positions(position_file)
        if config["positions"] < len(entries):
            entries = entries[: config["positions"]]
        for entry in entries:
            loaded, _ = positions_io.deserialize(entry)
            if str(loaded) != str(game):
                raise NodeReductionError(
                    f"position {entry['id']!r} of {position_file} is a "
                    f"{loaded} position, not {game}; pass --game={loaded}"
                )
        return entries
    return positions_io.sample_positions(
        game, config["positions"], config["seed"], tuple(config["moves"])
    )


def units_of(config: dict, entries: list[dict]) -> tuple[list[Unit], list[str]]:
    """Units in run order (shallow depths first) and the ordered case names."""
    if "ballard_cases" in config:
        units = [Unit(e["case"], e, int(e["depth"]), ballard=True) for e in entries]
        cases = [c.name for c in ballard_cases(config)]
        return units, cases
    units = [Unit(f"depth={d}", e, d) for d in config["depths"] for e in entries]
    return units, [f"depth={d}" for d in config["depths"]]


def engine_digest() -> dict[str, str]:
    """sha1 of the engine and game sources this run used (uncommitted edits included).

    results_io.run_metadata() records the git commit and a dirty flag only; node
    counts depend on the exact engine, which may have uncommitted changes.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digests = {}
    for folder in ("bots", "games"):
        sha = hashlib.sha1()
        path = os.path.join(root, folder)
        for name in sorted(os.listdir(path)) if os.path.isdir(path) else []:
            if name.endswith(".py"):
                with open(os.path.join(path, name), "rb") as handle:
                    sha.update(name.encode() + b"\0" + handle.read())
        digests[folder] = sha.hexdigest()[:12]
    return digests


def default_out(config: dict) -> str:
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    label = config.get("preset") or re.sub(r"[^A-Za-z0-9_.-]+", "_", config["game"]).strip("_")
    return os.path.join("results", f"node_reduction-{label}-{digest}")


def _validate_probcut(config: dict, runner: Runner, entries: list[dict]) -> None:
    """A missing calibration is a configuration error: say so before searching anything."""
    if "chanceprobcut" not in config["algorithms"]:
        return
    game, _ = positions_io.deserialize(entries[0])
    try:
        runner.probcut_for(game)
    except ValueError as error:
        raise NodeReductionError(f"--algorithms includes chanceprobcut, but: {error}") from None


def run(
    options: dict[str, Any],
    out: str | None = None,
    *,
    plots: bool = True,
    max_seconds: float | None = None,
    log=print,
) -> tuple[NodeReport, str, bool]:
    """Runs what is missing in the folder; returns (report, out, finished everything)."""
    config = build_config(options)
    entries = make_positions(config, options.get("position_file"))
    config["positions_sha1"] = positions_io.digest(entries)
    out = out or default_out(config)
    try:
        existing = results_io.prepare_output_dir(
            out,
            config,
            records_file=RECORDS_FILE,
            key="id",
            extra={"max_seconds": max_seconds, "source_sha1": engine_digest()},
        )
    except results_io.OutputDirError as error:
        raise NodeReductionError(str(error)) from None
    positions_path = os.path.join(out, positions_io.POSITIONS_FILE)
    if not os.path.exists(positions_path):
        positions_io.save_positions(positions_path, entries)
    preset = PRESETS.get(config["preset"]) if config["preset"] else None
    settings = Settings(
        preset=config["preset"] or "custom",
        evaluator=config["evaluator"],
        depths=tuple(config.get("depths", ())),
        budget=config["budget"],
        depth_limits=config.get("depth_limits", {}),
        **(
            {
                "probcut_R": config["probcut"]["R"],
                "probcut_t": config["probcut"]["t"],
                "probcut_calibration": config["probcut"]["calibration"],
            }
            if "probcut" in config
            else {}
        ),
    )
    runner = Runner(settings, dict(existing))
    _validate_probcut(config, runner, entries)
    units, cases = units_of(config, entries)
    algorithms = config["algorithms"]
    total = len(units) * len(algorithms)
    done_before = sum(1 for u in units for a in algorithms if u.record_id(a) in existing)
    if done_before:
        log(f"resuming {out}: {done_before} of {total} records already there")
    records_path = os.path.join(out, RECORDS_FILE)
    start = last_log = time.monotonic()
    finished = True
    new = 0

    def on_record(record: dict) -> None:
        nonlocal new
        results_io.append_record(records_path, record)
        new += 1
        if record.get("mismatch"):
            log(f"MISMATCH {record['id']}: {record['note']}")
        elif record["status"] == "error":
            log(f"error {record['id']}: {record['error']}")

    for k, unit in enumerate(units):
        if max_seconds is not None and time.monotonic() - start > max_seconds:
            finished = False
            log(
                f"stopped after --max_seconds={max_seconds:g}: {k} of {len(units)} position x "
                f"depth units done; rerun the same command to continue"
            )
            break
        runner.run_unit(unit, algorithms, on_record)
        if unit.ballard:
            ballard.release_tree_caches()
        if time.monotonic() - last_log > 15:
            last_log = time.monotonic()
            log(f"  {unit.case}: unit {k + 1}/{len(units)}, {last_log - start:.0f} s")
    if new:
        log(f"{new} records in {time.monotonic() - start:.1f} s")
    ids = {u.record_id(a) for u in units for a in algorithms}
    records = [r for r in results_io.read_records(records_path).values() if r["id"] in ids]
    command = _command(out)
    report = NodeReport(preset, settings.preset, records, cases, algorithms, command)
    for note in report.write(out, plots=plots):
        if note:
            log(note)
    return report, out, finished


def _command(out: str) -> str:
    """The command line of the first run that wrote the folder (for summary.md)."""
    try:
        with open(os.path.join(out, results_io.CONFIG_FILE), encoding="utf-8") as handle:
            argv = json.load(handle)["runs"][0]["metadata"]["argv"]
    except (OSError, KeyError, IndexError, ValueError):
        return ""
    if argv and argv[0].endswith("node_reduction.py"):
        argv = ["python", "-m", "experiments.node_reduction"] + argv[1:]
    return " ".join(shlex.quote(a) for a in argv)


def options_from_flags() -> dict[str, Any]:
    return {
        "preset": FLAGS.preset,
        "game": FLAGS.game,
        "algorithms": FLAGS.algorithms,
        "depths": FLAGS.depths,
        "positions": FLAGS.positions,
        "position_file": FLAGS.position_file,
        "evaluator": FLAGS.evaluator,
        "seed": FLAGS.seed,
        "trials": FLAGS.trials,
        "sizes": FLAGS.sizes,
        "probcut_R": FLAGS.probcut_R,
        "probcut_t": FLAGS.probcut_t,
        "probcut_calibration": FLAGS.probcut_calibration,
        "budget": FLAGS.budget,
    }


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    out = None
    try:
        report, out, finished = run(
            options_from_flags(), FLAGS.out, plots=FLAGS.plots, max_seconds=FLAGS.max_seconds
        )
    except (NodeReductionError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(
            "\ninterrupted; finished records are saved: rerun the same command to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    print(f"summary: {os.path.join(out, 'summary.md')}")
    if report.mismatches or report.errors:
        print(
            f"FAILED: {report.mismatches} value mismatch(es) against expectiminimax, "
            f"{report.errors} search error(s); see {os.path.join(out, RECORDS_FILE)}",
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    cli.run(main, FLAGS)
