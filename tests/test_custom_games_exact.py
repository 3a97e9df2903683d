"""The exact algorithms agree with plain expectiminimax on the custom games, on both engines."""

from __future__ import annotations

import pyspiel
import pytest
from helpers.exactness import OPTION_SETS, positions_problems
from helpers.plain_expectiminimax import sample_positions

import games  # noqa: F401  registers the custom games
from bots.evaluators import default_evaluator


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
    problems = positions_problems(
        game, states, depths, OPTION_SETS["custom_games"], engine=engine, evaluator=evaluator
    )
    assert not problems, "\n".join(problems)
