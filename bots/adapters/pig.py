"""pig's adapter: its table key is its bare string, its draws are seeded by (player, string)."""

from __future__ import annotations

from bots.adapters.registry import GameAdapter, register
from bots.keys import KeyFunction, string_key

# Pig prints the scores, the turn total, the player and whether a roll is pending
# ("Current player: 0 (rolling)" at a chance node), so its string alone is a sound key,
# and the builtin costs no Python frame per lookup.
pig_key: KeyFunction = str

# MCMS seeds pig's draws with the (player, string) key, so the sampled trees stay those
# of docs/guide/mcms.md.
register("pig", GameAdapter(key=pig_key, sampling_key=string_key))
