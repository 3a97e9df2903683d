"""The adapters of the C++ twins of the games in games/: keyed by their strings, which
print every field of the Python position (``bots.keys.custom_game_key``), and sampled
with the Python position rebuilt from them, so the draws match either twin. dice's, which has per-game defaults too, is dice.py."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, register
from bots.keys import custom_game_key

for _name in ("chance_tic_tac_toe", "ballard_tree", "cant_stop"):
    register(_name, GameAdapter(key=custom_game_key, twin=True))
