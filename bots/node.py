"""The node interface the search engine reads, and how a state becomes a node.

The engine searches pyspiel states directly, or, for the games in ``games/``,
immutable plain-Python positions that implement the same few methods without
pybind11 and deep copies. Naming the interface lets a new custom game see
exactly what it must provide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class SearchNode(Protocol):
    """What the engine calls on a node; pyspiel.State satisfies it too."""

    def current_player(self) -> int:
        """The player to move, or pyspiel's CHANCE (-1) or TERMINAL (-4)."""
        ...

    def legal_actions(self) -> Sequence[int]: ...

    def chance_outcomes(self) -> Sequence[tuple[int, float]]: ...

    def child(self, action: int) -> SearchNode:
        """The node after ``action``; the parent is left unchanged."""
        ...

    def returns(self) -> Sequence[float]:
        """Per-player utilities (at terminals; rewards so far in games that have them)."""
        ...


class Position(SearchNode, Protocol):
    """A custom game's fast node: hashable (its own table key) and convertible
    back to a pyspiel state for evaluators that only read states."""

    def to_state(self) -> Any: ...

    def __hash__(self) -> int: ...


def to_search_node(state: Any) -> Any:
    """The fast plain-Python position of a custom game, or the pyspiel state itself."""
    position = getattr(state, "search_position", None)
    return position() if position is not None else state
