"""Every file, module and symbol the docs name in backticks exists, so a page cannot point at code
that moved.

* A repository path (`bots/native/search.cc`, `games/native/`, `bots/native/evaluators/*.cc`)
  must exist (a glob must match), on every page and in the README.
* A dotted name of the project (`bots.search.search`, `experiments.common.runner.Task`) must
  import and resolve, on every page.
* On the extending pages, which walk through C++ and test files by name, every other name
  in backticks (`RegisterEvaluator`, `open_spiel::GameRegisterer`, `CASES`, `native_name`)
  must occur in the repository's sources or in the page's own python examples.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
EXTENDING = sorted((ROOT / "docs" / "extending").glob("*.md"))
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
PYTHON_FENCE = re.compile(r"^```python\s*\n(.*?)^```", re.S | re.M)
TICKED = re.compile(r"`([^`\n]+)`")
PATH = re.compile(
    r"^(?:bots|games|experiments|tests|docs|\.ci)/[\w./*-]*$|^(?:setup\.py|pyproject\.toml|mkdocs\.yml)$"
)
DOTTED = re.compile(
    r"^(?!.*\.(?:jsonl|json|md|csv|png|py|xz)$)(?:bots|games|experiments)(?:\.\w+)+$"
)
SYMBOL = re.compile(r"^[A-Za-z_][\w]*(?:(?:::|\.)[A-Za-z_]\w*)*(?:\(\))?$")
SOURCES = ("bots", "games", "experiments", "tests")
SOURCE_SUFFIXES = {".py", ".cc", ".h", ".json"}


def _ticked(page: Path) -> list[str]:
    """Backticked text outside code blocks."""
    return TICKED.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


@cache
def _corpus() -> str:
    files = [ROOT / "setup.py", ROOT / "pyproject.toml"]
    for folder in SOURCES:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in SOURCE_SUFFIXES]
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_paths_and_modules_exist(page: Path) -> None:
    missing = []
    for text in _ticked(page):
        if PATH.match(text) and not any(c in text for c in "<>"):
            found = list(ROOT.glob(text.rstrip("/"))) if "*" in text else [ROOT / text]
            if not found or not all(p.exists() for p in found):
                missing.append(f"path {text}")
        elif DOTTED.match(text) and not text.startswith("bots._native") and not _resolves(text):
            missing.append(f"name {text}")
    assert not missing, f"{page.relative_to(ROOT)} names what does not exist: {missing}"


@pytest.mark.parametrize("page", EXTENDING, ids=lambda p: p.name)
def test_the_extending_pages_name_real_symbols(page: Path) -> None:
    examples = "\n".join(PYTHON_FENCE.findall(page.read_text(encoding="utf-8")))
    missing = []
    for text in _ticked(page):
        name = text.removesuffix("()")
        if PATH.match(text) or DOTTED.match(name) or not SYMBOL.match(text):
            continue
        if name.startswith(("pyspiel.", "numpy.", "open_spiel.")) and _resolves(name):
            continue
        if name in _corpus() or name in examples:
            continue
        parts = re.split(r"::|\.", name)
        if len(parts) > 1 and all(
            re.search(rf"\b{re.escape(p)}\b", _corpus() + examples) for p in parts
        ):
            continue  # a qualified name (StarSearcher._probe) whose every part is there
        missing.append(text)
    assert not missing, f"{page.name} names symbols found nowhere in the sources: {missing}"


def test_a_missing_path_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See `bots/no_such_module.py` and `bots.search.no_such_name`.\n")
    texts = _ticked(page)
    assert PATH.match(texts[0]) and not (ROOT / texts[0]).exists()
    assert DOTTED.match(texts[1]) and not _resolves(texts[1])


CODE_LINK = re.compile(r"docs/[\w/]+\.md(?:#[\w-]+)?")


def test_links_from_the_code_land_on_pages_and_headings() -> None:
    """Comments and docstrings justify choices by links into the docs; those must not go stale."""
    from test_docs_links import anchors, github_slug

    broken = []
    for folder in ("bots", "games", "experiments", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".cc", ".h"}:
                continue
            for link in CODE_LINK.findall(path.read_text(encoding="utf-8", errors="replace")):
                page, _, anchor = link.partition("#")
                if not (ROOT / page).exists():
                    broken.append(f"{path.relative_to(ROOT)}: {link}")
                elif anchor and anchor not in anchors(ROOT / page, github_slug):
                    broken.append(f"{path.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "links from the code into the docs that do not resolve: " + "; ".join(broken)
