"""Loads the native engine, ``bots._native``, or says why it cannot run.

The extension leaves OpenSpiel's and abseil's symbols unresolved: they are taken
from the ``pyspiel.so`` already loaded, promoted to the global namespace here, so
the engine and pyspiel share one game registry. A build is refused when it is
stale: its sources changed since it was compiled (an editable checkout), or the
installed open_spiel is not the one it was built against. ``pip install -e .``
rebuilds it.

Loading the extension also registers the native search bots in OpenSpiel's bot
registry (bots/native/bot.h): ``starspiel_expectiminimax``, ``starspiel_star1``,
``starspiel_star2``, ``starspiel_chanceprobcut`` and ``starspiel_mcms``, so
``pyspiel.load_bot("starspiel_star2", game, player, {"max_depth": 3})`` and any
OpenSpiel code that loads bots by name get a C++ bot. ``import bots`` loads it.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import os
import warnings
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pyspiel

ROOT = Path(__file__).resolve().parent.parent
NATIVE_DIRS = ("bots/native", "games/native")
REBUILD = "rebuild it with `pip install -e .` (needs g++)"

_module: ModuleType | None = None
_problem: str | None = None
_loaded = False


def source_digest(root: Path = ROOT) -> str | None:
    """setup.py's digest of the engine's sources, or None where they are not installed."""
    files: list[Path] = []
    for folder in NATIVE_DIRS:
        base = root / folder
        if not base.is_dir():
            return None
        files += list(base.rglob("*.cc")) + list(base.rglob("*.h"))
    if not files:
        return None
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _load() -> tuple[ModuleType | None, str | None]:
    if os.environ.get("STARSPIEL_ENGINE") == "python":
        return None, "STARSPIEL_ENGINE=python is set"
    # Promote pyspiel's symbols so the extension resolves OpenSpiel and abseil from it.
    ctypes.CDLL(pyspiel.__file__, mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)
    try:
        module = importlib.import_module("bots._native")
    except ImportError as error:
        if "No module named" in str(error):
            return None, f"the native engine is not built; {REBUILD}"
        return None, f"the native engine failed to load ({error}); {REBUILD}"
    installed = metadata.version("open_spiel")
    if module.OPEN_SPIEL_VERSION != installed:
        return None, (
            f"the native engine was built against open_spiel {module.OPEN_SPIEL_VERSION} "
            f"but {installed} is installed; {REBUILD}"
        )
    digest = source_digest()
    if digest is not None and digest != module.SOURCE_DIGEST:
        return None, (
            f"the native engine is stale: its C++ sources changed after it was built; {REBUILD}"
        )
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
    """Loads the extension, whose bots OpenSpiel then knows; returns their names.

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
