"""Pig heuristic: a static win probability per score pair, best play within the turn."""

from __future__ import annotations

import math

import pyspiel

from bots.evaluators.api import SHRINK, Evaluator, check_game_name
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
                f[t] = sum(p * f[min(t + k, top)] for k, p in outcomes if k is not None)
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
    V(t) = max(hold(t), roll(t)), computed once per score pair (a, b) and
    memoised. Decision nodes are worth V(t), chance nodes (rolling) roll(t):
    the turn total is at risk, so a shallow search still holds sensibly.
    Two players only. Bounds: (min_utility, max_utility) = (-1, 1).
    """

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, "pig", "PigEvaluator")
        if game.num_players() != 2:
            raise ValueError(f"PigEvaluator supports 2 players, got {game.num_players()}")
        super().__init__(game)
        params = game.get_parameters()
        w = self.win_score = int(params.get("winscore", 100))
        dice = int(params.get("diceoutcomes", 6))
        piglet = bool(params.get("piglet", False))
        e = self.points_per_turn = _pig_points_per_turn(dice, piglet)
        self._p_bust = 1.0 / dice
        self._gains = (
            ((1, 1.0 - 1.0 / dice),)
            if piglet
            else tuple((k, 1.0 / dice) for k in range(2, dice + 1))
        )
        self._max_gain = max(k for k, _ in self._gains)
        # F[a][b]: value for the player starting its turn, scores clipped at w.
        self._static = [
            [self._start_of_turn((w - a) / e, (w - b) / e + 0.5) for b in range(w + 1)]
            for a in range(w + 1)
        ]
        self._turns: dict[tuple[int, int], tuple[list, list]] = {}

    @staticmethod
    def _start_of_turn(t_mover: float, t_other: float) -> float:
        """Mover's value when the sides need t_mover and t_other turns."""
        spread = 0.75 * math.sqrt(2.0 * (t_mover + t_other + 1.0))
        return SHRINK * math.erf((t_other - t_mover) / spread)

    def _turn(self, mine: int, theirs: int) -> tuple[list, list]:
        """(V, roll) over turn totals t for the turn player, scores (mine, theirs)."""
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
        got = (value, roll)
        self._turns[(mine, theirs)] = got
        return got

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


register_evaluator("pig", PigEvaluator)
