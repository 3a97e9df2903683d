"""The transposition table's capacity and replacement policy."""

import pyspiel
import pytest

from bots.search import Searcher
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable


def test_first_in_first_out_within_capacity():
    table = TranspositionTable(3)
    for key in "abc":
        table.store(key, 1, -1.0, 1.0, None)
    table.store("a", 2, 0.5, 0.5, 7)  # an update keeps a's place in line
    table.store("d", 1, 0.0, 0.0, None)
    assert len(table) == 3 and table.get("a") is None and table.evictions == 1
    assert table.get("b") is not None and table.get("d") is not None
    table.store("e", 1, 0.0, 0.0, None)
    assert table.get("b") is None and len(table) == 3


def test_entries_hold_depth_bounds_and_move():
    table = TranspositionTable(10)
    table.store(("x", 1), 4, -0.25, 0.75, 3)
    entry = table.get(("x", 1))
    assert (entry[DEPTH], entry[LOWER], entry[UPPER], entry[MOVE]) == (4, -0.25, 0.75, 3)


def test_capacity_must_be_positive():
    with pytest.raises(ValueError, match="tt_size must be >= 1"):
        TranspositionTable(0)


def test_leaf_values_have_their_own_store_and_never_evict_entries():
    table = TranspositionTable(2)
    table.store("deep", 3, 0.0, 0.5, 1)
    for key in "abc":
        table.store_leaf(key, 0.25)
    assert table.get("deep") is not None and len(table) == 1
    assert sorted(table.leaf_values) == ["b", "c"]  # first in, first out


def test_a_leaf_keeps_the_deeper_entry_of_the_same_position():
    # Iterative deepening meets positions both as depth-0 leaves and as interior
    # nodes; when leaves were stored among the entries they overwrote those.
    game = pyspiel.load_game("pig")
    state = game.new_initial_state()
    searcher = Searcher(game, 0, "star2", tt_size=100_000)
    for depth in range(1, 6):
        searcher.search(state, depth)
    table = searcher.table
    assert table is not None
    assert set(table.leaf_values) & set(table.entries)
    assert all(entry[DEPTH] > 0 for entry in table.entries.values())
