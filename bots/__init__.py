"""starspiel bots: Expectiminimax, Star1, Star2 and ChanceProbCut for OpenSpiel.

`make_bot` also builds OpenSpiel's MCTS (`bots.mcts`: the C++ bot on C++ games,
the Python one on Python-registered games) and a seeded uniform random bot.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BOT_NAMES", "SEARCH_BOTS", "check_game_supported", "make_bot"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so `python -m bots.compile` runs without loading the
    # engine (a stale compiled engine refuses to load; the tool is how to fix it).
    if name in __all__:
        from bots import factory

        return getattr(factory, name)
    raise AttributeError(f"module 'bots' has no attribute {name!r}")
