"""The adapters of the games whose (player, string) is a sound key and that need nothing
else: catch (backgammon's is backgammon.py)."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, register
from bots.keys import string_key

for _name in ("catch",):
    register(_name, GameAdapter(key=string_key))
