"""A fixed-size transposition table that stores bounds, usable at chance nodes.

Veness and Blair (2007) store lower and upper bounds for chance nodes exactly as
for max/min nodes; one entry layout therefore serves every node kind. Entries
are only trusted for cutoffs at the exact remaining depth they were computed
with, so a table never changes the value of a fixed-depth search: a deeper
entry would answer a different question than plain expectiminimax at that depth.
Entries of other depths still supply the best move for ordering.
"""

from __future__ import annotations

from typing import Any, Hashable

# Entry layout (a tuple: the garbage collector skips untracked tuples of
# numbers, so large tables add no collection pauses):
# (depth, lower, upper, best_action, generation)
DEPTH, LOWER, UPPER, MOVE, GENERATION = range(5)


class TranspositionTable:
  """Dict-backed table with a hard entry limit and a deterministic policy.

  Replacement: a position always keeps only its most recent entry. When the
  table is full, entries from earlier searches (older generations) go first,
  then the shallowest entries, until a quarter of the capacity is free. The
  policy does not depend on Python's randomised string hashing, so node counts
  are reproducible from run to run.
  """

  def __init__(self, capacity: int):
    if capacity < 1:
      raise ValueError(f"tt_size must be >= 1 for a table, got {capacity}")
    self.capacity = int(capacity)
    self.generation = 0
    self.entries: dict[Hashable, tuple] = {}
    self.evictions = 0

  def __len__(self) -> int:
    return len(self.entries)

  def new_search(self) -> None:
    """Marks entries stored so far as belonging to an earlier search."""
    self.generation += 1

  def clear(self) -> None:
    self.entries.clear()

  def get(self, key: Hashable) -> tuple | None:
    return self.entries.get(key)

  def store(self, key: Hashable, depth: int, lower: float, upper: float,
            move: int | None) -> None:
    entries = self.entries
    if key not in entries and len(entries) >= self.capacity:
      self._make_room()
    entries[key] = (depth, lower, upper, move, self.generation)

  def _make_room(self) -> None:
    target = self.capacity - max(1, self.capacity // 4)
    entries = self.entries
    ranked = sorted(entries.items(),
                    key=lambda item: (item[1][GENERATION], item[1][DEPTH]))
    for key, _ in ranked[:len(entries) - target]:
      del entries[key]
      self.evictions += 1
