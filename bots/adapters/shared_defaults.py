"""Per-game defaults that several games' adapters share, each with the measurement behind
it (docs/guide/bots.md#per-game-defaults-and-why): written once, named by what they do,
listed in each game's adapter that uses them."""

from __future__ import annotations

from bots.adapters.registry import SettingDefault

# Where an action is the same move in every position (a board cell, a cube and a
# direction), the history heuristic helps at depth 1 too.
HISTORY_FROM_DEPTH_ONE = SettingDefault(
    "history_min_depth",
    ("star2", "chanceprobcut"),
    1,
    "an action is the same move in every position, so history orders depth 1 "
    "too (docs/guide/bots.md#per-game-defaults-and-why)",
)

# ChanceProbCut's t = 0.5 where it played as strong as 1.5 at equal time.
PROBCUT_LOW_T = SettingDefault(
    "t",
    ("chanceprobcut",),
    0.5,
    "as strong as 1.5 at equal time, and deeper sooner (docs/guide/chanceprobcut.md#choosing-t)",
)
