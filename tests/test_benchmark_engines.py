"""experiments.benchmark.engines: both engines, the floor and OpenSpiel's expectiminimax on
the same positions (structure and agreement only; times are the program's, never asserted)."""

from __future__ import annotations

import json

import pytest

from bots import native_engine
from experiments.benchmark import engines, searches

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


def test_the_search_batch_counts_the_same_on_both_engines():
    pairs = [("pig(players=3,winscore=20)", 2), ("dice(n=4,k=3)", 2)]
    for spec in ("star2(multiplayer=maxn)", "star2"):
        batch = [p for p in pairs if "players" in p[0] or "maxn" not in spec]
        counts = {
            engine: searches.run_searches(spec, batch, 2, 1, engine, 0)
            for engine in ("python", "native")
        }
        assert counts["python"] == counts["native"] and counts["python"][0] > 0, counts


def test_the_search_batch_refuses_a_bad_setting():
    with pytest.raises(TypeError, match="bogus"):
        searches.run_searches("star2(bogus=1)", [("pig", 1)], 1, 1, "native", 0)
