"""The floors of the tree, read from the source, and the picture of them in the docs.

Three floors, ground first: ``games``, ``bots``, ``experiments``. Imports (Python) and
includes (C++) may point down or along a floor, never up. This module reads every
import statement of every module under games/, bots/ and experiments/ (with ``ast``:
module level or inside a function, relative imports resolved, and the constant names
passed to ``importlib.import_module``) and every ``#include "..."`` line under
games/native and bots/native. tests/test_layering.py reads the same graph: it fails on
an arrow up, and when the picture that opens docs/guide/engines.md (a Mermaid diagram
between ``<!-- layers:begin -->`` and ``<!-- layers:end -->``) differs from what this
module draws. Redraw it with ``python -m experiments.common.layers`` (``--check`` only
reports). It reads the files and imports nothing from the floors it draws.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Ground floor first: a name's floor is its first path component's index here.
FLOORS = ("games", "bots", "experiments")
# The C++ sources; includes are written from the repository's root.
CPP_FOLDERS = ("games/native", "bots/native")
CPP_SUFFIXES = (".h", ".cc")
PAGE = ROOT / "docs" / "guide" / "engines.md"
BEGIN, END = "<!-- layers:begin -->", "<!-- layers:end -->"

Graph = dict[str, set[str]]


def floor(name: str) -> int | None:
    """The floor of a module (``bots.star``) or a file (``bots/native/search.h``); None
    for a name outside the three packages (pyspiel, open_spiel/spiel.h)."""
    first = re.split(r"[./]", name, maxsplit=1)[0]
    return FLOORS.index(first) if first in FLOORS else None


def module_name(path: Path, root: Path = ROOT) -> str:
    """``bots.evaluators.api`` for bots/evaluators/api.py; a package is its __init__."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    return {
        module_name(path, root): path
        for package in FLOORS
        for path in sorted((root / package).rglob("*.py"))
        if ".venv" not in path.parts
    }


def imported_names(path: Path, module: str, *, by_name: bool = True) -> set[str]:
    """Every name an import of ``path`` names: relative imports resolved, ``from a import
    b`` naming both ``a`` and ``a.b`` (which may be a module), and with ``by_name`` the
    constant names passed to ``importlib.import_module`` (an import by name is still an
    arrow between floors, though a lazy one, as bots/__init__.py's, makes no cycle)."""
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
        elif (
            by_name
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def python_imports(root: Path = ROOT, *, by_name: bool = True) -> Graph:
    """Module -> every name of the three packages its imports name (a name that is no
    module, ``bots.search.search``, is kept: it still points at its floor)."""
    return {
        module: {
            name
            for name in imported_names(path, module, by_name=by_name)
            if floor(name) is not None
        }
        - {module}
        for module, path in python_modules(root).items()
    }


def cpp_files(root: Path = ROOT) -> dict[str, Path]:
    """Every C++ source of the native folders, by its path from the root."""
    return {
        path.relative_to(root).as_posix(): path
        for folder in CPP_FOLDERS
        for path in sorted((root / folder).rglob("*"))
        if path.suffix in CPP_SUFFIXES
    }


def cpp_includes(root: Path = ROOT) -> Graph:
    """File -> every file of the three packages its ``#include "..."`` lines name."""
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
    return {
        name: {target for target in include.findall(path.read_text()) if floor(target) is not None}
        - {name}
        for name, path in cpp_files(root).items()
    }


def arrows_up(graph: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """The (importer, imported) pairs that point to a higher floor."""
    return sorted(
        (source, target)
        for source, targets in graph.items()
        for target in targets
        if (floor(target) or 0) > (floor(source) or 0)
    )


def groups(root: Path = ROOT) -> tuple[dict[str, int], Graph]:
    """The picture's boxes (Python packages and C++ folders, with their number of
    modules or files; the picture shows names only, so that adding a module does not
    redraw it) and the arrows between them; a box with no arrow (an empty
    package's ``__init__``) is left out."""
    modules = python_modules(root)
    box_of: dict[str, str] = {}
    for module, path in modules.items():
        box_of[module] = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for name in cpp_files(root):
        box_of[name] = name.rsplit("/", 1)[0]
    sizes: dict[str, int] = {}
    for box in box_of.values():
        sizes[box] = sizes.get(box, 0) + 1
    arrows: Graph = {box: set() for box in sizes}
    edges = {**python_imports(root), **cpp_includes(root)}
    for source, targets in edges.items():
        for target in targets:
            into = box_of.get(target) or _extension_folder(target)
            if into is not None and into in sizes and into != box_of[source]:
                arrows[box_of[source]].add(into)
    linked: set[str] = set()
    for source, targets in arrows.items():
        if targets:
            linked |= {source, *targets}
    return {box: size for box, size in sizes.items() if box in linked}, {
        box: targets for box, targets in arrows.items() if box in linked
    }


def _extension_folder(name: str) -> str | None:
    """The C++ folder a native extension is built from: ``bots._native`` (loaded by name
    in bots/native_engine.py) is bots/native's sources compiled."""
    package, _, last = name.rpartition(".")
    return f"{package.replace('.', '/')}/native" if last.startswith("_native") else None


def _node_id(box: str) -> str:
    return re.sub(r"\W", "_", box)


def mermaid(root: Path = ROOT) -> str:
    """The floors as a Mermaid flowchart: a subgraph per floor, top floor first, a box per
    Python package or C++ folder, an arrow per box that imports or includes another;
    an arrow up is drawn red and labelled."""
    sizes, arrows = groups(root)
    lines = ["```mermaid", "flowchart TB"]
    for index in reversed(range(len(FLOORS))):
        lines.append(f'  subgraph floor_{FLOORS[index]}["{FLOORS[index]}/"]')
        for box in sorted(b for b in sizes if floor(b) == index):
            lines.append(f'    {_node_id(box)}["{box}"]')
        lines.append("  end")
    links = sorted((s, t) for s, targets in arrows.items() for t in targets)
    up = [(s, t) for s, t in links if (floor(t) or 0) > (floor(s) or 0)]
    # Arrows up first, one a line, so that linkStyle's indices 0.. are theirs; the rest one
    # line per importer (Mermaid's "a --> b & c").
    for source, target in up:
        lines.append(f'  {_node_id(source)} -->|"UP: forbidden"| {_node_id(target)}')
    down: dict[str, list[str]] = {}
    for source, target in links:
        if (source, target) not in up:
            down.setdefault(source, []).append(_node_id(target))
    for source, targets in down.items():
        lines.append(f"  {_node_id(source)} --> {' & '.join(targets)}")
    if up:
        lines.append(
            f"  linkStyle {','.join(map(str, range(len(up))))} stroke:red,stroke-width:3px"
        )
    lines.append("```")
    return "\n".join(lines)


def render(text: str, root: Path = ROOT) -> str:
    """``text`` with the picture between the markers redrawn from the code."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"the page has no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{mermaid(root)}\n{END}{tail}"


def is_stale(page: Path = PAGE) -> bool:
    """Whether the committed picture differs from what the code draws."""
    text = page.read_text()
    return render(text) != text


def main(argv: Sequence[str]) -> int:
    """Redraws the picture (``--check``: only says whether it is stale)."""
    if "--check" in argv:
        if is_stale():
            print(f"{PAGE}: the layers picture is stale; run python -m experiments.common.layers")
            return 1
        return 0
    if is_stale():
        PAGE.write_text(render(PAGE.read_text()))
        print(f"rewrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
