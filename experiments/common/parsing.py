"""One parser for integer lists and ranges given on the command line ("1,2,4-6")."""

from __future__ import annotations

import re
from collections.abc import Iterable

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
