"""einstein_wurfelt_nicht's adapter: its table key adds what its string omits, and the
bots' per-game defaults in it."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from bots.adapters.registry import GameAdapter, register
from bots.adapters.shared_defaults import HISTORY_FROM_DEPTH_ONE, PROBCUT_LOW_T


def einstein_key(state: Any) -> Hashable:
    # The board string omits the die (the last action at a decision node) and,
    # at a chance node, whose turn follows (a turn is a roll and a move).
    player = state.current_player()
    die = state.history()[-1] if player >= 0 else -1
    return (player, str(state), state.move_number() % 4, die)


DEFAULTS = (
    HISTORY_FROM_DEPTH_ONE,
    PROBCUT_LOW_T,
)

register("einstein_wurfelt_nicht", GameAdapter(key=einstein_key, defaults=DEFAULTS))
