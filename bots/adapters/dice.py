"""dice's adapter: the C++ twin of games/dice.py (keyed and sampled as every twin,
twins.py), and the bots' per-game defaults in dice."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, register
from bots.adapters.shared_defaults import HISTORY_FROM_DEPTH_ONE, PROBCUT_LOW_T
from bots.keys import custom_game_key

DEFAULTS = (
    HISTORY_FROM_DEPTH_ONE,
    PROBCUT_LOW_T,
)

register("dice", GameAdapter(key=custom_game_key, twin=True, defaults=DEFAULTS))
