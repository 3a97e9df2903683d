"""Pig heuristic: a static win probability per score pair, best play within the turn; any player count."""

from __future__ import annotations

import math
from array import array

import numpy as np
import pyspiel

from bots.arithmetic import ordered_sum
from bots.evaluators.api import SHRINK, Evaluator, check_game_name
from bots.evaluators.multiplayer import pairwise_win_values
from bots.evaluators.registry import register_evaluator


def _pig_points_per_turn(dice: int, piglet: bool) -> float:
    """Expected points banked per turn under the best 'hold at H' policy."""
    if piglet:
        outcomes = [(None, 1.0 / dice), (1, 1.0 - 1.0 / dice)]
    else:
        outcomes = [(None, 1.0 / dice)] + [(k, 1.0 / dice) for k in range(2, dice + 1)]
    best = 0.0
    for hold in range(1, 101):
        top = hold + dice + 1
        f = [0.0] * (top + 1)
        for t in range(top, -1, -1):
            if t >= hold:
                f[t] = float(t)
            else:
                f[t] = ordered_sum(p * f[min(t + k, top)] for k, p in outcomes if k is not None)
        best = max(best, f[0])
    return best


class PigEvaluator(Evaluator):
    """Win probability: static value at turn boundaries, best play within the turn.

    Parses `str(state)` ("Scores: a b, Turn total: t / Current player: p").
    Static part, for a player about to start a turn with score a against b:
    with E = expected points per turn of the best hold-at-H policy (8.1 for a
    six-sided die) the mover needs (winscore - a)/E turns, the other
    (winscore - b)/E + 0.5 (it moves second); F(a, b) = SHRINK * erf(d /
    (0.75 * sqrt(2 * (turns + 1)))), d the difference in turns (tabulated).
    Within the turn the evaluator plays optimally against that static value:
    hold(t) = -F(b, a + t), roll(t) = P(1) * -F(b, a) + sum_k P(k) * V(t + k),
    V(t) = max(hold(t), roll(t)), tabulated for every score pair (a, b) once
    per process and game. Decision nodes are worth V(t), chance nodes (rolling) roll(t):
    the turn total is at risk, so a shallow search still holds sensibly.
    Bounds: (min_utility, max_utility) = (-1, 1).

    More players (OpenSpiel's pig takes 2 to 10): between two turns of one player every
    other player moves once, so any two players run the same alternating race as in the
    two-player game, and the tables above rate it. The turn player c against each j: c's
    turn tables (mine, theirs) = (c, j), V(t) or roll(t); two others i and j: F of the one
    who comes first after c. `multiplayer.pairwise_win_values` turns these races into win
    chances p_i and values (N * p_i - 1) / (N - 1), the expected return (a win is +1, a loss
    -1/(N - 1)). Each race picks its own best hold/roll, a mild optimism for the turn player.
    Cost: N - 1 turn-table and (N - 1)(N - 2)/2 F lookups per leaf, no new tables. Bounds
    (-1/(N - 1), 1), the returns' range.
    """

    native_name = "pig"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "pig", "PigEvaluator")
        n = game.num_players()
        # A loser's return is -1/(n - 1) (-1 at two players: the game's range).
        super().__init__(game, bounds=(-1.0 / (n - 1), 1.0))
        params = game.get_parameters()
        w = self.win_score = int(params.get("winscore", 100))
        dice = int(params.get("diceoutcomes", 6))
        piglet = bool(params.get("piglet", False))
        self._p_bust = 1.0 / dice
        self._gains = (
            ((1, 1.0 - 1.0 / dice),)
            if piglet
            else tuple((k, 1.0 / dice) for k in range(2, dice + 1))
        )
        self._max_gain = max(k for k, _ in self._gains)
        # The tables depend only on the game's parameters: computed once per
        # process (about 0.1 s and 13 MB for winscore 100), shared by every bot. Built
        # lazily inside the search, one score pair's turn table took ~0.2 ms, a
        # fifth of expectiminimax's time at pig depth 6 with a fresh bot.
        settings = (w, dice, piglet)
        shared = _SHARED_TABLES.get(settings)
        if shared is None:
            e = _pig_points_per_turn(dice, piglet)
            # F[a][b]: value for the player starting its turn, scores clipped at w.
            self._static = [
                [self._start_of_turn((w - a) / e, (w - b) / e + 0.5) for b in range(w + 1)]
                for a in range(w + 1)
            ]
            shared = _SHARED_TABLES[settings] = (e, self._static, self._all_turns())
        self._turns: dict[tuple[int, int], tuple]
        self.points_per_turn, self._static, self._turns = shared

    @staticmethod
    def _start_of_turn(t_mover: float, t_other: float) -> float:
        """Mover's value when the sides need t_mover and t_other turns."""
        spread = 0.75 * math.sqrt(2.0 * (t_mover + t_other + 1.0))
        return SHRINK * math.erf((t_other - t_mover) / spread)

    def _all_turns(self) -> dict[tuple[int, int], tuple[array, array]]:
        """``_turn`` for every pair of scores 0..w at once, vectorised over the pairs.

        The same operations in the same order as ``_turn``, so the same floats
        (tests/test_evaluators.py compares the two pair by pair).
        """
        w = self.win_score
        static = np.array(self._static)  # static[theirs][score]
        size = w + self._max_gain + 1  # the longest table (mine = 0)
        mine = np.arange(w + 1)
        clipped = np.minimum(mine[:, None] + np.arange(size)[None, :], w)  # [mine, t]
        hold = -np.transpose(static[:, clipped], (1, 0, 2))  # [mine, theirs, t]
        top = w - mine  # t >= top: holding wins
        bust = -self._p_bust * static[:, mine].T  # [mine, theirs]
        value = hold.copy()
        roll = hold.copy()
        for t in range(size - 1, -1, -1):
            rows = t < top
            if not rows.any():
                continue
            r = bust[rows].copy()
            for k, p in self._gains:
                r += p * value[rows, :, t + k]
            h = hold[rows, :, t]
            roll[rows, :, t] = r
            value[rows, :, t] = np.where(h > r, h, r)
        turns = {}
        for a in range(w + 1):
            length = w - a + self._max_gain + 1
            for b in range(w + 1):
                turns[(a, b)] = (
                    array("d", value[a, b, :length].tobytes()),
                    array("d", roll[a, b, :length].tobytes()),
                )
        return turns

    def _turn(self, mine: int, theirs: int) -> tuple[list, list]:
        """(V, roll) over turn totals t for the turn player, scores (mine, theirs).

        The reference for ``_all_turns``, and the fallback for scores beyond w.
        """
        w = self.win_score
        f_theirs = self._static[min(theirs, w)]
        top = max(w - mine, 0)  # t >= top: holding wins
        size = top + self._max_gain + 1
        bust = -self._p_bust * f_theirs[min(mine, w)]
        value = [0.0] * size
        roll = [0.0] * size
        for t in range(size - 1, -1, -1):
            hold = -f_theirs[min(mine + t, w)]
            if t >= top:
                value[t] = roll[t] = hold
                continue
            r = bust
            for k, p in self._gains:
                r += p * value[t + k]
            roll[t] = r
            value[t] = hold if hold > r else r
        return value, roll

    def _value(self, state):
        tok = str(state).split()
        # ['Scores:', a, 'b,', 'Turn', 'total:', t, 'Current', 'player:', p, ...]
        s0 = int(tok[1])
        s1 = int(tok[2][:-1])
        t = int(tok[5])
        tp = tok[8] == "1"
        key = (s1, s0) if tp else (s0, s1)
        turn = self._turns.get(key) or self._turn(*key)
        table = turn[1] if len(tok) > 9 else turn[0]  # "(rolling)": chance node
        v = table[min(t, len(table) - 1)]
        return -v if tp else v

    def _values(self, state) -> list[float]:
        n = self.num_players
        tok = str(state).split()
        # ['Scores:', s_0, ..., 's_{n-1},', 'Turn', 'total:', t, 'Current', 'player:', c, ...]
        scores = [int(x) for x in tok[1:n]]
        scores.append(int(tok[n][:-1]))
        t = int(tok[n + 3])
        c = int(tok[n + 6])
        rolling = len(tok) > n + 7  # "(rolling)": chance node
        mine = scores[c]
        turn = [0.0] * n  # the turn player's race against each other player, as _value
        for j in range(n):
            if j != c:
                tables = self._turns.get((mine, scores[j])) or self._turn(mine, scores[j])
                table = tables[1] if rolling else tables[0]
                turn[j] = table[min(t, len(table) - 1)]
        w = self.win_score
        static = self._static
        clipped = [min(x, w) for x in scores]
        pairs = []
        for i in range(n):
            row = static[clipped[i]]
            for j in range(i + 1, n):
                if i == c:
                    v = turn[j]
                elif j == c:
                    v = -turn[i]
                elif (i - c) % n < (j - c) % n:  # i moves first after c
                    v = row[clipped[j]]
                else:
                    v = -static[clipped[j]][clipped[i]]
                pairs.append(v)
        return pairwise_win_values(pairs, n, n - 1)


# (winscore, diceoutcomes, piglet) -> (points per turn, static values F, every
# score pair's turn tables).
_SHARED_TABLES: dict[tuple[int, int, bool], tuple[float, list, dict]] = {}

register_evaluator("pig", PigEvaluator)
