"""A searcher whose clock is a node budget, so a time-limited search stops at a chosen
node, the same on every machine: the tests of what a search does when its time runs out
use it instead of a wall-clock deadline, which would make them depend on the machine."""

from __future__ import annotations

from bots.search import SearchTimeout, StarSearcher


class NodeBudgetSearcher(StarSearcher):
    """Times out, while a deadline is set, once it has visited ``budget`` nodes.

    The clock is read every few dozen nodes, so it stops at the first reading at or past
    the budget.
    """

    budget = 0

    def _check_clock(self) -> None:
        if self.deadline is not None and self.nodes >= self.budget:
            raise SearchTimeout()
