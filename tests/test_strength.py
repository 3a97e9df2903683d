"""The strength studies: sizes from the power calculation, verdicts, and a whole tiny study."""

from __future__ import annotations

import json
import lzma
import math
import re
from pathlib import Path

import pytest

from experiments.common.runner import RunnerOptions
from experiments.strength import plan, plot, power, report, study
from experiments.strength.checkpoint import CHECKPOINT_FILE
from experiments.strength.study import (
    RESULT_FILE,
    SESSIONS_FILE,
    run_study,
    study_result,
    verdict,
)
from experiments.tournament import RECORDS_FILE

pytestmark = pytest.mark.slow  # end-to-end strength studies: the whole suite, not the fast tier

ROOT = Path(__file__).resolve().parent.parent


def test_pairs_needed_matches_independent_games_when_pairs_carry_no_correlation():
    # Two independent fair games: a pair's mean score has sd sqrt(0.125); the classical
    # one-sample size for 0.53 against 0.5 over single games (sd 0.5) is 2,181 games.
    classical = math.ceil((2.8015852 * 0.5 / 0.03) ** 2)
    assert abs(2 * power.pairs_needed(math.sqrt(0.125)) - classical) <= 2


def test_pair_sd_and_detectable_effect():
    assert power.pair_sd((0, 0, 10, 0, 0)) == 0.0
    assert power.pair_sd((5, 0, 0, 0, 5)) == pytest.approx(math.sqrt(0.25 * 10 / 9))
    sd = power.pair_sd((227, 0, 2029, 0, 244))
    pairs = power.pairs_needed(sd)
    assert (
        power.detectable_effect(sd, pairs) <= power.EFFECT < power.detectable_effect(sd, pairs - 1)
    )
    with pytest.raises(ValueError, match="five counts"):
        power.pair_sd((1, 2, 3))


def test_every_study_is_sized_to_detect_the_effect_with_its_prior():
    studies = plan.studies()
    assert len({s.name for s in studies}) == len(studies)
    for s in studies:
        assert s.games % 2 == 0 and s.sd >= plan.SD_FLOOR
        assert power.detectable_effect(s.sd, s.games // 2) <= s.effect
        sized_otherwise = plan.paper_studies() + plan.learned_studies() + plan.ply_studies()
        assert s.effect == power.EFFECT or s in sized_otherwise
        assert report.estimated_cpu_hours(s) > 0


def test_the_learned_studies_give_both_bots_the_model_and_keep_off_the_hand_panel():
    reasked = {s.name: s for s in plan.reasked_studies()}
    study = reasked["einstein-star2_vs_value_mcts-learned-0.5"]
    assert study.bots == [
        "star2(evaluator=learned,time_limit=0.5)",
        "mcts(evaluator=learned,time_limit=0.5)",
    ]
    # ChanceProbCut keeps the R it plays with the hand evaluator (its committed calibration).
    assert (
        reasked["backgammon-chanceprobcut_vs_star2-learned-0.1"]
        .bots[0]
        .startswith("chanceprobcut(R=1,")
    )
    assert (
        reasked["einstein-chanceprobcut_vs_star2-learned-0.1"]
        .bots[0]
        .startswith("chanceprobcut(R=2,")
    )
    ply = {s.name: s for s in plan.ply_studies()}
    assert ply["backgammon-star2_d2_vs_d1-hand"].bots == [
        "star2(max_depth=2)",
        "star2(max_depth=1)",
    ]
    assert ply["backgammon-star2_d2_vs_d1-learned"].bots == [
        "star2(max_depth=2,evaluator=learned)",
        "star2(max_depth=1,evaluator=learned)",
    ]
    assert all(s.learned for s in [*reasked.values(), *plan.learned_studies()])
    hand_panel = plot.points(ROOT / "results" / "strength")
    assert hand_panel and not any("learned" in p.question for p in hand_panel)
    learned_panel = plot.points(ROOT / "results" / "strength", learned=True)
    assert all("learned" in p.question or "(hand)" in p.question for p in learned_panel)


def test_lead_times_are_the_ones_the_committed_depth_run_gives():
    records = plan.read_records(ROOT / "results" / "strength" / "depth_lead")
    assert plan.LEAD_TIMES == plan.lead_times(records)


def _stats(games, penta, lo, hi):
    return {"games": games, "pentanomial": penta, "pair_lo": lo, "pair_hi": hi}


def test_verdicts():
    assert verdict(_stats(800, [10, 0, 350, 0, 40], 0.51, 0.54), 800) == "wins"
    assert verdict(_stats(800, [40, 0, 350, 0, 10], 0.46, 0.49), 800) == "loses"
    assert (
        verdict(_stats(800, [25, 0, 350, 0, 25], 0.48, 0.52), 800)
        == "no difference of 0.03 or more at 800 games"
    )
    few = verdict(_stats(40, [5, 0, 10, 0, 5], 0.3, 0.7), 800)
    assert few.startswith("incomplete (40 of 800): no difference of 0.") and not few.endswith(
        "0.03 or more at 40 games"
    )
    assert verdict(_stats(0, [0, 0, 0, 0, 0], math.nan, math.nan), 800) == "not run"


def _tiny_study(opponent: str) -> plan.Study:
    """Ten quick games of pig to 10: a study small enough for a test."""
    question = plan.Question("q", "star2(max_depth=1)", opponent, "search", "")
    return plan.Study("tiny", "pig", "pig(winscore=10)", question, 0.01, "test", 10, 0.3)


def test_a_tiny_study_runs_resumes_and_reports(tmp_path, capsys):
    tiny = _tiny_study("expectiminimax(max_depth=2)")
    out = tmp_path / "tiny"
    result = run_study(tiny, out, RunnerOptions(workers=1, task_timeout=120))
    assert result["games"] == 10 and sum(result["pentanomial"]) == 5
    assert result["bots"] == [
        "star2(max_depth=1,time_limit=0.01)",
        "expectiminimax(max_depth=2,time_limit=0.01)",
    ]
    assert result["engines"][0] and result["median_depth"] == [1, 2]
    assert json.loads((out / RESULT_FILE).read_text()) == result
    assert result["design"] == "looks" and result["stopped_at_look"] is None
    capsys.readouterr()
    again = run_study(tiny, out, RunnerOptions(workers=1, task_timeout=120))
    # Resuming skips the looks already played past instead of 'resuming: 10 of 4 games'.
    assert re.findall(r"(\d+) of (\d+) games already played", capsys.readouterr().out) == [
        ("10", "10")
    ]
    assert len((out / SESSIONS_FILE).read_text().splitlines()) == 2
    assert again["games"] == 10 and again["score"] == result["score"]


def test_an_interrupted_study_carries_its_games_to_a_fresh_clone(tmp_path, monkeypatch, capsys):
    tiny = _tiny_study("expectiminimax(max_depth=1)")
    out = tmp_path / "tiny"
    play = study.run_tournament
    calls = []

    def stopped_after_the_first_look(*args: object, **kwargs: object) -> None:
        calls.append(kwargs["limit"])
        if len(calls) > 1:
            raise KeyboardInterrupt  # Ctrl-C during the second look
        play(*args, **kwargs)

    monkeypatch.setattr(study, "run_tournament", stopped_after_the_first_look)
    with pytest.raises(KeyboardInterrupt):
        run_study(tiny, out, RunnerOptions(workers=1, task_timeout=120))
    first_look = power.look_games(tiny.games, 1)
    assert calls[0] == first_look < tiny.games
    played = (out / RECORDS_FILE).read_text()
    assert len(played.splitlines()) == first_look and not (out / RESULT_FILE).exists()
    assert lzma.decompress((out / CHECKPOINT_FILE).read_bytes()).decode() == played

    (out / RECORDS_FILE).unlink()  # a fresh clone: the games file is not committed
    assert report.load_result(tmp_path, tiny)["games"] == first_look
    assert not (out / RECORDS_FILE).exists()  # reporting reads the checkpoint in place
    monkeypatch.setattr(study, "run_tournament", play)
    capsys.readouterr()
    result = run_study(tiny, out, RunnerOptions(workers=1, task_timeout=120))
    assert re.findall(r"(\d+) of \d+ games already played", capsys.readouterr().out)[0] == str(
        first_look
    )
    assert result["games"] == tiny.games and (out / RECORDS_FILE).read_text().startswith(played)
    assert not (out / CHECKPOINT_FILE).exists()  # settled: its games need not travel


def test_overview_cells_are_short_verdicts_with_scores():
    base = {"score": 0.5612, "games": 1056, "planned_games": 1056}
    assert report._cell({**base, "verdict": "wins"}) == "**wins** 0.561"
    assert (
        report._cell({**base, "verdict": "no difference of 0.03 or more at 1056 games"})
        == "no diff. >= 0.03: 0.561"
    )
    partial = {**base, "games": 400, "verdict": "incomplete (400 of 1056): loses"}
    assert report._cell(partial) == "**loses** 0.561 (400 of 1056 games)"
    assert report._cell(None) == "not run"
    early = {**base, "games": 482, "verdict": "wins at look 1 of 4", "stopped_at_look": 1}
    assert report._cell(early) == "**wins** 0.561 (stopped at 482 games)"


def test_lead_table_marks_the_chosen_time():
    records = plan.read_records(ROOT / "results" / "strength" / "depth_lead")
    rows = [
        r for r in report.lead_table(records).splitlines() if r.startswith("| einstein | star2 |")
    ]
    assert len(rows) == 1 and rows[0].endswith(
        f"| {plan.LEAD_TIMES['einstein', 'star2', 'expectiminimax']:g} s |"
    )


def test_the_command_lists_reports_and_refuses_an_unknown_study(tmp_path):
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "experiments.strength", *args, f"--out={tmp_path}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )

    listed = run("--list")
    assert listed.returncode == 0 and f"{len(plan.studies())} studies" in listed.stdout
    reported = run("--report")
    assert reported.returncode == 0 and reported.stdout.count("not run") >= len(plan.studies())
    bad = run("--study=no-such-study")
    assert bad.returncode != 0 and "unknown study 'no-such-study'" in bad.stderr
    (tmp_path / "page.md").write_text("no tables")
    no_tables = run(f"--write_docs={tmp_path / 'page.md'}")
    assert no_tables.returncode != 0 and "no <!-- details -->" in no_tables.stderr
    assert "Traceback" not in no_tables.stderr


def test_a_study_without_its_result_file_reports_what_its_games_say(tmp_path):
    tiny = _tiny_study("expectiminimax(max_depth=1)")
    result = run_study(tiny, tmp_path / "tiny", RunnerOptions(workers=1, task_timeout=120))
    (tmp_path / "tiny" / RESULT_FILE).unlink()  # as after an interrupted session
    assert report.load_result(tmp_path, tiny) == result
    assert report.load_result(tmp_path / "elsewhere", tiny) is None
    assert report.load_result(tmp_path, tiny, settled=True) is None  # not on the docs page


def test_the_strength_page_holds_the_committed_studies_tables():
    page = ROOT / "docs" / "results" / "strength.md"
    expected = report.with_details(page.read_text(), ROOT / "results" / "strength")
    # Regenerate: python -m experiments.strength --write_docs=docs/results/strength.md
    assert page.read_text() == expected
    with pytest.raises(ValueError, match="no <!-- details -->"):
        report.with_details("no tables here", ROOT / "results" / "strength")


def test_the_look_boundaries_keep_the_error_rate_and_most_of_the_power():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    looks = np.arange(1, power.LOOKS + 1)
    bounds = np.array([power.look_boundary(k) for k in looks])
    steps = rng.standard_normal((200_000, power.LOOKS))
    null_z = np.cumsum(steps, axis=1) / np.sqrt(looks)
    assert abs((np.abs(null_z) >= bounds).any(axis=1).mean() - power.ALPHA) < 0.004
    # The planned size detects 0.53 with 80% power at one look; with the looks, 79%.
    drift = power._z_sum(power.ALPHA, power.POWER) / math.sqrt(power.LOOKS)
    true_z = np.cumsum(steps + drift, axis=1) / np.sqrt(looks)
    assert 0.77 < (np.abs(true_z) >= bounds).any(axis=1).mean() < 0.81
    assert [power.look_games(1926, k) for k in looks] == [482, 964, 1446, 1926]
    assert power.pair_z([0, 0, 4, 0, 0]) == 0 and power.pair_z([0, 0, 0, 0, 10]) == 5.0


def _fake_study(tmp_path: Path, pair_scores: list[float], design: str | None) -> Path:
    """A results folder whose games give these pair scores (bot 0's, 0..1) in order."""
    out = tmp_path / "fake"
    out.mkdir(parents=True)
    lines = []
    for pair, score in enumerate(pair_scores):
        for k in (2 * pair, 2 * pair + 1):
            seats = [0, 1] if k % 2 == 0 else [1, 0]
            won = score == 1 or (score == 0.5 and k % 2 == 0)
            winner = seats.index(0) if won else seats.index(1)
            lines.append(
                {"id": f"0-1-{k}", "bots": ["a", "b"], "pairing": [0, 1], "bot_index": seats,
                 "pair": pair, "game_index": k, "winner": winner, "returns": [1, -1],
                 "error": None, "search": []}
            )  # fmt: skip
    (out / RECORDS_FILE).write_text("".join(json.dumps(r) + "\n" for r in lines))
    session = {"revision": "r", "seconds": 1.0, "load_before": [0.0], "load_after": [0.0]}
    if design is not None:
        session["design"] = design
    (out / SESSIONS_FILE).write_text(json.dumps(session) + "\n")
    return out


def test_a_lopsided_study_stops_at_the_first_look_whose_boundary_it_crosses(tmp_path):
    study = plan.Study("fake", "pig", "pig", plan.QUESTIONS[0], 0.1, "test", 40, 0.3)
    result = study_result(study, _fake_study(tmp_path, [1.0] * 20, "looks"))
    # Look 1 (5 pairs) gives z 2.5 < 4.05; look 2 (10 pairs) z 5.0 > 2.86.
    assert result["stopped_at_look"] == 2 and result["games"] == 20
    assert result["verdict"] == "wins at look 2 of 4"
    assert result["critical_z"] == pytest.approx(power.look_boundary(2))
    assert result["pair_z"] == pytest.approx(5.0)


def test_a_close_study_plays_every_game_and_a_fixed_one_keeps_its_design(tmp_path):
    study = plan.Study("fake", "pig", "pig", plan.QUESTIONS[0], 0.1, "test", 40, 0.3)
    scores = [0.5] * 18 + [1.0, 0.0]
    looked = study_result(study, _fake_study(tmp_path / "a", scores, "looks"))
    assert looked["stopped_at_look"] is None and looked["games"] == 40
    assert looked["verdict"].startswith("no difference of") and looked["critical_z"] == 2.024
    fixed = study_result(study, _fake_study(tmp_path / "b", [1.0] * 20, None))
    assert fixed["design"] == "fixed" and fixed["stopped_at_look"] is None
    assert (
        fixed["games"] == 40
        and fixed["verdict"] == "wins"
        and fixed["critical_z"] == pytest.approx(1.96, abs=1e-4)
    )
