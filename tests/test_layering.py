"""The floors, read from the source: experiments -> bots -> games, never back up.

Every Python import of games/, bots/ and experiments/ counts, at module level or inside
a function (a function-level import hides an arrow from the importer, not from the
reader), and so does every ``#include "..."`` of games/native and bots/native. The graph
is experiments/common/layers.py's, the one the picture atop docs/guide/engines.md is
drawn from; no module of bots/ imports another in a cycle.
"""

from __future__ import annotations

from pathlib import Path

from experiments.common import layers


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first repeated), or None."""
    state: dict[str, str] = {}  # "open" while on the path, "done" once explored
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                return path[path.index(imported) :] + [imported]
            if imported not in state:
                found = visit(imported)
                if found:
                    return found
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_reader_sees_function_level_relative_and_by_name_imports_and_includes(tmp_path):
    _write(
        tmp_path,
        {
            "games/__init__.py": "",
            "games/rules.py": (
                "import importlib\n"
                "def f():\n"
                "    from bots.search import search\n"
                "    from . import keys\n"
                "    importlib.import_module('experiments.common')\n"
            ),
            "games/keys.py": "",
            "bots/__init__.py": "from games import rules\n",
            "games/native/dice.cc": '#include "bots/native/keys.h"\n#include "open_spiel/spiel.h"\n',
            "bots/native/keys.h": '#include "games/native/dice.h"\n',
        },
    )
    imports = layers.python_imports(tmp_path)
    assert {"bots.search", "games.keys", "experiments.common"} <= imports["games.rules"]
    includes = layers.cpp_includes(tmp_path)
    assert includes == {
        "games/native/dice.cc": {"bots/native/keys.h"},
        "bots/native/keys.h": {"games/native/dice.h"},
    }
    assert layers.arrows_up(imports) == [
        ("games.rules", "bots.search"),
        ("games.rules", "bots.search.search"),
        ("games.rules", "experiments.common"),
    ]
    assert layers.arrows_up(includes) == [("games/native/dice.cc", "bots/native/keys.h")]
    assert "UP: forbidden" in layers.mermaid(tmp_path)


def test_the_cycle_finder_finds_a_cycle():
    graph = {"bots.a": {"bots.b"}, "bots.b": {"bots.c"}, "bots.c": {"bots.a"}, "bots.d": set()}
    assert _cycle(graph) == ["bots.a", "bots.b", "bots.c", "bots.a"]
    assert _cycle({"bots.a": {"bots.b"}, "bots.b": set()}) is None


def test_python_imports_point_down_only():
    imports = layers.python_imports()
    assert imports["bots.search"] and imports["experiments.common.runner"], "the scan found imports"
    assert layers.arrows_up(imports) == [], "games -> bots/experiments or bots -> experiments"


def test_cpp_includes_point_down_only():
    includes = layers.cpp_includes()
    assert includes["bots/native/search.cc"], "the scan found includes"
    assert layers.arrows_up(includes) == [], "games/native includes bots/native"


def test_bots_modules_import_each_other_without_a_cycle():
    modules = layers.python_modules()
    graph = {
        module: {name for name in names if name in modules}
        for module, names in layers.python_imports(by_name=False).items()
        if module.startswith("bots")
    }
    graph = {module: names & set(graph) for module, names in graph.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle among bots/ modules: " + " -> ".join(cycle or ())


def test_the_layers_picture_is_the_code_s():
    assert not layers.is_stale(), "run: python -m experiments.common.layers"
    text = layers.PAGE.read_text()
    assert text.index(layers.BEGIN) < text.index("\n## "), "the picture opens the engines page"
