"""Per-game knowledge sits in one adapter per game, found through a registry.

The generic search files name no game that has an adapter: a game's fast paths (keys,
undo, move generation, field access) live in ``bots/adapters/<game>.py`` and
``bots/native/adapters/<game>.cc``, and adding one touches nothing in the search.
"""

from __future__ import annotations

import re
from pathlib import Path

from bots.adapters import ADAPTERS, KEY_FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent

# The generic search, both engines. (Renamed modules are read under either name.)
GENERIC = [
    "bots/native/search.cc",
    "bots/native/search.h",
    "bots/native/keys.cc",
    "bots/native/keys.h",
    "bots/native/table.h",
    "bots/keys.py",
    "bots/ordering.py",
    "bots/star.py",
    "bots/alphabeta.py",
    "bots/expectiminimax.py",
    "bots/frames.py",
    "bots/maxn.py",
    "bots/chance_probcut.py",
    "bots/mcms.py",
    "bots/node.py",
    "bots/transposition.py",
    "bots/adapters/registry.py",
    "bots/native/adapters/registry.h",
    "bots/native/adapters/registry.cc",
]
NATIVE_REGISTRATION = re.compile(r'Register(?:GameAdapter|KeyScheme)\(\s*"([^"]+)"')


def _native_games() -> set[str]:
    """The games the native adapters register, read from their sources."""
    names: set[str] = set()
    for path in (ROOT / "bots" / "native" / "adapters").glob("*.cc"):
        names.update(NATIVE_REGISTRATION.findall(path.read_text()))
    return names


def test_adapters_are_registered_in_both_engines():
    native = _native_games()
    assert {"pig", "einstein_wurfelt_nicht", "backgammon", "2048", "maedn"} <= native
    assert set(KEY_FUNCTIONS) == set(ADAPTERS)
    # Every game the Python engine keys is keyed by the native engine too (a scheme, or
    # the twins' text callback).
    assert {"pig", "einstein_wurfelt_nicht", "backgammon", "catch"} <= set(ADAPTERS)


def test_the_generic_search_names_no_game():
    games = sorted(_native_games() | set(ADAPTERS))
    pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, games)) + r")(?![\w])", re.I)
    problems = []
    for relative in GENERIC:
        path = ROOT / relative
        if not path.is_file():
            continue
        text = path.read_text()
        if path.suffix in (".cc", ".h"):
            text = re.sub(r"\bcatch\s*\(", "(", text)  # the C++ keyword, not the game
        for number, line in enumerate(text.splitlines(), 1):
            for match in pattern.finditer(line):
                problems.append(f"{relative}:{number}: names {match[1]!r}: {line.strip()}")
    assert not problems, "\n".join(problems)
