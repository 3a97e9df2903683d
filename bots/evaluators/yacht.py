"""Yacht heuristic: expected final score difference as a win probability."""

from __future__ import annotations

import math
from itertools import compress

import pyspiel

from bots.arithmetic import ordered_sum
from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.multiplayer import pairwise_win_values
from bots.evaluators.registry import register_evaluator

# Rough expected scores of the 12 categories under sensible play (ones to sixes, choice,
# full house scored as the dice sum, small/large straight worth 30, yacht 50).
_YACHT_EXPECTED = (2.1, 5.3, 8.6, 12.2, 15.7, 19.2, 22.0, 13.0, 15.0, 15.0, 15.0, 15.0)
_YACHT_SD_PER_CATEGORY = 9.0


class YachtEvaluator(Evaluator):
    """Expected final score difference turned into a win probability.

    Reads the observation tensor (category-used flags and normalised totals).
    Each player's expected final score is its total plus a rough expected
    value for every unused category; the difference D is divided by a spread
    of 9 points per remaining category (square-root law) and
    v = SHRINK * erf(D / (sqrt(2) * spread)). The default 5 six-sided dice,
    any number of rolls. Bounds: (-1, 1).

    More players (2 to 10): every pair (i, j) is rated by the same race on
    their expected final scores m = total + expected rest, D = m_i - m_j,
    spread 9 * sqrt(categories left to i and j) + 1; `multiplayer.pairwise_win_values`
    turns the races into win chances p_i and values (N * p_i - 1) / (N - 1),
    the expected return ignoring ties (a win is +1, a loss -1/(N - 1)). Cost:
    one observation tensor, N(N - 1)/2 erf. Bounds stay (-1, 1): a lone loser
    against N - 1 tied winners gets -1.

    One player (solo yacht returns the final score / 305): the expected final
    score, 0.99 * m / 305. Bounds (0, 1).
    """

    native_name = "yacht"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "yacht", "YachtEvaluator")
        params = game.get_parameters()
        n = game.num_players()
        if params.get("num_dice", 5) != 5 or params.get("dice_sides", 6) != 6:
            raise ValueError(
                f"YachtEvaluator supports 5 six-sided dice, got players={n}, params={params}"
            )
        # Solo returns are the final score over the maximum, in [0, 1].
        super().__init__(game, bounds=(0.0, 1.0) if n == 1 else None)
        rolls = int(params.get("rolls_per_turn", 3))
        # Dice counts, the roll one-hot, the turn player one-hot (not in solo), then the flags.
        self._used0 = 6 + rolls + 1 + (n if n > 1 else 0)  # start of player 0's used flags
        self._total0 = self._used0 + 12 * n
        self._max_score = 305.0  # OpenSpiel's MaxPossibleScore
        self._ev_total = ordered_sum(_YACHT_EXPECTED)

    def expectations(self, state) -> tuple[float, float, float, float, float]:
        """(total_0, total_1, expected rest_0, expected rest_1, categories left)."""
        o = state.observation_tensor(0)
        u = self._used0
        t = self._total0
        used = o[u : u + 24]
        return (
            round(o[t] * self._max_score),
            round(o[t + 1] * self._max_score),
            self._ev_total - ordered_sum(compress(_YACHT_EXPECTED, used[:12])),
            self._ev_total - ordered_sum(compress(_YACHT_EXPECTED, used[12:])),
            24.0 - ordered_sum(used),
        )

    def _value(self, state):
        if self.num_players == 1:
            return self._solo_value(state)
        total0, total1, rest0, rest1, left = self.expectations(state)
        d = total0 + rest0 - total1 - rest1
        spread = _YACHT_SD_PER_CATEGORY * math.sqrt(left) + 1.0
        return SHRINK * math.erf(d / (1.4142135623730951 * spread))

    def _solo_value(self, state) -> float:
        o = state.observation_tensor(0)
        used = o[self._used0 : self._used0 + 12]
        rest = self._ev_total - ordered_sum(compress(_YACHT_EXPECTED, used))
        final = round(o[self._total0] * self._max_score) + rest
        return SHRINK * min(final, self._max_score) / self._max_score

    def _values(self, state) -> list[float]:
        n = self.num_players
        o = state.observation_tensor(0)
        final = []  # expected final score per player
        left = []  # categories left per player
        for p in range(n):
            start = self._used0 + 12 * p
            used = o[start : start + 12]
            rest = self._ev_total - ordered_sum(compress(_YACHT_EXPECTED, used))
            final.append(round(o[self._total0 + p] * self._max_score) + rest)
            left.append(12.0 - ordered_sum(used))
        pairs = []
        for i in range(n):
            for j in range(i + 1, n):
                spread = _YACHT_SD_PER_CATEGORY * math.sqrt(left[i] + left[j]) + 1.0
                d = final[i] - final[j]
                pairs.append(SHRINK * math.erf(d / (1.4142135623730951 * spread)))
        return pairwise_win_values(pairs, n, n - 1)


register_evaluator("yacht", YachtEvaluator)
