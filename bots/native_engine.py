"""Loads the native engine, ``bots._native``, or says why it cannot run.

The extension is linked against open_spiel's ``pyspiel.so`` and finds it through
its rpath (setup.py), so the loader reuses the ``pyspiel.so`` Python has already
loaded: the engine and pyspiel share one game registry, and nothing is promoted to
the process's global symbol namespace. A build is refused when it is stale: its
sources changed since it was compiled (an editable checkout), or the installed
open_spiel is not the one it was built against. ``pip install -e .`` rebuilds it.
``STARSPIEL_ENGINE=python`` runs the Python engine only, without a warning.

Loading the extension also registers every ``make_bot`` name in OpenSpiel's bot
registry as ``starspiel_<name>`` (bots/native/bot_registry.cc), so
``pyspiel.load_bot("starspiel_star2", game, player, {"max_depth": 3})`` and any
OpenSpiel code that loads bots by name get ``make_bot``'s bot, as a C++ bot that
calls it. ``import bots`` loads it.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType

import pyspiel

# The games first: their extension registers the C++ games (the engine links against it),
# and where it cannot load, the Python twins take the plain names.
from games import native_games
from games.native_games import REBUILD, source_digest

__all__ = ["native", "problem", "require", "register_native_bots", "source_digest", "REBUILD"]

_module: ModuleType | None = None
_problem: str | None = None
_loaded = False


def _load() -> tuple[ModuleType | None, str | None]:
    if os.environ.get("STARSPIEL_ENGINE") == "python":
        return None, "STARSPIEL_ENGINE=python is set"
    if native_games.module() is None:
        # The engine links against the games' extension: refused for the same reason (one
        # build, one source digest).
        return None, str(native_games.problem()).replace("games._native_games", "the native engine")
    module, problem = native_games.load_extension("bots._native", source_digest())
    if problem is not None:
        return None, problem.replace("bots._native", "the native engine", 1)
    return module, None


def native() -> ModuleType | None:
    """The loaded extension, or None (``problem()`` says why)."""
    global _module, _problem, _loaded
    if not _loaded:
        _module, _problem = _load()
        _loaded = True
        if _problem is not None and os.environ.get("STARSPIEL_ENGINE") != "python":
            # pip hides a build's output: say it once where it matters, at first use.
            warnings.warn(f"starspiel: {_problem}; the Python engine runs", stacklevel=2)
        elif _module is not None and _module.field_paths_problem() is not None:
            # Built against an open_spiel whose private fields were not checked.
            warnings.warn(f"starspiel: {_module.field_paths_problem()}", stacklevel=2)
    return _module


def problem() -> str | None:
    """Why the native engine cannot run here, or None when it can."""
    native()
    return _problem


NATIVE_BOT_PREFIX = "starspiel_"


def register_native_bots() -> list[str]:
    """Loads the extension, whose registry entries OpenSpiel then knows; returns their names.

    Raises a RuntimeError saying why where the native engine cannot run.
    """
    require()
    return sorted(name for name in pyspiel.registered_bots() if name.startswith(NATIVE_BOT_PREFIX))


def require() -> ModuleType:
    """The extension, or a RuntimeError saying why it cannot run."""
    module = native()
    if module is None:
        raise RuntimeError(f"engine=native is unavailable: {_problem}")
    return module
