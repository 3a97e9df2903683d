"""One task of the shared runner: every depth and algorithm of one position (or Ballard tree).

A position is the unit because everything that decides its records is local to
it: the reference value, the skips after a search over budget and the OpenSpiel
time prediction all look at the same position's shallower searches only. So
records do not depend on which worker ran what, or in which order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from experiments.common.games import register_custom_games
from experiments.common.runner import Task
from experiments.node_reduction import ballard
from experiments.node_reduction.search import Runner, Settings, Unit


@dataclasses.dataclass(frozen=True)
class Payload:
    """What a worker needs for one position: its units (depths in order) and the algorithms."""

    settings: Settings
    units: tuple[Unit, ...]
    algorithms: tuple[str, ...]

    def record_ids(self) -> list[str]:
        return [u.record_id(a) for u in self.units for a in self.algorithms]


# The worker's Runner, kept across tasks so evaluators and calibrations load once.
_RUNNER: Runner | None = None


def _runner_for(settings: Settings) -> Runner:
    global _RUNNER
    if _RUNNER is None or _RUNNER.settings != settings:
        _RUNNER = Runner(settings)
    return _RUNNER


def run_position(payload: Payload) -> dict[str, Any]:
    """The task function: {"records": [one record per depth x algorithm]}."""
    register_custom_games()  # a fresh worker process or Ray worker has not imported `games`
    runner = _runner_for(payload.settings)
    runner.records, runner.task_expired = {}, None
    records: list[dict] = []
    try:
        for unit in payload.units:
            runner.run_unit(unit, list(payload.algorithms), records.append)
    finally:
        if any(u.ballard for u in payload.units):
            ballard.release_tree_caches()
        runner.records = {}
    return {"records": records}


def make_tasks(
    settings: Settings, units: list[Unit], algorithms: list[str]
) -> list[tuple[Task, Payload]]:
    """One task per position, in the order positions first appear in `units`."""
    by_position: dict[str, list[Unit]] = {}
    for unit in units:
        by_position.setdefault(unit.entry["id"], []).append(unit)
    tasks = []
    for position, group in by_position.items():
        group.sort(key=lambda u: u.depth)
        payload = Payload(settings, tuple(group), tuple(algorithms))
        tasks.append((Task(position, payload), payload))
    return tasks


def failed_records(payload: Payload, message: str) -> list[dict]:
    """Error records for every search of a task that failed as a whole (its worker died)."""
    return [
        {
            "id": unit.record_id(algorithm),
            "preset": payload.settings.preset,
            "case": unit.case,
            "position": unit.entry["id"],
            "depth": unit.depth,
            "algorithm": algorithm,
            "status": "error",
            "mismatch": None,
            "error": message,
        }
        for unit in payload.units
        for algorithm in payload.algorithms
    ]
