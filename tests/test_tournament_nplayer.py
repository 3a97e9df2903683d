"""Tournaments of three and four players: seatings, shared dice, statistics, sizing, resume."""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys

import pyspiel
import pytest
from helpers.run_folders import chance_outcomes, kill_when_written, records, without_timing

from experiments import tournament
from experiments.common.errors import ExperimentError
from experiments.common.runner import RunnerOptions
from experiments.tournament import play as tournament_play
from experiments.tournament import presets, sizing, stats
from experiments.tournament.play import play_game
from experiments.tournament.schedule import build_tasks, derive_seed, matches

pytestmark = pytest.mark.slow  # end-to-end N-player tournaments: the whole suite, not the fast tier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIG3 = "pig(players=3,winscore=20)"
PIG4 = "pig(players=4,winscore=15)"
MCTS = "mcts(max_simulations=20)"


def config(game: str, bots: list[str], games: int, **extra) -> dict:
    return {
        "program": "experiments.tournament",
        "game": game,
        "bots": bots,
        "schedule": "round_robin",
        "games_per_pair": games,
        "seed": 3,
        "max_moves": 1000,
        **extra,
    }


def run(cfg: dict, out, workers: int = 1, **kwargs) -> tournament.Summary:
    options = RunnerOptions(workers=workers, progress=False, task_timeout=120)
    return tournament.run_tournament(cfg, str(out), options=options, plots=False, **kwargs)


# ---- schedule: matches and seatings ------------------------------------------------------


def test_matches_are_the_tables_of_distinct_bots():
    assert matches(5, 3, "round_robin") == list(itertools.combinations(range(5), 3))
    assert matches(5, 3, "gauntlet") == [(0, *c) for c in itertools.combinations(range(1, 5), 2)]
    assert matches(4, 4, "round_robin") == matches(4, 4, "gauntlet") == [(0, 1, 2, 3)]
    with pytest.raises(ValueError, match="unknown schedule"):
        matches(4, 3, "swiss")


@pytest.mark.parametrize(
    "players, seating, per_deal",
    [(3, "rotations", 3), (4, "rotations", 4), (3, "permutations", 6), (4, "permutations", 24)],
)
def test_every_bot_sits_in_every_seat_once_per_deal(players, seating, per_deal):
    specs = [f"random(seed={b})" for b in range(players + 1)]  # one more bot than seats
    tasks = build_tasks(
        "g", specs, players, "round_robin", 2 * per_deal, 0, 9, [True] * len(specs), seating
    )
    assert len(tasks) == math.comb(players + 1, players) * 2 * per_deal
    deals: dict[tuple, list] = {}
    for t in tasks:
        assert sorted(t.bot_index) == list(t.pairing)  # the match's bots, reseated
        assert t.seating == t.game_index % per_deal and t.deal == t.game_index // per_deal
        deals.setdefault((t.pairing, t.deal), []).append(t)
    for games in deals.values():
        assert len(games) == per_deal
        assert len({g.chance_seed for g in games}) == 1  # one chance stream per deal
        assert len({g.bot_index for g in games}) == per_deal  # every seating differs
        for bot in games[0].pairing:
            seats = [g.bot_index.index(bot) for g in games]
            assert sorted(seats) == sorted(list(range(players)) * (per_deal // players))
    assert len({(t.pairing, t.deal) for t in tasks}) == len(
        {t.chance_seed for t in tasks}
    )  # each deal its own dice
    if seating == "permutations":
        assert {g.bot_index for g in games} == set(itertools.permutations(games[0].pairing))


def test_two_player_schedule_and_seeds_are_unchanged():
    """The N-player schedule gives two-player tournaments the games and seeds they always had."""
    specs = ["a", "b", "c"]
    tasks = build_tasks("g", specs, 2, "round_robin", 5, 11, 9, [True, False, True])
    expected = []
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        for k in range(5):
            seats = (i, j) if k % 2 == 0 else (j, i)
            expected.append(
                (
                    f"{i}v{j}#{k}",
                    seats,
                    k // 2,
                    derive_seed(11, 1, i, j, k // 2),
                    tuple(
                        derive_seed(11, 2, i, j, k, seat) if b != 1 else None
                        for seat, b in enumerate(seats)
                    ),
                )
            )
    got = [(t.id, t.bot_index, t.deal, t.chance_seed, t.bot_seeds) for t in tasks]
    assert got == expected
    record = play_game(
        build_tasks("pig(winscore=10)", ["random"] * 2, 2, "round_robin", 1, 0, 9, [True] * 2)[0]
    )
    assert "pair" in record and "deal" not in record and "seating" not in record


# ---- shared dice ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, specs", [(PIG3, ["random", MCTS, "random"]), ("maedn(players=4)", ["random"] * 4)]
)
def test_the_seatings_of_a_deal_see_the_same_dice(game, specs):
    # Each roll of pig's and maedn's die has the same distribution, so while the games of a
    # deal go on, their k-th rolls must coincide, whatever the bots did.
    n = len(specs)
    tasks = build_tasks(game, specs, n, "round_robin", 2 * n, 5, 1000, [True] * n)
    recs = [play_game(t) for t in tasks]
    for deal in (0, 1):
        games = [r for r in recs if r["deal"] == deal]
        assert len(games) == n and len({tuple(r["bot_index"]) for r in games}) == n
        rolls = [chance_outcomes(r) for r in games]
        k = min(len(c) for c in rolls)
        assert k > 5 and all(c[:k] == rolls[0][:k] for c in rolls)
    assert chance_outcomes(recs[0])[:20] != chance_outcomes(recs[n])[:20]  # deals differ


# ---- interval code -------------------------------------------------------------------------


def test_win_shares_split_ties_at_the_top():
    assert stats.win_shares([1.0, -0.5, -0.5]) == [1.0, 0.0, 0.0]
    assert stats.win_shares([1.0, 1.0, -1.0]) == [0.5, 0.5, 0.0]
    assert stats.win_shares([0.0, 0.0, 0.0, 0.0]) == [0.25] * 4
    assert tournament_play._winner([1.0, 1.0, -1.0]) is None
    assert tournament_play._winner([-1.0, 3.0, -1.0, -1.0]) == 1


def test_t_quantile_matches_the_table():
    # Two-sided 95% points of Student's t (any statistics table).
    table = {1: 12.7062, 2: 4.3027, 4: 2.7764, 6: 2.4469, 10: 2.2281, 30: 2.0423, 1000: 1.9623}
    for df, t in table.items():
        assert stats.t_quantile(df) == pytest.approx(t, abs=1e-4)
    assert stats.t_quantile(9, 0.90) == pytest.approx(1.8331, abs=1e-4)


def test_deal_interval_by_hand():
    # Win rates of five deals, plus pseudo-deals 0 and 1: 0, 7, 7, 14, 7, 0, 21 (/21), mean
    # 8/21; squared deviations (/441) 64, 1, 1, 36, 1, 64, 169 = 336, so the variance is
    # 56/441 and the standard error sqrt(8)/21; t(6) = 2.446912.
    lo, hi = stats.deal_interval([0, 1 / 3, 1 / 3, 2 / 3, 1 / 3], bounds=(0.0, 1.0))
    half = 2.446912 * math.sqrt(8) / 21
    assert (lo, hi) == pytest.approx((8 / 21 - half, 8 / 21 + half), abs=1e-6)
    # Mean returns of five deals, no pseudo-deals: mean 0.1, squared deviations 0.81, 0.36,
    # 0.36, 0.0225, 0.0225 = 1.575, variance 0.39375, standard error sqrt(0.07875); t(4).
    lo, hi = stats.deal_interval([1, -0.5, -0.5, 0.25, 0.25])
    half = 2.776445 * math.sqrt(0.07875)
    assert (lo, hi) == pytest.approx((0.1 - half, 0.1 + half), abs=1e-6)
    assert all(math.isnan(x) for x in stats.deal_interval([0.5] * 4))
    # Deals that all agree: not a zero-width interval, and never outside [0, 1].
    lo, hi = stats.deal_interval([1.0] * 5, bounds=(0.0, 1.0))
    assert lo < 1.0 and hi == 1.0


def _record(deal: int, seating: int, bot_index, returns, error=None) -> dict:
    return {
        "pairing": [0, 1, 2],
        "deal": deal,
        "seating": seating,
        "bot_index": list(bot_index),
        "returns": None if error else returns,
        "error": error,
        "cut_off": False,
    }


def test_player_stats_by_hand():
    rot = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    recs = []
    # Deals 0-4: the seat 0 player wins (1, -0.5, -0.5); deal 5 is incomplete (one error).
    for deal in range(5):
        for s, seats in enumerate(rot):
            recs.append(_record(deal, s, seats, [1.0, -0.5, -0.5]))
    recs.append(_record(5, 0, rot[0], [1.0, 1.0, -2.0]))  # bots 0 and 1 tie at the top
    recs.append(_record(5, 1, rot[1], None, error="boom"))
    p = stats.player_stats(recs, 0, deal_size=3)
    # Bot 0: 15 games winning a third of them, plus the tie's half.
    assert p["games"] == 16 and p["wins"] == 5.5 and p["win_rate"] == 5.5 / 16
    assert (p["win_lo"], p["win_hi"]) == stats.wilson_interval(5.5, 16)
    assert p["errors"] == 1 and p["deals"] == 5 and p["seat_games"] == [6, 5, 5]
    assert p["seat_win_rate"] == [5.5 / 6, 0.0, 0.0]
    assert p["mean_return"] == pytest.approx((5 * 0.0 + 1.0) / 16)
    # Every complete deal: win rate 1/3 and mean return 0 for each bot.
    assert (p["deal_win_lo"], p["deal_win_hi"]) == stats.deal_interval([1 / 3] * 5, (0.0, 1.0))
    assert (p["return_lo"], p["return_hi"]) == (0.0, 0.0)
    m = stats.ahead_matrix(recs, 3)
    # Bot 0 against bot 1, 16 games: ahead in 5 (seat 0), behind in 5 (bot 1 in seat 0),
    # equal in 5 (both -0.5), equal in the tie: (5 + 6 * 0.5) / 16.
    assert m[0, 1] == pytest.approx(8 / 16) and math.isnan(m[0, 0])
    seats = stats.seat_stats(recs, 3)
    assert seats[0]["games"] == 16 and seats[0]["win_rate"] == pytest.approx(15.5 / 16)


# ---- whole tournaments ---------------------------------------------------------------------


def test_three_players_end_to_end_with_one_worker_and_two(tmp_path):
    cfg = config(PIG3, ["random", MCTS, "random"], 9)
    one = run(cfg, tmp_path / "one", workers=1)
    two = run(cfg, tmp_path / "two", workers=2)
    recs = records(tmp_path / "one")
    assert len(recs) == 9 and all(r["error"] is None for r in recs.values())
    assert without_timing(recs) == without_timing(records(tmp_path / "two"))
    assert [p["games"] for p in one.players] == [9, 9, 9]
    assert all(p["seat_games"] == [3, 3, 3] and p["deals"] == 3 for p in one.players)
    assert one.result_lines() == two.result_lines()
    assert sum(p["wins"] for p in one.players) == pytest.approx(9)
    assert one.headline().startswith("At 3 players an even share of the wins is 0.333: ")
    md = (tmp_path / "one" / "summary.md").read_text()
    for heading in (
        "## Players",
        "## Same tables",
        "## Seats",
        "## Ended ahead",
        "## Search effort",
    ):
        assert heading in md
    assert "## Elo" not in md and "rotations: 3 seatings per deal" in md
    rows = (tmp_path / "one" / "summary.csv").read_text().splitlines()
    assert rows[0] == "section,bot,opponent,seat,metric,value"
    assert any(r.startswith("player,random #0,,all,win_rate,") for r in rows)
    assert any(r.startswith("ahead,random #0,") for r in rows)
    saved = json.loads((tmp_path / "one" / "config.json").read_text())["config"]
    assert saved["seating"] == "rotations" and saved["num_players"] == 3


def test_four_players_end_to_end_with_one_worker_and_two(tmp_path):
    # Five bots at four seats: five matches, every bot in four of them.
    bots = ["random", MCTS, "random", "mcts(max_simulations=10)", "random"]
    cfg = config(PIG4, bots, 4)
    one = run(cfg, tmp_path / "one", workers=1)
    run(cfg, tmp_path / "two", workers=2)
    recs = records(tmp_path / "one")
    assert len(recs) == 20 and without_timing(recs) == without_timing(records(tmp_path / "two"))
    assert {r["id"] for r in recs.values()} == {
        f"{'v'.join(map(str, m))}#{k}"
        for m in itertools.combinations(range(5), 4)
        for k in range(4)
    }
    assert [p["games"] for p in one.players] == [16] * 5
    assert all(p["seat_games"] == [4, 4, 4, 4] for p in one.players)
    # All 24 seatings of a deal, with permutations (the schedule's property: random bots).
    perm = run(config(PIG4, ["random"] * 4, 24, seating="permutations"), tmp_path / "perm")
    assert [p["seat_games"] for p in perm.players] == [[6, 6, 6, 6]] * 4


def test_study_presets_run_with_mcts_and_random_in_place_of_the_search_bots(tmp_path):
    for p in presets.PRESETS.values():
        cfg = p.config()
        assert cfg["games_per_pair"] % p.deal_size == 0 and len(cfg["bots"]) == len(p.bots)
        tables = matches(len(p.bots), p.players, cfg["schedule"])
        assert p.games == cfg["games_per_pair"] * len(tables)
        assert pyspiel.load_game(cfg["game"]).num_players() == p.players
    # The search bots take more than two players once N-player search lands; the schedule,
    # seatings and summary are exercised here with bots that play any number of players.
    p = presets.preset("pig3")
    cfg = dict(p.config(), bots=["mcts(max_simulations=5)", "random", MCTS, "random"])
    summary = tournament.run_tournament(
        cfg,
        str(tmp_path),
        options=RunnerOptions(workers=1, progress=False),
        plots=False,
        limit=6,
    )
    assert summary.n_games == 6 and summary.deal_size == 3
    with pytest.raises(ValueError, match="unknown preset"):
        presets.preset("nope")


@pytest.mark.parametrize("name", sorted(presets.PRESETS))
def test_the_study_bots_build_for_every_seat_once_search_takes_n_players(name):
    p = presets.preset(name)
    game = pyspiel.load_game(p.game)
    try:
        tournament.validate_bots(list(p.bots), game)
    except ExperimentError as error:
        if "players" not in str(error) and "multiplayer" not in str(error):
            raise
        pytest.skip(f"this checkout's search bots do not play {p.game}: {error}")


def test_the_docs_state_each_preset_as_presets_py_sizes_it():
    page = open(os.path.join(ROOT, "docs", "guide", "tournaments.md")).read()
    for p in presets.PRESETS.values():
        row = next(line for line in page.splitlines() if line.startswith(f"| `{p.name}` |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == f"`{p.game}`" and cells[2] == p.seating
        assert cells[4].startswith(f"{p.games} ({p.deals} deals of {p.deal_size}")
        assert cells[5] == f"{p.worker_hours / 2:.1f}"
        assert f"--preset={p.name} --workers=2" in page


def test_a_preset_refuses_the_flags_it_sets():
    done = subprocess.run(
        [sys.executable, "-m", "experiments.tournament", "--preset=pig3", "--game=pig"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "--preset=pig3 sets --game itself" in done.stderr


def test_bad_n_player_configurations_are_refused(tmp_path):
    with pytest.raises(ExperimentError, match="needs at least 4 --bot flags, got 3"):
        run(config(PIG4, ["random"] * 3, 4), tmp_path)
    with pytest.raises(ExperimentError, match=r"multiple of 3, e\.g\. 3 or 6"):
        run(config(PIG3, ["random"] * 3, 4), tmp_path)
    with pytest.raises(ExperimentError, match="unknown seating"):
        run(config(PIG3, ["random"] * 3, 3, seating="shuffled"), tmp_path)


# ---- resume after a fault -------------------------------------------------------------------


def test_a_run_interrupted_mid_game_resumes_with_the_finished_games_kept(tmp_path, monkeypatch):
    cfg = config(PIG3, ["random", MCTS, "random"], 9)
    run(cfg, tmp_path / "clean")
    reference = without_timing(records(tmp_path / "clean"))
    real_create = tournament_play.create_bot
    tasks = build_tasks(PIG3, cfg["bots"], 3, "round_robin", 9, 3, 1000, [True] * 3)
    game_seeds = {seed for t in tasks for seed in t.bot_seeds}
    doomed = next(t for t in tasks if t.id == "0v1v2#5")

    class Crash(pyspiel.Bot):
        """Interrupts the whole run (as Ctrl-C or a crash would) in its first move."""

        def step(self, state):
            raise KeyboardInterrupt

        def restart_at(self, state):
            pass

    def create(spec, game, player_id, seed):
        if seed == doomed.bot_seeds[0] and player_id == 0:
            return Crash()
        return real_create(spec, game, player_id, seed)

    monkeypatch.setattr(tournament_play, "create_bot", create)
    with pytest.raises(KeyboardInterrupt):
        run(cfg, tmp_path / "faulty")
    kept = records(tmp_path / "faulty")
    assert sorted(kept) == [f"0v1v2#{k}" for k in range(5)]
    played = []
    monkeypatch.setattr(
        tournament_play, "create_bot", lambda *a: played.append(a[3]) or real_create(*a)
    )
    run(cfg, tmp_path / "faulty")
    assert len([seed for seed in played if seed in game_seeds]) == 4 * 3  # 4 games, 3 seats
    final = records(tmp_path / "faulty")
    assert without_timing(final) == reference
    assert all(final[k] == kept[k] for k in kept)  # finished games untouched, timing included


def test_a_killed_two_worker_run_resumes_only_the_missing_games(tmp_path):
    out = tmp_path / "run"
    args = [
        sys.executable,
        "-m",
        "experiments.tournament",
        f"--game={PIG3}",
        "--bot=random",
        "--bot=mcts(max_simulations=300)",
        "--bot=mcts(max_simulations=100)",
        "--games_per_pair=30",
        "--workers=2",
        "--noplots",
        "--noprogress",
        f"--out={out}",
    ]
    path = out / tournament.RECORDS_FILE
    kill_when_written(args, path, 4, 120, cwd=ROOT)
    before = records(out)
    assert 4 <= len(before) < 30
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"resuming {out}: {len(before)} of 30 games already played" in done.stdout
    after = records(out)
    assert sorted(after) == sorted(f"0v1v2#{k}" for k in range(30))
    assert all(after[k] == before[k] for k in before)
    lines = path.read_text().splitlines()
    assert len([json.loads(line)["id"] for line in lines if line.strip()]) == 30  # no duplicate


# ---- sizing ----------------------------------------------------------------------------------


def test_deals_needed_by_hand():
    # Rates 1/3 +- 0.05: one game's difference has variance 0.38333 + 0.28333 - 0.01 =
    # 0.65667, a deal of 3 seatings 0.21889; (2.801585 * sqrt(0.21889) / 0.1)^2 = 171.7.
    assert sizing.deals_needed(0.1, 3) == 172
    assert sizing.deals_needed(0.1, 3, 6) == 86  # twice the games per deal: half the deals
    assert sizing.deals_needed(0.1, 3, power=0.9) > 172
    assert sizing.deals_needed(0.1, 3, sd=0.3) == math.ceil((2.801585218 * 0.3 / 0.1) ** 2)
    # A random bot that never wins leaves 1/(N-1) to share: more variance, more deals.
    assert sizing.deals_needed(0.08, 4, 24, base=1 / 3) > sizing.deals_needed(0.08, 4, 24)
    with pytest.raises(ValueError):
        sizing.deals_needed(0.0, 3)


def test_deal_sd_measures_the_per_deal_difference():
    rot = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    recs = []
    # Deal 0: bot 0 wins all three games (difference 1); deal 1: bot 1 wins one and bot 2
    # two (difference -1/3).
    for s, seats in enumerate(rot):
        recs.append(_record(0, s, seats, [1.0 if b == 0 else -0.5 for b in seats]))
        winner = 1 if s == 0 else 2
        recs.append(_record(1, s, seats, [1.0 if b == winner else -0.5 for b in seats]))
    assert sizing.deal_sd(recs, 0, 1, 3) == pytest.approx(math.sqrt(2) * (4 / 3) / 2)
    lead = stats.difference_stats(recs, 0, 1, 3)
    assert lead["deals"] == 2 and lead["difference"] == pytest.approx((1 - 1 / 3) / 2)
    assert math.isnan(lead["difference_lo"])  # fewer than 5 deals
    six = [dict(r, deal=r["deal"] + 2 * k) for k in range(3) for r in recs]  # deals 0-5
    lead = stats.difference_stats(six, 0, 1, 3)
    diffs = [1, -1 / 3] * 3
    assert (lead["difference_lo"], lead["difference_hi"]) == stats.deal_interval(diffs)
    with pytest.raises(ValueError, match="two complete deals"):
        sizing.deal_sd(recs[:3], 0, 1, 3)
