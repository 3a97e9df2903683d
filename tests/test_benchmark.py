"""Smoke test of experiments.benchmark on a tiny configuration: output structure, not times."""

from __future__ import annotations

import json
import os

import pytest
from open_spiel.python.algorithms import minimax

from experiments import benchmark
from experiments.benchmark import core, report
from experiments.common import parsing
from experiments.common.game_loader import load_game
from games.position_sampler import sample_positions


class _Flags:
    """Stand-in for absl FLAGS with the benchmark's defaults."""

    def __init__(self, **overrides):
        self.quick = False
        self.preset = "full"
        self.games = None
        self.depths = None
        self.positions = None
        self.seed = 0
        self.repeats = 1
        self.tt_size = 1000
        self.clock = "cpu"
        self.algorithms = list(core.ALGORITHM_LABELS)
        self.sections = list(benchmark.SECTIONS)
        self.time_limit = 0.01
        self.overrun_bot = "star2"
        self.overrun_games = None
        self.overrun_moves = None
        self.nps = None
        self.nps_positions = None
        self.__dict__.update(overrides)


def _tiny_config():
    return benchmark.resolve_config(
        _Flags(
            games="pig,dice(n=5,k=4)",
            depths="pig:1-2;1",
            positions="1",
            overrun_games="pig",
            overrun_moves=3,
            nps="dice(n=5,k=4):1;pig:1",
            nps_positions=1,
        )
    )


def test_tiny_run_structure(tmp_path):
    out = str(tmp_path / "bench")
    config = _tiny_config()
    summary = benchmark.run(config, out, log=lambda *a: None)

    rows = summary["fixed"]
    assert [(r["game"], r["depth"]) for r in rows] == [("pig", 1), ("pig", 2), ("dice(n=5,k=4)", 1)]
    for row in rows:
        assert set(row["ours"]) == set(core.ALGORITHM_LABELS)
        assert row["all_agree"]
        assert row["openspiel"]["nodes"] >= 1 and row["openspiel"]["seconds"] > 0
        for side in row["ours"].values():
            assert {
                "nodes",
                "evaluations",
                "seconds",
                "wall_seconds",
                "nodes_per_second",
                "agree",
            } <= set(side)
        assert {"speedup_star2_tt", "cost_per_node_ratio"} <= set(row)

    (overrun_game, overrun_all) = summary["overrun"]
    assert overrun_game["game"] == "pig" and overrun_all["game"] == "all"
    assert overrun_all["moves"] == 3
    assert {"max_s", "p95_s", "over_tolerance", "max_cpu_s", "max_gc_s"} <= set(overrun_all)

    assert {(r["game"], r["algorithm"]) for r in summary["nps"]} == {
        ("dice(n=5,k=4)", "star2"),
        ("dice(n=5,k=4)", "star2+tt"),
        ("pig", "star2"),
        ("pig", "star2+tt"),
    }
    names = " ".join(h["name"] for h in summary["headlines"])
    assert "cost per node" in names and "time-limited" in names and "nodes/s" in names

    for name in ("config.json", "records.jsonl", "summary.md", "summary.json"):
        assert os.path.exists(os.path.join(out, name))
    with open(os.path.join(out, "records.jsonl")) as f:
        lines = f.read().splitlines()
    assert len(lines) == 3 + 1 + 4
    with open(os.path.join(out, "summary.json")) as f:
        assert json.load(f)["fixed"][0]["game"] == "pig"


def test_counting_clone_counts_what_openspiel_evaluates():
    game = load_game("pig")
    state = sample_positions(game, 1, 3, core.plies("pig"))[0]
    calls = []
    player = state.current_player()
    minimax.expectiminimax(state, 3, lambda s: calls.append(1) or 0.0, player)
    counts = core.openspiel_count(state, 3, player)
    assert counts["leaves"] == len(calls)
    assert counts["nodes"] > counts["leaves"] + counts["terminals"]


def test_the_ply_ranges_give_decision_nodes():
    game = load_game("backgammon")
    states = sample_positions(game, 3, 5, core.plies("backgammon(scoring_type=full_scoring)"))
    assert core.plies("backgammon(scoring_type=full_scoring)") == core.PLY_RANGES["backgammon"]
    assert all(not s.is_chance_node() and not s.is_terminal() for s in states)


def test_flag_parsing_and_errors():
    assert parsing.split_games("pig,dice(n=5,k=4), 2048") == ["pig", "dice(n=5,k=4)", "2048"]
    assert parsing.parse_per_game("pig:1-6;2", "x") == ("2", {"pig": "1-6"})
    with pytest.raises(ValueError, match="cannot parse"):
        parsing.split_games("pig,dice(n=5")
    config = benchmark.resolve_config(_Flags(quick=True))
    assert config["fixed"] and all(item["positions"] >= 1 for item in config["fixed"])
    with pytest.raises(ValueError, match="--depths"):
        benchmark.resolve_config(_Flags(games="pig", depths="pig:1-x"))
    with pytest.raises(ValueError, match="not in the games"):
        benchmark.resolve_config(_Flags(games="pig", depths="yacht:1"))
    with pytest.raises(ValueError, match="--algorithms"):
        benchmark.resolve_config(_Flags(games="pig", algorithms=["star9"]))
    assert report.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95) == pytest.approx(4.8)
