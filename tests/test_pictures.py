"""Each committed picture shows the numbers of the committed results it was drawn from."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from experiments.strength import plot

ROOT = Path(__file__).resolve().parent.parent


def test_strength_forest_matches_the_committed_results():
    drawn = plot.points(ROOT / plot.RESULTS)
    assert len(drawn) == len(list((ROOT / plot.RESULTS).glob("*/result.json")))
    assert plot.picture_digest(ROOT / plot.PICTURE) == plot.data_digest(drawn), (
        "docs/img/strength_forest.png is stale: run python -m experiments.strength.plot"
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
