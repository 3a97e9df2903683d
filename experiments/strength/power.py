"""How many games a strength question needs, fixed before any game is played.

A study plays seat-swapped game pairs on common dice, so its unit of
observation is a pair: its mean score 0, 0.25, ..., 1. The number of pairs
that detects a true score of 0.5 + effect with a two-sided test at level alpha
and the given power is ((z_{1-alpha/2} + z_power) * sd / effect)^2, where sd
is the standard deviation of a pair's mean score, estimated from an earlier
run's pentanomial (the counts of pairs scoring 0, 0.5, 1, 1.5 and 2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

EFFECT = 0.03  # detect a true score of 0.53
ALPHA = 0.05  # 95% confidence
POWER = 0.8

_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _z_sum(alpha: float, power: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)


def pair_sd(pentanomial: Sequence[int]) -> float:
    """Standard deviation of one pair's mean score, from pentanomial counts."""
    counts = [int(c) for c in pentanomial]
    if len(counts) != 5 or min(counts) < 0 or sum(counts) < 2:
        raise ValueError(f"a pentanomial is five counts >= 0 over 2+ pairs, got {list(counts)}")
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, _PAIR_SCORES)) / n
    return math.sqrt(sum(c * (v - mean) ** 2 for c, v in zip(counts, _PAIR_SCORES)) / (n - 1))


def pairs_needed(
    sd: float, effect: float = EFFECT, alpha: float = ALPHA, power: float = POWER
) -> int:
    """Pairs that detect a score of 0.5 + effect (two-sided level alpha, given power)."""
    if not sd > 0 or not 0 < effect < 0.5:
        raise ValueError(f"need sd > 0 and 0 < effect < 0.5, got sd={sd}, effect={effect}")
    return math.ceil((_z_sum(alpha, power) * sd / effect) ** 2)


def detectable_effect(sd: float, pairs: int, alpha: float = ALPHA, power: float = POWER) -> float:
    """The smallest true lead over 0.5 that `pairs` pairs detect with this power."""
    if pairs <= 0:
        return math.inf
    return _z_sum(alpha, power) * sd / math.sqrt(pairs)
