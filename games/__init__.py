"""Custom stochastic games; importing this package registers them with pyspiel.

Games: ``dice`` (Hauk's Dice), ``ballard_tree`` (Ballard's *-complete test
tree), ``chance_tic_tac_toe``, ``cant_stop`` (Sackson's Can't Stop, 2-4 players). Each exists twice with the same rules, strings
and short name: a C++ game in games/native/ (compiled into the native engine,
``bots._native``, and registered by it when it loads) and the Python game of
each module, the reference and the fallback. Importing this package registers
the Python games under names no C++ twin holds yet; when the native engine
loads (``import bots``, before or after this package) its twins take those
names over, so ``pyspiel.load_game`` builds the C++ twin wherever the engine
runs and the Python game elsewhere (or with ``STARSPIEL_ENGINE=python``).
``native_twins()`` says which. Either way the Python game classes and positions stay importable: a Python
state's ``search_position()`` returns an immutable, hashable fast-path
position with named fields (see games/_common.py), and each position class
rebuilds itself from a C++ twin's state (``from_state``; bots' evaluators and
MCMS's sampling keys find it as the game class's ``position_class``). The games'
evaluators live with the others in ``bots/evaluators/``; games know nothing of
them, nor of anything else in bots (tests/test_layering.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from games import ballard_tree, cant_stop, chance_tic_tac_toe, dice
from games.upstream import UpstreamGameWarning, upstream_problem

__all__ = [
    "dice",
    "ballard_tree",
    "chance_tic_tac_toe",
    "cant_stop",
    "PYTHON_GAMES",
    "native_twins",
    "python_game",
    "upstream_problem",
    "UpstreamGameWarning",
]

# Short name -> the Python game class (the reference implementation).
PYTHON_GAMES: dict[str, type[pyspiel.Game]] = {
    "dice": dice.DiceGame,
    "chance_tic_tac_toe": chance_tic_tac_toe.ChanceTTTGame,
    "ballard_tree": ballard_tree.BallardGame,
    "cant_stop": cant_stop.CantStopGame,
}


def native_twins() -> bool:
    """Whether ``pyspiel.load_game`` builds the C++ twins of these games (read from the
    registry itself: which registration holds a name depends on the import order)."""
    return not any(
        isinstance(pyspiel.load_game(name), game_class) for name, game_class in PYTHON_GAMES.items()
    )


def python_game(spec: str, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """The Python implementation of a custom game, built directly, outside the registry.

    ``pyspiel.load_game`` builds the C++ twin where the native engine is loaded;
    this always builds the Python game (with ``search_position()``, ``rules``...).
    Takes what ``load_game`` takes: a game string, ``"dice(n=3,k=3)"``, or a
    short name and a parameter dict. Parameters are checked as by ``load_game``.
    """
    parsed = dict(pyspiel.game_parameters_from_string(spec))
    name = parsed.pop("name")
    if params is not None:
        if parsed:
            raise ValueError(f"python_game: pass parameters in {spec!r} or in params, not both")
        parsed = dict(params)
    game_class = PYTHON_GAMES.get(name)
    if game_class is None:
        raise ValueError(
            f"python_game: {name!r} has no Python implementation here; accepted: "
            f"{sorted(PYTHON_GAMES)}"
        )
    return game_class(parsed)
