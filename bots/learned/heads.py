"""Heads: the values per player of a non-terminal state from the network's ``out``.

The order of the floating-point operations is the specification's (the C++ twin does
the same ones in the same order), so the values agree bit for bit. Every value lies in
the evaluator's bounds: the zero-sum one strictly inside the utility range (0.99 of it,
as the hand evaluators), win shares are positive and sum to one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Outputs = Sequence[float] | np.ndarray

SHRINK = 0.99  # as bots.evaluators.api.SHRINK: no estimate claims a certain result
FLOOR = 2.0**-20  # each win share's floor, so that the total is never zero


def zero_sum(out: Outputs, lo: float, hi: float) -> list[float]:
    """``v = min(max(out_0, 0.99 L), 0.99 U)``; values ``(v, -v)``."""
    v = min(max(float(out[0]), SHRINK * lo), SHRINK * hi)
    return [v, -v]


def one_player(out: Outputs, returns: float, lo: float, hi: float) -> list[float]:
    """The score so far plus the future estimate, clamped: ``min(max(r + out_0, L), U)``."""
    return [min(max(returns + float(out[0]), lo), hi)]


def win_shares(out: Outputs, lo: float, hi: float) -> list[float]:
    """Each player's share of the win: ``s_k = max(out_k, 0) + 2**-20``, ``p_k = s_k /
    total`` (summed left to right), value ``L + (U - L) * p_k``."""
    shares = [max(float(o), 0.0) + FLOOR for o in out]
    total = 0.0
    for s in shares:
        total += s
    return [lo + (hi - lo) * (s / total) for s in shares]
