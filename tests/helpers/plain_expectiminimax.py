"""Plain expectiminimax: the reference the exact search algorithms are checked against.

Deliberately simple and independent of bots/: recursive, no pruning, no table,
no move ordering, full enumeration of every chance outcome. The depth convention
is docs/guide/search.md's ("Conventions"), also OpenSpiel's ``minimax.expectiminimax``'s:
decision nodes consume one unit, chance nodes none; a terminal is worth ``returns()[player]``;
at depth 0 any other state (chance or decision) is a leaf worth
``evaluator.evaluate(state)[player]``. Max where ``current_player() == player``,
min at the other player's nodes.
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

from games import position_sampler as common_positions


@dataclasses.dataclass
class PlainResult:
    """Root value plus the counts a pruning search must not exceed."""

    value: float
    action_values: dict[int, float]  # root decision node only; {} otherwise
    nodes: int = 0  # every state visited: decision + chance + leaves (terminal or depth 0)
    leaves: int = 0  # terminals + depth-0 evaluations
    evaluations: int = 0  # evaluator.evaluate() calls

    def best_actions(self, tol: float = 1e-9) -> list[int]:
        """Actions whose value equals the root value (ties are all optimal)."""
        return [a for a, v in self.action_values.items() if abs(v - self.value) <= tol]


def plain_expectiminimax(
    state: Any,
    depth: int,
    evaluator: Any,
    player: int | None = None,
    add_returns_at_leaves: bool = False,
) -> PlainResult:
    """Exact depth-limited expectiminimax value of ``state`` for ``player``.

    ``state`` is a pyspiel.State (only is_terminal, is_chance_node,
    current_player, legal_actions, chance_outcomes, child and returns are used).
    ``add_returns_at_leaves`` adds ``returns()[player]`` (rewards collected so
    far) to depth-0 evaluations, for engines that treat the evaluator as an
    estimate of future reward only.
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if player is None:
        player = state.current_player()
        if player < 0:
            raise ValueError("player must be given when the root is not a decision node")
    result = PlainResult(value=0.0, action_values={})

    def value(s: Any, d: int) -> float:
        result.nodes += 1
        if s.is_terminal():
            result.leaves += 1
            return float(s.returns()[player])
        if d == 0:
            result.leaves += 1
            result.evaluations += 1
            v = float(evaluator.evaluate(s)[player])
            if add_returns_at_leaves:
                v += float(s.returns()[player])
            return v
        if s.is_chance_node():
            return sum(p * value(s.child(a), d) for a, p in s.chance_outcomes())
        vals = [value(s.child(a), d - 1) for a in s.legal_actions()]
        return max(vals) if s.current_player() == player else min(vals)

    if not state.is_terminal() and not state.is_chance_node() and depth > 0:
        result.nodes += 1  # the root, counted here because it is expanded here
        for a in state.legal_actions():
            result.action_values[a] = value(state.child(a), depth - 1)
        vals = list(result.action_values.values())
        result.value = max(vals) if state.current_player() == player else min(vals)
    else:
        result.value = value(state, depth)
    return result


class HashEvaluator:
    """Bounded, deterministic, pseudo-random leaf values (a hash of str(state)).

    Why: arbitrary-looking values exercise pruning windows far more than a
    smooth heuristic. Two players: ``[x, -x]`` with x in ``bounds`` (which must
    be symmetric); one player: ``[x]``.
    """

    accepts_positions = False

    def __init__(
        self, game: Any, bounds: tuple[float, float] | None = None, levels: int = 0
    ) -> None:
        self.num_players = game.num_players()
        if bounds is None:
            bounds = (game.min_utility(), game.max_utility())
        self.bounds = (float(bounds[0]), float(bounds[1]))
        if self.num_players == 2 and self.bounds[0] != -self.bounds[1]:
            raise ValueError(f"two-player HashEvaluator needs symmetric bounds, got {bounds}")
        self.levels = levels  # >0: values on a grid of levels+1 points (many ties)

    def evaluate(self, state: Any) -> list[float]:
        h = zlib.crc32(str(state).encode()) / 2**32
        if self.levels:
            h = round(h * self.levels) / self.levels
        lo, hi = self.bounds
        x = lo + (hi - lo) * h
        return [x] if self.num_players == 1 else [x, -x]

    def prior(self, state: Any) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


class CountingEvaluator:
    """Proxy that counts evaluate() calls; keeps bounds and accepts_positions."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0
        if hasattr(inner, "bounds"):
            self.bounds = inner.bounds
        self.accepts_positions = bool(getattr(inner, "accepts_positions", False))

    def evaluate(self, state: Any) -> Any:
        self.calls += 1
        return self.inner.evaluate(state)

    def prior(self, state: Any) -> Any:
        return self.inner.prior(state)


def sample_positions(
    game: Any, count: int, seed: int, max_moves: int, player: int | None = None
) -> list[Any]:
    """Decision states after 0..max_moves random decisions: the experiments' one sampler.

    ``player`` restricts to states where that player is to move.
    """
    return common_positions.sample_positions(game, count, seed, (0, max_moves), player=player)
