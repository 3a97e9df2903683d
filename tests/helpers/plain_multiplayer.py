"""Plain paranoid expectimax and plain expectimax^n: the N-player references.

Deliberately short and independent of bots/: recursive, no pruning, no table, no
ordering. Depth as in plain_expectiminimax.py: decision nodes consume one unit,
chance nodes none; a terminal is worth ``returns()``, any other state at depth 0
``evaluator.evaluate(state)``.

* Paranoid: one number, the root player's; that player maximises, every other
  player minimises it (Sturtevant and Korf 2000).
* expectimax^n: a vector; each player takes the child with the largest component of
  its own, ties to the smallest action id; chance averages component by component,
  ``0.0 + p0 * v0 + p1 * v1 + ...`` in the game's outcome order (Luckhardt and Irani
  1986). The search engines add in the same order, so vectors compare with ``==``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def plain_paranoid(state: Any, depth: int, evaluator: Any, player: int) -> tuple[float, dict]:
    """(value, {root action: value}) for ``player``; the dict is empty below a decision root."""

    def value(s: Any, d: int) -> float:
        if s.is_terminal():
            return float(s.returns()[player])
        if d == 0:
            return float(evaluator.evaluate(s)[player])
        if s.is_chance_node():
            total = 0.0
            for action, prob in s.chance_outcomes():
                total += prob * value(s.child(action), d)
            return total
        values = [value(s.child(a), d - 1) for a in s.legal_actions()]
        return max(values) if s.current_player() == player else min(values)

    if state.is_terminal() or state.is_chance_node() or depth == 0:
        return value(state, depth), {}
    children = {a: value(state.child(a), depth - 1) for a in state.legal_actions()}
    pick = max if state.current_player() == player else min
    return pick(children.values()), children


def plain_maxn(
    state: Any,
    depth: int,
    evaluator: Any,
    outcomes: Callable[[Any], Sequence[tuple[int, float]]] = lambda s: s.chance_outcomes(),
) -> tuple[tuple[float, ...], int | None]:
    """(vector, root action) of expectimax^n; the action is None below a decision root.
    ``outcomes`` gives a chance node's (outcome, probability) pairs: a sampled tree
    (MCMS) replaces the game's with its draws."""
    players = state.num_players()

    def vector(s: Any) -> tuple[float, ...]:
        raw = s.returns() if s.is_terminal() else evaluator.evaluate(s)
        return tuple(float(raw[p]) for p in range(players))

    def choose(s: Any, d: int) -> tuple[tuple[float, ...], int | None]:
        if s.is_terminal() or d == 0:
            return vector(s), None
        if s.is_chance_node():
            totals = [0.0] * players
            for action, prob in outcomes(s):
                child = choose(s.child(action), d)[0]
                for p in range(players):
                    totals[p] += prob * child[p]
            return tuple(totals), None
        mover = s.current_player()
        children = [(choose(s.child(a), d - 1)[0], a) for a in s.legal_actions()]
        best, action = max(children, key=lambda item: (item[0][mover], -item[1]))
        return best, action

    return choose(state, depth)
