"""starspiel bots: Expectiminimax, Star1, Star2 and ChanceProbCut for OpenSpiel.

`make_bot` also builds OpenSpiel's MCTS (`bots.mcts`: the C++ bot on C++ games,
the Python one on Python-registered games) and a seeded uniform random bot.

``import bots`` also loads the native engine where it is built, which registers
make_bot's bots with OpenSpiel: ``pyspiel.load_bot("starspiel_star2", game,
player, {"max_depth": 3})`` is ``make_bot("star2", game, player, max_depth=3)``
(likewise ``starspiel_<name>`` for every make_bot name).
``bots.register_native_bots()`` returns their names, or raises a
RuntimeError saying why the engine cannot run here.
"""

from __future__ import annotations

import importlib
from typing import Any

from bots import native_engine as _native_engine

__all__ = [
    "BOT_NAMES",
    "SEARCH_BOTS",
    "check_game_supported",
    "make_bot",
    "register_native_bots",
]

_SUBMODULES = frozenset(
    {
        "calibration",
        "deepening_bot",
        "evaluators",
        "factory",
        "keys",
        "mcms",
        "mcts",
        "native_engine",
        "native_searcher",
        "node",
        "options",
        "ordering",
        "probcut_models",
        "search",
        "spec",
        "transposition",
    }
)


def register_native_bots() -> list[str]:
    """The names of the native bots in OpenSpiel's registry (see the module doc)."""
    return _native_engine.register_native_bots()


# The registry entries come with the extension; where it cannot load,
# native_engine.problem() says why and the Python bots still work.
_native_engine.native()


def __getattr__(name: str) -> Any:
    # Loaded on first use (`bots.make_bot`, `bots.evaluators.EVALUATORS`, ...): a
    # plain `import bots` stays cheap, loading only the C++ extension (about 0.1 s,
    # for OpenSpiel's registry) and none of the Python search modules.
    if name in __all__:
        return getattr(importlib.import_module("bots.factory"), name)
    if name in _SUBMODULES:
        return importlib.import_module(f"bots.{name}")
    raise AttributeError(f"module 'bots' has no attribute {name!r}")
