"""The native engine's `// mirrors:` comments name Python that exists.

A C++ function that mirrors a Python one says so on the line above its definition, in
one form: ``// mirrors: bots/<module>.py <name>``, where ``<name>`` is a module-level
function or class, or ``Class.method``. A rename on the Python side that leaves a
comment pointing nowhere fails here, so a reader can always follow the C++ to the
reference it must agree with. Names are read from the Python sources with ``ast``
(nothing is imported).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "bots" / "native"
MIRRORS = re.compile(r"// mirrors: (bots/\S+\.py) ([A-Za-z_][\w.]*)(?:\s|$)")


def _comments() -> list[tuple[str, int, str, str]]:
    """(C++ file, line, Python path, dotted name) of every `// mirrors:` comment."""
    found = []
    for path in sorted(NATIVE.rglob("*")):
        if path.suffix not in (".cc", ".h"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.lstrip().startswith("// mirrors:"):
                continue
            match = MIRRORS.match(line.strip())
            assert match, f"{path.relative_to(ROOT)}:{number}: not `// mirrors: <file> <name>`"
            found.append((str(path.relative_to(ROOT)), number, match[1], match[2]))
    return found


@cache
def _definitions(python_path: str) -> dict[str, set[str]]:
    """Module-level names of a Python file, each class with the names its body defines."""
    tree = ast.parse((ROOT / python_path).read_text(), filename=python_path)
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets if isinstance(t, ast.Name))
            names[node.name] = members
    return names


def test_the_engine_names_its_python_counterparts():
    # search.cc mirrors its Python engine function for function; far fewer would mean
    # the comments were lost.
    comments = _comments()
    assert sum(source == "bots/native/search.cc" for source, *_ in comments) >= 40


def test_every_named_counterpart_exists():
    problems = []
    for source, number, python_path, name in _comments():
        where = f"{source}:{number}: {python_path} {name}"
        if not (ROOT / python_path).is_file():
            problems.append(f"{where}: no such file")
            continue
        definitions = _definitions(python_path)
        top, _, member = name.partition(".")
        if top not in definitions:
            problems.append(f"{where}: {python_path} defines no {top}")
        elif member and member not in definitions[top]:
            problems.append(f"{where}: {top} defines no {member}")
    assert not problems, "\n".join(problems)
