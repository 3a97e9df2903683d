"""Every link between the README and the docs pages lands on a file and heading that exist."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
PAGES = [os.path.join(ROOT, "README.md")] + sorted(
    os.path.join(DOCS, name) for name in os.listdir(DOCS) if name.endswith(".md")
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _slug(heading: str) -> str:
    # GitHub's rule: lower case, drop what is not a letter, digit, space, hyphen or
    # underscore, spaces become hyphens.
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: str) -> set[str]:
    with open(path, encoding="utf-8") as handle:
        text = FENCE.sub("", handle.read())
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            slug = _slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        text = FENCE.sub("", handle.read())
    return [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]


@pytest.mark.parametrize("page", PAGES, ids=os.path.basename)
def test_links_land_on_existing_files_and_headings(page):
    broken = []
    for link in _links(page):
        target, _, anchor = link.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
        if not os.path.exists(path):
            broken.append(f"{link}: no file {os.path.relpath(path, ROOT)}")
        elif anchor and path.endswith(".md") and anchor not in _anchors(path):
            broken.append(f"{link}: no heading with that anchor")
    assert not broken, f"{os.path.relpath(page, ROOT)}: " + "; ".join(broken)
