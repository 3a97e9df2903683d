"""The transposition table's capacity and replacement policy."""

import pyspiel
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.search import StarSearcher
from bots.transposition import DEPTH, LOWER, MOVE, UPPER, TranspositionTable


def test_first_in_first_out_without_a_deep_share():
    table = TranspositionTable(3, deep_share=0)
    for key in "abc":
        table.store(key, 1, -1.0, 1.0, None)
    table.store("a", 2, 0.5, 0.5, 7)  # an update keeps a's place in line
    table.store("d", 1, 0.0, 0.0, None)
    assert len(table) == 3 and table.get("a") is None and table.evictions == 1
    assert table.get("b") is not None and table.get("d") is not None
    table.store("e", 1, 0.0, 0.0, None)
    assert table.get("b") is None and len(table) == 3


def test_shallow_entries_go_first_in_first_out():
    table = TranspositionTable(3)
    for key in "abcde":
        table.store(key, 1, -1.0, 1.0, None)
    assert sorted(table.entries) == ["c", "d", "e"] and table.evictions == 2


def test_deep_entries_outlive_a_flood_of_shallow_ones():
    table = TranspositionTable(4)  # deep share: 2 entries
    table.store("deep", 3, 0.0, 0.5, 1)
    for i in range(100):
        table.store(i, 1, -1.0, 1.0, None)
    assert table.get("deep") is not None and len(table) == 4
    assert sorted(k for k in table.entries if k != "deep") == [97, 98, 99]


def test_newer_deep_entries_push_older_ones_back_among_the_shallow():
    table = TranspositionTable(4)  # deep share: 2 entries
    table.store("old", 2, 0.0, 0.5, 1)
    table.store("mid", 2, 0.0, 0.5, 1)
    table.store("new", 2, 0.0, 0.5, 1)  # "old" now waits behind the shallow entries
    table.store("s1", 1, 0.0, 0.5, 1)
    table.store("s2", 1, 0.0, 0.5, 1)  # full: the oldest shallow-queue entry goes
    assert table.get("old") is None
    assert all(table.get(k) is not None for k in ("mid", "new", "s1", "s2"))


def test_an_entry_stored_again_deeper_joins_the_deep_ones():
    table = TranspositionTable(4)
    for key in "abcd":
        table.store(key, 1, -1.0, 1.0, None)
    table.store("a", 4, 0.0, 0.0, 2)  # iterative deepening: the same node, deeper
    table.store("e", 1, 0.0, 0.0, None)
    assert table.get("a") is not None and table.get("b") is None
    assert table.evictions == 1


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
    # nodes; a leaf stored among the entries would overwrite the deeper entry.
    game = pyspiel.load_game("pig")
    state = game.new_initial_state()
    searcher = StarSearcher(game, 0, "star2", tt_size=100_000)
    for depth in range(1, 6):
        searcher.search(state, depth)
    table = searcher.table
    assert table is not None
    assert set(table.leaf_values) & set(table.entries)
    assert all(entry[DEPTH] > 0 for entry in table.entries.values())


def test_deep_share_must_be_a_fraction():
    with pytest.raises(ValueError, match=r"deep_share must lie in \[0, 1\]"):
        TranspositionTable(10, deep_share=1.5)


@given(
    capacity=st.integers(min_value=1, max_value=8),
    share=st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    stores=st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=80),
)
def test_the_table_never_exceeds_its_capacity_and_keeps_the_latest_store(capacity, share, stores):
    table = TranspositionTable(capacity, deep_share=share)
    for key, depth in stores:
        table.store(key, depth, -1.0, 1.0, None)
        assert len(table) <= capacity
        assert table.get(key)[DEPTH] == depth  # the entry just stored is never the one dropped
    waiting = list(table._shallow_order) + list(table._deep_order)
    assert sorted(waiting) == sorted(table.entries)  # every entry waits in one line, once
    assert len(table._deep_order) <= table.deep_capacity
