"""einstein_wurfelt_nicht's adapter: its table key adds what its string omits."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from bots.adapters.registry import GameAdapter, register


def einstein_key(state: Any) -> Hashable:
    # The board string omits the die (the last action at a decision node) and,
    # at a chance node, whose turn follows (a turn is a roll and a move).
    player = state.current_player()
    die = state.history()[-1] if player >= 0 else -1
    return (player, str(state), state.move_number() % 4, die)


register("einstein_wurfelt_nicht", GameAdapter(key=einstein_key))
