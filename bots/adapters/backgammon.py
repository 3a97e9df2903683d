"""backgammon's adapter: keyed by (player, string), and the bots' per-game defaults."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, SettingDefault, register
from bots.keys import string_key

DEFAULTS = (
    SettingDefault(
        "static_ordering",
        ("star2",),
        True,
        "Hauk et al.'s ordering by the evaluator: -16% nodes at depth 3 "
        "(docs/guide/bots.md#per-game-defaults-and-why)",
    ),
)

register("backgammon", GameAdapter(key=string_key, defaults=DEFAULTS))
