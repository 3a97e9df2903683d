"""Leaf evaluators for starspiel's search bots.

An evaluator follows OpenSpiel's MCTS evaluator convention
(`open_spiel.python.algorithms.mcts.Evaluator`): `evaluate(state)` returns the
per-player values as an `np.ndarray`, `prior(state)` a list of
`(action, probability)`. On top of that every evaluator here declares
`bounds = (L, U)`: guaranteed bounds on every value `evaluate()` returns, for
every player, terminal states included. Star1/Star2/ChanceProbCut prune with
these bounds, so they are a contract, not a hint.

Contents:
  * `Evaluator`: base class (uniform prior, terminal handling, `player_value`).
  * One cheap heuristic per OpenSpiel game in scope, registered in
    `EVALUATORS` under the game's short name: backgammon, pig,
    einstein_wurfelt_nicht, 2048, yacht, maedn (2 players), catch, banqi.
  * `MidpointEvaluator` ("zero"): the zero-information fallback for any game.
  * `RolloutEvaluator` ("rollout", "rollout(n=10,seed=3)"): random rollouts.
  * `default_evaluator`, `make_evaluator`, `evaluator_bounds`.

Heuristics are called at every leaf of searches visiting 10^5-10^6 nodes, so
each reads the cheapest accessor its game offers (a pybind accessor, the
observation tensor written in place into a numpy buffer, or `str(state)`,
which costs about 0.5 us in C++) and does a few dozen Python operations.
`python -m bots.evaluators` prints microseconds per `evaluate()` call.

Value conventions: two-player zero-sum games return `(v, -v)` with v strictly
inside the game's utility range for non-terminal states; terminal states
return `state.returns()` unchanged. One-player games return a 1-vector; in
2048 (rewards game) it is the TOTAL return: `state.returns()[0]` (score so
far) plus an estimate of the future score.
"""

from __future__ import annotations

import math
import random
import re
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as _os_mcts

__all__ = [
    "Evaluator",
    "MidpointEvaluator",
    "RolloutEvaluator",
    "BackgammonEvaluator",
    "PigEvaluator",
    "EinsteinEvaluator",
    "Game2048Evaluator",
    "YachtEvaluator",
    "MaednEvaluator",
    "CatchEvaluator",
    "BanqiEvaluator",
    "EVALUATORS",
    "game_value_bounds",
    "default_evaluator",
    "make_evaluator",
    "evaluator_bounds",
]

# Heuristic values of non-terminal states stay within SHRINK * (max utility)
# so that no estimate claims the certainty of a real terminal outcome.
SHRINK = 0.99


def _short_name(game: pyspiel.Game) -> str:
    return game.get_type().short_name


def game_value_bounds(game: pyspiel.Game) -> tuple[float, float]:
    """Proven bounds on `state.returns()` of every state of `game`.

    `(game.min_utility(), game.max_utility())` except for 2048, where
    OpenSpiel's max_utility, (log2(max_tile) - 1) * max_tile, is the score of
    building one max_tile from 2s and is exceeded by real games (the other
    tiles on the board have scored too; with max_tile=64 a random game can
    end at 384 > 320). There a merge of two tiles of 2^k scores 2^(k+1), so
    the score never exceeds sum over the 16 cells of (log2(v) - 1) * v for
    tiles v <= max_tile: 16 * max_utility.
    """
    lo, hi = float(game.min_utility()), float(game.max_utility())
    if _short_name(game) == "2048":
        hi = 16.0 * hi
    return lo, hi


def _check_game(game: pyspiel.Game, expected: str, cls_name: str) -> None:
    name = _short_name(game)
    if name != expected:
        raise ValueError(
            f"{cls_name} evaluates game {expected!r}, got game {name!r}; "
            f"use make_evaluator('default', game) to pick the right one"
        )


class Evaluator(_os_mcts.Evaluator):
    """Base class: OpenSpiel MCTS evaluator convention plus `bounds`.

    Subclasses for two-player zero-sum games implement `_value(state)` (the
    value for player 0 of a non-terminal state); one-player subclasses do the
    same for their single player. Anything else overrides `evaluate`.
    """

    bounds: tuple[float, float]
    accepts_positions: bool = False

    def __init__(self, game: pyspiel.Game, bounds: tuple[float, float] | None = None):
        self.game = game
        self.num_players = game.num_players()
        if bounds is None:
            bounds = game_value_bounds(game)
        self.bounds = (float(bounds[0]), float(bounds[1]))

    def _value(self, state: pyspiel.State) -> float:
        raise NotImplementedError(
            f"{type(self).__name__} must implement _value(state) "
            f"(player 0's value) or override evaluate()"
        )

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        """Per-player values; terminal states return `state.returns()`."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        v = self._value(state)
        if self.num_players == 1:
            return np.array((v,))
        return np.array((v, -v))

    def player_value(self, state: pyspiel.State, player: int) -> float:
        """Value for one player as a plain float (no array allocation).

        Same number as `evaluate(state)[player]`; an optional fast path.
        """
        if state.is_terminal():
            return state.returns()[player]
        v = self._value(state)
        return -v if player == 1 else v

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        """Uniform over legal actions; chance nodes return their outcomes."""
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        if not actions:
            return []
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({_short_name(self.game)}, bounds={self.bounds})"


# --------------------------------------------------------------------------
# Fallbacks.


class MidpointEvaluator(Evaluator):
    """Zero-information fallback for any game.

    Non-terminal states get the midpoint (min_utility + max_utility) / 2 for
    every player (0 for zero-sum games). In games with intermediate rewards
    the midpoint would ignore the score already collected, so there a
    non-terminal state is worth `state.returns()` (no estimate of the
    future). Terminal states return `state.returns()`.
    Bounds: `game_value_bounds(game)` = (min_utility, max_utility) except 2048.
    """

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self._mid = (game.min_utility() + game.max_utility()) / 2.0
        self._rewards = game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if self._rewards or state.is_terminal():
            return np.array(state.returns(), dtype=float)
        return np.full(self.num_players, self._mid)

    def player_value(self, state: pyspiel.State, player: int) -> float:
        if self._rewards or state.is_terminal():
            return state.returns()[player]
        return self._mid


class RolloutEvaluator(Evaluator):
    """Average return of `n_rollouts` uniformly random playouts.

    Like OpenSpiel's `RandomRolloutEvaluator` (chance sampled from
    `chance_outcomes()`, decisions uniform), with a Python `random.Random`
    (much faster per step than numpy). With an integer `seed` (default 0)
    the playouts of a state are seeded from (seed, current player,
    str(state), returns): the evaluator is a pure function of the state, so
    searches that visit leaves in different orders (Star2 vs expectiminimax,
    with or without a transposition table) still see the same leaf values.
    `seed=None` draws fresh randomness on every call instead.
    `max_length` (optional) truncates a playout; a truncated playout
    contributes `returns()` of the state where it stopped. Averages of
    returns stay within `game_value_bounds(game)`, the declared bounds.
    Slow for long games (a random backgammon game is hundreds of moves).
    """

    def __init__(
        self,
        game: pyspiel.Game,
        n_rollouts: int = 1,
        seed: int | None = 0,
        max_length: int | None = None,
    ):
        super().__init__(game)
        if not isinstance(n_rollouts, int) or n_rollouts < 1:
            raise ValueError(
                f"RolloutEvaluator: n_rollouts must be an integer >= 1, "
                f"got {n_rollouts!r}; accepted: 1, 2, ..."
            )
        if seed is not None and not isinstance(seed, int):
            raise ValueError(
                f"RolloutEvaluator: seed must be an integer or None, got "
                f"{seed!r}; accepted: None, 0, 1, ..."
            )
        if max_length is not None and (not isinstance(max_length, int) or max_length < 1):
            raise ValueError(
                f"RolloutEvaluator: max_length must be None or an "
                f"integer >= 1, got {max_length!r}; accepted: None, 1, 2, ..."
            )
        self.n_rollouts = int(n_rollouts)
        self.seed = seed
        self.max_length = max_length
        self._rng = random.Random(seed)

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        rng = self._rng
        if self.seed is not None:
            key = f"{state.current_player()}|{state}|{state.returns()}".encode()
            rng.seed((self.seed << 32) + zlib.crc32(key))
        total = np.zeros(self.num_players)
        for _ in range(self.n_rollouts):
            s = state.clone()
            steps = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    actions = [a for a, _ in outcomes]
                    probs = [p for _, p in outcomes]
                    s.apply_action(rng.choices(actions, probs)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                steps += 1
                if self.max_length is not None and steps >= self.max_length:
                    break
            total += s.returns()
        return total / self.n_rollouts

    def player_value(self, state: pyspiel.State, player: int) -> float:
        return float(self.evaluate(state)[player])

    def __repr__(self) -> str:
        return (
            f"RolloutEvaluator({_short_name(self.game)}, n_rollouts={self.n_rollouts}, "
            f"seed={self.seed}, bounds={self.bounds})"
        )


# --------------------------------------------------------------------------
# Game heuristics.


class BackgammonEvaluator(Evaluator):
    """Pip-count race plus blots, borne-off checkers and home-board points.

    Reads the Tesauro observation tensor (player 0's view) written in place
    into a numpy buffer and turns it into features with one small matrix
    product over [tensor, min(tensor, 1)]. Then
    x = 8 * pip lead / (pip_x + pip_o + 20) + 0.15 * (opponent blots - own
    blots) + 0.1 * (home points made difference) + 0.03 * (borne-off
    difference), squashed with SHRINK * tanh into (-1, 1). Player 0 is X
    (moves from point 0 toward 23), player 1 is O.
    No cube, no gammons: the value is a win-probability-like equity even
    under gammon scoring. Bounds: (min_utility, max_utility).
    """

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "backgammon", "BackgammonEvaluator")
        super().__init__(game)
        from open_spiel.python.observation import make_observation

        self._obs = make_observation(game)
        size = self._obs.tensor.size
        if size != 200:
            raise ValueError(
                f"BackgammonEvaluator expects a 200-entry observation tensor, got {size}"
            )
        # Features: 0 pip_x, 1 pip_o, 2 blots_x, 3 blots_o, 4 off_x, 5 off_o,
        # 6 home points made by x (18..23), 7 by o (0..5).
        lin = np.zeros((200, 8))
        ind = np.zeros((200, 8))  # multiplies min(tensor, 1)
        for side in (0, 1):
            base = 96 * side
            for p in range(24):
                w = 24 - p if side == 0 else p + 1  # pips to bear off
                i = base + 4 * p
                lin[i : i + 4, side] = (w, 2 * w, 3 * w, w)  # count>3: f4 = count-3
                ind[i + 3, side] = 3 * w  # ... plus 3
                lin[i, 2 + side] = 1.0  # exactly one checker
                home = p >= 18 if side == 0 else p <= 5
                if home:
                    ind[i + 1 : i + 4, 6 + side] = 1.0  # two or more checkers
        # Bar and borne-off counts for player 0 (x) then player 1 (o).
        lin[192, 0] = 25.0
        lin[193, 4] = 1.0
        lin[195, 1] = 25.0
        lin[196, 5] = 1.0
        dtype = self._obs.tensor.dtype  # float32: no cast in the product
        self._matrix = np.vstack([lin, ind]).astype(dtype)
        self._buf = np.empty(400, dtype=dtype)
        self._buf_lin = self._buf[:200]
        self._buf_ind = self._buf[200:]

    def features(self, state) -> list[float]:
        """[pip_x, pip_o, blots_x, blots_o, off_x, off_o, home_points_x, home_points_o]."""
        obs = self._obs
        obs.set_from(state, 0)
        t = obs.tensor
        self._buf_lin[:] = t
        np.minimum(t, 1.0, out=self._buf_ind)
        return (self._buf @ self._matrix).tolist()

    def _value(self, state):
        pip_x, pip_o, blot_x, blot_o, off_x, off_o, home_x, home_o = self.features(state)
        x = (
            8.0 * (pip_o - pip_x) / (pip_x + pip_o + 20.0)
            + 0.15 * (blot_o - blot_x)
            + 0.1 * (home_x - home_o)
            + 0.03 * (off_x - off_o)
        )
        return SHRINK * math.tanh(x)


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
        _check_game(game, "pig", "PigEvaluator")
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


class EinsteinEvaluator(Evaluator):
    """Expected distance to the goal corner under the die, plus tempo.

    Parses `str(state)` (5 rows of "|b3|"/"|w1|"/"|__|" cells). Player 0
    (black) runs to the bottom-right corner, player 1 (white) to the
    top-left; a cube's distance is its Chebyshev distance to the goal. For
    every die value 1..6 the selectable cubes are the one with that number,
    else the nearest lower and higher numbers; a side's expected distance is
    the mean over die values of the best selectable distance (fewer cubes
    means each covers more die values, so material is already in it).
    x = distance difference + 0.5 for the side moving next,
    v = SHRINK * tanh(0.6 * x). Bounds: (-1, 1).
    """

    _ROW = 21  # 5 cells of 4 characters + newline

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "einstein_wurfelt_nicht", "EinsteinEvaluator")
        super().__init__(game)
        self._dist_b = {}
        self._dist_w = {}
        for r in range(5):
            for c in range(5):
                i = r * self._ROW + c * 4 + 1  # colour character of the cell
                self._dist_b[i] = max(4 - r, 4 - c)
                self._dist_w[i] = max(r, c)
        self._memo: dict[tuple, float] = {}

    def _expected(self, dists: tuple) -> float:
        """Mean over die values of the best selectable cube distance."""
        got = self._memo.get(dists)
        if got is not None:
            return got
        present = [n for n in range(6) if dists[n] is not None]
        total = 0.0
        for die in range(6):
            if dists[die] is not None:
                total += dists[die]
                continue
            lower = [n for n in present if n < die]
            higher = [n for n in present if n > die]
            cands = []
            if lower:
                cands.append(dists[max(lower)])
            if higher:
                cands.append(dists[min(higher)])
            total += min(cands)
        got = total / 6.0
        self._memo[dists] = got
        return got

    @staticmethod
    def next_mover(state) -> int:
        """Player who moves next; at a die roll, from the move count.

        After the two set-up chance moves, rolls and moves alternate and
        player 1 moves first: a roll at move number 4k + 2 precedes player 1.
        """
        player = state.current_player()
        if player >= 0:
            return player
        return 1 if state.move_number() % 4 == 2 else 0

    def _value(self, state):
        s = str(state)
        db = [None] * 6
        dw = [None] * 6
        i = s.find("|b")
        if i < 0:  # before the cubes are placed
            return 0.0
        while i >= 0:
            db[ord(s[i + 2]) - 49] = self._dist_b[i + 1]
            i = s.find("|b", i + 4)
        i = s.find("|w")
        if i < 0:
            return 0.0
        while i >= 0:
            dw[ord(s[i + 2]) - 49] = self._dist_w[i + 1]
            i = s.find("|w", i + 4)
        x = (
            self._expected(tuple(dw))
            - self._expected(tuple(db))
            + (0.5 if self.next_mover(state) == 0 else -0.5)
        )
        return SHRINK * math.tanh(0.6 * x)


class Game2048Evaluator(Evaluator):
    """Score so far plus a clamped estimate of the future score.

    Reads the 16 tile values (`observation_tensor`). Each of the 4 rows and
    4 columns is scored once and memoised (at most 12^4 distinct lines):
    5 points per empty cell, 5 points * rank per adjacent mergeable pair
    (zeros skipped), minus 2 points per rank of non-monotonicity, plus a
    base of 40. The future estimate is max(0, that sum), clamped so that
    returns + future <= U. Value = state.returns()[0] + future.
    Bounds: (0, U) with U = 16 * max_utility, a proven bound on the score
    (see `game_value_bounds`): OpenSpiel's max_utility is exceeded by real
    games, so it cannot be a guaranteed bound.
    """

    _EMPTY = 5.0
    _MERGE = 5.0
    _MONO = 2.0
    _BASE = 40.0

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "2048", "Game2048Evaluator")
        super().__init__(game)
        self._max = self.bounds[1]
        self._lines: dict[tuple, float] = {}

    def _line(self, line: tuple) -> float:
        got = self._lines.get(line)
        if got is not None:
            return got
        ranks = [int(v).bit_length() - 1 if v > 0 else 0 for v in line]
        empty = sum(1 for v in line if v == 0)
        tiles = [r for r in ranks if r > 0]
        merges = sum(a for a, b in zip(tiles, tiles[1:]) if a == b)
        inc = sum(max(0, b - a) for a, b in zip(ranks, ranks[1:]))
        dec = sum(max(0, a - b) for a, b in zip(ranks, ranks[1:]))
        got = self._EMPTY * empty + self._MERGE * merges - self._MONO * min(inc, dec)
        self._lines[line] = got
        return got

    def _value(self, state):
        score = state.returns()[0]
        o = state.observation_tensor(0)
        get = self._lines.get
        h = self._BASE
        for line in (
            (o[0], o[1], o[2], o[3]),
            (o[4], o[5], o[6], o[7]),
            (o[8], o[9], o[10], o[11]),
            (o[12], o[13], o[14], o[15]),
            (o[0], o[4], o[8], o[12]),
            (o[1], o[5], o[9], o[13]),
            (o[2], o[6], o[10], o[14]),
            (o[3], o[7], o[11], o[15]),
        ):
            v = get(line)
            h += v if v is not None else self._line(line)
        room = self._max - score
        if h > room:
            h = room
        if h < 0.0:
            h = 0.0
        return score + h

    def player_value(self, state, player):
        if state.is_terminal():
            return state.returns()[player]
        return self._value(state)


# Rough expected scores of the 12 yacht categories for a player who keeps
# aiming at them with three rolls (ones..sixes, chance, four of a kind, full
# house scored as the dice sum, small/large straight worth 30, yacht 50).
_YACHT_EXPECTED = (2.1, 5.3, 8.6, 12.2, 15.7, 19.2, 22.0, 13.0, 15.0, 15.0, 15.0, 15.0)
_YACHT_SD_PER_CATEGORY = 9.0


class YachtEvaluator(Evaluator):
    """Expected final score difference turned into a win probability.

    Reads the observation tensor (category-used flags and normalised totals).
    Each player's expected final score is its total plus a rough expected
    value for every unused category; the difference D is divided by a spread
    of 9 points per remaining category (square-root law) and
    v = SHRINK * erf(D / (sqrt(2) * spread)). Two players, the default
    5 six-sided dice, 3 rolls. Bounds: (-1, 1).
    """

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "yacht", "YachtEvaluator")
        params = game.get_parameters()
        if (
            game.num_players() != 2
            or params.get("num_dice", 5) != 5
            or params.get("dice_sides", 6) != 6
        ):
            raise ValueError(
                "YachtEvaluator supports 2 players with 5 six-sided dice, "
                f"got players={game.num_players()}, params={params}"
            )
        super().__init__(game)
        rolls = int(params.get("rolls_per_turn", 3))
        self._used0 = 6 + rolls + 1 + 2  # start of player 0's used flags
        self._total0 = self._used0 + 24
        self._max_score = 305.0  # OpenSpiel's MaxPossibleScore
        self._ev_total = sum(_YACHT_EXPECTED)

    def expectations(self, state) -> tuple[float, float, float, float, float]:
        """(total_0, total_1, expected rest_0, expected rest_1, categories left)."""
        o = state.observation_tensor(0)
        u = self._used0
        t = self._total0
        used = o[u : u + 24]
        return (
            round(o[t] * self._max_score),
            round(o[t + 1] * self._max_score),
            self._ev_total - sum(compress(_YACHT_EXPECTED, used[:12])),
            self._ev_total - sum(compress(_YACHT_EXPECTED, used[12:])),
            24.0 - sum(used),
        )

    def _value(self, state):
        total0, total1, rest0, rest1, left = self.expectations(state)
        d = total0 + rest0 - total1 - rest1
        spread = _YACHT_SD_PER_CATEGORY * math.sqrt(left) + 1.0
        return SHRINK * math.erf(d / (1.4142135623730951 * spread))


class MaednEvaluator(Evaluator):
    """Race: progress of each side's pieces along its track, minus pieces at risk.

    Parses `str(state)`: piece characters ('1' for player 0, '2' for player 1)
    are found in the board part and mapped, through precomputed tables, to
    the field each player has reached along its own track. A piece on
    relative field i counts i + 1 (goal fields 41..44, a piece at home 0; all
    four in goal = 170). A piece on the common track with an enemy piece 1..6
    fields behind it can be thrown out next turn: 1/6 of its progress is
    counted as lost. With r the remaining distance of each side,
    x = (r1 - r0) / 3.5 turns and v = SHRINK * tanh(x / (0.8 * sqrt((r0 + r1)
    / 3.5) + 1)). Two players (either seating). Two-player returns are +-1,
    so bounds are (-1, 1), tighter than the game's +-3.
    """

    # (x, y) of the 40 track fields then the 16 goal fields in the string.
    _COORDS = (
        (0, 4),
        (2, 4),
        (4, 4),
        (6, 4),
        (8, 4),
        (8, 3),
        (8, 2),
        (8, 1),
        (8, 0),
        (10, 0),
        (12, 0),
        (12, 1),
        (12, 2),
        (12, 3),
        (12, 4),
        (14, 4),
        (16, 4),
        (18, 4),
        (20, 4),
        (20, 5),
        (20, 6),
        (18, 6),
        (16, 6),
        (14, 6),
        (12, 6),
        (12, 7),
        (12, 8),
        (12, 9),
        (12, 10),
        (10, 10),
        (8, 10),
        (8, 9),
        (8, 8),
        (8, 7),
        (8, 6),
        (6, 6),
        (4, 6),
        (2, 6),
        (0, 6),
        (0, 5),
        (2, 5),
        (4, 5),
        (6, 5),
        (8, 5),
        (10, 1),
        (10, 2),
        (10, 3),
        (10, 4),
        (18, 5),
        (16, 5),
        (14, 5),
        (12, 5),
        (10, 9),
        (10, 8),
        (10, 7),
        (10, 6),
    )
    _ROW = 22  # 21 characters + newline
    _BOARD = 11 * 22  # the board part of the string

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "maedn", "MaednEvaluator")
        if game.num_players() != 2:
            raise ValueError(f"MaednEvaluator supports 2 players, got {game.num_players()}")
        super().__init__(game, bounds=(-1.0, 1.0))
        opposite = bool(game.get_parameters().get("twoPlayersOpposite", True))
        # Per player: string index -> (relative field, absolute track field or -1).
        self._fields = []
        for player in (0, 1):
            position = 2 if (player == 1 and opposite) else player
            table = {}
            for rel in range(44):
                absolute = (rel + 10 * position) % 40 if rel < 40 else 40 + 4 * position + rel - 40
                x, y = self._COORDS[absolute]
                table[self._ROW * y + x] = (rel, absolute if rel < 40 else -1)
            self._fields.append(table)

    def _pieces(self, s: str, char: str, table: dict) -> list:
        """(relative field, absolute track field) of the player's pieces on the board."""
        found = []
        end = self._BOARD
        i = s.find(char, 0, end)
        while i >= 0:
            got = table.get(i)  # None: a piece at home
            if got is not None:
                found.append(got)
            i = s.find(char, i + 1, end)
        return found

    @staticmethod
    def _remaining(own: list, enemy: list) -> float:
        left = 170.0
        for rel, a in own:
            left -= rel + 1
            if a >= 0:
                for _, b in enemy:
                    if b >= 0 and 1 <= (a - b) % 40 <= 6:
                        left += (rel + 1) / 6.0
                        break
        return left

    def _value(self, state):
        s = str(state)
        p0 = self._pieces(s, "1", self._fields[0])
        p1 = self._pieces(s, "2", self._fields[1])
        r0 = self._remaining(p0, p1)
        r1 = self._remaining(p1, p0)
        x = (r1 - r0) / 3.5
        return SHRINK * math.tanh(x / (0.8 * math.sqrt((r0 + r1) / 3.5) + 1.0))


# Banqi piece values in the order G A E R H C S (general ... soldier).
_BANQI_VALUES = (6, 5, 4, 3, 2, 4, 1)
# Signed value of a chance outcome (piece id: red 0..6, black 7..13).
_BANQI_SIGNED = tuple(float(v) for v in _BANQI_VALUES) + tuple(-float(v) for v in _BANQI_VALUES)
# bytes.translate table: red piece -> 10 + value, black -> 10 - value, else 10,
# so sum(board.translate(table)) - 10 * len(board) is the face-up difference.
_BANQI_TABLE = bytes(
    10
    + dict(zip(b"GAERHCS", _BANQI_VALUES)).get(c, 0)
    - dict(zip(b"gaerhcs", _BANQI_VALUES)).get(c, 0)
    for c in range(256)
)


class BanqiEvaluator(Evaluator):
    """Material still alive per colour, face-down pieces included.

    Face-up pieces are counted in `str(state)`. The face-down pool comes from
    `chance_outcomes()` (at a decision node: of the child after flipping a
    face-down square), probability * number of face-down squares, so flips
    are value-neutral and only captures move the evaluation. Values
    G6 A5 E4 R3 H2 C4 S1; v = SHRINK * tanh(material difference / 12) for
    the player holding that colour; 0 before colours are assigned.
    Bounds: (-1, 1).
    """

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "banqi", "BanqiEvaluator")
        super().__init__(game)

    def material(self, state, text: str | None = None) -> float:
        """Red material minus black material, face-down pool included."""
        if text is None:
            text = str(state)
        board = text[:64].encode()  # 4 rows of 8 pieces + spaces
        diff = float(sum(board.translate(_BANQI_TABLE)) - 640)
        hidden = board.count(b"?")
        if hidden:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
            else:
                outcomes = state.child(board.find(b"?") // 2).chance_outcomes()
            diff += hidden * sum(_BANQI_SIGNED[a] * p for a, p in outcomes)
        return diff

    def _value(self, state):
        s = str(state)
        colour_at = s.find("(P0=", 64)
        if colour_at < 0:
            return 0.0
        v = SHRINK * math.tanh(self.material(state, s) / 12.0)
        return v if s[colour_at + 4] == "R" else -v


class CatchEvaluator(Evaluator):
    """Slack between rows left and the paddle's distance to the ball.

    Uses the `ball_row`, `ball_col`, `paddle_col` accessors. The paddle moves
    one column per step while the ball falls one row, so the ball is
    catchable iff slack = rows left - |paddle - ball| >= 0;
    v = SHRINK * tanh(slack + 0.5) has the sign of the true outcome under
    best play. Before the ball is dropped, 0. Bounds: (-1, 1).
    """

    def __init__(self, game: pyspiel.Game):
        _check_game(game, "catch", "CatchEvaluator")
        super().__init__(game)
        params = game.get_parameters()
        self._rows = int(params.get("rows", 10))

    def _value(self, state):
        row = state.ball_row()
        if row < 0:
            return 0.0
        slack = (self._rows - 1 - row) - abs(state.paddle_col() - state.ball_col())
        return SHRINK * math.tanh(slack + 0.5)

    def player_value(self, state, player):
        if state.is_terminal():
            return state.returns()[player]
        return self._value(state)


# --------------------------------------------------------------------------
# Registry and construction.

EvaluatorFactory = Callable[[pyspiel.Game], Any]

EVALUATORS: dict[str, EvaluatorFactory] = {
    "backgammon": BackgammonEvaluator,
    "pig": PigEvaluator,
    "einstein_wurfelt_nicht": EinsteinEvaluator,
    "2048": Game2048Evaluator,
    "yacht": YachtEvaluator,
    "maedn": MaednEvaluator,
    "catch": CatchEvaluator,
    "banqi": BanqiEvaluator,
}

_GENERIC_NAMES = ("default", "zero", "rollout", "rollout(n=10,seed=0)")


def _custom_factories() -> Mapping[str, EvaluatorFactory]:
    """`games.EVALUATORS` if the custom games package provides it."""
    try:
        import games  # noqa: PLC0415 - lazy: registers custom games on import

        factories = games.EVALUATORS
    except (ImportError, AttributeError):
        return {}
    return factories if isinstance(factories, Mapping) else {}


def default_evaluator(game: pyspiel.Game):
    """The game's heuristic, else `games.EVALUATORS`, else the midpoint fallback.

    A built-in heuristic whose factory rejects the game's parameters (e.g.
    3-player pig) also falls back to `MidpointEvaluator`.
    """
    name = _short_name(game)
    factory = EVALUATORS.get(name)
    if factory is not None:
        try:
            return factory(game)
        except ValueError:
            return MidpointEvaluator(game)
    factory = _custom_factories().get(name)
    if factory is not None:
        return factory(game)
    return MidpointEvaluator(game)


_CALL_RE = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*$")


def _parse_rollout_args(text: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    aliases = {
        "n": "n_rollouts",
        "n_rollouts": "n_rollouts",
        "seed": "seed",
        "max_length": "max_length",
    }
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in aliases:
            raise ValueError(
                f"rollout evaluator: bad argument {part!r}; accepted: "
                f"n (or n_rollouts), seed, max_length, e.g. "
                f"'rollout(n=10,seed=0)'"
            )
        value = value.strip()
        try:
            kwargs[aliases[key]] = None if value == "None" else int(value)
        except ValueError:
            raise ValueError(
                f"rollout evaluator: {key} must be an integer, got "
                f"{value!r}; accepted: n (or n_rollouts), seed, "
                f"max_length with integer values, e.g. "
                f"'rollout(n=10,seed=0)'"
            ) from None
    return kwargs


def _accepted(game: pyspiel.Game) -> str:
    names = (
        list(_GENERIC_NAMES)
        + sorted(EVALUATORS)
        + sorted(n for n in _custom_factories() if n not in EVALUATORS)
    )
    return (
        ", ".join(repr(n) for n in names)
        + ", None (default), or an object with an evaluate(state) method"
    )


def make_evaluator(spec: Any, game: pyspiel.Game):
    """Build an evaluator from None, a registry name, or an evaluator object.

    Strings: "default" (= None), "zero" (midpoint fallback), "rollout",
    "rollout(n=10,seed=0,max_length=200)", or a game short name from
    `EVALUATORS` / `games.EVALUATORS` (must match `game`). An object with a
    callable `evaluate` is returned unchanged.
    """
    if spec is None:
        return default_evaluator(game)
    if isinstance(spec, str):
        m = _CALL_RE.match(spec)
        if m is None:
            raise ValueError(f"unknown evaluator {spec!r}; accepted: {_accepted(game)}")
        name, args = m.group(1), m.group(2)
        if name == "rollout":
            return RolloutEvaluator(game, **_parse_rollout_args(args or ""))
        if args is not None:
            raise ValueError(
                f"evaluator {name!r} takes no arguments, got {spec!r}; accepted: {_accepted(game)}"
            )
        if name == "default":
            return default_evaluator(game)
        if name == "zero":
            return MidpointEvaluator(game)
        factory = EVALUATORS.get(name) or _custom_factories().get(name)
        if factory is None:
            raise ValueError(f"unknown evaluator {spec!r}; accepted: {_accepted(game)}")
        if name != _short_name(game):
            raise ValueError(
                f"evaluator {name!r} is for game {name!r}, not for "
                f"{_short_name(game)!r}; accepted: {_accepted(game)}"
            )
        return factory(game)
    if callable(getattr(spec, "evaluate", None)):
        return spec
    if isinstance(spec, pyspiel.Evaluator):
        raise ValueError(
            f"{type(spec).__name__} is a C++ evaluator with no Python "
            f"evaluate(); use 'rollout(n=...)' or "
            f"open_spiel.python.algorithms.mcts.RandomRolloutEvaluator; "
            f"accepted: {_accepted(game)}"
        )
    raise ValueError(
        f"evaluator must be a string or an object with an evaluate(state) "
        f"method, got {type(spec).__name__} {spec!r}; accepted: "
        f"{_accepted(game)}"
    )


def evaluator_bounds(evaluator: Any, game: pyspiel.Game) -> tuple[float, float]:
    """(L, U) bounding every evaluator value: `evaluator.bounds` or the game's.

    Without `bounds` the game's (min_utility, max_utility) are used, except in
    2048 where those are not a bound on returns (see `game_value_bounds`).
    """
    bounds = getattr(evaluator, "bounds", None)
    if bounds is None:
        return game_value_bounds(game)
    try:
        lo, hi = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(
            f"evaluator bounds must be a pair of numbers (L, U), got "
            f"{bounds!r} from {type(evaluator).__name__}"
        ) from None
    if math.isnan(lo) or math.isnan(hi) or lo > hi:
        raise ValueError(
            f"evaluator bounds must satisfy L <= U, got {bounds!r} from {type(evaluator).__name__}"
        )
    return lo, hi


# --------------------------------------------------------------------------
# Microbenchmark: python -m bots.evaluators

BENCH_GAMES: Sequence[tuple[str, dict]] = (
    ("backgammon", {}),
    ("pig", {}),
    ("einstein_wurfelt_nicht", {}),
    ("2048", {}),
    ("yacht", {}),
    ("maedn", {"players": 2}),
    ("catch", {}),
    ("banqi", {}),
)


def _sample_states(game: pyspiel.Game, n: int, seed: int) -> list:
    """Non-terminal states from seeded random playouts."""
    rng = random.Random(seed)
    states = []
    while len(states) < n:
        s = game.new_initial_state()
        while not s.is_terminal() and len(states) < n:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            if not s.is_terminal():
                states.append(s.clone())
    return states


def _bench(calls: int = 20000) -> None:
    """Best of 5 runs, process CPU time (less sensitive to other load than wall time)."""
    print(f"{'game':24s} {'evaluate us':>12s} {'player_value us':>16s} {'str(state) us':>14s}")
    for name, params in BENCH_GAMES:
        game = pyspiel.load_game(name, params)
        ev = default_evaluator(game)
        states = _sample_states(game, 500, seed=1)
        reps = max(1, calls // len(states))
        for s in states:  # warm memo tables, as in a real search
            ev.evaluate(s)

        def timed(fn):
            best = float("inf")
            for _ in range(5):
                t0 = time.process_time()
                for _ in range(reps):
                    for s in states:
                        fn(s)
                best = min(best, time.process_time() - t0)
            return best / (reps * len(states)) * 1e6

        t_eval = timed(ev.evaluate)
        t_pv = timed(lambda s: ev.player_value(s, 0))
        t_str = timed(str)
        print(f"{name:24s} {t_eval:12.2f} {t_pv:16.2f} {t_str:14.2f}")


if __name__ == "__main__":
    _bench()
