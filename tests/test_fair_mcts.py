"""The fair MCTS, ``mcts(evaluator=heuristic)``: OpenSpiel's MCTS valuing its leaves with
the game's heuristic, the evaluator the search bots use (docs/guide/bots.md, "MCTS and random")."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from helpers.games_in_scope import GAMES_IN_SCOPE
from helpers.playouts import numpy_random_action
from open_spiel.python.algorithms import mcts as os_mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import bots
import games
from bots import mcts, native_engine
from bots.evaluators.registry import default_evaluator

pytestmark = pytest.mark.parity  # engine parity and golden values: every supported Python

# Every game in scope with terminal rewards; 2048's MCTS is OpenSpiel's Python one (test_mcts.py).
GAMES = [g for g in GAMES_IN_SCOPE if not g.startswith("2048")] + ["ballard_tree(n=3,plies=4)"]
PYTHON_TWINS = ["dice(n=4,k=3)", "chance_tic_tac_toe", "ballard_tree(n=3,plies=4)"]
FAIR = "mcts(evaluator=heuristic,max_simulations=20,seed=1)"


def _players(game: pyspiel.Game, spec: str = FAIR) -> list[pyspiel.Bot]:
    players = [bots.make_bot(spec, game, 0)]
    if game.num_players() == 2:
        players.append(bots.make_bot("random(seed=2)", game, 1))
    return players


def _check_returns(game: pyspiel.Game, returns) -> None:
    assert len(returns) == game.num_players()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def _native_expected() -> bool:
    return native_engine.native() is not None


@pytest.mark.parametrize("game_string", GAMES)
def test_fair_mcts_plays_whole_games_through_both_evaluate_bots(game_string):
    game = pyspiel.load_game(game_string)
    players = _players(game)
    fair = players[0]
    assert fair.evaluator_name == "heuristic"
    if _native_expected() and not mcts.is_python_game(game):
        assert fair.implementation == mcts.CPP
    _check_returns(game, pyspiel.evaluate_bots(game.new_initial_state(), players, 3))
    players = _players(game)
    _check_returns(game, evaluate_bots(game.new_initial_state(), players, np.random.RandomState(4)))


@pytest.mark.parametrize("game_string", PYTHON_TWINS)
def test_fair_mcts_on_python_games_is_openspiels_python_mcts_with_the_python_heuristic(
    game_string,
):
    game = games.python_game(game_string)
    players = _players(game)
    fair = players[0]
    assert fair.implementation == mcts.PYTHON
    assert isinstance(fair, os_mcts.MCTSBot)
    assert type(fair.evaluator) is type(default_evaluator(game))
    _check_returns(game, pyspiel.evaluate_bots(game.new_initial_state(), players, 5))
    players = _players(game)
    _check_returns(game, evaluate_bots(game.new_initial_state(), players, np.random.RandomState(6)))


def _after_chance(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A decision state a few random moves in."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(8):
        if not state.is_terminal():
            state.apply_action(numpy_random_action(state, rng))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.skipif(not _native_expected(), reason="the native engine is not built")
@pytest.mark.parametrize(
    "game_string", ["pig", "einstein_wurfelt_nicht", "backgammon", "dice", "yacht"]
)
def test_native_fair_mcts_values_each_leaf_with_the_python_heuristic(game_string):
    """With one simulation per root child, each child's reward is its heuristic value."""
    game = pyspiel.load_game(game_string)
    heuristic = default_evaluator(game)
    for seed in range(3):
        state = _after_chance(game, seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        simulations = len(state.legal_actions()) + 1  # the root, then each child once
        spec = f"mcts(evaluator=heuristic,max_simulations={simulations},solve=false)"
        root = bots.make_bot(spec, game, player).mcts_search(state)
        assert sorted(c.action for c in root.children) == state.legal_actions()
        for child in root.children:
            assert child.explore_count == 1
            after = state.child(child.action)
            expected = (
                after.returns()[player]
                if after.is_terminal()
                else heuristic.player_value(after, player)
            )
            assert child.total_reward == expected


@pytest.mark.parametrize("game_string", ["pig(winscore=20)", "dice(n=4,k=3)"])
def test_fair_mcts_is_reproducible_from_its_seed(game_string):
    """The same seed grows the same trees; another seed samples other dice."""
    game = pyspiel.load_game(game_string)
    states = [_after_chance(game, seed) for seed in range(6)]
    states = [s for s in states if not s.is_terminal()]

    def trees(seed: int) -> list[list[tuple[int, int, float]]]:
        spec = f"mcts(evaluator=heuristic,max_simulations=60,seed={seed})"
        roots = [bots.make_bot(spec, game, s.current_player()).mcts_search(s) for s in states]
        return [[(c.action, c.explore_count, c.total_reward) for c in r.children] for r in roots]

    assert trees(7) == trees(7)
    assert trees(7) != trees(8)


def test_fair_mcts_refuses_an_unknown_evaluator_clearly():
    with pytest.raises(ValueError, match="unknown evaluator 'zero'; accepted: rollout, heuristic"):
        bots.make_bot("mcts(evaluator=zero)", pyspiel.load_game("pig"), 0)
