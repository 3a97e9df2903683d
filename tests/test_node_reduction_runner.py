"""node_reduction on the shared runner: one task per position, a position's --task_timeout
recorded as skipped searches, a failed task as error records for each of its searches.
(That records do not depend on the number of workers is the shared runner's, tested in
test_runner.py.)"""

from __future__ import annotations

import json
import os

from experiments.common.runner import RunnerOptions
from experiments.node_reduction import config as nr_config
from experiments.node_reduction import search as nr_search
from experiments.node_reduction import study, tasks

TIMING = ("seconds",)


def _records(out: str) -> dict[str, dict]:
    with open(os.path.join(out, study.RECORDS_FILE), encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    return {r["id"]: {k: v for k, v in r.items() if k not in TIMING} for r in lines}


def _run(options: dict, out: str, workers: int) -> dict[str, dict]:
    runner_options = RunnerOptions(workers=workers, progress=False)
    report, _, finished = study.run(
        options, out, runner_options=runner_options, plots=False, log=lambda *a: None
    )
    assert finished and report.mismatches == 0 and report.errors == 0
    return _records(out)


def test_one_task_per_position_with_its_depths_in_order():
    config = nr_config.build_config({"game": "pig(winscore=20)", "depths": ["3,1"]})
    entries = nr_config.make_positions(config, None)
    rows, cases = study.rows_of(config, entries)
    made = tasks.make_tasks(study.settings_of(config), rows, config["algorithms"])
    assert [t.id for t, _ in made] == [e["id"] for e in entries]
    assert cases == ["depth=1", "depth=3"]
    for _, payload in made:
        assert [u.depth for u in payload.rows] == [1, 3]
        assert len(payload.record_ids()) == 2 * len(config["algorithms"])


def test_a_position_over_its_task_timeout_skips_the_rest(tmp_path, monkeypatch):
    from experiments.common.runner import TaskTimeout

    real = nr_search.make_searcher

    def expiring(*args, **kwargs):
        searcher = real(*args, **kwargs)  # either engine
        search = searcher.search

        def expires(state, depth, *more, **options):
            if depth == 2:
                raise TaskTimeout(5.0)
            return search(state, depth, *more, **options)

        searcher.search = expires
        return searcher

    monkeypatch.setattr(nr_search, "make_searcher", expiring)
    options = {"game": "pig(winscore=20)", "algorithms": ["star1"], "depths": ["1-3"]}
    records = _run({**options, "positions": 1}, str(tmp_path), workers=1)
    by_depth = {(r["depth"], r["algorithm"]): r for r in records.values()}
    assert by_depth[(1, "star1")]["status"] == "ok"
    assert by_depth[(2, "expectiminimax")]["timed_out"]
    assert "--task_timeout" in by_depth[(2, "expectiminimax")]["note"]
    assert by_depth[(2, "star1")]["status"] == "skipped"
    assert by_depth[(3, "star1")]["status"] == "skipped"


def test_failed_task_becomes_error_records_for_each_search():
    config = nr_config.build_config({"game": "pig(winscore=20)", "depths": ["1"], "positions": 1})
    entries = nr_config.make_positions(config, None)
    rows, _ = study.rows_of(config, entries)
    [(_, payload)] = tasks.make_tasks(study.settings_of(config), rows, config["algorithms"])
    records = tasks.failed_records(payload, "worker process died")
    assert [r["id"] for r in records] == payload.record_ids()
    assert all(r["status"] == "error" and r["error"] == "worker process died" for r in records)
