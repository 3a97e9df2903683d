"""The search engines on Can't Stop's C++ twin (games/native/cant_stop.cc) and on the
Python game: expectiminimax, star2 and MCMS must return the same values, moves and
counters on both engines and both games, at 2, 3 and 4 players. (The twin against the
Python game step by step: tests/test_native_games.py.) Skipped where the native engine
is not built or ``STARSPIEL_ENGINE=python`` is set.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from helpers.exactness import deepen, deepening_differences
from helpers.playouts import random_action, replay
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import bots
from bots import native_engine
from games.cant_stop import CantStopGame

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=f"engine=native: {native_engine.problem()}"
)


def _games(params: dict[str, Any]) -> tuple[pyspiel.Game, CantStopGame]:
    cpp = pyspiel.load_game("cant_stop", params)
    assert not isinstance(cpp, CantStopGame), "the Python game is registered"
    return cpp, CantStopGame(params)


def _positions(count: int, seed: int, players: int = 2) -> list[list[int]]:
    """Histories of seeded random play that end at a decision."""
    game = CantStopGame({"players": players})
    rng = random.Random(seed)
    histories = []
    while len(histories) < count:
        state = game.new_initial_state()
        target = rng.randrange(5, 60)
        while not state.is_terminal() and len(state.history()) < target:
            state.apply_action(random_action(state, rng))
        if not state.is_terminal() and not state.is_chance_node():
            histories.append(state.history())
    return histories


@pytest.mark.parametrize(
    "spec, depth, tt_size",
    [
        ("expectiminimax", 3, None),
        ("expectiminimax", 3, 0),
        ("star1", 3, 0),
        ("star2", 4, None),
        ("star2", 3, 0),
        ("mcms(samples=5,seed=3)", 4, None),
        ("mcms(samples=5,seed=3)", 4, 0),
    ],
)
def test_engines_and_games_agree_on_every_counter(spec, depth, tt_size):
    """The Python engine on the Python game is the reference; the native engine on the
    C++ twin, and each engine on the other's game, must match it counter for counter."""
    cpp_game, py_game = _games({})
    options = {} if tt_size is None else {"tt_size": tt_size}
    for history in _positions(3, 11):
        where = f"{spec} tt_size={tt_size} after {history}"
        reference = deepen(py_game, replay(py_game, history), spec, depth, "python", **options)
        assert reference["stats"]["nodes"] > 50, where
        for game, engine in ((cpp_game, "native"), (cpp_game, "python"), (py_game, "native")):
            other = deepen(game, replay(game, history), spec, depth, engine, **options)
            differences = deepening_differences(reference, other)
            assert not differences, f"{where}, {engine} on {type(game).__name__}: {differences}"


@pytest.mark.parametrize("engine", ["python", "native"])
def test_whole_two_player_games_of_star2_against_random_and_mcts(engine):
    game = pyspiel.load_game("cant_stop")
    star2 = bots.make_bot("star2(max_depth=2)", game, 0, engine=engine)
    opponents = [
        bots.make_bot("random", game, 1, seed=3),
        bots.make_bot("mcts(evaluator=heuristic,max_simulations=50)", game, 1),
    ]
    for index, opponent in enumerate(opponents):
        seats = [star2, opponent]
        if index:
            returns = pyspiel.evaluate_bots(game.new_initial_state(), seats, 5)
        else:
            returns = evaluate_bots(game.new_initial_state(), seats, np.random.RandomState(5))
        assert sorted(returns) == [-1.0, 1.0]
        assert star2.last_search["engine"] == engine


@pytest.mark.parametrize("spec", ["star2", "star2(multiplayer=maxn)", "mcms(samples=4,seed=1)"])
@pytest.mark.parametrize("players", [3, 4])
def test_engines_agree_with_three_and_four_players(spec, players):
    """Paranoid and max^n read the evaluator's vectors (in bounds, summing to 0): the native
    engine on the C++ twin matches the Python engine on the Python game."""
    cpp_game, py_game = _games({"players": players})
    for history in _positions(2, players, players):
        reference = deepen(py_game, replay(py_game, history), spec, 2, "python")
        other = deepen(cpp_game, replay(cpp_game, history), spec, 2, "native")
        differences = deepening_differences(reference, other)
        assert not differences, f"{spec} after {history}: {differences}"
