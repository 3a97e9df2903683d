"""The search engines every exactness test runs on (see conftest.py's ``engine`` fixture).

``ENGINES`` parametrizes a test directly (hypothesis tests, module-level helpers):
``@pytest.mark.parametrize("engine", ENGINES)``. Its ``native`` case is skipped, with
``native_engine.problem()`` as the reason, where the extension cannot run (not built,
stale, STARSPIEL_ENGINE=python). Tests that take the ``engine`` fixture get the same.
Pass the value on as ``engine=`` to ``bots.make_bot``, ``bots.search.search`` or
``bots.native_searcher.make_searcher``: never rely on ``auto``, which picks either.
"""

from __future__ import annotations

from typing import Any

import pytest

from bots import native_engine
from bots.native_searcher import is_cpp_game

ENGINE_NAMES = ("python", "native")


def native_problem() -> str | None:
    """Why engine=native cannot run here, or None."""
    return native_engine.problem()


def skip_unless_runs(engine: str) -> None:
    """Skips the calling test when ``engine`` is native and the extension cannot run."""
    if engine == "native" and native_problem() is not None:
        pytest.skip(f"engine=native: {native_problem()}")


ENGINES = [
    "python",
    pytest.param(
        "native",
        marks=pytest.mark.skipif(
            native_problem() is not None, reason=f"engine=native: {native_problem()}"
        ),
        id="native",
    ),
]


def position_keyed(game: Any) -> bool:
    """Whether the Python engine keys ``game``'s table by search_position() positions."""
    return not is_cpp_game(game) and hasattr(game.new_initial_state(), "search_position")
