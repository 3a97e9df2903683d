"""Evaluators for any game: the midpoint (no information) and random rollouts."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pyspiel

from bots.evaluators.api import Evaluator, short_name
from games import pays_rewards


class MidpointEvaluator(Evaluator):
    """Zero-information fallback for any game.

    Non-terminal states get the midpoint (min_utility + max_utility) / 2 for
    every player (0 for zero-sum games). In games with intermediate rewards
    the midpoint would ignore the score already collected, so there a
    non-terminal state is worth `state.returns()` (no estimate of the
    future). Terminal states return `state.returns()`.
    Bounds: `game_value_bounds(game)` = (min_utility, max_utility) except 2048.
    """

    native_name = "midpoint"  # its C++ twin in bots/native/evaluators/

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self._mid = (game.min_utility() + game.max_utility()) / 2.0
        self._rewards = pays_rewards(game)

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
            f"RolloutEvaluator({short_name(self.game)}, n_rollouts={self.n_rollouts}, "
            f"seed={self.seed}, bounds={self.bounds})"
        )
