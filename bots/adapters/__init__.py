"""Per-game knowledge of the Python engine, one adapter per game, found by short name.

A game's keys (its table key, MCMS's sampling key) and the bots' per-game defaults in it
(``SettingDefault``, read by ``bots/options.py``) live in its adapter module here and
register themselves in ``bots.adapters.registry``; the generic search names no game.
The native engine's adapters are ``bots/native/adapters/<game>.cc``.

Keys checked to determine the rest of the game (tests/test_transposition_keys.py);
every other game is keyed by its history (as a digest). Not 2048: equal boards and
scores can have different legal moves there (hidden merge flags), and yacht, maedn and
banqi print too little of the state.
"""

from __future__ import annotations

from bots.adapters import (
    backgammon,
    dice,
    einstein_wurfelt_nicht,
    pig,
    shared_defaults,
    string_keyed,
    twins,
)
from bots.adapters.registry import (
    ADAPTERS,
    KEY_FUNCTIONS,
    SAMPLING_KEY_FUNCTIONS,
    GameAdapter,
    SettingDefault,
    default_key_function,
    register,
    setting_defaults,
    twin_names,
)

__all__ = [
    "ADAPTERS",
    "KEY_FUNCTIONS",
    "SAMPLING_KEY_FUNCTIONS",
    "GameAdapter",
    "SettingDefault",
    "backgammon",
    "default_key_function",
    "dice",
    "einstein_wurfelt_nicht",
    "pig",
    "register",
    "setting_defaults",
    "shared_defaults",
    "string_keyed",
    "twin_names",
    "twins",
]
