"""Custom stochastic games; importing this package registers them with pyspiel.

Games: ``dice`` (Hauk's Dice), ``ballard_tree`` (Ballard's *-complete test
tree), ``chance_tic_tac_toe``, ``cant_stop`` (Sackson's Can't Stop, 2-4 players).
Each exists twice with the same rules and strings: a C++ game in games/native/
(compiled into ``games._native_games``) and the Python game of each module, the
reference. One registered name, one implementation, whatever was imported and in
whatever order: the plain names are the C++ games, registered when this package
loads their extension; the Python twins are ``python_dice``,
``python_ballard_tree``, ``python_chance_tic_tac_toe`` and ``python_cant_stop``
(OpenSpiel's convention). Where the C++ games cannot load (no compiler at
install, ``STARSPIEL_ENGINE=python``, a stale build: ``native_games.problem()``
says why), the plain names are the Python twins too, so ``pyspiel.load_game("dice")``
always works; ``native_twins()`` says which. ``plain_name`` maps a twin's name to
its game's (evaluators, keys and calibrations are shared by both twins).
A Python state's ``search_position()`` returns an immutable, hashable fast-path
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

from games import _common, ballard_tree, cant_stop, chance_tic_tac_toe, dice, native_games
from games.upstream import UpstreamGameWarning, upstream_problem

__all__ = [
    "dice",
    "ballard_tree",
    "chance_tic_tac_toe",
    "cant_stop",
    "PYTHON_GAMES",
    "PYTHON_NAMES",
    "native_twins",
    "pays_rewards",
    "plain_name",
    "python_game",
    "upstream_problem",
    "UpstreamGameWarning",
]

# Plain name -> the Python game class (the reference implementation).
PYTHON_GAMES: dict[str, type[pyspiel.Game]] = {
    "dice": dice.DiceGame,
    "chance_tic_tac_toe": chance_tic_tac_toe.ChanceTTTGame,
    "ballard_tree": ballard_tree.BallardGame,
    "cant_stop": cant_stop.CantStopGame,
}
# Plain name -> the Python twin's registered name.
PYTHON_NAMES: dict[str, str] = {
    module.SHORT_NAME: module.PYTHON_NAME
    for module in (dice, chance_tic_tac_toe, ballard_tree, cant_stop)
}
_PLAIN_NAMES = {python: plain for plain, python in PYTHON_NAMES.items()}

if native_games.module() is None:
    # No C++ games here: the plain names fall back to the Python twins, under the plain
    # name (str(game) says "dice(...)", as the C++ game's does, so results are named alike).
    for _module in (dice, chance_tic_tac_toe, ballard_tree, cant_stop):
        _twin = PYTHON_GAMES[_module.SHORT_NAME]
        _stand_in_type = _common.renamed(_module._GAME_TYPE, _module.SHORT_NAME)
        _common.register_game(
            _stand_in_type,
            type(
                _twin.__name__,
                (_twin,),
                {"stand_in_type": _stand_in_type, "__module__": _twin.__module__},
            ),
        )


def plain_name(short_name: str) -> str:
    """The game a registered name stands for: ``python_dice`` -> ``dice``; any other name
    unchanged. Both twins share evaluators, keys, defaults and calibrations."""
    return _PLAIN_NAMES.get(short_name, short_name)


def native_twins() -> bool:
    """Whether ``pyspiel.load_game`` builds the C++ games under the plain names (else the
    Python twins hold them: ``native_games.problem()`` says why)."""
    return native_games.module() is not None


def pays_rewards(game: pyspiel.Game) -> bool:
    """Whether the game pays rewards before its end (2048): values then include the points
    already collected, and OpenSpiel's MCTS, which reads only terminal returns, refuses it."""
    return game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS


def python_game(spec: str, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """The Python implementation of a custom game, built directly, outside the registry.

    ``pyspiel.load_game("dice")`` builds the C++ game where it is built; this always
    builds the Python game (with ``search_position()``, ``rules``...), as
    ``load_game("python_dice")`` does. Takes what ``load_game`` takes: a game string,
    ``"dice(n=3,k=3)"`` or ``"python_dice(n=3,k=3)"``, or a short name and a parameter
    dict. Parameters are checked as by ``load_game``.
    """
    parsed = dict(pyspiel.game_parameters_from_string(spec))
    name = plain_name(parsed.pop("name"))
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
