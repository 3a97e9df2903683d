"""What a one-player game's end reached besides its score, where the field counts it.

2048's literature reports the share of games that reach a tile (Szubert and Jaśkowski
2014: the 2048 tile, with games played on to their end), not only the mean score. A
game listed here records its milestone (2048: the largest tile) in every finished
game's record; the one-player report then gives the share of games that reached each
goal, with a Wilson interval. Read from the final state through the public API, so
a replay of the record's history gives the same number.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pyspiel


@dataclasses.dataclass(frozen=True)
class Milestone:
    name: str  # what the number is, e.g. "largest tile"
    measure: Callable[[pyspiel.State], float]
    goals: tuple[float, ...]  # the thresholds whose reach the report counts


def _largest_tile(state: pyspiel.State) -> float:
    # 2048's observation tensor holds the 16 tiles' values.
    return float(max(state.observation_tensor(0)))


MILESTONES: dict[str, Milestone] = {
    "2048": Milestone("largest tile", _largest_tile, (1024, 2048, 4096, 8192)),
}


def milestone_of(game: pyspiel.Game) -> Milestone | None:
    return MILESTONES.get(game.get_type().short_name)


def measure(state: pyspiel.State) -> float | None:
    """The milestone a finished game reached, or None for a game that counts none."""
    found = milestone_of(state.get_game())
    return None if found is None else found.measure(state)


def reach_stats(records: list[dict], bot: int, milestone: Milestone) -> list[dict[str, float]]:
    """Per goal: how many of the bot's finished games reached it, their share and its
    Wilson 95% interval. Games recorded without a milestone (errors) do not count."""
    from experiments.tournament.stats import valid, wilson_interval

    reached = [
        r["milestone"]
        for r in valid(records)
        if r["bot_index"][0] == bot and r.get("milestone") is not None
    ]
    rows = []
    for goal in milestone.goals:
        hits = sum(1 for m in reached if m >= goal)
        n = len(reached)
        share = hits / n if n else float("nan")
        lo, hi = wilson_interval(hits, n) if n else (float("nan"), float("nan"))
        rows.append({"goal": goal, "games": n, "reached": hits, "share": share, "lo": lo, "hi": hi})
    return rows
