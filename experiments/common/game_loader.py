"""One game loader for every experiment program: custom games registered, clear errors."""

from __future__ import annotations

import functools
import re

import pyspiel

from experiments.common.errors import ExperimentError


class GameError(ExperimentError):
    """A game string that cannot be loaded; the message says why and what is accepted."""


def short_name(game_string: str) -> str:
    """The game's registered name: 'pig' for 'pig(winscore=50)'."""
    return re.split(r"[(\s]", game_string.strip(), maxsplit=1)[0]


def register_custom_games() -> None:
    """Registers the custom games: `import games` gives the plain names to the C++ games
    (where built) and python_<name> to the Python twins, whatever is imported first."""
    try:
        import bots  # noqa: F401
        import games  # noqa: F401
    except ImportError as error:
        raise GameError(f"the custom games package failed to import: {error}") from error


def stochastic_game_names() -> list[str]:
    """Registered sequential, explicit-stochastic, perfect-information games."""
    return sorted(
        t.short_name
        for t in pyspiel.registered_games()
        if t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        and t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    )


@functools.lru_cache(maxsize=32)
def load_game(game_string: str) -> pyspiel.Game:
    """`pyspiel.load_game` with the custom games registered; a bad string is a GameError."""
    if not isinstance(game_string, str) or not game_string.strip():
        raise GameError(f"expected a game string such as 'pig(winscore=50)', got {game_string!r}")
    register_custom_games()
    name = short_name(game_string)
    if name not in pyspiel.registered_names():
        raise GameError(
            f"unknown game {name!r} in {game_string!r}; stochastic perfect-information games "
            f"registered: {', '.join(stochastic_game_names())} "
            "(any registered OpenSpiel game name is accepted)"
        )
    try:
        return pyspiel.load_game(game_string)
    except Exception as error:  # pyspiel.SpielError: bad parameters or syntax
        text = str(error).strip()
        first = text.splitlines()[0] if text else type(error).__name__
        raise GameError(f"cannot load game {game_string!r}: {first}") from None
