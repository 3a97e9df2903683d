"""One node-reduction run: the results folder, the positions' tasks on the shared runner,
the records appended as tasks finish, and the summary of everything in the folder."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import time
from collections.abc import Callable
from typing import Any

from experiments.common import results
from experiments.common.errors import ExperimentError
from experiments.common.progress import Progress
from experiments.common.runner import RunnerOptions, execute
from experiments.node_reduction import position_sets as positions_io
from experiments.node_reduction.config import (
    ballard_cases,
    build_config,
    default_out,
    engine_digest,
    make_positions,
)
from experiments.node_reduction.presets import PRESETS
from experiments.node_reduction.report import NodeReport
from experiments.node_reduction.search import PositionSearches, StudyRow, StudySettings
from experiments.node_reduction.tasks import failed_records, make_tasks, run_position

RECORDS_FILE = "results.jsonl"
# The forkserver imports these once; every worker then starts with the engine loaded.
PRELOAD = ("experiments.node_reduction.tasks",)


class _Stopped(Exception):
    """--max_seconds ran out: no new task is started."""


def rows_of(config: dict, entries: list[dict]) -> tuple[list[StudyRow], list[str]]:
    """Units in run order (shallow depths first) and the ordered case names."""
    if "ballard_cases" in config:
        rows = [StudyRow(e["case"], e, int(e["depth"]), ballard=True) for e in entries]
        cases = [c.name for c in ballard_cases(config)]
        return rows, cases
    rows = [StudyRow(f"depth={d}", e, d) for d in config["depths"] for e in entries]
    return rows, [f"depth={d}" for d in config["depths"]]


def settings_of(config: dict) -> StudySettings:
    probcut = config.get("probcut")
    return StudySettings(
        preset=config["preset"] or "custom",
        evaluator=config["evaluator"],
        depths=tuple(config.get("depths", ())),
        budget=config["budget"],
        depth_limits=config.get("depth_limits", {}),
        reuse_probes=config.get("reuse_probes", False),
        **(
            {
                "probcut_R": probcut["R"],
                "probcut_t": probcut["t"],
                "probcut_calibration": probcut["calibration"],
            }
            if probcut
            else {}
        ),
    )


def _validate_probcut(config: dict, settings: StudySettings, entries: list[dict]) -> None:
    """A missing calibration is a configuration error: say so before searching anything."""
    if "chanceprobcut" not in config["algorithms"]:
        return
    game, _ = positions_io.deserialize(entries[0])
    try:
        PositionSearches(settings).probcut_for(game)
    except ValueError as error:
        raise ExperimentError(f"--algorithms includes chanceprobcut, but: {error}") from None


def run(
    options: dict[str, Any],
    out: str | None = None,
    *,
    runner_options: RunnerOptions | None = None,
    plots: bool = True,
    max_seconds: float | None = None,
    log: Callable[[str], Any] = print,
) -> tuple[NodeReport, str, bool]:
    """Runs what is missing in the folder; returns (report, out, finished everything).

    One task per position (Ballard: per tree) on the shared runner; records are
    the same whatever `runner_options` say (default: in this process).
    """
    runner_options = dataclasses.replace(runner_options or RunnerOptions(), preload=PRELOAD)
    config = build_config(options)
    entries = make_positions(config, options.get("position_file"))
    config["positions_sha1"] = positions_io.digest(entries)
    out = out or default_out(config)
    extra = {
        "max_seconds": max_seconds,
        "source_sha1": engine_digest(),
        "workers": runner_options.workers,
        "executor": runner_options.executor,
    }
    try:
        folder = results.ResultsFolder(out, config, records_file=RECORDS_FILE, extra=extra)
    except results.ResultsError as error:
        raise ExperimentError(str(error)) from None
    with folder:
        finished = _run_tasks(folder, config, entries, runner_options, max_seconds, log)
        report = _report(folder, config, entries, plots, log)
    return report, out, finished


def _run_tasks(
    folder: results.ResultsFolder,
    config: dict,
    entries: list[dict],
    runner_options: RunnerOptions,
    max_seconds: float | None,
    log: Callable[[str], Any],
) -> bool:
    positions_path = os.path.join(folder.out, positions_io.POSITIONS_FILE)
    if not os.path.exists(positions_path):
        positions_io.save_positions(positions_path, entries)
    settings = settings_of(config)
    _validate_probcut(config, settings, entries)
    rows, _ = rows_of(config, entries)
    tasks = make_tasks(settings, rows, config["algorithms"])
    existing = folder.existing
    todo = [(t, p) for t, p in tasks if any(i not in existing for i in p.record_ids())]
    if len(todo) < len(tasks):
        log(
            f"resuming {folder.out}: {len(tasks) - len(todo)} of {len(tasks)} positions "
            f"already there"
        )
    if not todo:
        return True
    payloads = {t.id: p for t, p in todo}
    counted = "trees" if "ballard_cases" in config else "positions"
    bar = (
        Progress(len(tasks), len(tasks) - len(todo), unit=counted)
        if runner_options.progress
        else None
    )
    start = time.monotonic()
    new = 0

    def on_record(task_record: dict) -> None:
        nonlocal new
        payload = payloads[task_record["id"]]
        error = task_record.get("error")
        records = task_record["records"] if error is None else failed_records(payload, error)
        for record in records:
            if record["id"] in existing:
                continue
            folder.append(record)
            existing[record["id"]] = record
            new += 1
            if record.get("mismatch"):
                log(f"MISMATCH {record['id']}: {record['note']}")
            elif record["status"] == "error":
                log(f"error {record['id']}: {record['error']}")
        if bar:
            bar.update(error=error is not None)
        if max_seconds is not None and time.monotonic() - start > max_seconds:
            raise _Stopped()

    finished = True
    try:
        execute(run_position, [t for t, _ in todo], runner_options, on_record)
    except _Stopped:
        finished = False
    finally:
        if bar:
            bar.close()
    if not finished:
        log(
            f"stopped after --max_seconds={max_seconds:g}: rerun the same command to "
            "continue (tasks in flight were dropped and will run again)"
        )
    if new:
        log(f"{new} records in {time.monotonic() - start:.1f} s")
    return finished


def _report(
    folder: results.ResultsFolder,
    config: dict,
    entries: list[dict],
    plots: bool,
    log: Callable[[str], Any],
) -> NodeReport:
    """Summaries of the folder's records, taken in task order (not in finishing order)."""
    rows, cases = rows_of(config, entries)
    algorithms = config["algorithms"]
    by_id = {r["id"]: r for r in folder.records()}
    ordered = [u.record_id(a) for u in rows for a in u.searched(algorithms)]
    records = [by_id[i] for i in ordered if i in by_id]
    preset = PRESETS.get(config["preset"]) if config["preset"] else None
    name = config["preset"] or "custom"
    report = NodeReport(
        preset,
        name,
        records,
        cases,
        algorithms,
        _command(folder.out),
        sampled_reference="reference_trees" in config,
    )
    for note in report.write(folder.out, plots=plots):
        if note:
            log(note)
    return report


def _command(out: str) -> str:
    """The command line of the first run that wrote the folder (for summary.md)."""
    try:
        with open(os.path.join(out, results.CONFIG_FILE), encoding="utf-8") as handle:
            argv = json.load(handle)["runs"][0]["metadata"]["argv"]
    except (OSError, KeyError, IndexError, ValueError):
        return ""
    if argv and argv[0].endswith(("node_reduction.py", "__main__.py")):
        argv = ["python", "-m", "experiments.node_reduction"] + argv[1:]
    return " ".join(shlex.quote(a) for a in argv)
