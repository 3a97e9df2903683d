"""Every link of the README and the docs lands on a file and heading that exist.

The docs are read in two places: on the repository host (GitHub's heading anchors) and as the
site `mkdocs build` makes (Python-Markdown's anchors), so an anchor must be valid under both
rules. A docs page may link only inside docs/ (the site has nothing else); code is named in
backticks instead, and tests/test_docs_paths.py checks those names.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def github_slug(heading: str) -> str:
    """GitHub's rule: lower case, drop what is not a letter, digit, space, hyphen or
    underscore, spaces become hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def site_slug(heading: str) -> str:
    """Python-Markdown's toc.slugify (mkdocs' default): ASCII only, runs of spaces and
    hyphens become one hyphen."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path, slug) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            name = slug(re.sub(r"`", "", match.group(1)))
            count = seen.get(name, 0)
            seen[name] = count + 1
            found.add(
                name
                if count == 0
                else f"{name}-{count}"
                if slug is github_slug
                else f"{name}_{count}"
            )
    return found


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_land_on_existing_files_and_headings(page: Path) -> None:
    broken = []
    for link in links(page):
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(f"{link}: no file {path.relative_to(ROOT)}")
        elif page.is_relative_to(DOCS) and not path.is_relative_to(DOCS):
            broken.append(f"{link}: a docs page may link only inside docs/")
        elif anchor and path.suffix == ".md":
            for slug in (github_slug, site_slug):
                if anchor not in anchors(path, slug):
                    broken.append(f"{link}: no heading with that anchor ({slug.__name__})")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_slugs_follow_both_rules() -> None:
    assert github_slug("Resume after kill -9") == "resume-after-kill--9"
    assert site_slug("Resume after kill -9") == "resume-after-kill-9"
    assert site_slug("Einstein würfelt nicht!") == "einstein-wurfelt-nicht"


def test_pages_stay_short() -> None:
    """A page a reader can take in (300 lines at most) and docs a newcomer can read (3,500
    lines in all): results are summarised with their command, not logged run by run."""
    lengths = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in DOCS.rglob("*.md")}
    long = {str(p.relative_to(ROOT)): n for p, n in lengths.items() if n > 300}
    assert not long, f"pages over 300 lines: {long}"
    assert sum(lengths.values()) <= 3500, (
        f"docs/ holds {sum(lengths.values())} lines (at most 3,500)"
    )
