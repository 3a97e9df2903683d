"""experiments.benchmark.full_games: whole games in a fresh process, records and summary
(structure only; times and memory are measured by the program, never asserted here)."""

from __future__ import annotations

import pytest

from experiments.benchmark import full_games
from experiments.common.runner import RunnerOptions


def test_whole_games_are_recorded_and_summarized(tmp_path):
    out = str(tmp_path / "fg")
    options = RunnerOptions(workers=1, progress=False)
    records = full_games.run(["catch", "pig(winscore=10)"], 0.01, "star2", [0], out, options)
    assert sorted(r["id"] for r in records) == ["catch#0", "pig(winscore=10)#0"]
    for record in records:
        assert record["moves"] > 0 and record["max_rss_mb"] > 0
        assert record["worst_move"] >= record["mean_move"] > 0
        assert record["tolerance"] == pytest.approx(0.031)
        assert 0 <= record["over_tolerance"] <= record["moves"]
    assert "| catch | 0 |" in (tmp_path / "fg" / "summary.md").read_text()


def test_bad_input_is_refused_before_playing(tmp_path):
    with pytest.raises(ValueError, match="unknown game"):
        full_games.run(["no_such_game"], 0.01, "star2", [0], str(tmp_path), RunnerOptions())
    with pytest.raises(ValueError, match="given twice"):
        full_games.run(["catch"], 0.01, "star2(seed=1,seed=2)", [0], str(tmp_path), RunnerOptions())
