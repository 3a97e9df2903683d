"""The exact algorithms agree with plain expectiminimax on the custom games, on both engines."""

from __future__ import annotations

import pyspiel
import pytest
from plain_expectiminimax import plain_expectiminimax, sample_positions

import games  # noqa: F401  registers the custom games
from bots.evaluators import default_evaluator
from bots.search import search

CONFIGS = [("expectiminimax", 0), ("star1", 0), ("star2", 0), ("star2", 100_000)]


@pytest.mark.parametrize(
    "game_string, depths, positions",
    [
        ("dice(n=4,k=3)", (1, 2, 3), 6),
        ("dice(n=5,k=4)", (1, 2), 4),
        ("chance_tic_tac_toe", (1, 2, 3), 6),
        ("ballard_tree(n=4,plies=3,order=random,seed=3)", (1, 2, 3), 1),
    ],
)
def test_exact_algorithms_match_plain_on_custom_games(game_string, depths, positions, engine):
    game = pyspiel.load_game(game_string)
    evaluator = default_evaluator(game)
    states = sample_positions(game, positions, 11, 6)
    assert states
    for state in states:
        player = state.current_player()
        for depth in depths:
            expected = plain_expectiminimax(state, depth, evaluator, player).value
            for algorithm, tt_size in CONFIGS:
                result = search(
                    game,
                    state,
                    algorithm,
                    depth,
                    evaluator=evaluator,
                    tt_size=tt_size,
                    player=player,
                    engine=engine,
                )
                assert result.engine == engine
                assert abs(result.value - expected) <= 1e-9, (
                    game_string,
                    depth,
                    algorithm,
                    tt_size,
                    engine,
                )
