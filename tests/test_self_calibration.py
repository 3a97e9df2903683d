"""ChanceProbCut's self-calibration (bots/calibration.py, bots/calibration_fit.py): a game
without a calibration is fitted on first use and cached per user; the cache is read on
later uses, replaced when corrupt, keyed by what changes the fit; the committed and the
user's files come first; ``STARSPIEL_SELF_CALIBRATION=off`` restores the refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest
from conftest import TINY_PLAN

import games  # registers dice, chance_tic_tac_toe
from bots import calibration, calibration_fit, make_bot, native_engine

SMALL = "dice(n=4,k=3)"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty user folder for this test alone."""
    folder = tmp_path / "calibrations"
    monkeypatch.setattr(calibration, "user_calibration_dir", lambda: str(folder))
    monkeypatch.delenv(calibration.SELF_CALIBRATION_ENV, raising=False)
    return folder


@pytest.fixture
def fits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games quick_fit was called for."""
    called: list[str] = []
    real = calibration_fit.quick_fit

    def counting(game, evaluator, plan, **kwargs):
        called.append(str(game))
        return real(game, evaluator, plan, **kwargs)

    monkeypatch.setattr(calibration_fit, "quick_fit", counting)
    return called


def test_first_use_fits_and_caches_second_use_reads_the_cache(cache, fits, capsys):
    game = pyspiel.load_game(SMALL)
    first = make_bot("chanceprobcut(max_depth=3)", game, 0).searcher.probcut
    assert fits == [str(game)]
    [path] = cache.glob("auto-*.json")
    assert path.name.startswith("auto-dice_k_3_n_4-default-")
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "self-calibrating for 'dice(k=3,n=4)'" in lines[0]
    assert f"cached in {path}" in lines[0] and " s CPU" in lines[0]
    data = json.loads(path.read_text())
    assert data["key"] == calibration.self_calibration_key(game, None, TINY_PLAN)
    assert data["models"] and data["symmetrized"]
    stamp = path.stat().st_mtime_ns
    second = make_bot("chanceprobcut(max_depth=3)", game, 1).searcher.probcut
    assert fits == [str(game)]  # no refit
    assert path.stat().st_mtime_ns == stamp and capsys.readouterr().err == ""
    assert second.native_models() == first.native_models()
    assert first.reduction == 2  # R=2 where the fit has it, as for committed files
    assert not list(cache.glob(".tmp-*"))  # the write went through a renamed temp file


def test_make_bot_fits_nothing_the_first_search_does(cache, fits, capsys):
    game = pyspiel.load_game(SMALL)
    bot = make_bot("chanceprobcut(max_depth=2)", game, 0)
    assert fits == [] and not cache.exists() and capsys.readouterr().err == ""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot.step(state)
    assert fits == [str(game)] and list(cache.glob("auto-*.json"))
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "at its first search" in line and "self-calibrated" in line
    with pytest.raises(ValueError, match="tt_size"):  # the options are checked in make_bot
        make_bot("chanceprobcut(max_depth=2,tt_size=-1)", pyspiel.load_game("dice(n=4,k=4)"), 0)


def test_the_key_holds_the_evaluator_and_the_plan(cache, fits):
    game = pyspiel.load_game(SMALL)
    paths = {
        calibration.self_calibration_path(game, None, TINY_PLAN),
        calibration.self_calibration_path(game, "zero", TINY_PLAN),
        calibration.self_calibration_path(game, None, calibration_fit.QuickPlan(positions=5)),
        calibration.self_calibration_path(pyspiel.load_game("dice(n=4,k=4)"), None, TINY_PLAN),
    }
    assert len(paths) == 4
    # The spelling of the game and "default" for no evaluator change nothing.
    assert calibration.self_calibration_path(
        pyspiel.load_game("dice(k=3,n=4)"), "default", TINY_PLAN
    ) == calibration.self_calibration_path(game, None, TINY_PLAN)
    # The engine picks the budget: a Python game's fit runs on the Python engine.
    python_game = games.python_game(SMALL)
    assert calibration.self_calibration_key(python_game, None, TINY_PLAN)["engine"] == "python"
    if native_engine.problem() is None:
        assert calibration.self_calibration_key(game, None, TINY_PLAN)["engine"] == "native"
        assert calibration.self_calibration_path(python_game, None, TINY_PLAN) not in paths
    for spec in ("chanceprobcut(max_depth=2)", "chanceprobcut(max_depth=2,evaluator=zero)"):
        assert make_bot(spec, game, 0).searcher is not None  # the first use fits
    assert len(fits) == 2 and len(list(cache.glob("auto-*.json"))) == 2


def test_a_corrupt_cache_file_is_fitted_again_and_replaced(cache, fits, capsys):
    game = pyspiel.load_game(SMALL)
    path = Path(calibration.self_calibration_path(game, None, TINY_PLAN))
    path.parent.mkdir(parents=True)
    for broken in ('{"models": [', json.dumps({"models": [], "key": "another"})):
        path.write_text(broken)
        settings = make_bot("chanceprobcut(max_depth=2)", game, 0).searcher.probcut
        assert settings.models
        err = capsys.readouterr().err
        assert f"replacing the cached calibration {path}" in err and "self-calibrated" in err
        assert json.loads(path.read_text())["key"] == calibration.self_calibration_key(
            game, None, TINY_PLAN
        )
    assert len(fits) == 2


def test_committed_and_named_calibrations_come_first(cache, fits, tmp_path):
    pig = pyspiel.load_game("pig")
    file = os.path.join(calibration.CALIBRATION_DIR, calibration.calibration_filename(pig))
    committed = calibration.probcut_settings(pig, None, 0.5, file)
    assert make_bot("chanceprobcut(max_depth=2)", pig, 0).searcher.probcut.models == (
        committed.models
    )
    # A file the bot is named wins over the self-calibration, and no fit is made.
    game = pyspiel.load_game(SMALL)
    named = tmp_path / "mine.json"
    calibration.save_calibration(
        str(named),
        {
            "game": calibration.canonical_game_string(game),
            "models": [{"depth": 3, "reduction": 1, "a": 0.5, "b": 0.0, "sigma": 0.2}],
        },
    )
    bot = make_bot("chanceprobcut(max_depth=2)", game, 0, calibration=str(named))
    assert bot.searcher.probcut.models[3].a == 0.5
    assert fits == [] and not cache.exists()


def test_a_committed_calibration_serves_only_its_own_evaluator(cache, fits, monkeypatch):
    # pig's committed file fits the hand evaluator; a learned model's bot fits its own.
    pig = pyspiel.load_game("pig")
    assert not calibration.fits_on_first_use(pig)
    assert calibration.fits_on_first_use(pig, evaluator="learned")
    monkeypatch.setenv(calibration.SELF_CALIBRATION_ENV, "off")
    with pytest.raises(ValueError, match="with evaluator 'learned'") as error:
        make_bot("chanceprobcut(max_depth=2,evaluator=learned)", pig, 0)
    assert "--evaluator=learned" in str(error.value)
    make_bot("chanceprobcut(max_depth=2)", pig, 0)  # the hand evaluator's file still serves
    assert fits == []


def test_off_restores_the_refusal(cache, fits, monkeypatch):
    monkeypatch.setenv(calibration.SELF_CALIBRATION_ENV, "off")
    game = pyspiel.load_game("catch")
    with pytest.raises(ValueError, match="self-calibration is off") as error:
        make_bot("chanceprobcut(max_depth=2)", game, 0)
    assert "python -m experiments.probcut.calibrate --game='catch()'" in str(error.value)
    if native_engine.problem() is None:  # OpenSpiel's registry builds the same bot
        with pytest.raises(pyspiel.SpielError, match="no ChanceProbCut calibration for game"):
            pyspiel.load_bot("starspiel_chanceprobcut", game, 0, {})
        # The registry answers from the GameType (bots.factory.can_play_game): building
        # the bot is what finds the calibration missing.
        assert "starspiel_chanceprobcut" in pyspiel.bots_that_can_play_game(game, 0)
    assert fits == []
    monkeypatch.setenv(calibration.SELF_CALIBRATION_ENV, "maybe")
    with pytest.raises(ValueError, match="accepted on"):
        make_bot("chanceprobcut(max_depth=2)", game, 0)


def test_a_game_without_chance_nodes_to_sample_never_prunes(cache, engine):
    # catch draws the ball's column before the first move: a search meets no chance node.
    game = pyspiel.load_game("catch")
    path, data = calibration.self_calibration(game)
    assert data["models"] == [] and data["chance_nodes"] == 0
    spec = "chanceprobcut(max_depth=4)"
    returns = pyspiel.evaluate_bots(
        game.new_initial_state(), [make_bot(spec, game, 0, engine=engine)], 3
    )
    assert len(returns) == 1
    # It searches exactly as star2 does, node for node.
    bot = make_bot(spec, game, 0, engine=engine)
    star2 = make_bot("star2(max_depth=4)", game, 0, engine=engine)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[2][0])
    for searcher in (bot, star2):
        searcher.step(state)
    assert bot.last_search["value"] == star2.last_search["value"]
    assert bot.last_search["nodes"] == star2.last_search["nodes"]


@pytest.mark.parametrize("game_string", [SMALL, "chance_tic_tac_toe", "2048(max_tile=256)"])
def test_small_games_play_whole_games_self_calibrated(cache, game_string, engine):
    game = pyspiel.load_game(game_string)
    players = [
        make_bot("chanceprobcut(max_depth=2)", game, p, engine=engine)
        for p in range(game.num_players())
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 5)
    assert len(returns) == game.num_players()
    assert players[0].last_search["engine"] == engine


def test_an_unwritable_cache_folder_fits_without_caching(monkeypatch, tmp_path, fits, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(calibration, "user_calibration_dir", lambda: str(blocker / "sub"))
    settings = make_bot("chanceprobcut(max_depth=2)", pyspiel.load_game(SMALL), 0)
    assert settings.searcher.probcut.models and len(fits) == 1
    assert "; not cached: " in capsys.readouterr().err


# A fresh interpreter: the session's fixtures (which move the user folder) do not apply.
CHILD = (
    "import pyspiel, games\n"
    "from bots import calibration, calibration_fit, make_bot\n"
    "calibration_fit.QUICK_PLAN = calibration_fit.QuickPlan(positions=4, max_outcomes=3,"
    " max_depth=3, node_budget=20000, python_node_budget=5000, min_children=4)\n"
    "print(calibration.user_calibration_dir())\n"
    f"make_bot('chanceprobcut(max_depth=2)', pyspiel.load_game('{SMALL}'), 0).searcher\n"
)


def _child_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT))
    env.pop(calibration.SELF_CALIBRATION_ENV, None)
    return env


def _fit_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "self-calibrated" in line]


def test_the_cache_is_in_xdg_cache_home_never_in_the_package(tmp_path):
    before = sorted(os.listdir(calibration.CALIBRATION_DIR))
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=_child_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    folder = tmp_path / "xdg" / "starspiel" / "calibrations"
    assert done.stdout.strip() == str(folder)
    [written] = folder.glob("auto-*.json")
    [line] = _fit_lines(done.stderr)
    assert str(written) in line
    assert sorted(os.listdir(calibration.CALIBRATION_DIR)) == before


def test_concurrent_workers_fit_once_and_share_the_file(tmp_path):
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD],
            env=_child_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    errors = [child.communicate()[1] for child in children]
    assert [child.returncode for child in children] == [0, 0, 0], errors
    # One fits; the others wait on the lock and read its file.
    assert sum(len(_fit_lines(err)) for err in errors) == 1
    folder = tmp_path / "xdg" / "starspiel" / "calibrations"
    [written] = folder.glob("auto-*.json")
    assert json.loads(written.read_text())["models"]
    assert not list(folder.glob(".tmp-*"))


def test_max_n_reads_no_calibration_and_fits_none(cache, fits, monkeypatch):
    """max^n makes no cut at chance nodes: chanceprobcut(multiplayer=maxn) needs no model,
    so it builds with self-calibration off, fits nothing and searches as star2 does."""
    monkeypatch.setenv(calibration.SELF_CALIBRATION_ENV, "off")
    game = pyspiel.load_game("pig(players=3,winscore=12)")
    state = game.new_initial_state()
    found = []
    for name in ("chanceprobcut", "star2"):
        bot = make_bot(f"{name}(max_depth=3,multiplayer=maxn)", game, 0, evaluator="zero")
        bot.step(state)
        found.append((bot.last_search["values"], bot.last_search["nodes"]))
    assert fits == [] and not cache.exists()
    assert found[0] == found[1]
    with pytest.raises(ValueError, match="self-calibration is off"):
        make_bot("chanceprobcut(max_depth=3)", game, 0)  # paranoid cuts at chance nodes


@pytest.mark.parametrize("game_string", [SMALL, "yacht", "cant_stop(players=3)"])
def test_asking_the_registry_builds_no_bot(cache, fits, monkeypatch, game_string):
    """``pyspiel.bots_that_can_play_game`` answers from the GameType: on a game with no
    calibration it fits nothing, writes nothing and searches nothing."""
    if native_engine.problem() is not None:
        pytest.skip(f"native engine unavailable: {native_engine.problem()}")
    from bots import factory

    def no_bot(*args, **kwargs):
        raise AssertionError("bots_that_can_play_game built a bot")

    monkeypatch.setattr(factory, "_search_bot", no_bot)
    monkeypatch.setattr(factory, "_mcts_bot", no_bot)
    game = pyspiel.load_game(game_string)
    names = set(pyspiel.bots_that_can_play_game(game, 0))
    expected = {f"starspiel_{name}" for name in factory.BOT_NAMES if name != "gnubg"}
    assert expected <= names
    assert "starspiel_gnubg" not in names  # gnubg plays backgammon only
    assert fits == [] and not cache.exists()
    assert not factory.can_play_game("star2", game, game.num_players())
    assert not factory.can_play_game("star2", pyspiel.load_game("kuhn_poker"), 0)
    assert factory.can_play_game("mcts", pyspiel.load_game("kuhn_poker"), 0)
    assert factory.can_play_game("mcts", pyspiel.load_game("2048"), 0)  # TerminalReturnsView
    assert not factory.can_play_game("mcts", pyspiel.load_game("matrix_rps"), 0)  # simultaneous


def test_node_reduction_reads_the_calibration_of_its_evaluator(cache, fits, monkeypatch):
    from experiments.node_reduction.search import PositionSearches, StudySettings

    pig = pyspiel.load_game("pig")
    hand = PositionSearches(StudySettings(preset="x")).probcut_for(pig)
    assert hand.models  # the committed file
    monkeypatch.setenv(calibration.SELF_CALIBRATION_ENV, "off")
    learned = PositionSearches(StudySettings(preset="x", evaluator="learned"))
    with pytest.raises(ValueError, match="with evaluator 'learned'"):
        learned.probcut_for(pig)
    assert fits == []
