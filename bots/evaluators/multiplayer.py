"""Values for more than two players from two-player races: the one combination rule.

The pig, maedn and yacht heuristics already estimate a two-player race: `v` in (-1, 1),
the 0.99-scaled value of one side against the other. At N players each of them rates every
pair (i, j) with that same race, `v_ij = -v_ji`, so `q_ij = (1 + v_ij) / 2` is the chance
that i finishes before j. Taking the pairwise races as independent, i wins with a chance
proportional to the product of its `q_ij` over the others (a Bradley-Terry style
combination); normalised, these are win chances `p_i` summing to 1. All three games give
the winner one return and every loser the same other one (pig and yacht: 1 and
-1/(N - 1); maedn: N - 1 and -1), with returns summing to 0, so the expected return is

    value_i = (N * p_i - 1) / divisor,   divisor = N - 1 (pig, yacht) or 1 (maedn),

which lies strictly inside [loss, win] (every `q_ij` is in [0.005, 0.995], so no `p_i` is 0
or 1) and sums to 0 up to rounding. Why this rule: it costs N(N - 1)/2 two-player values
and N products per leaf (the evaluator runs at every leaf), it keeps each game's tuned
two-player estimate, and it is symmetric in the players. The native twin is
`PairwiseWinValues` in bots/native/evaluators/common.h: the same operations in the same
order, so the same floats.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.arithmetic import ordered_sum


def pairwise_win_values(pairs: Sequence[float], n: int, divisor: float) -> list[float]:
    """Each player's expected return from the races `pairs` of every i < j.

    `pairs` lists `v_ij` for (0, 1), (0, 2), ..., (0, n-1), (1, 2), ..., (n-2, n-1): player
    i's two-player value against j, in (-1, 1).
    """
    # Player m's product takes its factors in the order of the partners 0..n-1: those
    # below m while the outer loop reaches them, then those above m in this row.
    strength = [1.0] * n
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            v = pairs[k]
            k += 1
            strength[i] *= 0.5 + 0.5 * v
            strength[j] *= 0.5 - 0.5 * v
    total = ordered_sum(strength)
    return [(n * (s / total) - 1.0) / divisor for s in strength]
