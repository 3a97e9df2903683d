"""How many deals an N-player tournament needs, fixed before any game is played.

A deal is one match played once in each of its S seatings on one chance stream
(`schedule.py`). Two bots at the same table are compared by the per-deal
difference of their win rates, D = w_a - w_b, each rate the mean of the bot's
win shares over the deal's S games. In one game the two bots' wins exclude each
other, so a game's difference has variance r_a + r_b - (r_a - r_b)^2 at win
rates r_a and r_b. Taking the S games of a deal as independent, Var(D) is that
over S, and a two-sided test at level alpha with the given power needs
((z_{1-alpha/2} + z_power) sd(D) / (r_a - r_b))^2 deals, as
`experiments/strength/power.py` sizes the game pairs of two players.

Where luck decides, a bot wins in the seat the dice favour, about once per deal,
so the common dice make the games of a deal negatively correlated and sd(D)
smaller than this bound; where the dice of one deal favour one bot in every
seating, larger. In pig the bound held (docs/guide/tournaments.md). `deal_sd`
measures sd(D) in an earlier run, to size a follow-up with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from bots.arithmetic import ordered_sum
from experiments.strength.power import ALPHA, POWER
from experiments.tournament.stats import deal_differences


def deals_needed(
    difference: float,
    n_players: int,
    seatings: int | None = None,
    *,
    base: float | None = None,
    alpha: float = ALPHA,
    power: float = POWER,
    sd: float | None = None,
) -> int:
    """Deals that detect win rates base + difference/2 against base - difference/2.

    `seatings`: games per deal (default n_players, the rotations); `base`: the
    two bots' mean win rate (default 1/n_players; 1/(n_players - 1) when a bot
    at the table that hardly ever wins leaves its share to the others, which
    sizes larger); `sd`: sd(D) measured in an earlier run (`deal_sd`) instead
    of the independent-seatings bound.
    """
    seatings = n_players if seatings is None else seatings
    base = 1 / n_players if base is None else base
    rate_a, rate_b = base + difference / 2, base - difference / 2
    if not (0 < difference and 0 <= rate_b and rate_a + rate_b <= 1 and seatings >= 1):
        raise ValueError(
            f"need 0 < difference and rates {rate_b:g}, {rate_a:g} of two bots in [0, 1] "
            f"summing to at most 1, and seatings >= 1 (got {seatings})"
        )
    if sd is None:
        sd = math.sqrt((rate_a + rate_b - difference**2) / seatings)
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return math.ceil((z * sd / difference) ** 2)


def deal_sd(records: Sequence[dict], a: int, b: int, deal_size: int) -> float:
    """sd(D) of bots a and b over the complete deals they played together in a run."""
    diffs = deal_differences(records, a, b, deal_size)
    if len(diffs) < 2:
        raise ValueError(f"need two complete deals of bots {a} and {b}, got {len(diffs)}")
    mean = ordered_sum(diffs) / len(diffs)
    return math.sqrt(ordered_sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
