"""The transposition table's capacity and replacement policy."""

import pytest

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
