"""Runs every ```python example of README.md and docs/, so the docs cannot go stale.

The blocks of one file run in order in one namespace (a later example may use
what an earlier one defined, as a reader would in one session); each file is
one test case, and a failure names the file and the block's first line.
Listings that are not meant to run use another fence language (```text).
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


def python_blocks(path: pathlib.Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in FENCE.finditer(text)]


FILES_WITH_EXAMPLES = [p for p in DOC_FILES if python_blocks(p)]


def test_the_docs_have_examples() -> None:
    names = {p.name for p in FILES_WITH_EXAMPLES}
    assert "README.md" in names, "the README's quick start must be a python block"


@pytest.mark.parametrize(
    "path", FILES_WITH_EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in FILES_WITH_EXAMPLES]
)
def test_examples_run(path: pathlib.Path) -> None:
    namespace: dict = {"__name__": f"docs_example_{path.stem}"}
    for line, source in python_blocks(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        code = compile(source, where, "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(code, namespace)
            except Exception as error:  # the example's own error, with where it is
                pytest.fail(f"example at {where} raised {type(error).__name__}: {error}")
