"""starspiel bots: Expectiminimax, Star1, Star2 and ChanceProbCut for OpenSpiel.

`make_bot` also builds OpenSpiel's MCTS (`bots.mcts`: the C++ bot on C++ games,
the Python one on Python-registered games) and a seeded uniform random bot.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["BOT_NAMES", "SEARCH_BOTS", "check_game_supported", "make_bot"]

_SUBMODULES = frozenset(
    {
        "calibration",
        "evaluators",
        "factory",
        "keys",
        "mcms",
        "mcts",
        "native_engine",
        "native_search",
        "node",
        "search",
        "search_bot",
        "spec",
        "transposition",
    }
)


def __getattr__(name: str) -> Any:
    # Loaded on first use (`bots.make_bot`, `bots.evaluators.EVALUATORS`, ...): a
    # plain `import bots` stays cheap and loads neither engine.
    if name in __all__:
        return getattr(importlib.import_module("bots.factory"), name)
    if name in _SUBMODULES:
        return importlib.import_module(f"bots.{name}")
    raise AttributeError(f"module 'bots' has no attribute {name!r}")
