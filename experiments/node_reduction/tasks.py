"""One task of the shared runner: every depth and algorithm of one position (or Ballard tree).

A position is the task because everything that decides its records is local to
it: the reference value, the skips after a search over budget and the OpenSpiel
time prediction all look at the same position's shallower searches only. So
records do not depend on which worker ran what, or in which order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from experiments.common.game_loader import register_custom_games
from experiments.common.runner import Task
from experiments.node_reduction import ballard
from experiments.node_reduction.search import PositionSearches, StudyRow, StudySettings


@dataclasses.dataclass(frozen=True)
class Payload:
    """What a worker needs for one position: its rows (depths in order) and the algorithms."""

    settings: StudySettings
    rows: tuple[StudyRow, ...]
    algorithms: tuple[str, ...]

    def record_ids(self) -> list[str]:
        return [u.record_id(a) for u in self.rows for a in u.searched(self.algorithms)]


# The worker's searches, kept across tasks so evaluators and calibrations load once.
_SEARCHES: PositionSearches | None = None


def _searches_for(settings: StudySettings) -> PositionSearches:
    global _SEARCHES
    if _SEARCHES is None or _SEARCHES.settings != settings:
        _SEARCHES = PositionSearches(settings)
    return _SEARCHES


def run_position(payload: Payload) -> dict[str, Any]:
    """The task function: {"records": [one record per depth x algorithm]}."""
    register_custom_games()  # a fresh worker process or Ray worker has not imported `games`
    searches = _searches_for(payload.settings)
    searches.records, searches.task_expired = {}, None
    records: list[dict] = []
    try:
        for row in payload.rows:
            searches.run_row(row, list(payload.algorithms), records.append)
    finally:
        if any(u.ballard for u in payload.rows):
            ballard.release_tree_caches()
        searches.records = {}
    return {"records": records}


def make_tasks(
    settings: StudySettings, rows: list[StudyRow], algorithms: list[str]
) -> list[tuple[Task, Payload]]:
    """One task per position, in the order positions first appear in `rows`."""
    by_position: dict[str, list[StudyRow]] = {}
    for row in rows:
        by_position.setdefault(row.entry["id"], []).append(row)
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
            "id": row.record_id(algorithm),
            "preset": payload.settings.preset,
            "case": row.case,
            "position": row.entry["id"],
            "depth": row.depth,
            "algorithm": algorithm,
            "status": "error",
            "mismatch": None,
            "error": message,
        }
        for row in payload.rows
        for algorithm in row.searched(payload.algorithms)
    ]
