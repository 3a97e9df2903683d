"""Faults of OpenSpiel's own games that change what a search or a tournament measures.

Each fault is found by playing the game, not by reading the version number, so an
OpenSpiel release that fixes it is recognised without a change here.
"""

from __future__ import annotations

import random
from importlib import metadata

import pyspiel

# A seeded random game of hyper-backgammon ends within about 50 moves.
_PROBE_SEED = 0
_PROBE_MAX_STEPS = 10_000


class UpstreamGameWarning(UserWarning):
    """A bot built for a game with a known upstream fault (`upstream_problem`)."""


_FOUND: dict[str, str | None] = {}


def upstream_problem(game: pyspiel.Game) -> str | None:
    """One line naming a known fault of ``game`` in the installed OpenSpiel, or None."""
    key = str(game)
    if key not in _FOUND:
        _FOUND[key] = _problem(key, game)
    return _FOUND[key]


def _problem(game_string: str, game: pyspiel.Game) -> str | None:
    if game.get_type().short_name != "backgammon":
        return None
    if not game.get_parameters().get("hyper_backgammon", False):
        return None
    returns = _random_game_returns(game)
    if returns is None or any(returns):
        return None
    return (
        f"{game_string}: open_spiel {_open_spiel_version()} scores every finished hyper-backgammon game 0 to both players (its Returns() counts "
        "15 checkers borne off, not 3), so a search sees every end as a draw and a tournament "
        "cannot tell bots apart; play 'backgammon' or an OpenSpiel whose hyper-backgammon "
        "scores its games"
    )


def _open_spiel_version() -> str:
    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return "(version unknown)"


def _random_game_returns(game: pyspiel.Game) -> list[float] | None:
    """The returns at the end of one seeded random game, or None if it does not end."""
    rng = random.Random(_PROBE_SEED)
    state = game.new_initial_state()
    for _ in range(_PROBE_MAX_STEPS):
        if state.is_terminal():
            return list(state.returns())
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None
