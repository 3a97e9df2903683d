"""pig's adapter: its table key is its bare string, its draws are seeded by (player,
string), and the bots' per-game defaults in pig."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, SettingDefault, register
from bots.adapters.shared_defaults import PROBCUT_LOW_T
from bots.keys import KeyFunction, string_key

# Pig prints the scores, the turn total, the player and whether a roll is pending
# ("Current player: 0 (rolling)" at a chance node), so its string alone is a sound key,
# and the builtin costs no Python frame per lookup.
pig_key: KeyFunction = str

DEFAULTS = (
    SettingDefault(
        "reachable_probes",
        ("star2", "chanceprobcut"),
        True,
        "hopeless probes skipped: star2 about half the CPU at depth 7, chanceprobcut 24-67% "
        "less at depths 6-9, same moves (docs/guide/bots.md#per-game-defaults-and-why)",
    ),
    PROBCUT_LOW_T,
)

# MCMS seeds pig's draws with the (player, string) key, so the sampled trees stay those
# of docs/guide/mcms.md.
register("pig", GameAdapter(key=pig_key, sampling_key=string_key, defaults=DEFAULTS))
