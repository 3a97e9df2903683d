"""The table's memory grows with its entries, never with the game's length.

Keys are compact (docs/guide/search.md, "The transposition table"): a game without a checked string key
is keyed by a fixed-size digest of its history, not by the history itself, which
late in a long 2048 game would hold hundreds of actions per entry.
"""

from __future__ import annotations

import random
import tracemalloc

import pyspiel
from helpers.playouts import random_action

from bots.search import StarSearcher
from bots.transposition import TranspositionTable


def _decision_states_along_a_game(game: pyspiel.Game, seed: int) -> list:
    rng = random.Random(seed)
    state = game.new_initial_state()
    found = []
    while not state.is_terminal():
        if not state.is_chance_node():
            found.append(state.clone())
        state.apply_action(random_action(state, rng))
    return found


class _ConstantEvaluator:
    """Keeps no caches, so the memory a search leaves behind is the table's."""

    def evaluate(self, state: pyspiel.State) -> list[float]:
        return [0.0]


def _table_bytes_per_entry(game: pyspiel.Game, state: pyspiel.State) -> float:
    # A full table: the dict's own size then depends on the capacity only.
    capacity = 100
    searcher = StarSearcher(
        game, state.current_player(), "star2", evaluator=_ConstantEvaluator(), tt_size=capacity
    )
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        searcher.search(state, 3)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert searcher.table is not None and len(searcher.table) == capacity
    return (after - before) / len(searcher.table)


def test_bytes_per_entry_do_not_grow_with_the_length_of_a_2048_game():
    game = pyspiel.load_game("2048")
    states = _decision_states_along_a_game(game, seed=3)
    early, late = states[5], states[-3]
    assert len(late.history()) > 150  # long enough for history keys to show
    early_bytes = _table_bytes_per_entry(game, early)
    late_bytes = _table_bytes_per_entry(game, late)
    # A history key would add 8 bytes per action, over 1,200 bytes here.
    assert late_bytes < 1.25 * early_bytes + 64, (early_bytes, late_bytes)


def test_table_holds_at_most_its_capacity():
    table = TranspositionTable(100)
    for key in range(1_000):
        table.store(key, 1 + key % 3, 0.0, 0.0, None)
    assert len(table) == 100 and len(table._shallow_order) + len(table._deep_order) == 100
    assert table.get(999) is not None and table.get(0) is None
    assert table.evictions == 900


def _native_table(game: pyspiel.Game, state: pyspiel.State, capacity: int):
    from bots.native_searcher import NativeSearcher

    searcher = NativeSearcher(game, state.current_player(), "star2", tt_size=capacity)
    searcher.search(state, 4)
    return searcher._native


def test_native_table_holds_at_most_its_capacity_in_bounded_bytes_per_entry():
    from bots import native_engine

    if native_engine.problem() is not None:
        import pytest

        pytest.skip(native_engine.problem())
    game = pyspiel.load_game("2048")
    states = _decision_states_along_a_game(game, seed=3)
    per_entry = []
    for state in (states[5], states[-3]):  # early, and after 150+ actions
        table = _native_table(game, state, capacity=500)
        entries = table.table_size
        assert entries == 500 and table.leaf_store_size <= 500
        per_entry.append(table.table_bytes / (entries + table.leaf_store_size))
    # Open addressing at most half full: at most 4 slots of 64 bytes and a 16-byte queued
    # key per entry, well under the Python table's 210-540 bytes; never the history.
    assert max(per_entry) <= 280 and per_entry[1] <= 1.25 * per_entry[0] + 16, per_entry
