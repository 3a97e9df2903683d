"""The one Markdown table writer of the experiments' summaries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_RULES = {"-": "---", "l": ":---", "r": "---:"}


def markdown_table(
    header: Sequence[Any], rows: Sequence[Sequence[Any]], align: str | None = None
) -> str:
    """A GitHub Markdown table, without a final newline.

    ``align`` has one letter per column: ``l`` left, ``r`` right, ``-`` unmarked
    (default: all unmarked). A ``|`` inside a cell is escaped so it cannot split
    the cell.
    """
    align = align or "-" * len(header)
    if len(align) != len(header) or set(align) - set(_RULES):
        raise ValueError(f"align needs one of l, r, - per column, got {align!r}")

    def line(cells: Sequence[Any]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    rule = "|" + "|".join(_RULES[a] for a in align) + "|"
    return "\n".join([line(header), rule] + [line(row) for row in rows])
