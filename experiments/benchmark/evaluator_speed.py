"""Microbenchmark of the leaf evaluators: microseconds per call, per game.

`python -m experiments.benchmark.evaluator_speed` prints, for each OpenSpiel game in
scope, the cost of `evaluate()`, of `player_value()` and, for comparison, of
`str(state)`, on states from seeded random playouts.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from bots.evaluators import default_evaluator

BENCH_GAMES: Sequence[tuple[str, dict[str, Any]]] = (
    ("backgammon", {}),
    ("pig", {}),
    ("einstein_wurfelt_nicht", {}),
    ("2048", {}),
    ("yacht", {}),
    ("maedn", {"players": 2}),
    ("catch", {}),
    ("banqi", {}),
)


def playout_states(game: pyspiel.Game, n: int, seed: int) -> list[pyspiel.State]:
    """Non-terminal states from seeded random playouts."""
    rng = random.Random(seed)
    states: list[pyspiel.State] = []
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


def _microseconds_per_call(
    fn: Callable[[pyspiel.State], Any], states: Sequence[pyspiel.State], reps: int
) -> float:
    """Best of 5 runs, process CPU time (less sensitive to other load than wall time)."""
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(reps):
            for s in states:
                fn(s)
        best = min(best, time.process_time() - t0)
    return best / (reps * len(states)) * 1e6


def _bench(calls: int = 20000) -> None:
    print(f"{'game':24s} {'evaluate us':>12s} {'player_value us':>16s} {'str(state) us':>14s}")
    for name, params in BENCH_GAMES:
        game = pyspiel.load_game(name, params)
        ev = default_evaluator(game)
        states = playout_states(game, 500, seed=1)
        reps = max(1, calls // len(states))
        for s in states:  # warm memo tables, as in a real search
            ev.evaluate(s)
        t_eval = _microseconds_per_call(ev.evaluate, states, reps)
        t_pv = _microseconds_per_call(functools.partial(ev.player_value, player=0), states, reps)
        t_str = _microseconds_per_call(str, states, reps)
        print(f"{name:24s} {t_eval:12.2f} {t_pv:16.2f} {t_str:14.2f}")


if __name__ == "__main__":
    _bench()
