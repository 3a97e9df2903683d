"""Parsers of the experiments' command lines: integer lists and ranges ("1,2,4-6"), game
lists ("pig,dice(n=5,k=4)") and per-game values ("pig:1-6;2")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bots.spec import split_top_level

_ENTRY = re.compile(r"(-?\d+)(?:\s*-\s*(-?\d+))?")


def parse_int_list(text: str | Iterable[str], what: str = "value", minimum: int = 0) -> list[int]:
    """'1,2,4-6' -> [1, 2, 4, 5, 6]: sorted, distinct, each at least `minimum`.

    Also takes the list that an absl list flag yields (['1', '2', '4-6']).
    `what` names the flag in the error, e.g. "--depths".
    """
    parts = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    shown = text if isinstance(text, str) else ",".join(text)
    values: set[int] = set()
    for part in (p.strip() for p in parts):
        if not part:
            continue
        match = _ENTRY.fullmatch(part)
        if not match:
            raise ValueError(
                f"{what}: bad entry {part!r} in {shown!r}; accepted: integers and "
                "ranges separated by commas, such as '1,2,4-6'"
            )
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            raise ValueError(f"{what}: empty range {part!r} in {shown!r} (write low-high)")
        if low < minimum:
            raise ValueError(f"{what}: {low} in {shown!r} is below the minimum {minimum}")
        values.update(range(low, high + 1))
    if not values:
        raise ValueError(f"{what}: no values in {shown!r}; expected e.g. '1,2,4-6'")
    return sorted(values)


def split_games(text: str) -> list[str]:
    """Splits on commas outside parentheses: 'pig,dice(n=5,k=4)' -> ['pig', 'dice(n=5,k=4)']."""
    try:
        games = [part.strip() for part in split_top_level(text) if part.strip()]
    except ValueError:
        games = []
    if not games:
        raise ValueError(
            f"--games: cannot parse {text!r}; expected e.g. 'pig,backgammon,dice(n=5,k=4)'"
        )
    return games


def parse_per_game(text: str, what: str) -> tuple[str | None, dict[str, str]]:
    """'pig:1-6;3' -> (default '3', {'pig': '1-6'}). Game strings contain no ':'."""
    default, per_game = None, {}
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        if ":" in entry:
            game, _, value = entry.rpartition(":")
            per_game[game.strip()] = value.strip()
        elif default is None:
            default = entry
        else:
            raise ValueError(f"{what}: two defaults in {text!r}; use 'GAME:VALUE;...;DEFAULT'")
    return default, per_game
