"""Loads the C++ custom games, ``games._native_games``, or says why they cannot load.

The extension (games/native/, built by setup.py beside the native engine, which links
against it) registers the C++ games with OpenSpiel under their plain names (``dice``,
``ballard_tree``, ``chance_tic_tac_toe``, ``cant_stop``) when it loads. It is refused
where loading it would be wrong: ``STARSPIEL_ENGINE=python`` is set, it was built for
another environment's ``pyspiel.so`` (a second OpenSpiel is a fatal error), against
another open_spiel, or from sources that have changed since (an editable checkout).
``games/__init__.py`` then registers the Python twins under the plain names too.
The native engine (bots/native_engine.py) uses the same checks.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pyspiel

ROOT = Path(__file__).resolve().parent.parent
# Every folder of C++ sources setup.py builds; their digest is compiled into both extensions.
NATIVE_DIRS = ("bots/native", "games/native")
REBUILD = "rebuild it with `pip install -e .` (needs g++)"

_module: ModuleType | None = None
_problem: str | None = None
_loaded = False


def source_digest(root: Path = ROOT) -> str | None:
    """setup.py's digest of the native sources, or None where they are not installed."""
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


def linked_pyspiel(extension: str) -> str | None:
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


def load_extension(name: str, digest: str | None) -> tuple[ModuleType | None, str | None]:
    """Imports the extension ``name`` unless it was built for another pyspiel.so, another
    open_spiel or other sources than those of ``digest`` (None: not installed, a wheel);
    returns it, or None and why not."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return None, f"{name} is not built; {REBUILD}"
    with open(spec.origin, "rb") as handle:
        # setup.py compiles the digest in as a string: a stale build is refused unloaded,
        # since loading runs its static registrations (games, observers, bots).
        stale = digest is not None and digest.encode() not in handle.read()
    if stale:
        return None, f"{name} is stale: its C++ sources changed after it was built; {REBUILD}"
    linked = linked_pyspiel(spec.origin)
    if linked is not None and not os.path.samefile(linked, pyspiel.__file__):
        return None, (
            f"{name} was built for another environment's {linked}, not this one's "
            f"{pyspiel.__file__}; {REBUILD}"
        )
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        if "No module named" in str(error):
            return None, f"{name} is not built; {REBUILD}"
        return None, f"{name} failed to load ({error}); {REBUILD}"
    installed = metadata.version("open_spiel")
    if module.OPEN_SPIEL_VERSION != installed:
        return None, (
            f"{name} was built against open_spiel {module.OPEN_SPIEL_VERSION} but {installed} "
            f"is installed; {REBUILD}"
        )
    if digest is not None and digest != module.SOURCE_DIGEST:
        return None, f"{name} is stale: its C++ sources changed after it was built; {REBUILD}"
    return module, None


def _checked() -> tuple[ModuleType | None, str | None]:
    if os.environ.get("STARSPIEL_ENGINE") == "python":
        return None, "STARSPIEL_ENGINE=python is set"
    return load_extension("games._native_games", source_digest())


def module() -> ModuleType | None:
    """The loaded extension (the C++ games hold their plain names), or None (``problem()``)."""
    global _module, _problem, _loaded
    if not _loaded:
        _module, _problem = _checked()
        _loaded = True
    return _module


def problem() -> str | None:
    """Why the C++ games are not loaded, or None when they are."""
    module()
    return _problem
