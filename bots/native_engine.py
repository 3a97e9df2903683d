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

import hashlib
import importlib
import importlib.util
import os
import re
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


def _linked_pyspiel(extension: str) -> str | None:
    """The pyspiel.so the loader would give ``extension``: the first on its rpath (setup.py
    writes it starting with ``$ORIGIN/..``), or None where the rpath names none."""
    with open(extension, "rb") as handle:
        found = re.search(rb"\$ORIGIN/\.\.[^\0]*", handle.read())
    if found is None:
        return None
    for folder in found.group().decode(errors="replace").split(":"):
        folder = folder.replace("$ORIGIN", os.path.dirname(os.path.abspath(extension)))
        candidate = os.path.normpath(os.path.join(folder, "pyspiel.so"))
        if os.path.exists(candidate):
            return candidate
    return None


def _load() -> tuple[ModuleType | None, str | None]:
    if os.environ.get("STARSPIEL_ENGINE") == "python":
        return None, "STARSPIEL_ENGINE=python is set"
    spec = importlib.util.find_spec("bots._native")
    if spec is None or spec.origin is None:
        return None, f"the native engine is not built; {REBUILD}"
    linked = _linked_pyspiel(spec.origin)
    if linked is not None and not os.path.samefile(linked, pyspiel.__file__):
        # Loading it would load a second OpenSpiel beside this one (a fatal error in its
        # game registry): it was built in another Python environment.
        return None, (
            f"the native engine was built for another environment's {linked}, not this "
            f"one's {pyspiel.__file__}; {REBUILD}"
        )
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
