"""Shared test setup. Helper modules in tests/ (plain_expectiminimax,
random_tree_game, engines) are importable through pytest's ``pythonpath`` setting
in pyproject.toml, and the ``slow`` marker is registered there too.

The ``engine`` fixture runs a test once per search engine (``python``, ``native``);
the native run is skipped with ``native_engine.problem()`` as the reason where the
extension cannot run. Hypothesis tests parametrize with ``engines.ENGINES`` instead.
"""

from __future__ import annotations

import pytest
from engines import ENGINE_NAMES, skip_unless_runs


@pytest.fixture(params=ENGINE_NAMES)
def engine(request: pytest.FixtureRequest) -> str:
    """``"python"`` or ``"native"``: pass it on as ``engine=``."""
    skip_unless_runs(request.param)
    return request.param
