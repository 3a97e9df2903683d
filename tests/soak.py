"""STARSPIEL_SOAK=k: the exactness tests with k times their examples, new ones each run.

CI runs k=1 (unset): derandomized examples and fixed positions, the same on every
run, so a red build is never luck. A soak run draws fresh hypothesis examples (a
failure prints its shrunk tree) and real-game positions from a new seed (a failure
names it; STARSPIEL_SOAK_SEED repeats it).
"""

from __future__ import annotations

import os
import secrets


def _int_setting(name: str, default: int, minimum: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {raw!r}")
    return value


SOAK = _int_setting("STARSPIEL_SOAK", 1, 1)
SEED = _int_setting("STARSPIEL_SOAK_SEED", secrets.randbelow(2**31) if SOAK > 1 else 0, 0)


def examples(count: int) -> int:
    """A test's usual number of examples or positions, times STARSPIEL_SOAK."""
    return count * SOAK
