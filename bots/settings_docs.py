"""The docs' generated tables: parameters and counters (bots/options.py, bots/counters.py)
and the shipped learned models (their files' metadata, bots/learned/models).

Each table sits in a docs page between ``<!-- settings:NAME:begin -->`` and
``<!-- settings:NAME:end -->``; tests/test_settings_table.py fails when one
differs from what the rows render. Regenerate them with
``python -m bots.settings_docs`` (``--check`` only reports).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bots.counters import COUNTERS
from bots.options import (
    BOT_SETTINGS,
    SEARCH_BOTS,
    GameDefault,
    Setting,
    bot_settings,
    option_settings,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
# The pages that hold generated tables.
PAGES = ("guide/bots.md", "guide/learned.md")


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _names(names: Sequence[str], everyone: Sequence[str]) -> str:
    return "all" if tuple(names) == tuple(everyone) else ", ".join(names)


def _game_default(entry: GameDefault) -> str:
    return f"{_value(entry.value)} for {', '.join(entry.bots)} in {', '.join(entry.games)}"


def _default(row: Setting) -> str:
    text = row.default_text or _value(row.default if row.bot_default is None else row.bot_default)
    if row.bot_default is not None and not row.default_text and row.level == "search":
        text += f" (SearchOptions: {_value(row.default)})"
    extra = "; ".join(_game_default(entry) for entry in row.game_defaults)
    return f"{text}; {extra}" if extra else text


def _accepts(row: Setting) -> str:
    if row.kind == "choice":
        return " or ".join(f"`{choice}`" for choice in row.choices)
    return row.accepts


def _table(header: Sequence[str], lines: Iterable[Sequence[str]]) -> str:
    rows = [header, ["---"] * len(header), *lines]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in rows)


def search_bots_table() -> str:
    """Every parameter a search bot takes: the bot's own, then the SearchOptions ones."""
    rows: dict[str, Setting] = {}
    for bot in SEARCH_BOTS:
        for name, row in bot_settings(bot).items():
            rows.setdefault(name, row)
    return _table(
        ("parameter", "accepts", "default", "bots", "meaning"),
        (
            (
                f"`{row.name}`",
                _accepts(row),
                _default(row),
                _names(row.bots, SEARCH_BOTS),
                row.meaning,
            )
            for row in sorted(rows.values(), key=_table_order)
        ),
    )


def _table_order(row: Setting) -> int:
    order = BOT_SETTINGS + option_settings()
    return next(i for i, other in enumerate(order) if other is row)


def search_options_table() -> str:
    """The SearchOptions fields that make_bot does not take as parameters."""
    return _table(
        ("field", "accepts", "default", "meaning"),
        (
            (f"`{row.name}`", _accepts(row), _default(row), row.meaning)
            for row in option_settings()
            if not row.bots
        ),
    )


def other_bots_table() -> str:
    """The parameters of the mcts and random bots."""
    return _table(
        ("parameter", "bot", "accepts", "default", "meaning"),
        (
            (f"`{row.name}`", ", ".join(row.bots), _accepts(row), _default(row), row.meaning)
            for row in BOT_SETTINGS
            if not set(row.bots) & set(SEARCH_BOTS)
        ),
    )


def counters_table() -> str:
    """The counters of ``last_search``."""
    return _table(
        ("counter", "algorithms", "meaning"),
        (
            (f"`{counter.name}`", _names(counter.algorithms, SEARCH_BOTS), counter.meaning)
            for counter in COUNTERS
        ),
    )


def _architecture(metadata: dict[str, Any]) -> str:
    arch = metadata["architecture"]
    if metadata["family"] == "mlp":
        hidden = "-".join(str(h) for h in arch["hidden"])
        return f"MLP, hidden {hidden}, `{metadata['encoding']}`"
    sizes = sorted({len(t) for t in arch["tuples"]})
    kinds = " and ".join(f"{k}-tuples" for k in sizes)
    return f"{len(arch['tuples'])} tables of {kinds}, `{arch['symmetries']}` symmetries"


def commands(training: dict[str, Any]) -> str:
    """The commands that made a model, first to last: a run with --init keeps its parent's
    training metadata under "init", and each parent ran to the games it was left at."""
    stages = [training]
    while "init" in stages[-1]:
        stages.append(stages[-1]["init"])
    parts = [f"`{s['command']}` to {s['games']:,} games" for s in reversed(stages[1:])]
    return ", then ".join([*parts, f"`{training['command']}`"])


def shipped_models_table() -> str:
    """The models in bots/learned/models: what each is and how it was made."""
    import json

    import numpy as np

    from bots.evaluators.learned import MODELS

    rows = []
    for path in sorted(MODELS.glob("*.npz")):
        with np.load(path) as data:
            metadata = json.loads(str(data["metadata"]))
        training = metadata["training"]
        cpu_hours = training["seconds"] * training["workers"] / 3600
        rows.append(
            (
                f"`{metadata['game']}`",
                _architecture(metadata),
                f"{training['games']:,}",
                f"{cpu_hours:.2f}",
                f"{path.stat().st_size / 2**20:.1f} MB",
                commands(training),
            )
        )
    return _table(("game", "model", "games", "CPU-hours", "file", "command"), rows)


TABLES: dict[str, Callable[[], str]] = {
    "shipped-models": shipped_models_table,
    "search-bots": search_bots_table,
    "search-options": search_options_table,
    "other-bots": other_bots_table,
    "counters": counters_table,
}


def render(text: str) -> str:
    """``text`` with every marked table replaced by what the rows render."""

    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in TABLES:
            raise ValueError(f"unknown settings table {name!r}; accepted: {', '.join(TABLES)}")
        return f"<!-- settings:{name}:begin -->\n{TABLES[name]()}\n<!-- settings:{name}:end -->"

    return re.sub(
        r"<!-- settings:([a-z-]+):begin -->\n.*?<!-- settings:\1:end -->",
        table,
        text,
        flags=re.DOTALL,
    )


def stale_pages(docs: Path = DOCS) -> list[Path]:
    """The pages whose generated tables differ from the rows."""
    return [
        docs / page
        for page in PAGES
        if render((docs / page).read_text()) != (docs / page).read_text()
    ]


def main(argv: Sequence[str]) -> int:
    """Rewrites the stale tables (``--check``: only names the stale pages)."""
    stale = stale_pages()
    if "--check" in argv:
        for page in stale:
            print(f"{page}: its settings tables are stale; run python -m bots.settings_docs")
        return 1 if stale else 0
    for page in stale:
        page.write_text(render(page.read_text()))
        print(f"rewrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
