"""STARSPIEL_SOAK=k: the exactness tests with k times their examples, new ones each run.

CI runs k=1 (unset): derandomized examples and fixed positions, the same on every
run, so a red build is never luck. A soak run draws fresh hypothesis examples (a
failure prints its shrunk tree) and real-game positions from a new seed (a failure
names it; STARSPIEL_SOAK_SEED repeats it).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping

from hypothesis import HealthCheck


def _int_setting(environ: Mapping[str, str], name: str, default: int, minimum: int) -> int:
    raw = environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {raw!r}")
    return value


def soak_settings(environ: Mapping[str, str]) -> tuple[int, int]:
    """(soak factor, seed of the real-game positions) that ``environ`` asks for."""
    soak = _int_setting(environ, "STARSPIEL_SOAK", 1, 1)
    fresh = secrets.randbelow(2**31) if soak > 1 else 0
    return soak, _int_setting(environ, "STARSPIEL_SOAK_SEED", fresh, 0)


SOAK, SEED = soak_settings(os.environ)


def examples(count: int) -> int:
    """A test's usual number of examples or positions, times STARSPIEL_SOAK."""
    return count * SOAK


# The hypothesis settings of every exactness test: derandomized in CI (the same examples on
# every run), fresh examples in a soak run.
PROFILE = dict(
    derandomize=SOAK == 1,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
