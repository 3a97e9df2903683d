"""Runs every ```python example of README.md and docs/, so the docs cannot go stale.

The blocks of one file run in order in one namespace (a later example may use
what an earlier one defined, as a reader would in one session); each file is
one test case, and a failure names the file and the block's first line.
Listings that are not meant to run use another fence language (```text). A page whose
examples build on another page's says so in a comment, ``<!-- examples continue: game.md -->``
(a path relative to the page): that page's blocks run first, in the same namespace.
"""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python\s*\n(.*?)^```", re.S | re.M)
CONTINUES = re.compile(r"<!-- examples continue: (\S+) -->")


def python_blocks(path: pathlib.Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in FENCE.finditer(text)]


def prelude(path: pathlib.Path) -> list[pathlib.Path]:
    """The pages whose examples run before this page's, in order."""
    match = CONTINUES.search(path.read_text(encoding="utf-8"))
    if not match:
        return []
    first = (path.parent / match.group(1)).resolve()
    assert first.exists(), f"{path}: its examples continue {match.group(1)}, which does not exist"
    return [*prelude(first), first]


FILES_WITH_EXAMPLES = [p for p in DOC_FILES if python_blocks(p)]


def test_the_docs_have_examples() -> None:
    names = {str(p.relative_to(ROOT)) for p in FILES_WITH_EXAMPLES}
    assert "README.md" in names, "the README's quick start must be a python block"
    extending = {
        f"docs/extending/{page}.md" for page in ("game", "evaluator", "option", "experiment")
    }
    assert extending <= names, f"every extending page has a worked example: {extending - names}"


@pytest.mark.parametrize(
    "path", FILES_WITH_EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in FILES_WITH_EXAMPLES]
)
def test_examples_run(path: pathlib.Path) -> None:
    namespace: dict = {"__name__": f"docs_example_{path.stem}"}
    blocks = [
        (page, line, source)
        for page in [*prelude(path), path]
        for line, source in python_blocks(page)
    ]
    for page, line, source in blocks:
        where = f"{page.relative_to(ROOT)}:{line}"
        code = compile(source, where, "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(code, namespace)
            except Exception as error:  # the example's own error, with where it is
                pytest.fail(f"example at {where} raised {type(error).__name__}: {error}")
