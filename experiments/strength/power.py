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


def detectable_effect(
    sd: float,
    pairs: int,
    alpha: float = ALPHA,
    power: float = POWER,
    critical: float | None = None,
) -> float:
    """The smallest true lead over 0.5 that `pairs` pairs detect with this power.

    `critical`: the |z| the test rejects at, when not alpha's (an interim look's boundary).
    """
    if pairs <= 0:
        return math.inf
    z_sum = _z_sum(alpha, power) if critical is None else critical + NormalDist().inv_cdf(power)
    return z_sum * sd / math.sqrt(pairs)


# Interim looks. A study looks at its games LOOKS times, after each quarter of
# its planned pairs, and stops early only when the pair z statistic crosses
# O'Brien and Fleming's boundary: c * sqrt(LOOKS / look), with c chosen so that
# the chance of crossing at any look when the bots are equal stays ALPHA
# (c = 2.024 for four equally spaced looks at two-sided 0.05; Jennison and
# Turnbull, Group Sequential Methods, 2000, table 2.3). A lopsided question
# stops at the first quarter; a close one plays every game, as before, and
# keeps about 79% of the fixed design's 80% power at the same size.
LOOKS = 4
OBF_CONSTANT = 2.024


def look_boundary(look: int, looks: int = LOOKS, constant: float = OBF_CONSTANT) -> float:
    """The |z| at which a study stops at this look (1-based) of `looks`."""
    if not 1 <= look <= looks:
        raise ValueError(f"look must be 1..{looks}, got {look}")
    return constant * math.sqrt(looks / look)


def look_games(planned_games: int, look: int, looks: int = LOOKS) -> int:
    """Games (whole pairs) played by this look of a study planned at `planned_games`."""
    pairs = planned_games // 2
    return 2 * math.ceil(pairs * look / looks)


def pair_z(pentanomial: Sequence[int]) -> float:
    """z of the pairs' mean score against 0.5, on the pair interval's terms.

    As `experiments.tournament.stats.pair_interval`, one pseudo-pair scoring 0 and
    one scoring 1 are added, so a few pairs that all agree do not make a zero
    standard error and an infinite z.
    """
    counts = [int(c) for c in pentanomial]
    if len(counts) != 5 or min(counts) < 0:
        raise ValueError(f"a pentanomial is five counts >= 0, got {list(counts)}")
    counts[0] += 1
    counts[4] += 1
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, _PAIR_SCORES)) / n
    return (mean - 0.5) / (pair_sd(counts) / math.sqrt(n))
