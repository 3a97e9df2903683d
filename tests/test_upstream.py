"""Known faults of OpenSpiel's games are found by playing them, and said in one line where
they change a result: a warning from make_bot, a refusal from a tournament."""

from __future__ import annotations

import random
import warnings

import pyspiel
import pytest
from helpers.playouts import random_game

import bots
from experiments import tournament
from experiments.common.errors import ExperimentError
from games import UpstreamGameWarning, upstream_problem

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
    with pytest.warns(UpstreamGameWarning, match="hyper-backgammon"):
        bots.make_bot("star2(max_depth=1)", game, 0)
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


def test_make_bot_is_silent_in_a_sound_game():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UpstreamGameWarning)
        bots.make_bot("star2(max_depth=1)", "backgammon", 0)
