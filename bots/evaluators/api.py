"""The evaluator API: what the search engine asks of a leaf evaluator.

An evaluator follows OpenSpiel's MCTS evaluator convention
(`open_spiel.python.algorithms.mcts.Evaluator`): `evaluate(state)` returns the
per-player values (a sequence, e.g. an `np.ndarray`), `prior(state)` a list of
`(action, probability)`. Any OpenSpiel Python evaluator plugs in as it is. The
engine also uses these optional members when an evaluator has them:

  * `bounds = (L, U)`: guaranteed bounds on every value `evaluate()` returns,
    for every player, terminal states included. Star1, Star2 and ChanceProbCut
    prune with them, so they are a contract, not a hint; without them the
    game's utility range is used (`game_value_bounds`).
  * `player_bounds(player) -> (L, U)`: tighter bounds for one player (e.g. an
    asymmetric tree where player 1's values are the negated leaf range).
  * `player_value(state, player) -> float`: the same number as
    `evaluate(state)[player]` without building an array (a fast path).
  * `accepts_positions = True`: `evaluate` also takes the immutable fast-path
    position of a Python game (`state.search_position()`), so the engine can
    search positions instead of pyspiel states.

`Evaluator` is the base class of the built-in heuristics: it supplies the
uniform prior, terminal handling and `player_value` from one `_value(state)`.

Value conventions: two-player zero-sum games return `(v, -v)` with v strictly
inside the game's utility range for non-terminal states; games with more
players return one value per player, each within the bounds, summing to the
game's utility sum (max^n's shallow pruning relies on it); terminal states
return `state.returns()` unchanged. One-player games return a 1-vector; in
2048 (rewards game) it is the TOTAL return: `state.returns()[0]` (score so
far) plus an estimate of the future score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

from games import plain_name


@runtime_checkable
class EvaluatorLike(Protocol):
    """What every evaluator has; the optional members are listed in the module doc."""

    def evaluate(self, state: Any) -> Sequence[float] | np.ndarray: ...


# Heuristic values of non-terminal states stay within SHRINK * (max utility)
# so that no estimate claims the certainty of a real terminal outcome.
SHRINK = 0.99


def short_name(game: pyspiel.Game) -> str:
    """The game's name, a Python twin's as its C++ game's (``python_dice`` -> ``dice``):
    both twins share their evaluator."""
    return plain_name(game.get_type().short_name)


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
    if short_name(game) == "2048":
        hi = 16.0 * hi
    return lo, hi


def check_game_name(game: pyspiel.Game, expected: str, cls_name: str) -> None:
    name = short_name(game)
    if name != expected:
        raise ValueError(
            f"{cls_name} evaluates game {expected!r}, got game {name!r}; "
            f"use make_evaluator('default', game) to pick the right one"
        )


class Evaluator(os_mcts.Evaluator):
    """Base class: OpenSpiel MCTS evaluator convention plus `bounds`.

    Subclasses for two-player zero-sum games implement `_value(state)` (the
    value for player 0 of a non-terminal state); one-player subclasses do the
    same for their single player; for more than two players `_values(state)`
    returns the whole vector. Anything else overrides `evaluate`.
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

    def _values(self, state: pyspiel.State) -> list[float]:
        raise NotImplementedError(
            f"{type(self).__name__} must implement _values(state) (one value per player) "
            f"for {self.num_players} players, or override evaluate()"
        )

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        """Per-player values; terminal states return `state.returns()`."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        if self.num_players > 2:
            return np.array(self._values(state))
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
        if self.num_players > 2:
            return self._values(state)[player]
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
        return f"{type(self).__name__}({short_name(self.game)}, bounds={self.bounds})"


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
