"""The node-reduction runner on tiny presets: checks, resume, summary format, errors."""

from __future__ import annotations

import csv
import json
import os

import pytest

from experiments.common.errors import ExperimentError
from experiments.common.measure import BudgetExceeded
from experiments.node_reduction import cli as nr_cli
from experiments.node_reduction import config as nr_config
from experiments.node_reduction import search as nr_run
from experiments.node_reduction import study as nr
from experiments.node_reduction.report import CSV_COLUMNS

PIG = {
    "game": "pig(winscore=20)",
    "algorithms": ["star1", "star2", "star2_tt"],
    "depths": ["1", "2"],
    "positions": 2,
}


def _quiet(*args, **kwargs):
    pass


def _run(options, out, **kwargs):
    return nr.run(options, str(out), plots=False, log=_quiet, **kwargs)


def _lines(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_ballard_best_case_matches_published_and_summary_columns(tmp_path):
    report, out, finished = _run({"preset": "ballard_table2", "sizes": ["2", "4"]}, tmp_path)
    assert finished and report.mismatches == 0 and report.errors == 0
    with open(os.path.join(out, "summary.csv"), newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    leaves = {(r[1], r[2]): r for r in rows[1:] if r[3] == "leaves"}
    # Table 2 (Star2 best case): N=2 -> 5 leaves, N=4 -> 25 leaves.
    assert float(leaves[("N=2", "star2")][4]) == 5 and leaves[("N=2", "star2")][5] == "5"
    assert float(leaves[("N=4", "star2")][4]) == 25 and leaves[("N=4", "star2")][5] == "25"
    assert leaves[("N=4", "expectiminimax")][5] == ""  # nothing published
    assert os.path.exists(os.path.join(out, "summary.md"))
    assert os.path.exists(os.path.join(out, "positions.json"))


def test_ballard_average_uses_trials_flag(tmp_path):
    report, out, _ = _run({"preset": "ballard_table4", "sizes": ["4"], "trials": 3}, tmp_path)
    records = _lines(os.path.join(out, "results.jsonl"))
    assert len(records) == 3 * 2  # 3 trees x (expectiminimax, star2)
    assert {r["position"] for r in records} == {f"N=4/seed={s}" for s in range(3)}
    assert report.measured[("N=4", "star2", "positions")] == 3


def test_resume_runs_only_missing_records(tmp_path):
    _run(PIG, tmp_path)
    path = tmp_path / "results.jsonl"
    first = _lines(path)
    assert len(first) == 2 * 2 * 4  # positions x depths x (expectiminimax + 3)
    assert len({r["id"] for r in first}) == len(first)
    # Drop the last two records and leave a truncated line, as a killed run would.
    with open(path, encoding="utf-8") as handle:
        lines = handle.readlines()
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(lines[:-2])
        handle.write(lines[-2][:10])
    report, _, _ = _run(PIG, tmp_path)
    second = _lines(path)
    assert sorted(r["id"] for r in second) == sorted(r["id"] for r in first)
    assert report.mismatches == 0
    _run(PIG, tmp_path)  # nothing left to do: nothing appended
    assert len(_lines(path)) == len(first)


def test_other_configuration_refused_in_same_folder(tmp_path):
    _run(PIG, tmp_path)
    with pytest.raises(ExperimentError, match="different configuration"):
        _run(dict(PIG, depths=["1", "3"]), tmp_path)


def test_position_file_reuses_positions(tmp_path):
    _, out, _ = _run(PIG, tmp_path / "a")
    options = dict(PIG, position_file=os.path.join(out, "positions.json"))
    _, out_b, _ = _run(options, tmp_path / "b")
    a = {r["id"]: r["value"] for r in _lines(os.path.join(out, "results.jsonl"))}
    b = {r["id"]: r["value"] for r in _lines(os.path.join(out_b, "results.jsonl"))}
    assert a == pytest.approx(b)


def test_injected_wrong_value_is_a_mismatch_and_fails_the_run(tmp_path, monkeypatch):
    real = nr_run.make_searcher

    def wrong_star1(*args, **kwargs):
        searcher = real(*args, **kwargs)  # either engine
        search = searcher.search

        def wrong_search(state, depth, *more, **options):
            value, action = search(state, depth, *more, **options)
            return (value + 0.25 if searcher.algorithm == "star1" else value), action

        searcher.search = wrong_search
        return searcher

    monkeypatch.setattr(nr_run, "make_searcher", wrong_star1)
    out = tmp_path / "bad"
    argv = [
        "node_reduction",
        f"--game={PIG['game']}",
        "--algorithms=star1,star2",
        "--depths=1",
        "--positions=2",
        f"--out={out}",
        "--noplots",
        "--workers=1",  # in this process, where the monkeypatch applies
        "--noprogress",
    ]
    nr_cli.FLAGS(argv)
    try:
        with pytest.raises(SystemExit) as exit_info:
            nr_cli.main(["node_reduction"])
    finally:
        nr_cli.FLAGS.unparse_flags()
    assert exit_info.value.code == 1
    records = _lines(out / "results.jsonl")
    bad = [r for r in records if r["mismatch"]]
    assert bad and {r["algorithm"] for r in bad} == {"star1"}
    assert "differs from expectiminimax" in bad[0]["note"]
    with open(out / "summary.csv", newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["metric"] == "mismatches"]
    assert {r["algorithm"]: r["measured"] for r in rows} == {
        "expectiminimax": "0",
        "star1": "2",
        "star2": "0",
    }


def test_openspiel_baseline_agrees_and_over_budget_is_skipped(tmp_path, monkeypatch):
    options = dict(PIG, algorithms=["openspiel"], depths=["1", "2"])
    report, out, _ = _run(options, tmp_path / "ok")
    records = [
        r for r in _lines(os.path.join(out, "results.jsonl")) if r["algorithm"] == "openspiel"
    ]
    assert records and all(r["status"] == "ok" and r["mismatch"] is False for r in records)

    def too_slow(*args, **kwargs):
        raise BudgetExceeded()

    monkeypatch.setattr(nr_run, "openspiel_expectiminimax", too_slow)
    _, out, _ = _run(options, tmp_path / "slow")
    records = {
        (r["position"], r["depth"]): r
        for r in _lines(os.path.join(out, "results.jsonl"))
        if r["algorithm"] == "openspiel"
    }
    assert all(r["status"] == "skipped" for r in records.values())
    assert records[("p0000", 1)].get("timed_out")
    assert "already skipped" in records[("p0000", 2)]["note"]


def test_configuration_errors_are_clear(tmp_path):
    with pytest.raises(ExperimentError, match="accepted: expectiminimax"):
        nr_config.build_config({"algorithms": ["star3"]})
    with pytest.raises(ExperimentError, match="--trials"):
        nr_config.build_config({"preset": "ballard_table3", "positions": 5})
    with pytest.raises(ValueError, match="accepted: ballard_table1"):
        nr_config.build_config({"preset": "nope"})
    options = dict(
        PIG, algorithms=["chanceprobcut"], probcut_calibration=str(tmp_path / "missing.json")
    )
    with pytest.raises(ExperimentError, match="no ChanceProbCut calibration"):
        _run(options, tmp_path / "pc")


def test_chanceprobcut_is_judged_not_checked(tmp_path):
    options = {
        "game": "dice(n=5,k=4)",
        "algorithms": ["star2", "chanceprobcut"],
        "depths": ["3"],
        "positions": 2,
    }
    report, out, _ = _run(options, tmp_path)
    records = [
        r for r in _lines(os.path.join(out, "results.jsonl")) if r["algorithm"] == "chanceprobcut"
    ]
    assert len(records) == 2 and all(r["status"] == "ok" for r in records)
    assert all(
        r["mismatch"] is False and "value_error" in r and "move_agrees" in r for r in records
    )
    assert ("depth=3", "chanceprobcut", "move_agreement_pct") in report.measured


def test_mcms_is_judged_like_chanceprobcut_and_matches_its_searcher(tmp_path):
    """MCMS is not exact: its records carry the value error and move agreement against
    expectiminimax, never a mismatch; each record is what MCMSSearcher returns."""
    from bots.evaluators import make_evaluator
    from bots.mcms import MCMSSearcher
    from experiments.node_reduction.position_sets import deserialize
    from experiments.node_reduction.presets import DEFAULT_MCMS_SAMPLES

    options = {
        "game": "einstein_wurfelt_nicht",
        "algorithms": ["star2_tt", "mcms"],
        "depths": ["2", "3"],
        "positions": 2,
    }
    report, out, finished = _run(options, tmp_path)
    assert finished and report.mismatches == 0 and report.errors == 0
    records = [r for r in _lines(os.path.join(out, "results.jsonl")) if r["algorithm"] == "mcms"]
    assert len(records) == 4
    assert all("value_error" in r and "move_agrees" in r and not r["mismatch"] for r in records)
    with open(os.path.join(out, "positions.json"), encoding="utf-8") as handle:
        positions = json.load(handle)
    for record in records:
        entry = next(p for p in positions["positions"] if p["id"] == record["position"])
        game, state = deserialize(entry)
        searcher = MCMSSearcher(
            game,
            state.current_player(),
            samples=DEFAULT_MCMS_SAMPLES,
            seed=0,
            evaluator=make_evaluator(None, game),
            tt_size=10**6,
        )
        value, _ = searcher.search(state, record["depth"])
        assert value == record["value"] and searcher.nodes == record["nodes"]
    assert ("depth=3", "mcms", "move_agreement_pct") in report.measured
