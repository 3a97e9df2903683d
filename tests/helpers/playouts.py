"""Seeded random play (and replaying a history), written once for every test that walks
a game.

Each function draws from the ``random.Random`` it is given in one fixed order (a chance
outcome by its probability with ``rng.choices``, a decision uniformly with
``rng.choice``), so a seed names the same states wherever it is used; the golden
evaluator states (evaluator_golden.py) depend on that order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyspiel


def random_action(state: Any, rng: random.Random) -> int:
    """A chance outcome drawn by its probability, or a legal action drawn uniformly."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        return rng.choices(actions, probs)[0]
    return rng.choice(state.legal_actions())


def numpy_random_action(state: Any, rng: np.random.RandomState) -> int:
    """``random_action`` for tests seeded with a numpy ``RandomState``."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        return int(rng.choice(actions, p=probs))
    return int(rng.choice(state.legal_actions()))


def replay(game: pyspiel.Game, history: Iterable[int]) -> pyspiel.State:
    """The state that ``history`` (actions from the initial state) reaches."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def random_game(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    """The terminal state of one game played at random."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    return state


def playout_states(game: pyspiel.Game, n: int, seed: int, keep: float) -> list[pyspiel.State]:
    """``n`` states of seeded random games: each initial and terminal state, and about
    ``keep`` of the others."""
    rng = random.Random(seed)
    out: list[pyspiel.State] = []
    while len(out) < n:
        s = game.new_initial_state()
        out.append(s.clone())
        while not s.is_terminal() and len(out) < n:
            s.apply_action(random_action(s, rng))
            if s.is_terminal() or rng.random() < keep:
                out.append(s.clone())
    return out[:n]


def pig_states(game: pyspiel.Game, n: int, seed: int, roll: float) -> list[pyspiel.State]:
    """Every state after the first move of seeded pig games, until there are ``n`` or more,
    with the mover rolling (action 0) with probability ``roll`` and holding (1) otherwise:
    a high ``roll`` reaches long turns and near wins that uniform play rarely does."""
    rng = random.Random(seed)
    states: list[pyspiel.State] = []
    while len(states) < n:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(random_action(s, rng))
            else:
                s.apply_action(0 if rng.random() < roll else 1)
            states.append(s.clone())
    return states
