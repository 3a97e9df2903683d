"""The packages' layering, read from the source: no import cycle among the modules of
bots/, and games/ importing nothing from bots/.

Every import statement counts, at module level or inside a function (a function-level
import hides a cycle from the importer, not from the reader).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: str) -> dict[str, Path]:
    return {_module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def _imported_names(path: Path, module: str) -> set[str]:
    """Every module an import statement of ``path`` names (relative imports resolved;
    ``from a import b`` names both ``a`` and ``a.b``, which may be a module)."""
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports."""
    modules = _modules(package)
    return {
        module: {name for name in _imported_names(path, module) if name in modules} - {module}
        for module, path in modules.items()
    }


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


def test_the_cycle_finder_finds_function_level_and_relative_imports(tmp_path):
    graph = {"bots.a": {"bots.b"}, "bots.b": {"bots.c"}, "bots.c": {"bots.a"}, "bots.d": set()}
    assert _cycle(graph) == ["bots.a", "bots.b", "bots.c", "bots.a"]
    assert _cycle({"bots.a": {"bots.b"}, "bots.b": set()}) is None
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from bots.search import search\n    from . import keys\n")
    names = _imported_names(source, "bots.m")
    assert {"bots.search", "bots.keys"} <= names


def test_bots_modules_import_each_other_without_a_cycle():
    graph = _import_graph("bots")
    assert "bots.search" in graph and graph["bots.search"], "the scan found bots' imports"
    cycle = _cycle(graph)
    assert cycle is None, "import cycle among bots/ modules: " + " -> ".join(cycle or ())


def _is_bots(name: str) -> bool:
    return name == "bots" or name.startswith("bots.")


def _modules_loaded_by_name(path: Path) -> list[str]:
    """The constant module names ``path`` passes to ``importlib.import_module``."""
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]


def test_games_import_nothing_from_bots():
    imports = {
        module: sorted(name for name in _imported_names(path, module) if _is_bots(name))
        for module, path in _modules("games").items()
    }
    assert {module: names for module, names in imports.items() if names} == {}
    # Nor by name: the C++ twins take their names over when `import bots` loads the
    # native engine, in either import order (games/_common.register_game).
    loaded = {
        module: [name for name in _modules_loaded_by_name(path) if _is_bots(name)]
        for module, path in _modules("games").items()
    }
    assert {module: names for module, names in loaded.items() if names} == {}
