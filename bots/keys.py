"""Transposition-table keys: which states the table may treat as one.

A key must determine the rest of the game (tests/test_transposition_keys.py
checks this over whole search trees): two states with equal keys must have the
same player to move, legal actions or chance outcomes, returns, and children
with equal keys. A key that merges two different states silently breaks
exactness.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import pyspiel

KeyFunction = Callable[[Any], Hashable]


def string_key(state: Any) -> Hashable:
    # The player is part of the key: several games print a chance node and the
    # decision node after it identically.
    return (state.current_player(), str(state))


def einstein_key(state: Any) -> Hashable:
    # The board string omits the die (the last action at a decision node) and,
    # at a chance node, whose turn follows (a turn is a roll and a move).
    player = state.current_player()
    die = state.history()[-1] if player >= 0 else -1
    return (player, str(state), state.move_number() % 4, die)


def history_key(state: Any) -> Hashable:
    # Always sound: equal histories are equal states. Finds no transpositions
    # between different move orders, but still serves iterative deepening,
    # probes and repeated searches of the same position.
    return tuple(state.history())


def python_state_key(state: Any) -> Hashable:
    # A Python game's state may be built mid-game with a short history (a
    # position's to_state()), so the history alone can name two states.
    return (tuple(state.history()), state.current_player(), str(state))


def position_key(position: Any) -> Hashable:
    """A custom game's position is immutable and hashable: its own key."""
    return position


# Keys checked to determine the rest of the game (tests/test_transposition_keys.py);
# every other game is keyed by its history. Not 2048: equal boards and scores
# can have different legal moves there (hidden merge flags), and yacht, maedn
# and banqi print too little of the state.
KEY_FUNCTIONS: dict[str, KeyFunction] = {
    "pig": string_key,
    "backgammon": string_key,
    "catch": string_key,
    "einstein_wurfelt_nicht": einstein_key,
}


def default_key_function(game: pyspiel.Game) -> KeyFunction:
    """Transposition key for pyspiel states of ``game`` (positions are their own key)."""
    return KEY_FUNCTIONS.get(game.get_type().short_name, history_key)
