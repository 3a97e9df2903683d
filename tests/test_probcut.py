"""ChanceProbCut: calibration fit, calibration files, exactness at huge t, cuts at small t,
legal play on every game in scope, and the calibration tool end to end (tiny settings)."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest
from helpers.playouts import random_action

import games  # noqa: F401  (registers dice)
from bots import make_bot
from bots.calibration import (
    calibration_filename,
    canonical_game_string,
    probcut_settings,
    save_calibration,
)
from bots.search import search
from experiments.probcut.calibrate import (
    calibration_command,
    collect_pairs,
    fit_probcut_model,
    run,
)

COMMAND = "python -m experiments.probcut.calibrate"


def synthetic_calibration(
    path, game, depths=range(2, 8), reductions=(1, 2), a=1.0, b=0.0, sigma=0.05
) -> str:
    models = [
        {"depth": d, "reduction": r, "a": a, "b": b, "sigma": sigma, "r2": 1.0, "samples": 100}
        for r in reductions
        for d in depths
        if d > r
    ]
    save_calibration(
        str(path), {"game": canonical_game_string(game), "evaluator": "default", "models": models}
    )
    return str(path)


def chance_children_positions(game, count, seed, plies=6):
    """Decision states right after a chance event, reached by seeded random play."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and len(found) < count and steps < 200:
            steps += 1
            after_chance = state.is_chance_node()
            state.apply_action(random_action(state, rng))
            if (
                after_chance
                and steps > plies
                and not state.is_terminal()
                and not state.is_chance_node()
                and rng.random() < 0.5
            ):
                found.append(state.clone())
    return found


# ---------------------------------------------------------------- fitting


def test_fit_recovers_synthetic_model():
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, 4000)
    y = 0.8 * x + 0.1 + rng.normal(0, 0.05, x.size)
    fit = fit_probcut_model(list(zip(x, y)))
    assert fit["a"] == pytest.approx(0.8, abs=0.01)
    assert fit["b"] == pytest.approx(0.1, abs=0.005)
    assert fit["sigma"] == pytest.approx(0.05, rel=0.05)
    assert 0.98 < fit["r2"] < 1.0
    assert fit["samples"] == 4000


def test_fit_exact_line_and_degenerate_inputs():
    fit = fit_probcut_model([(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)])
    assert (fit["a"], fit["b"], fit["sigma"], fit["r2"]) == pytest.approx((2.0, 1.0, 0.0, 1.0))
    constant = fit_probcut_model([(0.5, 0.1), (0.5, 0.3), (0.5, 0.2)])
    assert constant["a"] == 0.0 and constant["b"] == pytest.approx(0.2)
    with pytest.raises(ValueError, match="at least 3"):
        fit_probcut_model([(0.0, 0.0), (1.0, 1.0)])
    with pytest.raises(ValueError, match="v_shallow, v_deep"):
        fit_probcut_model([1.0, 2.0, 3.0])


def test_mover_relative_pairs_flip_the_opponents_children():
    records = [
        {
            "children": [
                {"mover": 0, "values": {"1": 0.2, "2": 0.3}},
                {"mover": 1, "values": {"1": 0.4, "2": 0.5}},
                {"mover": -1, "values": {"1": 0.0, "2": 0.0}},
            ]
        }
    ]
    assert collect_pairs(records, 2, 1) == [(0.2, 0.3), (0.4, 0.5), (0.0, 0.0)]
    assert collect_pairs(records, 2, 1, player=0) == [(0.2, 0.3), (-0.4, -0.5)]


# ------------------------------------------------------------------ files


def test_calibration_file_name_ignores_spelling():
    assert calibration_filename("pig") == calibration_filename("pig(winscore=100)")
    assert (
        calibration_filename("dice") == calibration_filename("dice(n=5,k=4)") == "dice_k_4_n_5.json"
    )
    assert calibration_filename("pig") != calibration_filename("pig(winscore=50)")


def test_missing_calibration_names_the_command(tmp_path):
    game = pyspiel.load_game("pig(winscore=37)")
    # A file the bot is given must exist: no self-calibration replaces it.
    with pytest.raises(ValueError, match=COMMAND):
        make_bot("chanceprobcut(max_depth=2)", game, 0, calibration=str(tmp_path / "absent.json"))


def test_bad_calibration_files_are_refused(tmp_path):
    game = pyspiel.load_game("pig")
    path = synthetic_calibration(tmp_path / "r1.json", game, reductions=(1,))
    with pytest.raises(ValueError, match="no models for R=2"):
        probcut_settings(game, 2, 1.5, path)
    wrong_game = synthetic_calibration(tmp_path / "dice.json", pyspiel.load_game("dice"))
    with pytest.raises(ValueError, match="is for game"):
        probcut_settings(game, 1, 1.5, wrong_game)
    negative = synthetic_calibration(tmp_path / "neg.json", game, sigma=-1.0)
    with pytest.raises(ValueError, match="sigma >= 0"):
        probcut_settings(game, 1, 1.5, negative)


# ---------------------------------------------------------------- engine


@pytest.mark.parametrize("game_string,depth", [("dice", 4), ("pig", 5)])
def test_huge_t_returns_exactly_star2(tmp_path, game_string, depth, engine):
    game = pyspiel.load_game(game_string)
    path = synthetic_calibration(tmp_path / "cal.json", game)
    settings = probcut_settings(game, 1, 1e9, path)
    shallow_nodes = 0
    for state in chance_children_positions(game, 4, seed=3):
        exact = search(game, state, "star2", depth, tt_size=100_000, engine=engine)
        pruned = search(
            game, state, "chanceprobcut", depth, tt_size=100_000, probcut=settings, engine=engine
        )
        assert exact.engine == pruned.engine == engine
        assert pruned.value == pytest.approx(exact.value, abs=1e-9)
        shallow_nodes += pruned.stats["probcut_nodes"]
    assert shallow_nodes > 0  # the shallow searches did run

    state = chance_children_positions(game, 1, seed=11)[0]
    player = state.current_player()
    bots = [
        make_bot(f"{name}(max_depth={depth})", game, player, engine=engine, **extra)
        for name, extra in (("star2", {}), ("chanceprobcut", {"t": 1e9, "calibration": path}))
    ]
    for bot in bots:
        bot.step(state)
    assert bots[1].last_search["value"] == pytest.approx(bots[0].last_search["value"], abs=1e-9)


def test_small_t_cuts(tmp_path, engine):
    game = pyspiel.load_game("dice")
    path = synthetic_calibration(tmp_path / "cal.json", game, sigma=0.02)
    counters = {}
    for t in (1e9, 0.1):
        settings = probcut_settings(game, 1, t, path)
        totals = {"cutoffs_probcut": 0, "nodes": 0}
        for state in chance_children_positions(game, 4, seed=5):
            stats = search(
                game, state, "chanceprobcut", 4, tt_size=100_000, probcut=settings, engine=engine
            ).stats
            for key in totals:
                totals[key] += stats[key]
        counters[t] = totals
    assert counters[0.1]["cutoffs_probcut"] > counters[1e9]["cutoffs_probcut"]
    assert counters[0.1]["nodes"] < counters[1e9]["nodes"]


SCOPE = [
    "backgammon",
    "backgammon(hyper_backgammon=true)",
    "pig",
    "einstein_wurfelt_nicht",
    "2048",
    "2048(max_tile=256)",
    "yacht",
    "maedn(players=2)",
    "catch",
    "banqi",
    "dice",
    "dice(n=4,k=3)",
    "chance_tic_tac_toe",
]


@pytest.mark.parametrize("game_string", SCOPE)
def test_plays_legal_moves_everywhere(tmp_path, game_string, engine):
    # Where no calibration is committed, the bot calibrates itself (conftest: a tiny plan).
    game = pyspiel.load_game(game_string)
    bots = [
        make_bot("chanceprobcut(max_depth=3,time_limit=0.1)", game, p, seed=p, engine=engine)
        for p in range(game.num_players())
    ]
    rng = random.Random(0)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        assert bots[player].last_search["engine"] == engine
        state.apply_action(action)
        moves += 1
    assert moves > 0


# ------------------------------------------------------------------ tool


def test_calibration_tool_end_to_end(tmp_path):
    out = tmp_path / "run"
    kwargs = dict(
        depths=[2], reductions=[1], seed=1, out=str(out), plots=False, verbose=False, max_outcomes=3
    )
    data = run("pig", positions=3, **kwargs)
    assert [(m["depth"], m["reduction"]) for m in data["models"]] == [(2, 1)]
    assert data["symmetrized"] and abs(data["models"][0]["b"]) < 1e-12
    assert data["positions"] == 3
    # The recorded command reproduces the sample: every setting that changes it is named.
    assert data["command"] == (
        "python -m experiments.probcut.calibrate --game='pig' --depths=2 --reduction=1 "
        "--positions=3 --seed=1 --plies=0-30 --max_outcomes=3"
    )
    first = out.joinpath("positions.jsonl").read_text().splitlines()
    # Resuming with more positions keeps the first records and extends the same sample.
    again = run("pig", positions=4, **kwargs)
    lines = out.joinpath("positions.jsonl").read_text().splitlines()
    assert lines[:3] == first and len(lines) == 4 and again["positions"] == 4
    game = pyspiel.load_game("pig")
    settings = probcut_settings(game, 1, 1.5, str(out / "calibration.json"))
    assert set(settings.models) == {2}
    bot = make_bot("chanceprobcut(max_depth=3)", game, 0, calibration=str(out / "calibration.json"))
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()
    with open(out / "calibration.json") as handle:
        assert json.load(handle)["game"] == canonical_game_string(game)


def test_node_reduction_comparison_table(tmp_path):
    from experiments.probcut.evaluate import node_reduction_comparison

    rows = []
    for position, (base_nodes, cpc_nodes, cpc_action) in enumerate([(100, 60, 1), (200, 100, 2)]):
        for algorithm, nodes, action, value in (
            ("star2_tt", base_nodes, 1, 0.5),
            ("chanceprobcut", cpc_nodes, cpc_action, 0.4),
        ):
            rows.append(
                {
                    "id": f"{position}{algorithm}",
                    "case": "depth=4",
                    "depth": 4,
                    "position": f"p{position}",
                    "algorithm": algorithm,
                    "status": "ok",
                    "game": "dice",
                    "nodes": nodes,
                    "action": action,
                    "value": value,
                    "cutoffs_probcut": 1,
                }
            )
    tmp_path.joinpath("results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = node_reduction_comparison(str(tmp_path))
    assert "| 4 | 2 | 300 | 160 | 46.7% | 1/2 | 0.1000 | 2 |" in table


def _without_timing(path) -> dict:
    records = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        record.pop("time", None)
        records[record["id"]] = record
    return records


def test_calibration_command_names_every_setting_that_changes_the_fit():
    command = calibration_command(
        "dice(n=4,k=3)",
        [2, 3],
        [1, 2],
        10,
        5,
        (2, 20),
        evaluator="fallback",
        player=1,
        max_outcomes=0,
        symmetrize=False,
    )
    assert command == (
        "python -m experiments.probcut.calibrate --game='dice(n=4,k=3)' --depths=2,3 "
        "--reduction=1,2 --positions=10 --seed=5 --plies=2-20 --evaluator=fallback --player=1 "
        "--nosymmetrize"
    )


def test_the_bot_uses_t_05_where_r_is_2_and_a_spec_still_wins():
    # Per-game default (bots/factory.py GAME_DEFAULTS): t=0.5 in dice, einstein and pig,
    # whose calibrations have R=2; backgammon (R=1 only) keeps 1.5.
    for game_string, want_t, want_r in (
        ("dice(n=5,k=4)", 0.5, 2),
        ("einstein_wurfelt_nicht", 0.5, 2),
        ("pig", 0.5, 2),
        ("backgammon", 1.5, 1),
    ):
        game = pyspiel.load_game(game_string)
        settings = make_bot("chanceprobcut(max_depth=2)", game, 0).searcher.probcut
        assert (settings.t, settings.reduction) == (want_t, want_r), game_string
        spec = "chanceprobcut(max_depth=2,t=1.5)"
        assert make_bot(spec, game, 0).searcher.probcut.t == 1.5
    # star2 and the other bots take no t at all.
    with pytest.raises(ValueError, match="unknown parameter"):
        make_bot("star2(t=0.5)", pyspiel.load_game("pig"), 0)
