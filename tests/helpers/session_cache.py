"""One costly computation per test session, shared by the xdist workers.

Why: two tests that check different properties of one run (the exactness and the node
counts of test_exactness.py) land on different workers, and each would redo the run. The
first worker to ask computes it under a file lock and leaves the result in the session's
temporary folder; a worker asking later (or waiting on the lock) reads it. The folder
belongs to this session (pytest's numbered basetemp), so no result outlives the run.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

_folder: Path | None = None


def configure(basetemp: Path) -> None:
    """Called once per process by conftest.py: a worker's basetemp is the session's plus
    ``popen-gwN``, so the workers share the parent."""
    global _folder
    session = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    _folder = session / "session_cache"


def session_cached(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` computed once per session for each tuple of positional arguments (their
    ``repr`` is the key); results must pickle."""

    @functools.cache
    @functools.wraps(fn)
    def cached(*args: Any) -> Any:
        if _folder is None:
            return fn(*args)
        _folder.mkdir(parents=True, exist_ok=True)
        key = repr((fn.__module__, fn.__qualname__, args)).encode()
        name = hashlib.sha256(key).hexdigest()[:32]
        result_path = _folder / f"{name}.pickle"
        with open(_folder / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if result_path.exists():
                return pickle.loads(result_path.read_bytes())
            result = fn(*args)
            partial = result_path.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(result))
            partial.replace(result_path)
            return result

    return cached
