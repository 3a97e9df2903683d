"""Known faults of OpenSpiel's games are found by playing them, and said in one line where
they change a result: a warning at a bot's first step (never in make_bot, which plays
nothing), a refusal from a tournament."""

from __future__ import annotations

import random
import warnings

import pyspiel
import pytest
from helpers.playouts import random_game

import bots
from experiments import tournament
from experiments.common.errors import ExperimentError
from games import UpstreamGameWarning, upstream, upstream_problem

HYPER = "backgammon(hyper_backgammon=true)"


def _ends_scored(game: pyspiel.Game, seeds: int = 5) -> bool:
    """Whether any of a few seeded random games ends with a nonzero return."""
    return any(any(random_game(game, random.Random(seed)).returns()) for seed in range(seeds))


def test_hyper_backgammon_is_flagged_exactly_when_its_games_end_unscored():
    game = pyspiel.load_game(HYPER)
    problem = upstream_problem(game)
    assert (problem is None) == _ends_scored(game)
    if problem is not None:
        assert "hyper-backgammon" in problem and "\n" not in problem


@pytest.mark.parametrize("spec", ["backgammon", "pig(winscore=20)", "maedn(players=3)"])
def test_games_that_score_their_ends_are_not_flagged(spec):
    assert upstream_problem(pyspiel.load_game(spec)) is None


def test_make_bot_warns_and_a_tournament_refuses_in_a_flagged_game(tmp_path):
    game = pyspiel.load_game(HYPER)
    problem = upstream_problem(game)
    if problem is None:
        pytest.skip("this OpenSpiel scores hyper-backgammon's games")
    for spec in ("star2(max_depth=1)", "random"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UpstreamGameWarning)
            bot = bots.make_bot(spec, game, 0)  # plays nothing, says nothing
        state = _first_decision(game)
        with pytest.warns(UpstreamGameWarning, match="hyper-backgammon") as said:
            bot.step(state)
        assert len(said) == 1
        with warnings.catch_warnings():
            warnings.simplefilter("error", UpstreamGameWarning)
            bot.step(state)  # once per bot
    cfg = {
        "program": "experiments.tournament",
        "game": HYPER,
        "bots": ["random", "random"],
        "schedule": "round_robin",
        "games_per_pair": 2,
        "seed": 0,
        "max_moves": 1000,
    }
    with pytest.raises(ExperimentError, match="hyper-backgammon"):
        tournament.run_tournament(cfg, str(tmp_path), plots=False)
    assert not any(tmp_path.iterdir())


def test_make_bot_plays_no_game_to_check_one(monkeypatch):
    played: list[str] = []
    monkeypatch.setattr(
        upstream, "_random_game_returns", lambda game: played.append(str(game)) or [1.0, -1.0]
    )
    monkeypatch.setattr(upstream, "_FOUND", {})
    game = pyspiel.load_game(HYPER)
    bot = bots.make_bot("star2(max_depth=1)", game, 0)
    assert played == []
    bot.step(_first_decision(game))
    assert played == [str(game)]


def test_a_bot_is_silent_in_a_sound_game():
    game = pyspiel.load_game("backgammon")
    bot = bots.make_bot("star2(max_depth=1)", game, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UpstreamGameWarning)
        bot.step(_first_decision(game))


def _first_decision(game: pyspiel.Game) -> pyspiel.State:
    """The first decision node of player 0, through the first chance outcomes."""
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state
