"""The depth benchmark on tiny settings: records, summary, per-algorithm depths and skips.

Resume and worker counts are the shared runner's (test_runner.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from experiments.benchmark import depth
from experiments.common.game_loader import load_game
from experiments.common.runner import RunnerOptions
from games.position_sampler import positions_from_games, state_from_history

pytestmark = pytest.mark.slow  # end-to-end benchmark runs: the whole suite, not the fast tier

SETTINGS = {
    "sections": ["time_to_depth", "equal_time"],
    "depths": {"dice(n=4,k=3)": 3, "pig(winscore=20)": 3},
    "algorithms": ["star2", "star2(tt_size=0)"],
    "equal_time_games": ["pig(winscore=20)"],
    "bots": ["expectiminimax", "star2"],
    "time_limits": [0.01],
    "positions": {"time_to_depth": 2, "equal_time": 2},
    "seed": 0,
    "budget": 60.0,
}


def _cli(module, *args):
    """Runs ``python -m module --noprogress args`` as a user would."""
    return subprocess.run(
        [sys.executable, "-m", module, "--noprogress", *args], capture_output=True, text=True
    )


def _depth_cli(*args):
    return _cli("experiments.benchmark.depth", *args)


def _records(out):
    with open(os.path.join(out, depth.RECORDS_FILE), encoding="utf-8") as handle:
        return {r["id"]: r for r in map(json.loads, handle)}


def _node_counts(records):
    return {
        rid: [(d["depth"], d["nodes"]) for d in r["depths"]]
        for rid, r in records.items()
        if r["section"] == "time_to_depth"
    }


def test_both_sections_record_every_task_and_summarize(tmp_path):
    out = str(tmp_path / "run")
    text = depth.run(SETTINGS, out, RunnerOptions(workers=1, progress=False))
    records = _records(out)
    # time to depth: expectiminimax is added as the reference; 2 games x 3 algorithms x 2
    # positions. Equal time: 1 game x 2 bots x 1 limit x 2 positions.
    assert len(records) == 12 + 4
    for r in records.values():
        if r["section"] == "time_to_depth":
            # expectiminimax, the reference, is only needed up to D-1 by the ratio
            deepest = 2 if r["bot"] == depth.REFERENCE else 3
            assert [d["depth"] for d in r["depths"]] == list(range(1, deepest + 1))
            cpu = [d["cpu"] for d in r["depths"]]
            assert cpu == sorted(cpu)  # cumulative, as a deepening bot spends it
        else:
            assert r["depth"] >= 0 and r["nodes"] > 0 and isinstance(r["proved"], bool)
    assert "time(alg, d+1) / time(emm, d)" in text and "`star2(tt_size=0)`" in text
    assert "cost per node the table did not answer" in text
    for r in records.values():
        if r["section"] == "time_to_depth":
            assert all(0 <= d["tt_hits"] <= d["nodes"] for d in r["depths"])
    assert "deeper / shallower than expectiminimax" in text
    assert os.path.exists(os.path.join(out, "summary.md"))


def test_per_algorithm_depth_and_skips(tmp_path):
    assert depth._algorithm_depth("expectiminimax", 3) == 2
    assert depth._algorithm_depth("star2", 3) == 3
    assert depth._algorithm_depth("star2(max_depth=2,tt_size=0)", 5) == 2
    notes = []
    settings = dict(
        SETTINGS,
        sections=["time_to_depth"],
        depths={"pig(winscore=20)": 2},
        algorithms=["chanceprobcut"],
    )
    tasks = depth.build_tasks(settings, log=notes.append)
    assert {t.payload["bot"] for t in tasks} == {"expectiminimax"}
    assert notes and "no committed ChanceProbCut calibration" in notes[0]
    with pytest.raises(ValueError):
        depth.build_tasks(dict(settings, algorithms=["star2(no_such=1)"]))
    # Position by position, every algorithm on a position next to the others'.
    both = dict(settings, algorithms=["star2"], positions={"time_to_depth": 2})
    order = [(t.payload["index"], t.payload["bot"]) for t in depth.build_tasks(both)]
    assert order == [(0, "expectiminimax"), (0, "star2"), (1, "expectiminimax"), (1, "star2")]


def test_equal_time_games_with_parameters_on_the_command_line(tmp_path):
    done = _depth_cli(
        "--sections=equal_time",
        "--equal_time_games=dice(n=4,k=3),pig(winscore=20)",
        "--bots=star2",
        "--time_limits=0.01",
        "--positions=1",
        f"--out={tmp_path / 'e'}",
    )
    assert done.returncode == 0, done.stderr
    assert "dice(n=4,k=3)" in done.stdout and "pig(winscore=20)" in done.stdout


def test_the_command_line_quick_run_and_a_bad_flag(tmp_path):
    done = _depth_cli("--quick", f"--out={tmp_path / 'q'}")
    assert done.returncode == 0, done.stderr
    assert "Equal-time depth" in done.stdout
    bad = _depth_cli("--sections=speed", f"--out={tmp_path / 'b'}")
    assert bad.returncode == 2 and "accepted: time_to_depth, equal_time" in bad.stderr
    no_depth = _depth_cli("--games=maedn", f"--out={tmp_path / 'm'}")
    assert no_depth.returncode == 2 and "no depth for 'maedn'" in no_depth.stderr


@pytest.fixture(scope="module")
def pig_tournament(tmp_path_factory):
    """A small real tournament folder, made by the command users run."""
    out = tmp_path_factory.mktemp("tournament") / "pig"
    done = _cli(
        "experiments.tournament",
        "--game=pig(winscore=20)",
        "--bot=star2(max_depth=2)",
        "--bot=random",
        "--games_per_pair=4",
        f"--out={out}",
    )
    assert done.returncode == 0, done.stderr
    return out


def test_positions_from_games_are_the_recorded_decisions(pig_tournament):
    game = load_game("pig(winscore=20)")
    records = depth.read_game_records(str(pig_tournament))
    other = {"id": "x", "game": "dice(n=4,k=3)", "history": [0, 1], "error": None}
    failed = {"id": "y", "game": "pig(winscore=20)", "history": [1, 1], "error": "boom"}
    drawn = positions_from_games(game, [*records.values(), other, failed], 12, seed=3)
    assert len(drawn) == 12 and len({source for source, _ in drawn}) == 12
    for source, history in drawn:
        record_id, ply = source.rsplit("@", 1)
        assert records[record_id]["history"][: int(ply)] == history
        state = state_from_history(game, history)
        assert not state.is_chance_node() and len(state.legal_actions()) >= 2
    # The draw depends on the seed and the records only (not on their order), and a
    # smaller count is a prefix of a larger one.
    again = positions_from_games(game, reversed(list(records.values())), 5, seed=3)
    assert again == drawn[:5]
    assert positions_from_games(game, records.values(), 12, seed=4) != drawn
    with pytest.raises(ValueError, match="12 requested|requested"):
        positions_from_games(load_game("dice(n=4,k=3)"), records.values(), 12, seed=0)


def test_the_benchmark_on_a_tournaments_positions(pig_tournament, tmp_path):
    settings = dict(
        SETTINGS,
        depths={"pig(winscore=20)": 2},
        positions={"time_to_depth": 2, "equal_time": 2},
        positions_from=str(pig_tournament),
    )
    out = str(tmp_path / "from_games")
    depth.run(settings, out, RunnerOptions(workers=1, progress=False))
    game = load_game("pig(winscore=20)")
    games = depth.read_game_records(str(pig_tournament))
    expected = positions_from_games(game, games.values(), 2, seed=0)
    for r in _records(out).values():
        assert r["source"] == expected[r["index"]][0]
    done = _depth_cli(
        "--sections=equal_time",
        "--games=pig(winscore=20)",
        "--bots=star2",
        "--time_limits=0.01",
        "--positions=1",
        f"--positions_from={pig_tournament}",
        f"--out={tmp_path / 'cli'}",
    )
    assert done.returncode == 0, done.stderr
    missing = _depth_cli(f"--positions_from={tmp_path / 'none'}", f"--out={tmp_path / 'm'}")
    assert missing.returncode == 2 and "no games.jsonl" in missing.stderr


def test_a_proved_search_counts_as_deepest_and_leaves_the_means():
    def record(bot, index, depth_reached, proved=False):
        return {
            "section": "equal_time",
            "game": "g",
            "time_limit": 1.0,
            "bot": bot,
            "index": index,
            "depth": depth_reached,
            "proved": proved,
            "nodes": 10,
            "wall": 1.0,
        }

    records = [
        # star2 proves a win at depth 2, where expectiminimax goes on to depth 87.
        record("expectiminimax", 0, 87),
        record("star2", 0, 2, proved=True),
        record("expectiminimax", 1, 4),
        record("star2", 1, 5),
        record("expectiminimax", 2, 4),
        record("star2", 2, 4),
    ]
    rows = {
        line.split("|")[3].strip(): [cell.strip() for cell in line.split("|")[4:-1]]
        for line in depth.equal_time_table(records).splitlines()[2:]
    }
    positions, proved, mean, median, versus = rows["`star2`"][:5]
    assert (positions, proved, median, versus) == ("3", "1", "4.5", "2 / 0 of 3")
    assert mean.startswith("4.50")
    assert rows["`expectiminimax`"][2].startswith("4.00")  # position 0 left out


def test_equal_time_table_pairs_each_bot_with_every_versus_bot():
    def record(bot, index, depth_reached):
        return {
            "section": "equal_time",
            "game": "g",
            "time_limit": 0.1,
            "index": index,
            "bot": bot,
            "depth": depth_reached,
            "proved": False,
            "nodes": 10,
            "wall": 0.1,
        }

    depths = {"expectiminimax": [2, 2, 3], "star2": [3, 2, 3], "chanceprobcut": [3, 3, 2]}
    records = [record(bot, i, d) for bot, row in depths.items() for i, d in enumerate(row)]
    lines = depth.equal_time_table(records, ["expectiminimax", "star2"]).splitlines()
    assert "deeper / shallower than expectiminimax | deeper / shallower than star2 |" in lines[0]
    assert lines[1].count("|") == lines[0].count("|")
    rows = {
        line.split("|")[3].strip(): [c.strip() for c in line.split("|")[8:10]] for line in lines[2:]
    }
    assert rows["`chanceprobcut`"] == ["2 / 1 of 3", "1 / 1 of 3"]
    assert rows["`star2`"] == ["1 / 0 of 3", "-"]
    assert rows["`expectiminimax`"] == ["-", "0 / 1 of 3"]


def test_versus_must_name_a_bot_of_the_run(tmp_path):
    done = _depth_cli(
        "--sections=equal_time",
        "--bots=expectiminimax,star2",
        "--versus=star2,chanceprobcut",
        f"--out={tmp_path / 'v'}",
    )
    assert done.returncode == 2
    assert "--versus chanceprobcut is not among --bots (expectiminimax, star2)" in done.stderr
    assert not os.path.exists(tmp_path / "v")


def test_cost_per_searched_node_leaves_out_table_hits_and_old_records():
    def record(bot, cpu, nodes, hits=None):
        rows = []
        for d in (1, 2):
            row = {"depth": d, "cpu": cpu * d, "nodes": nodes * d}
            if hits is not None:
                row["tt_hits"] = hits * d
            rows.append(row)
        return {"section": "time_to_depth", "game": "g", "bot": bot, "index": 0, "depths": rows}

    # At d=1 expectiminimax: 1 s over 100 nodes, 50 of them table hits; star2: 1 s
    # over 40 nodes, 20 hits. Per node 2.5x; per searched node 2.5x too (1/20 vs 1/50).
    text = depth.time_to_depth_table(
        [record(depth.REFERENCE, 1.0, 100, 50), record("star2", 1.0, 40, 20)]
    )
    row = next(line for line in text.splitlines() if "| 1 |" in line)
    assert row.endswith("| 2.50 | 2.50 |")
    text = depth.time_to_depth_table(
        [record(depth.REFERENCE, 1.0, 100, 80), record("star2", 1.0, 40, 0)]
    )
    row = next(line for line in text.splitlines() if "| 1 |" in line)
    assert row.endswith("| 2.50 | 0.50 |")  # 1/40 against 1/20
    old = depth.time_to_depth_table([record(depth.REFERENCE, 1.0, 100), record("star2", 1.0, 40)])
    assert next(line for line in old.splitlines() if "| 1 |" in line).endswith("| 2.50 | - |")
