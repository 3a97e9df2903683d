"""Shared test setup. The helper modules live in tests/helpers/ (``from helpers.engines
import ...``: pyproject's pytest ``pythonpath`` holds ``tests``). The markers ``slow`` and
``parity`` are registered there and set by the test modules themselves (``pytestmark``).

The ``engine`` fixture runs a test once per search engine (``python``, ``native``);
the native run is skipped with ``native_engine.problem()`` as the reason where the
extension cannot run. Hypothesis tests parametrize with ``engines.ENGINES`` instead.

A run whose native engine cannot load (not built, stale, built for another
open_spiel) stops at session start with one line saying why and how to rebuild:
a suite whose native cases all skipped would pass without testing what users run.
``STARSPIEL_ENGINE=python`` opts out explicitly (machines without a compiler): the
native cases then skip.
"""

from __future__ import annotations

import os

import pytest
from helpers import session_cache
from helpers.engines import ENGINE_NAMES, skip_unless_runs

from bots import calibration, calibration_fit, native_engine

# Self-calibrations in tests: seconds, not the default plan's minute.
TINY_PLAN = calibration_fit.QuickPlan(
    positions=4,
    max_outcomes=3,
    max_depth=3,
    node_budget=20_000,
    python_node_budget=5_000,
    min_children=4,
)

OPT_OUT = "STARSPIEL_ENGINE=python"


def engine_verdict() -> str | None:
    """Why this run must not start, or None: the native engine loads, or is opted out."""
    if os.environ.get("STARSPIEL_ENGINE") == "python":
        return None
    problem = native_engine.problem()
    if problem is None:
        return None
    return f"starspiel: {problem}; or set {OPT_OUT} to test the Python engine only"


def pytest_sessionstart(session: pytest.Session) -> None:
    verdict = engine_verdict()
    if verdict is not None:
        pytest.exit(verdict, returncode=3)


@pytest.fixture(params=ENGINE_NAMES)
def engine(request: pytest.FixtureRequest) -> str:
    """``"python"`` or ``"native"``: pass it on as ``engine=``."""
    skip_unless_runs(request.param)
    return request.param


@pytest.fixture(autouse=True, scope="session")
def no_user_calibrations(tmp_path_factory: pytest.TempPathFactory):
    """Bots in tests read the committed calibrations, never the ones this machine's user
    installed (bots/calibration.py looks in the user's folder first); a game without one
    calibrates itself with a tiny plan into this session's folder."""
    empty = str(tmp_path_factory.mktemp("user_calibrations"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(calibration, "user_calibration_dir", lambda: empty)
        patch.setattr(calibration_fit, "QUICK_PLAN", TINY_PLAN)
        yield empty


@pytest.fixture(autouse=True, scope="session")
def shared_session_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """helpers.session_cache keeps its results in this session's temporary folder."""
    session_cache.configure(tmp_path_factory.getbasetemp())
