"""Each committed picture shows the numbers of the committed results it was drawn from: the
strength forest plot, the speed chart and the reproductions' pictures."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from experiments.common import pictures
from experiments.node_reduction import plot as reproductions
from experiments.strength import plot

ROOT = Path(__file__).resolve().parent.parent


def test_strength_forest_matches_the_committed_results():
    from experiments.strength import plan

    questions = {q.name for q in plan.QUESTIONS}  # the hand evaluators' panel
    hand = {s.name for s in plan.studies() if s.question.name in questions and not s.learned}
    learned = {s.name for s in plan.studies() if s.learned or s.time_limit is None}
    for names, is_learned, picture in (
        (hand, False, plot.PICTURE),
        (learned, True, plot.LEARNED_PICTURE),
    ):
        drawn = plot.points(ROOT / plot.RESULTS, learned=is_learned)
        results = [p for p in (ROOT / plot.RESULTS).glob("*/result.json") if p.parent.name in names]
        assert len(drawn) == len(results)
        assert plot.picture_digest(ROOT / picture) == plot.data_digest(drawn), (
            f"{picture} is stale: run python -m experiments.strength.plot"
        )


def test_the_digest_sees_a_changed_score():
    drawn = plot.points(ROOT / plot.RESULTS)
    changed = [dataclasses.replace(drawn[0], score=drawn[0].score + 0.001), *drawn[1:]]
    assert plot.data_digest(changed) != plot.data_digest(drawn)


def test_redrawing_writes_the_digest(tmp_path):
    pytest.importorskip("matplotlib")
    drawn = plot.points(ROOT / plot.RESULTS)[:3]
    out = tmp_path / "forest.png"
    plot.draw(drawn, out)
    assert plot.picture_digest(out) == plot.data_digest(drawn)


def test_speed_chart_matches_the_committed_records():
    from experiments.benchmark import plot as speed

    drawn = speed.points(ROOT / speed.ENGINES, ROOT / speed.OPENSPIEL)
    assert drawn["per_node"] and drawn["searches"]
    assert pictures.picture_digest(ROOT / speed.PICTURE) == pictures.data_digest(drawn), (
        "docs/img/speed.png is stale: run python -m experiments.benchmark.plot"
    )


@pytest.mark.parametrize("name", sorted(reproductions.FIGURES))
def test_reproduction_pictures_match_the_committed_summaries(name):
    figure = reproductions.FIGURES[name]
    path = ROOT / reproductions.picture(name)
    has_data = reproductions.committed(figure, ROOT / reproductions.RESULTS)
    assert path.exists() == has_data, (
        f"{path.name} and the summaries of {', '.join(figure.folders)} must be committed together"
    )
    if has_data:
        drawn = reproductions.points(figure, ROOT / reproductions.RESULTS)
        assert drawn, f"no {figure.metric} in the summaries of {', '.join(figure.folders)}"
        assert pictures.picture_digest(path) == pictures.data_digest(drawn), (
            f"{path.name} is stale: run python -m experiments.node_reduction.plot --figures={name}"
        )


def test_a_reproduction_picture_sees_a_changed_number(tmp_path):
    pytest.importorskip("matplotlib")
    figure = reproductions.FIGURES["ballard"]
    folder = tmp_path / "ballard_table1"
    folder.mkdir()
    (folder / "summary.csv").write_text(
        "preset,case,algorithm,metric,measured,published\n"
        "ballard_table1,N=2,star1,leaves_pct,62.5,62.5\n"
        "ballard_table1,N=4,star1,leaves_pct,62.5,62.5\n"
    )
    one = reproductions.Figure(**{**figure.__dict__, "folders": ("ballard_table1",)})
    rows = reproductions.points(one, tmp_path)
    reproductions.draw(one, rows, tmp_path / "b.png")
    assert pictures.picture_digest(tmp_path / "b.png") == pictures.data_digest(rows)
    changed = [{**rows[0], "measured": 62.6}, *rows[1:]]
    assert pictures.data_digest(changed) != pictures.data_digest(rows)


def test_learning_curves_match_the_shipped_models_runs():
    from experiments.learn import curves

    drawn = curves.points(ROOT / curves.RESULTS)
    assert drawn, "no shipped model has its run's progress.jsonl in results/learn"
    assert pictures.picture_digest(ROOT / curves.PICTURE) == pictures.data_digest(drawn), (
        "docs/img/learned_curves.png is stale: run python -m experiments.learn.curves"
    )
