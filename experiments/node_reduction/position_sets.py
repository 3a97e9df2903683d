"""Position sets for the node-reduction study: sampled from seeded play, saved, reloaded.

A position set is a JSON file ``{"positions": [entry, ...]}``; each entry has an
``id`` and ``serialized`` (``pyspiel.serialize_game_and_state``, which names the
game too, so a set may mix games, as Ballard's random trees do). Ballard entries
also carry the table ``case`` and search ``depth`` they belong to.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

import pyspiel

from experiments.node_reduction import ballard
from games import position_sampler as common_positions

POSITIONS_FILE = "positions.json"


def sample_positions(
    game: pyspiel.Game, count: int, seed: int, moves: tuple[int, int]
) -> list[dict[str, Any]]:
    """``count`` entries drawn by games.position_sampler (whose seed scheme this
    study defined): position i depends only on (seed, i), not on count."""
    states = common_positions.sample_positions(game, count, seed, moves)
    return [
        {"id": f"p{i:04d}", "serialized": pyspiel.serialize_game_and_state(game, state)}
        for i, state in enumerate(states)
    ]


def ballard_positions(
    cases: Sequence[ballard.BallardCase], reference_trees: int | None = None
) -> list[dict[str, Any]]:
    """The root of every tree of every case (one tree for best case, `trials` for average);
    trees from `reference_trees` on are marked to be searched without the reference."""
    entries = []
    for case in cases:
        for seed in case.seeds():
            game = pyspiel.load_game(case.game_string(seed))
            entries.append(
                {
                    "id": f"{case.name}/seed={seed}",
                    "case": case.name,
                    "depth": case.search_depth,
                    "full_leaves": case.full_leaves,
                    "serialized": pyspiel.serialize_game_and_state(game, game.new_initial_state()),
                }
            )
            if case.probing_factor is not None:
                entries[-1]["probing_factor"] = case.probing_factor
            if reference_trees is not None and seed >= reference_trees:
                entries[-1]["no_reference"] = True
        ballard.release_tree_caches()
    return entries


def save_positions(path: str, entries: list[dict[str, Any]]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump({"positions": entries}, handle, indent=1)
        handle.write("\n")
    os.replace(tmp, path)


def load_positions(path: str) -> list[dict[str, Any]]:
    """Entries of a position file, checked enough to fail with a useful message."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise ValueError(f"cannot read position file {path!r}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"position file {path!r} is not valid JSON: {error}") from None
    entries = data.get("positions") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ValueError(
            f"position file {path!r} has no 'positions' list; expected the "
            f"{POSITIONS_FILE} written by experiments.node_reduction"
        )
    seen = set()
    for k, entry in enumerate(entries):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("id"), str)
            or not isinstance(entry.get("serialized"), str)
        ):
            raise ValueError(
                f"position file {path!r}: entry {k} needs string fields 'id' and 'serialized'"
            )
        if entry["id"] in seen:
            raise ValueError(f"position file {path!r}: duplicate id {entry['id']!r}")
        seen.add(entry["id"])
    return entries


def digest(entries: list[dict[str, Any]]) -> str:
    """Short content hash of a position set (stored in the run configuration)."""
    text = json.dumps(entries, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def deserialize(entry: dict[str, Any]) -> tuple[pyspiel.Game, pyspiel.State]:
    try:
        return pyspiel.deserialize_game_and_state(entry["serialized"])
    except Exception as error:  # pyspiel.SpielError on a bad or foreign string
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"position {entry['id']!r} cannot be deserialized: {first}") from None
