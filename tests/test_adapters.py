"""Per-game knowledge sits in one adapter per game, found through a registry.

The generic search files name no game that has an adapter: a game's fast paths (keys,
undo, move generation, field access) and the bots' per-game defaults live in
``bots/adapters/<game>.py`` and ``bots/native/adapters/<game>.cc``, and adding one touches
nothing in the search, the options or the shared C++ machinery.
"""

from __future__ import annotations

import re
from pathlib import Path

from bots.adapters import ADAPTERS, KEY_FUNCTIONS, setting_defaults
from bots.options import BOT_SETTINGS, GAME_DEFAULTS, option_settings

ROOT = Path(__file__).resolve().parent.parent

# The generic search, both engines. (Renamed modules are read under either name.)
GENERIC = [
    "bots/native/search.cc",
    "bots/native/search.h",
    "bots/native/search_settings.h",
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
    "bots/adapters/shared_defaults.py",
    "bots/native/adapters/registry.h",
    "bots/native/adapters/registry.cc",
    # The options and their docs, and the shared machinery of the native fast paths.
    "bots/options.py",
    "bots/settings_docs.py",
    "bots/native_header.py",
    "bots/native/fast_moves.h",
    "bots/native/field_undo.h",
    "bots/native/field_undo.cc",
    "bots/native/field_lists.h",
    "bots/native/openspiel_internals.h",
    "bots/native/internals_gate.h",
    "bots/native/internals_gate.cc",
    "bots/native/search_bindings.cc",
]
# Once the shared homes of per-game fast paths; their code is in the adapters now.
GONE = ["bots/native/fast_keys.cc", "bots/native/fast_moves.cc"]
MEMBER = re.compile(r"STARSPIEL_OPENSPIEL_MEMBER\(\s*(k\w+)\s*,\s*([\w:]+)")
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


def test_the_shared_fast_path_files_hold_no_game_code():
    assert not [relative for relative in GONE if (ROOT / relative).exists()]
    # Each game's private members are named in its adapter (or its _fields.h, shared with
    # its evaluator); the gate names the base State's only.
    problems = []
    for path in sorted((ROOT / "bots" / "native").rglob("*")):
        if path.suffix not in (".cc", ".h") or "adapters" in path.parts:
            continue
        for name, owner in MEMBER.findall(path.read_text()):
            if owner != "open_spiel::State":
                problems.append(f"{path.relative_to(ROOT)}: {name} of {owner}")
    assert not problems, "\n".join(problems)


def test_per_game_defaults_come_from_the_adapters_and_fit_their_rows():
    rows = {(row.name, bot): row for row in BOT_SETTINGS + option_settings() for bot in row.bots}
    seen: dict[str, dict[str, dict[str, object]]] = {}
    for game, adapter in ADAPTERS.items():
        for entry in adapter.defaults:
            assert (game, entry) in setting_defaults(entry.setting)
            for bot in entry.bots:
                row = rows.get((entry.setting, bot))
                assert row is not None, f"{game}: {bot} takes no {entry.setting!r}"
                row.check(entry.value)
                seen.setdefault(bot, {}).setdefault(game, {})[entry.setting] = entry.value
                assert row.default_for(bot, game) == entry.value
    assert seen == GAME_DEFAULTS
    assert seen, "no adapter registers a per-game default"
