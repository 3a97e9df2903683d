"""Writes bots/native/search_settings.h, the native engine's list of its settings.

The C++ ``SearchOptions`` struct and the code that reads it from Python's settings dict
are both expanded from this one X-list, and the list is generated from the table in
bots/options.py (``native_setting_types``), so a setting's name and C++ type are kept
only there. Run ``python -m bots.native_header`` after changing a native row;
``--check`` only says whether the header is current (tests/test_settings_table.py asks).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from bots.options import native_setting_types

HEADER = Path(__file__).resolve().parent / "native" / "search_settings.h"
_GUARD = "STARSPIEL_BOTS_NATIVE_SEARCH_SETTINGS_H_"


def render() -> str:
    """The header's text, from the table."""
    entries = [f"X({kind}, {name})" for name, kind, _ in native_setting_types()]
    width = max(len(entry) for entry in entries)
    lines = [f"  {entry.ljust(width)}" for entry in entries[:-1]] + [f"  {entries[-1]}"]
    body = " \\\n".join(["#define STARSPIEL_SEARCH_SETTINGS(X)"] + lines)
    return (
        "// Generated from bots/options.py by `python -m bots.native_header`: do not edit.\n"
        "// Every setting the native engine reads, as X(C++ type, name) in the order of\n"
        "// bots.options.native_setting_types(): search.h declares SearchOptions' members\n"
        "// from it and search_bindings.cc reads each from Python's settings dict; their\n"
        "// meanings are the table's.\n"
        f"#ifndef {_GUARD}\n#define {_GUARD}\n\n"
        f"// clang-format off\n{body}\n// clang-format on\n\n#endif  // {_GUARD}\n"
    )


def is_current(path: Path = HEADER) -> bool:
    """Whether the header on disk is the one the table generates."""
    return path.exists() and path.read_text() == render()


def main(argv: Sequence[str]) -> int:
    """Rewrites the header (``--check``: only says whether it is stale)."""
    if "--check" in argv[1:]:
        if is_current():
            return 0
        print(f"{HEADER} is stale: run python -m bots.native_header", file=sys.stderr)
        return 1
    HEADER.write_text(render())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
