"""The ordering bound: searches ordered by known best moves stay exact; the section runs."""

from __future__ import annotations

import json
import os

import pyspiel
import pytest
from helpers.plain_expectiminimax import plain_expectiminimax, sample_positions

import bots
import games  # noqa: F401  (registers dice)
from bots.evaluators import make_evaluator
from bots.search import StarSearcher
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable
from experiments.benchmark import depth, ordering_bound
from experiments.common.runner import RunnerOptions

TOL = 1e-9


def test_an_order_only_table_keeps_moves_and_decides_nothing():
    source = TranspositionTable(10)
    source.store("decision", 3, 0.2, 0.2, 7)
    source.store("chance", 3, -0.1, 0.4, None)
    table = ordering_bound.order_only_table(source, 10)
    assert list(table.entries) == ["decision"]
    entry = table.entries["decision"]
    assert entry[MOVE] == 7 and entry[DEPTH] < 0
    assert (entry[LOWER], entry[UPPER]) == (-float("inf"), float("inf"))


@pytest.mark.parametrize(
    "name, algorithm, search_depth",
    [
        ("dice(n=4,k=3)", "star2", 4),
        ("pig", "star2", 4),
        ("einstein_wurfelt_nicht", "star1", 3),
        ("backgammon", "star2", 2),
    ],
)
def test_searches_ordered_by_known_moves_equal_plain_expectiminimax(name, algorithm, search_depth):
    game = pyspiel.load_game(name)
    evaluator = make_evaluator(None, game)
    for state in sample_positions(game, 2, seed=5, max_moves=12):
        if state.current_player() < 0:
            continue
        plain = plain_expectiminimax(state, search_depth, evaluator)
        record = ordering_bound.ordering_bound(
            game, state, algorithm, {}, search_depth, rounds=2, capacity=100_000
        )
        assert abs(record["value"] - plain.value) <= TOL
        assert len(record["rounds"]) == 2
        for run in record["rounds"]:
            assert abs(run["value"] - plain.value) <= TOL, state.history()
            assert run["action"] in plain.best_actions()
            assert 0 < run["nodes"] and 0 <= run["tt_hits"] <= run["nodes"]
        assert [row["depth"] for row in record["deepening"]] == list(range(1, search_depth + 1))


def test_imposed_moves_order_the_search_and_keep_what_entries_decide():
    table = TranspositionTable(10)
    table.store("known", 2, 0.1, 0.3, 4)
    source = TranspositionTable(10)
    source.store("known", 3, 0.2, 0.2, 7)
    source.store("new", 1, 0.0, 0.5, 2)
    ordering_bound.impose_moves(table, source)
    assert table.entries["known"][:MOVE] == (2, 0.1, 0.3) and table.entries["known"][MOVE] == 7
    assert table.entries["new"][DEPTH] < 0 and table.entries["new"][MOVE] == 2
    # If imposed moves were ignored, the second search would repeat the first node
    # for node; on this fixed position the known moves save nodes.
    game = pyspiel.load_game("dice(n=4,k=3)")
    state = sample_positions(game, 1, seed=3, max_moves=4)[0]
    first = StarSearcher(game, state.current_player(), "star2", tt_size=100_000)
    first.search(state, 4)
    second = StarSearcher(game, state.current_player(), "star2", tt_size=100_000)
    second.table = ordering_bound.order_only_table(first.table, 100_000)
    value, _ = second.search(state, 4)
    assert second.nodes < first.nodes
    assert abs(value - first.search(state, 4)[0]) <= TOL


def test_the_section_runs_with_its_reference_and_skips_tableless_bots(tmp_path):
    out = str(tmp_path / "run")
    notes: list[str] = []
    settings = {
        "sections": ["ordering_bound"],
        "depths": {"dice(n=4,k=3)": 3},
        "algorithms": ["star2", "star2(tt_size=0)"],
        "equal_time_games": [],
        "bots": [],
        "time_limits": [],
        "positions": {"time_to_depth": 2, "equal_time": 0},
        "seed": 0,
        "budget": 60.0,
        "ordering_rounds": 1,
    }
    tasks = depth.build_tasks(settings, log=notes.append)
    assert [(t.payload["bot"], "rounds" in t.payload) for t in tasks] == [
        ("expectiminimax", False),
        ("star2", True),
    ] * 2
    assert any("tt_size=0" in note and "keeps no moves" in note for note in notes)
    text = depth.run(settings, out, RunnerOptions(workers=1, progress=False))
    with open(os.path.join(out, depth.RECORDS_FILE), encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    bound = [r for r in records if r["section"] == "ordering_bound"]
    assert len(bound) == 2 and all(len(r["rounds"]) == 1 and r["depth"] == 3 for r in bound)
    assert "## Ordering bound" in text and "| dice(n=4,k=3) | 2 | 2 | `star2` |" in text
    assert "## Time to depth" not in text  # only the reference deepened
    # Both sections together share the reference's tasks.
    both = dict(settings, sections=["time_to_depth", "ordering_bound"])
    ids = [t.id for t in depth.build_tasks(both)]
    assert len(ids) == len(set(ids))


def test_the_table_divides_by_the_references_time_to_depth():
    def deepening(bot, rows):
        return {"section": "time_to_depth", "game": "g", "bot": bot, "index": 0, "depths": rows}

    reference = deepening(
        depth.REFERENCE,
        [{"depth": 1, "cpu": 0.5, "nodes": 50}, {"depth": 2, "cpu": 2.0, "nodes": 200}],
    )
    star2 = {
        "section": "ordering_bound",
        "game": "g",
        "bot": "star2",
        "index": 0,
        "depth": 3,
        "deepening": [
            {"depth": 1, "cpu": 0.1, "nodes": 10},
            {"depth": 2, "cpu": 1.0, "nodes": 100},
            {"depth": 3, "cpu": 6.0, "nodes": 600},
        ],
        "rounds": [{"cpu": 4.0, "nodes": 400}, {"cpu": 3.0, "nodes": 250}],
    }
    text = ordering_bound.ordering_bound_table([reference, star2], depth.REFERENCE)
    row = next(line for line in text.splitlines() if "`star2`" in line)
    # time 6/2, (1+3)/2, (6-1)/2, 3/2; iteration 3's nodes 250/500 (the last round
    # counts); nodes to depth 3 with the best moves known (100+250)/200
    assert row == "| g | 2 | 1 | `star2` | 3.00 | 2.00 | 2.50 | 1.50 | 0.50 | 1.75 |"


def test_a_bot_made_by_the_factory_accepts_the_large_table():
    game = pyspiel.load_game("pig")
    capacity = ordering_bound.KNOWN_MOVES_CAPACITY
    bot = bots.make_bot("star2", game, 0, tt_size=capacity, engine="python")
    assert bot.searcher.table is not None and bot.searcher.table.capacity == capacity
    assert ordering_bound.skip_reason({"tt_size": 0})
    assert ordering_bound.skip_reason({}) is None
