"""Ballard's Tables 6 and 7 as presets: cells, names, published values, Star2.5's k per case."""

from __future__ import annotations

import json
import os

import pytest

from experiments.common.errors import ExperimentError
from experiments.node_reduction import config as nr_config
from experiments.node_reduction import study, tasks
from experiments.node_reduction.presets import get_preset


def _payloads(options: dict, algorithms: list[str]) -> dict[str, tasks.Payload]:
    config = nr_config.build_config(options)
    entries = nr_config.make_positions(config, None)
    rows, _ = study.rows_of(config, entries)
    made = tasks.make_tasks(study.settings_of(config), rows, algorithms)
    return {task.id: payload for task, payload in made}


def test_table7_cases_are_named_by_k_with_the_published_values():
    preset = get_preset("ballard_table7")
    assert [c.name for c in preset.ballard_cases] == [f"k={k}" for k in range(1, 21)]
    assert {c.n for c in preset.ballard_cases} == {20} and preset.ballard_cases[0].levels == 3
    assert preset.algorithms == ("expectiminimax", "star2.5_cyclic", "star2.5_sequential")
    assert preset.published[("k=1", "star2.5_cyclic", "leaves_pct")] == 40.7
    assert preset.published[("k=20", "star2.5_sequential", "leaves_pct")] == 79.6
    assert preset.published[("k=8", "star2.5_sequential", "cutoffs_star2_probe")] == 16.5


def test_table7_k1_is_star2_and_k_reaches_the_searcher():
    payloads = _payloads(
        {"preset": "ballard_table7", "trials": 1},
        ["star2", "star2.5_cyclic", "star2.5_sequential"],
    )
    assert all(p.settings.reuse_probes for p in payloads.values())  # Table 7 counts once
    leaves = {}
    for k in (1, 3):
        result = tasks.run_position(payloads[f"k={k}/seed=0"])
        assert {r["case"] for r in result["records"]} == {f"k={k}"}
        leaves[k] = {r["algorithm"]: r["leaves"] for r in result["records"]}
    assert leaves[1]["star2.5_cyclic"] == leaves[1]["star2.5_sequential"] == leaves[1]["star2"]
    # The same tree: star2 is unchanged, and k=3 probes differently from k=1.
    assert leaves[3]["star2"] == leaves[1]["star2"]
    assert leaves[3]["star2.5_sequential"] != leaves[1]["star2.5_sequential"]


def test_table6_has_the_depth7_and_large_b_cells():
    preset = get_preset("ballard_table6")
    names = {c.name for c in preset.ballard_cases}
    for cell in ("B=4,D=7", "B=6,D=7", "B=10,D=6", "B=10,D=7", "B=20,D=5", "B=20,D=6"):
        assert f"{cell},best" in names and f"{cell},average" in names
    published = preset.published
    assert published[("B=4,D=7,best", "star1", "leaves_pct")] == 54
    assert published[("B=10,D=6,average", "star2", "leaves_pct")] == 12
    assert published[("B=20,D=6,best", "star2", "leaves_pct")] == 3
    assert ("B=4,D=7,average", "star1", "leaves_pct") not in published  # "--" in the paper


def test_levels_pick_table6_cells_and_bad_levels_are_refused():
    config = nr_config.build_config({"preset": "ballard_table6", "sizes": ["4"], "levels": ["7"]})
    assert [c[:3] for c in config["ballard_cases"]] == [[4, 7, "best"], [4, 7, "average"]]
    with pytest.raises(ExperimentError, match="--levels"):
        nr_config.build_config({"preset": "ballard_table6", "levels": ["9"]})
    with pytest.raises(ExperimentError, match="--levels"):
        nr_config.build_config({"game": "pig", "levels": ["3"]})


def test_table6_searches_the_reference_on_its_first_trees_only(tmp_path):
    """--reference_trees: expectiminimax searches the first trees of each average case,
    Star2 is checked against Star1 on the others, and the leaves' means are over every
    tree, not cut down to the reference's. The preset's default is its first 20 trees;
    --reference_trees=1000 gives every tree the reference."""
    assert nr_config.build_config({"preset": "ballard_table6"})["reference_trees"] == 20
    every = nr_config.build_config({"preset": "ballard_table6", "reference_trees": 1000})
    assert every["reference_trees"] == 1000
    with pytest.raises(ExperimentError, match="--reference_trees"):
        nr_config.build_config({"game": "pig", "reference_trees": 2})
    options = {
        "preset": "ballard_table6",
        "sizes": ["4"],
        "levels": ["3"],
        "trials": 5,
        "reference_trees": 2,
    }
    report, out, finished = study.run(options, str(tmp_path), plots=False, log=lambda *a: None)
    assert finished and report.mismatches == 0 and report.errors == 0
    records = [r for r in report_records(out) if r["case"] == "B=4,D=3,average"]
    reference = [r for r in records if r["algorithm"] == "expectiminimax"]
    assert sorted(r["position"][-6:] for r in reference) == ["seed=0", "seed=1"]
    star2 = {r["position"][-6:]: r for r in records if r["algorithm"] == "star2"}
    assert len(star2) == 5
    assert star2["seed=4"]["reference"] == "star1" and star2["seed=4"]["mismatch"] is False
    assert star2["seed=0"]["reference"] == "expectiminimax"
    measured = report.measured
    assert measured[("B=4,D=3,average", "star2", "positions")] == 5
    assert measured[("B=4,D=3,average", "expectiminimax", "positions")] == 2
    # Resuming finds nothing missing (the trees without the reference are complete).
    logged: list[str] = []
    _, _, finished = study.run(options, str(tmp_path), plots=False, log=logged.append)
    assert finished and len(report_records(out)) == len(records) + 3  # + the best case's
    assert any("already there" in line for line in logged), logged


def report_records(out: str) -> list[dict]:
    with open(os.path.join(out, study.RECORDS_FILE), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
