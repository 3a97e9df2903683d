"""Tests of the tournament runner (experiments.tournament) and the output-folder utilities."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from helpers.run_folders import chance_outcomes, records, without_timing

from bots import native_engine
from bots.deepening_bot import SearchBot
from experiments import tournament
from experiments.common import results, runner
from experiments.common.errors import ExperimentError
from experiments.common.runner import RunnerOptions, TaskTimeout
from experiments.tournament import play as tournament_play
from experiments.tournament import stats
from experiments.tournament.play import ChanceStream, outcome_for, play_game
from experiments.tournament.schedule import build_tasks

pytestmark = pytest.mark.slow  # end-to-end tournaments: the whole suite, not the fast tier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = "pig(winscore=20)"
FIXED = ["expectiminimax(max_depth=1)", "star2(max_depth=2)", "random"]


def config(
    bots=FIXED, game=GAME, games_per_pair=4, seed=7, max_moves=1000, schedule="round_robin"
) -> dict:
    return {
        "program": "experiments.tournament",
        "game": game,
        "bots": list(bots),
        "schedule": schedule,
        "games_per_pair": games_per_pair,
        "seed": seed,
        "max_moves": max_moves,
    }


def run(
    cfg: dict, out, *, bootstrap: int = 50, plots: bool = False, **options
) -> tournament.Summary:
    options.setdefault("progress", False)
    options.setdefault("task_timeout", tournament.DEFAULT_GAME_TIMEOUT)
    return tournament.run_tournament(
        cfg, str(out), options=RunnerOptions(**options), bootstrap=bootstrap, plots=plots
    )


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "experiments.tournament", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ---- the real bot factory ------------------------------------------------------------------


def test_runner_builds_its_bots_with_the_project_factory(monkeypatch):
    import bots

    game = pyspiel.load_game(GAME)
    bot = tournament_play.create_bot("star2(max_depth=1)", game, 0, 3)
    assert isinstance(bot, SearchBot) and bot.searcher.algorithm == "star2"
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()
    assert bot.last_search["depth"] == 1
    # A game's seed reaches the factory; without one the spec keeps its own.
    calls = []
    monkeypatch.setattr(bots, "make_bot", lambda *args, **kwargs: calls.append((args, kwargs)))
    tournament_play.create_bot("random", game, 1, 7)
    tournament_play.create_bot("random(seed=2)", game, 0, None)
    assert calls == [(("random", game, 1), {"seed": 7}), (("random(seed=2)", game, 0), {})]


# ---- common random numbers -----------------------------------------------------------------


def test_outcome_for_inverts_the_cumulative_distribution():
    outcomes = [(3, 0.2), (5, 0.5), (9, 0.3)]
    assert [outcome_for(u, outcomes) for u in (0.0, 0.19, 0.2, 0.69, 0.7, 0.999999)] == [
        3,
        3,
        5,
        5,
        9,
        9,
    ]
    stream = ChanceStream(1)
    counts = {a: 0 for a, _ in outcomes}
    for _ in range(20000):
        counts[stream.sample(outcomes)] += 1
    assert abs(counts[5] / 20000 - 0.5) < 0.02


def test_paired_games_share_their_dice():
    # Different bots, different moves: pig's die has the same distribution at every roll,
    # so the k-th roll of the two seat-swapped games must coincide for all k.
    specs = ["random", "expectiminimax(max_depth=1)"]
    tasks = build_tasks(GAME, specs, 2, "round_robin", 4, 3, 1000, [True, True])
    recs = {t.id: play_game(t) for t in tasks}
    for pair in (0, 1):
        a, b = recs[f"0v1#{2 * pair}"], recs[f"0v1#{2 * pair + 1}"]
        assert a["bot_index"] == [0, 1] and b["bot_index"] == [1, 0]
        assert a["seed"]["chance"] == b["seed"]["chance"]
        ca, cb = chance_outcomes(a), chance_outcomes(b)
        k = min(len(ca), len(cb))
        assert k > 5 and ca[:k] == cb[:k]
    assert chance_outcomes(recs["0v1#0"])[:20] != chance_outcomes(recs["0v1#2"])[:20]


def test_identical_bots_replay_the_same_game_in_both_seats():
    # With the same deterministic bot in both seats the states coincide, hence so do all
    # chance outcomes: the two games of a pair are the same game.
    spec = "star2(max_depth=2)"
    tasks = build_tasks(GAME, [spec, spec], 2, "round_robin", 2, 5, 1000, [True, True])
    a, b = (play_game(t) for t in tasks)
    assert a["history"] == b["history"] and a["returns"] == b["returns"]


# ---- whole tournaments ---------------------------------------------------------------------


def test_records_name_each_searched_move_and_its_engine(tmp_path):
    bots = FIXED + ["mcts(max_simulations=20)"]
    cfg = config(bots=bots, games_per_pair=2)
    run(cfg, tmp_path, workers=1)
    expected = without_timing(records(tmp_path))
    assert len(expected) == 12 and all(r["error"] is None for r in expected.values())
    searched = [mv for r in expected.values() for mv in r["search"]]
    assert searched and {"player", "action", "nodes", "depth", "value"} <= set(searched[0])
    # Every searched move says which engine ran it: native wherever it is built.
    expected_engine = "python" if native_engine.problem() else "native"
    assert {mv["engine"] for mv in searched} == {expected_engine}


def test_ray_executor_without_ray_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "ray_available", lambda: False)
    with pytest.raises(ExperimentError, match=r"pip install 'starspiel\[ray\]'"):
        run(config(), tmp_path, executor="ray")


def test_bot_error_is_recorded_and_the_other_games_finish(tmp_path, monkeypatch):
    cfg = config(bots=["flaky", "random"], games_per_pair=4)
    tasks = build_tasks(GAME, cfg["bots"], 2, "round_robin", 4, cfg["seed"], 1000, [True, True])
    doomed = next(t for t in tasks if t.id == "0v1#1")
    doomed_seed = doomed.bot_seeds[doomed.bot_index.index(0)]
    real_create = tournament_play.create_bot

    class Flaky(pyspiel.Bot):
        def __init__(self, inner, fail):
            pyspiel.Bot.__init__(self)
            self.inner, self.fail = inner, fail

        def step(self, state):
            if self.fail:
                raise RuntimeError("flaky bot exploded")
            return self.inner.step(state)

    def create(spec, game, player_id, seed):
        if spec == "flaky":
            return Flaky(real_create("random", game, player_id, seed), seed == doomed_seed)
        return real_create(spec, game, player_id, seed)

    monkeypatch.setattr(tournament_play, "create_bot", create)
    summary = run(cfg, tmp_path, workers=1)
    recs = records(tmp_path)
    assert len(recs) == 4
    bad = recs["0v1#1"]
    assert "RuntimeError: flaky bot exploded" in bad["error"] and "Traceback" in bad["error"]
    assert bad["error_seat"] == 1 and bad["returns"] is None
    assert all(r["error"] is None and r["returns"] for k, r in recs.items() if k != "0v1#1")
    assert summary.pairings[0]["errors"] == 1 and summary.pairings[0]["games"] == 3
    assert "1 errors" in summary.result_lines()[0]


def test_cut_off_games_are_recorded_with_their_returns(tmp_path):
    run(config(bots=["random", "random"], games_per_pair=2, max_moves=3), tmp_path, workers=1)
    for r in records(tmp_path).values():
        assert r["cut_off"] and r["moves"] == 3 and r["returns"] == [0.0, 0.0]
        assert r["winner"] is None


def test_one_player_game_reports_score_statistics(tmp_path):
    summary = run(
        config(bots=["expectiminimax(max_depth=2)", "random"], game="catch", games_per_pair=3),
        tmp_path,
        workers=1,
        plots=True,
    )
    assert [s["games"] for s in summary.scores] == [3, 3]
    md = (tmp_path / "summary.md").read_text()
    assert "## Scores" in md and "95% CI" in md
    ids = sorted(records(tmp_path))
    assert ids == ["0#0", "0#1", "0#2", "1#0", "1#1", "1#2"]
    # Common dice across bots: game k of every bot starts from the same ball column.
    recs = records(tmp_path)
    assert recs["0#1"]["history"][0] == recs["1#1"]["history"][0]


def test_2048_records_its_largest_tile_and_the_report_counts_goals(tmp_path):
    """A 2048 game records the largest tile its end reached (checked by replaying its
    history), and the report gives the share of games reaching each goal."""
    summary = run(
        config(
            bots=["expectiminimax(max_depth=1)"],
            game="2048(max_tile=131072)",
            games_per_pair=2,
            max_moves=100000,
        ),
        tmp_path,
        workers=1,
    )
    game = pyspiel.load_game("2048(max_tile=131072)")
    for r in records(tmp_path).values():
        state = game.new_initial_state()
        for action in r["history"]:
            state.apply_action(action)
        assert state.is_terminal()
        assert r["milestone"] == max(state.observation_tensor(0)) >= 64
    reached = {g["goal"]: g["reached"] for g in summary.reach[0]}
    tiles = [r["milestone"] for r in records(tmp_path).values()]
    assert reached[1024] == sum(t >= 1024 for t in tiles) and reached[8192] == 0
    md = (tmp_path / "summary.md").read_text()
    assert "## Games whose largest tile reached each goal" in md
    assert (
        "\nreach,expectiminimax(max_depth=1),,2048,share," in (tmp_path / "summary.csv").read_text()
    )


def test_summary_files(tmp_path):
    summary = run(config(games_per_pair=4), tmp_path, workers=1, plots=True)
    md = (tmp_path / "summary.md").read_text()
    for heading in ("## Pairings", "## Elo", "## Search effort per move", "pentanomial", "pair CI"):
        assert heading in md
    header = (tmp_path / "summary.csv").read_text().splitlines()[0]
    assert header == "section,bot,opponent,seat,metric,value"
    assert (tmp_path / "score_matrix.png").exists() and (tmp_path / "nodes_per_move.png").exists()
    for p in summary.pairings:
        assert p["games"] == 4 and sum(p["pentanomial"]) == 2
        assert p["score_lo"] <= p["score"] <= p["score_hi"]
        assert np.isnan(p["pair_lo"])  # two pairs: too few for the pair interval
    assert ",pair_lo," in (tmp_path / "summary.csv").read_text()
    assert len(summary.result_lines()) == 3
    assert set(summary.elo) == {0, 1, 2}
    elo_rows = [line for line in md.splitlines() if line.startswith("| `") and "| +" in line]
    assert "from a bootstrap" in md and all("nan" not in line for line in elo_rows)


def test_elo_without_a_bootstrap_shows_no_interval(tmp_path):
    """A run with --bootstrap=0 (as the strength studies are) prints its Elo fit with no
    interval, and says so, instead of an interval of NaNs."""
    run(config(bots=["random", "random"], games_per_pair=2), tmp_path, workers=1, bootstrap=0)
    md = (tmp_path / "summary.md").read_text()
    elo = md.split("## Elo", 1)[1].split("##", 1)[0]
    assert "no interval (run without a bootstrap" in elo and "nan" not in elo
    assert "| - |" in elo


# ---- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game=no_such_game"], "unknown game 'no_such_game'"),
        (["--game=pig(no_param=1)"], "cannot load game"),
        (["--bot=star2(max_depht=2)", "--bot=random"], "bad bot spec 'star2(max_depht=2)'"),
        (["--bot=nosuchbot", "--bot=random"], "bad bot spec 'nosuchbot'"),
        (["--bot=random", "--bot=random", "--out=/dev/null/sub"], "cannot create output folder"),
    ],
)
def test_bad_flags_give_a_message_and_nonzero_exit(args, message, tmp_path):
    if not any(a.startswith("--out") for a in args):
        args = [*args, f"--out={tmp_path / 'out'}"]
    done = cli(*args, "--games_per_pair=1")
    assert done.returncode != 0
    assert message in done.stderr and "Traceback" not in done.stderr


def test_different_configuration_on_existing_folder_is_refused_by_the_cli(tmp_path):
    run(config(bots=["random", "random"], games_per_pair=2), tmp_path, workers=1)
    done = cli(
        f"--game={GAME}",
        "--bot=random",
        "--bot=random",
        "--games_per_pair=3",
        "--seed=7",
        f"--out={tmp_path}",
    )
    assert done.returncode != 0 and "different configuration" in done.stderr
    assert "games_per_pair" in done.stderr and "Traceback" not in done.stderr


# ---- faults: a game past its timeout, a locked folder ------------------------------------


class TimedOut(pyspiel.Bot):
    """A test-only bot whose second move runs past the game timeout: it raises what the
    runner's alarm raises there (the runner's own tests check that the alarm fires)."""

    def __init__(self, inner):
        pyspiel.Bot.__init__(self)
        self.inner, self.moves = inner, 0

    def step(self, state):
        self.moves += 1
        if self.moves > 1:
            raise TaskTimeout(tournament.DEFAULT_GAME_TIMEOUT)
        return self.inner.step(state)

    def restart_at(self, state):
        self.inner.restart_at(state)


def test_a_game_past_its_timeout_names_the_bot_to_move_and_the_run_goes_on(tmp_path, monkeypatch):
    real_create = tournament_play.create_bot

    def create(spec, game, player_id, seed):
        if spec == "hang":
            return TimedOut(real_create("random", game, player_id, seed))
        return real_create(spec, game, player_id, seed)

    monkeypatch.setattr(tournament_play, "create_bot", create)
    cfg = config(bots=["hang", "random"], games_per_pair=2)
    summary = run(cfg, tmp_path, workers=1)
    recs = records(tmp_path)
    assert sorted(recs) == ["0v1#0", "0v1#1"]
    limit = f"{tournament.DEFAULT_GAME_TIMEOUT:g}"
    for r in recs.values():
        assert r["error"].startswith(f"game stopped by --game_timeout={limit} s after ")
        seat = r["bot_index"].index(0)
        assert r["error"].endswith(f"bot to move: seat {seat}, 'hang'") and r["returns"] is None
    assert summary.n_errors == 2 and "2 errors" in summary.result_lines()[0]
    assert "2 with errors" in (tmp_path / "summary.md").read_text()


def test_a_second_run_on_a_folder_in_use_is_refused(tmp_path):
    with results.ResultsFolder(str(tmp_path), {"program": "another run"}):
        done = cli("--bot=random", "--bot=random", "--games_per_pair=1", f"--out={tmp_path}")
    assert done.returncode == 2 and "in use by a live run" in done.stderr
    assert "Traceback" not in done.stderr


def test_pair_interval_is_the_normal_interval_over_game_pairs():
    penta = [10, 0, 49, 0, 21]
    # Independently: every pair's mean score, plus a pseudo-pair at 0 and one at 1.
    scores = np.array([0.0] * 11 + [0.5] * 49 + [1.0] * 22)
    half = stats.Z95 * scores.std(ddof=1) / np.sqrt(len(scores))
    lo, hi = stats.pair_interval(penta)
    assert lo == pytest.approx(scores.mean() - half) and hi == pytest.approx(scores.mean() + half)
    # Pairs that split carry no luck: narrower than Wilson's interval over the 160 games.
    w_lo, w_hi = stats.wilson_interval(91, 160)
    assert hi - lo < w_hi - w_lo
    # All pairs split: not a zero-width interval; a clean sweep reaches 1.
    split_lo, split_hi = stats.pair_interval([0, 0, 25, 0, 0])
    assert split_lo < 0.5 < split_hi
    assert stats.pair_interval([0, 0, 0, 0, 25])[1] == 1.0
    assert all(np.isnan(stats.pair_interval([1, 0, 2, 0, 1])))
    with pytest.raises(ValueError, match="five counts"):
        stats.pair_interval([1, 2, 3])
