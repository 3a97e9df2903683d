"""experiments.benchmark.engines: both engines, the floor and OpenSpiel's expectiminimax on
the same positions (structure and agreement only; times are the program's, never asserted)."""

from __future__ import annotations

import json

import pytest

from bots import native_engine
from experiments.benchmark import engines

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=str(native_engine.problem())
)


def test_sections_agree(tmp_path):
    out = str(tmp_path / "engines")
    pairs = engines.parse_pairs(["pig:3", "dice:2"])
    text = engines.run(list(engines.SECTIONS), pairs, pairs[:1], 2, 0, out)
    records = [json.loads(line) for line in (tmp_path / "engines" / "records.jsonl").open()]
    assert len(records) == 2 * 2 + 2 * 2 + 2
    for record in records:
        if record["section"] == "engines":
            assert record["identical"] and record["native_ran"] == "native"
        else:
            assert record["values_agree"]
    assert "native / Python" in text and "star2 / floor" in text and "OpenSpiel" in text


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="game:depth"):
        engines.parse_pairs(["pig"])
    with pytest.raises(ValueError, match="unknown section"):
        engines.run(["speed"], [], [], 1, 0, "/tmp/unused")
