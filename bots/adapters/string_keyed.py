"""The adapters of the games whose (player, string) is a sound key: backgammon and catch."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, register
from bots.keys import string_key

for _name in ("backgammon", "catch"):
    register(_name, GameAdapter(key=string_key))
