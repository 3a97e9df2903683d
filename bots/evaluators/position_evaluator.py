"""The base of the custom games' evaluators: they read fast-path positions.

The Python games of `games/` keep their rules in immutable positions
(`state.search_position()`, see games/_common.py) whose fields have names.
Their evaluators take a position, a state of the Python game, or a state of
its C++ twin (games/native/), which the position class rebuilds
(`from_state`). An evaluator learns the position class and the rules tables
from the game object itself (`position_class`, `rules`), so this package
imports `games` only to build the Python twin of a C++ game.
"""

from __future__ import annotations

import math
from typing import Any

import pyspiel

from bots.evaluators.api import SHRINK, check_game_name, short_name


def python_twin(game: pyspiel.Game) -> Any:
    """The Python implementation of a custom game: `game` itself, or its C++ twin's.

    A C++ twin has no positions; the Python game built from the same
    parameters has the position class and the rules tables.
    """
    if hasattr(game, "position_class"):
        return game
    # Imported here, not at the top, so that importing bots registers no game: a
    # C++ twin exists only where the native engine has registered all of them,
    # and there `import games` registers no Python game.
    import games

    return games.python_game(short_name(game), game.get_parameters())


def squash(x: float) -> float:
    """Maps a heuristic score into [-0.99, 0.99]: never confused with a win."""
    return SHRINK * math.tanh(x)


class PositionEvaluator:
    """The evaluator API (bots/evaluators/api.py) for games with fast-path positions.

    Subclasses name their game (`game_name`) and implement `value(pos) -> float`
    for player 0, within `bounds`; terminals get exact returns. Zero-sum
    two-player games only.
    """

    accepts_positions = True
    game_name: str
    bounds: tuple[float, float] = (-1.0, 1.0)

    def __init__(self, game: pyspiel.Game):
        check_game_name(game, self.game_name, type(self).__name__)
        self.python_game = python_twin(game)
        self.position_type: Any = self.python_game.position_class

    def position(self, state: Any) -> Any:
        """The position of `state`: a position itself, or a Python or C++ state's."""
        position_type = self.position_type
        if isinstance(state, position_type):
            return state
        get = getattr(state, "search_position", None)
        if get is None:
            if isinstance(state, pyspiel.State):
                return position_type.from_state(state)
            raise TypeError(
                f"expected a {position_type.__name__} or a state of {self.game_name}; "
                f"got {type(state).__name__}"
            )
        pos = get()
        if not isinstance(pos, position_type):
            raise TypeError(
                f"state of the wrong game: position is "
                f"{type(pos).__name__}, expected {position_type.__name__}"
            )
        return pos

    def evaluate(self, state: Any) -> list[float]:
        pos = self.position(state)
        if pos.is_terminal():
            return list(pos.returns())
        v = self.value(pos)
        return [v, -v]

    def player_value(self, state: Any, player: int) -> float:
        """`evaluate(state)[player]` as a float: the search's per-leaf fast path.

        A bare position of this game skips the state check and the list.
        """
        pos = state if type(state) is self.position_type else self.position(state)
        if pos.is_terminal():
            return float(pos.returns()[player])
        v = self.value(pos)
        return -v if player == 1 else v

    def prior(self, state: Any) -> list[tuple[int, float]]:
        pos = self.position(state)
        if pos.is_chance_node():
            return list(pos.chance_outcomes())
        actions = pos.legal_actions()
        if not actions:
            return []
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    def player_bounds(self, player: int) -> tuple[float, float]:
        """Bounds on evaluate()[player]; may be tighter than `bounds`."""
        del player
        return self.bounds

    def value(self, pos: Any) -> float:  # pragma: no cover - abstract
        raise NotImplementedError(
            f"{type(self).__name__} must implement value(pos): "
            f"player 0's heuristic value of a non-terminal position"
        )
