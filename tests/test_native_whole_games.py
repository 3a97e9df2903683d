"""Whole games on the native engine, the way users run them: every search bot in every
game in scope, through OpenSpiel's C++ `pyspiel.evaluate_bots` and its Python
`evaluate_bots`, each move checked to come from the native engine."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import bots
import games
from bots import native_engine

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=str(native_engine.problem())
)

# Long games search one ply per move, short ones two: the point is whole games.
GAMES = {
    "backgammon": 1,
    "pig": 2,
    "einstein_wurfelt_nicht": 2,
    "2048(max_tile=64)": 1,
    "yacht": 1,
    "maedn": 1,
    "catch": 2,
    "banqi": 1,
    "dice": 2,
    "chance_tic_tac_toe": 2,
    "ballard_tree(n=3,plies=3,order=random,seed=4)": 2,
}
ALGORITHMS = ["expectiminimax", "star1", "star2", "chanceprobcut", "mcms"]


class _Checked(pyspiel.Bot):
    """A bot that records which engine ran each of its moves."""

    def __init__(self, bot: pyspiel.Bot):
        pyspiel.Bot.__init__(self)
        self.bot, self.engines = bot, set()

    def step(self, state: pyspiel.State) -> int:
        action = self.bot.step(state)
        self.engines.add(self.bot.last_search["engine"])
        return action

    def restart_at(self, state: pyspiel.State) -> None:
        self.bot.restart_at(state)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("game_string", sorted(GAMES))
def test_whole_game_on_the_native_engine(game_string, algorithm):
    # chanceprobcut: committed calibrations, else a self-calibration (conftest's tiny plan).
    game = pyspiel.load_game(game_string)
    depth = GAMES[game_string]
    spec = f"{algorithm}(max_depth={depth})"
    players = [
        _Checked(bots.make_bot(spec, game, p, engine="native")) for p in range(game.num_players())
    ]
    if sorted(GAMES).index(game_string) % 2:
        returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 11)
    else:
        returns = evaluate_bots(game.new_initial_state(), players, np.random.RandomState(11))
    assert len(returns) == game.num_players()
    assert all(p.engines == {"native"} for p in players if p.engines)
    assert any(p.engines for p in players)


def test_a_python_registered_game_plays_whole_on_the_native_engine():
    game = games.python_game("chance_tic_tac_toe")  # its states are Python objects
    players = [
        _Checked(bots.make_bot("star2(max_depth=3)", game, p, engine="native")) for p in (0, 1)
    ]
    returns = evaluate_bots(game.new_initial_state(), players, np.random.RandomState(2))
    assert returns[0] == -returns[1] and {e for p in players for e in p.engines} == {"native"}
