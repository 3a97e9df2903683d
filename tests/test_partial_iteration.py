"""The sound part of an unfinished iteration (SearchBot's ``partial_iteration``).

The clock is replaced by a node budget so that an iteration stops at a chosen
point, the same on every machine. The move taken from an unfinished iteration
must be worth, at that iteration's depth, exactly what the search reports and at
least what the previous iteration's move is worth there (plain expectiminimax,
independent of bots/, decides both).
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.node_budget import NodeBudgetSearcher
from helpers.plain_expectiminimax import plain_expectiminimax

import bots
import games  # noqa: F401  registers the custom games
from bots.deepening_bot import SearchBot
from games.position_sampler import sample_positions


def _bot(
    game: pyspiel.Game, player: int, algorithm: str, partial: bool, max_depth: int | None = None
) -> SearchBot:
    searcher = NodeBudgetSearcher(game, player, algorithm, tt_size=10_000)
    return SearchBot(game, player, searcher, max_depth, 1000.0, seed=0, partial_iteration=partial)


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star2"])
def test_a_move_from_an_unfinished_iteration_is_sound(algorithm):
    game = pyspiel.load_game("dice(n=4,k=3)")
    changed = 0
    for state in sample_positions(game, 6, seed=7, plies=(0, 3)):
        player = state.current_player()
        # Node counts after each completed iteration of an uninterrupted move.
        full = _bot(game, player, algorithm, partial=True, max_depth=3)
        full.searcher.budget = 10**12
        full.step(state)
        done = {it["depth"]: it for it in full.last_search["iterations"]}
        evaluator = full.searcher.evaluator
        exact = {
            depth: plain_expectiminimax(state, depth, evaluator, player).action_values
            for depth in (2, 3)
        }
        for depth in (1, 2):
            start, end = done[depth]["nodes"], done[depth + 1]["nodes"]
            for fraction in (0.2, 0.4, 0.6, 0.8):
                budget = start + int(fraction * (end - start))
                with_partial = _bot(game, player, algorithm, partial=True)
                without = _bot(game, player, algorithm, partial=False)
                with_partial.searcher.budget = without.searcher.budget = budget
                action = with_partial.step(state)
                stats = with_partial.last_search
                # The clock is read every 64 nodes: a small iteration may still finish.
                completed = stats["depth"]
                previous_best = done[completed]["action"]
                assert without.step(state) == previous_best
                assert without.last_search["partial_depth"] is None
                if stats["partial_depth"] is None:
                    assert action == previous_best  # the previous best was not finished
                    continue
                assert stats["partial_depth"] == completed + 1
                values = exact[completed + 1]
                assert stats["value"] == pytest.approx(values[action], abs=1e-9)
                assert values[action] >= values[previous_best] - 1e-9
                changed += action != previous_best
    # The budgets above do reach moves an unfinished iteration changes.
    assert changed > 0


def test_partial_iteration_is_a_bot_parameter():
    game = pyspiel.load_game("pig")
    assert bots.make_bot("star2(partial_iteration=false)", game, 0)._partial_iteration is False
    assert bots.make_bot("mcms", game, 0)._partial_iteration is True
    with pytest.raises(ValueError, match="partial_iteration must be true or false"):
        bots.make_bot("expectiminimax(partial_iteration=2)", game, 0)
