"""Table entries searched deeper than asked may decide (``deeper_cutoffs``, bots only).

Off by default, so every fixed-depth search and study keeps the exact values
the exactness tests check. With it on, a search answers from deeper entries:
searched again to a shallower depth, a root is worth what the deeper search
found, at the cost of its children's table lookups.
"""

from __future__ import annotations

import pyspiel
import pytest

import bots
import games  # noqa: F401  registers dice
from bots.native_searcher import make_searcher
from games.position_sampler import sample_positions


@pytest.mark.parametrize("game_string", ["pig", "dice(n=4,k=3)", "einstein_wurfelt_nicht"])
def test_a_shallower_search_is_answered_by_the_deeper_entries(game_string, engine):
    game = pyspiel.load_game(game_string)
    for state in sample_positions(game, 3, seed=5, plies=(2, 8)):
        player = state.current_player()
        deeper = make_searcher(
            engine, game, player, "star2", tt_size=1_000_000, deeper_cutoffs=True
        )
        exact = make_searcher(engine, game, player, "star2", tt_size=1_000_000)
        assert deeper.engine == exact.engine == engine
        deep_value, deep_action = deeper.search(state, 4)
        exact.search(state, 4)
        exact.reset_stats()
        exact_value, _ = exact.search(state, 2)
        deeper.reset_stats()
        value, action = deeper.search(state, 2)
        assert (value, action) == (deep_value, deep_action)
        # The root and each child, every child decided by its depth-3 entry.
        assert deeper.nodes == 1 + len(state.legal_actions())
        assert exact.nodes > deeper.nodes or exact_value == value


def test_deeper_cutoffs_is_a_search_bot_parameter(engine):
    game = pyspiel.load_game("pig")
    for name in ("expectiminimax", "star2", "chanceprobcut", "mcms"):
        bot = bots.make_bot(f"{name}(deeper_cutoffs=true)", game, 0, engine=engine)
        assert bot.searcher.options.study.deeper_cutoffs is True
        assert bot.searcher.engine == engine
    assert bots.make_bot("star2", game, 0).searcher.options.study.deeper_cutoffs is False
    with pytest.raises(ValueError, match="deeper_cutoffs must be true or false"):
        bots.make_bot("star2(deeper_cutoffs=1)", game, 0)
