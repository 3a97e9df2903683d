"""A fixed-size transposition table that stores bounds, usable at chance nodes.

Veness and Blair (2007) store lower and upper bounds for chance nodes exactly as
for max/min nodes; one entry layout therefore serves every node kind. Entries
are only trusted for cutoffs at the exact remaining depth they were computed
with, so a table never changes the value of a fixed-depth search: a deeper
entry would answer a different question than plain expectiminimax at that depth.
Entries of other depths still supply the best move for ordering.

Frontier values (the evaluator's value of a depth-0 node) are kept in a store
of their own with the same capacity, so the many leaves neither overwrite a
deeper entry of the same position nor push deep entries out of the table.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable

# Entry layout (a tuple: the garbage collector skips untracked tuples of
# numbers, so large tables add no collection pauses):
# (depth, lower, upper, best_action, generation)
DEPTH, LOWER, UPPER, MOVE, GENERATION = range(5)


class TranspositionTable:
    """Dict-backed table with a hard entry limit and a deterministic policy.

    Replacement: a position keeps only its most recent entry. When the table is
    full, the entry stored longest ago among the shallow ones goes. The
    ``deep_share`` of the capacity most recently stored with a remaining depth
    of at least ``DEEP`` is kept apart from them and joins them, at the back,
    only when newer deep entries push it out; a shallow entry re-stored deeper
    meanwhile joins the deep ones instead of going. Shallow entries are many and
    cheap to recompute; a deep one stands for a large subtree. The leaf store
    (``leaf_values``, at most ``capacity`` values) is first in, first out. Each store costs O(1)
    amortised, so a full table never pauses a timed move (a sort-based
    depth-preferred eviction of 100,000 entries took tens of milliseconds), and
    the policy does not depend on Python's randomised string hashing, so node
    counts are reproducible from run to run.
    """

    DEEP = 2

    def __init__(self, capacity: int, deep_share: float = 0.5):
        if capacity < 1:
            raise ValueError(f"tt_size must be >= 1 for a table, got {capacity}")
        if not 0 <= deep_share <= 1:
            raise ValueError(f"deep_share must lie in [0, 1], got {deep_share}")
        self.capacity = int(capacity)
        self.deep_capacity = int(capacity * deep_share)
        self.generation = 0
        self.entries: dict[Hashable, tuple] = {}
        self._shallow_order: collections.deque = collections.deque()
        self._deep_order: collections.deque = collections.deque()
        self.evictions = 0
        self.leaf_values: dict[Hashable, float] = {}
        self._leaf_order: collections.deque = collections.deque()

    def __len__(self) -> int:
        return len(self.entries)

    def new_search(self) -> None:
        """Marks entries stored so far as belonging to an earlier search."""
        self.generation += 1

    def clear(self) -> None:
        self.entries.clear()
        self._shallow_order.clear()
        self._deep_order.clear()
        self.leaf_values.clear()
        self._leaf_order.clear()

    def store_leaf(self, key: Hashable, value: float) -> None:
        """Caches a frontier value; callers store a key only once (after a miss)."""
        if len(self.leaf_values) >= self.capacity:
            del self.leaf_values[self._leaf_order.popleft()]
        self.leaf_values[key] = value
        self._leaf_order.append(key)

    def get(self, key: Hashable) -> tuple | None:
        return self.entries.get(key)

    def store(
        self, key: Hashable, depth: int, lower: float, upper: float, move: int | None
    ) -> None:
        if key not in self.entries:
            if len(self.entries) >= self.capacity:
                self._evict()
            if depth >= self.DEEP and self.deep_capacity:
                if len(self._deep_order) >= self.deep_capacity:
                    # The oldest deep entry ages on among the shallow ones.
                    self._shallow_order.append(self._deep_order.popleft())
                self._deep_order.append(key)
            else:
                self._shallow_order.append(key)
        self.entries[key] = (depth, lower, upper, move, self.generation)

    def _evict(self) -> None:
        """Drops one entry: the oldest shallow one, else the oldest deep one."""
        while self._shallow_order:
            key = self._shallow_order.popleft()
            if self.entries[key][DEPTH] >= self.DEEP and len(self._deep_order) < self.deep_capacity:
                self._deep_order.append(key)  # re-stored deeper since: it joins the deep ones
                continue
            del self.entries[key]
            self.evictions += 1
            return
        del self.entries[self._deep_order.popleft()]
        self.evictions += 1
