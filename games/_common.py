"""Shared machinery for the Python implementations of the custom games.

Every game keeps its rules in an immutable plain-Python *position* (a tuple
subclass, so hashing and equality run at C speed and a transposition table
can use it as a key). The pyspiel.State subclass below only wraps a position:
one source of truth for the rules, and a cheap clone (OpenSpiel clones a
Python state by deep-copying its ``__dict__``, and positions deep-copy to
themselves).

Sequence-valued position methods (``legal_actions``, ``chance_outcomes``,
``returns``) return shared *tuples*, never lists: they are cached per rule
table and must not be mutated; the pyspiel wrapper converts them to lists.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # -4
CHANCE = int(pyspiel.PlayerId.CHANCE)  # -1

# Chernoff: -ln(1e-30); see dice.max_decisions for how it is used.
NEG_LOG_EPS = 69.08


class Position(tuple):
    """Base class of the fast-path positions (immutable tuples).

    Subclasses implement the rules below (the node interface the search
    engine walks); each base method only names what is missing.
    """

    __slots__ = ()

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: Any) -> Position:
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}{tuple(self)!r}"

    def _missing(self, method: str) -> NotImplementedError:
        return NotImplementedError(f"{type(self).__name__} must implement {method}")

    def is_terminal(self) -> bool:  # pragma: no cover - abstract
        raise self._missing("is_terminal()")

    def is_chance_node(self) -> bool:  # pragma: no cover - abstract
        raise self._missing("is_chance_node()")

    def current_player(self) -> int:  # pragma: no cover - abstract
        raise self._missing("current_player()")

    def legal_actions(self) -> tuple[int, ...]:  # pragma: no cover - abstract
        raise self._missing("legal_actions()")

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:  # pragma: no cover - abstract
        raise self._missing("chance_outcomes()")

    def child(self, action: int) -> Position:  # pragma: no cover - abstract
        raise self._missing("child(action)")

    def returns(self) -> tuple[float, ...]:  # pragma: no cover - abstract
        raise self._missing("returns()")

    def to_state(self) -> PositionState:  # pragma: no cover - abstract
        raise self._missing("to_state()")


class Rules:
    """Base class for per-parameter rule tables; shared, never copied.

    ``__reduce__`` rebuilds a rules object from its parameters through a
    cached factory, so pickled states (pyspiel.serialize_game_and_state)
    stay small and positions keep comparing equal after a round trip.
    """

    __slots__ = ()

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def two_player_chance_game_type(
    short_name: str, long_name: str, parameters: Mapping[str, Any]
) -> pyspiel.GameType:
    """The GameType every custom game here shares: two players, zero-sum,
    sequential, perfect information, explicit chance, terminal rewards."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def register_game(game_type: pyspiel.GameType, game_class: type) -> bool:
    """Registers a Python game with pyspiel unless its C++ twin is registered.

    games/__init__.py loads the native engine first; its static initializers
    register the C++ twins (games/native/) under the same short names, and a
    second registration would clash. Returns whether the Python game is the one
    ``pyspiel.load_game`` now builds.
    """
    if game_type.short_name in pyspiel.registered_names():
        return False
    pyspiel.register_game(game_type, game_class)
    return True


def check_int(name: str, value: Any, lo: int, hi: int | None, game: str, extra: str = "") -> int:
    """Validates an integer game parameter with a message a user can act on."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{game}: parameter {name}={value!r} must be an integer{extra}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ValueError(
            f"{game}: parameter {name}={value} is out of range; accepted: integers {rng}{extra}"
        )
    return value


def check_known(params: Mapping[str, Any], spec: Mapping[str, Any], game: str) -> None:
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(f"{game}: unknown parameter(s) {unknown}; accepted: {sorted(spec)}")


class PositionState(pyspiel.State):
    """A pyspiel.State that delegates its rules to a fast-path position.

    Subclasses set ``_action_to_string`` and ``__str__``. The only Python
    attribute is ``_pos``, so OpenSpiel's generic clone / (de)serialization
    copy or pickle exactly one immutable object.
    """

    def __init__(self, game: pyspiel.Game, position: Position):
        super().__init__(game)
        self._pos = position

    def search_position(self) -> Position:
        """The immutable position the search engine works on."""
        return self._pos

    def current_player(self) -> int:
        return self._pos.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        del player  # OpenSpiel only asks for the current player.
        return list(self._pos.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._pos.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        pos = self._pos
        if pos.is_terminal():
            raise ValueError(f"cannot apply action {action}: state is terminal")
        legal: Collection[int]
        if pos.is_chance_node():
            legal = [a for a, _ in pos.chance_outcomes()]
        else:
            legal = pos.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action} in this state; legal: {list(legal)}")
        self._pos = pos.child(action)

    def is_terminal(self) -> bool:
        return self._pos.is_terminal()

    def returns(self) -> list[float]:
        return list(self._pos.returns())


def make_observer(board_observer_cls: Callable[[Any], Any], iig_obs_type: Any, params: Any) -> Any:
    """Perfect-information observer selection, as in OpenSpiel's tic_tac_toe."""
    if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
        return board_observer_cls(params)
    return IIGObserverForPublicInfoGame(iig_obs_type, params)


class TensorObserver:
    """Observer whose tensor is the concatenation of named pieces.

    ``shapes`` maps piece name -> shape; ``dict`` holds views into ``tensor``.
    """

    def __init__(self, params, shapes: Mapping[str, tuple[int, ...]]):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        sizes = [int(np.prod(s)) for s in shapes.values()]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict = {}
        start = 0
        for (name, shape), size in zip(shapes.items(), sizes):
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state, player):
        del player
        self.tensor.fill(0)
        self.fill(state.search_position())

    def string_from(self, state, player):
        del player
        return str(state)

    def fill(self, pos) -> None:  # pragma: no cover - abstract
        raise NotImplementedError(
            f"{type(self).__name__} must implement fill(pos): write the position into self.tensor"
        )


P = TypeVar("P", bound=Position)


def as_position(state: Any, position_type: type[P]) -> P:
    """A position from either a position or a wrapped pyspiel state."""
    if isinstance(state, position_type):
        return state
    get = getattr(state, "search_position", None)
    if get is None:
        # A state of the game's C++ twin (games/native/) carries no position:
        # the game module rebuilds it from the state's string.
        from_state = getattr(position_type, "from_state", None)
        if from_state is not None and isinstance(state, pyspiel.State):
            return from_state(state)
        raise TypeError(
            f"expected a {position_type.__name__} or a state of the matching "
            f"Python game (with search_position()); got {type(state).__name__}"
        )
    pos = get()
    if not isinstance(pos, position_type):
        raise TypeError(
            f"state of the wrong game: position is "
            f"{type(pos).__name__}, expected {position_type.__name__}"
        )
    return pos


class PositionEvaluator:
    """The evaluator API (bots/evaluators/api.py) for games with fast-path positions.

    Subclasses implement ``value(pos) -> float`` for player 0 (within
    ``bounds``); terminals get exact returns. Zero-sum two-player games only.
    """

    accepts_positions = True
    position_type: type[Position] = Position

    def __init__(self, bounds: tuple[float, float]):
        self.bounds = (float(bounds[0]), float(bounds[1]))

    def evaluate(self, state) -> list[float]:
        pos = as_position(state, self.position_type)
        if pos.is_terminal():
            return list(pos.returns())
        v = self.value(pos)
        return [v, -v]

    def player_value(self, state, player: int) -> float:
        """``evaluate(state)[player]`` as a float: the search's per-leaf fast path.

        A bare position of this game skips the state check and the list.
        """
        pos = state if type(state) is self.position_type else as_position(state, self.position_type)
        if pos.is_terminal():
            return float(pos.returns()[player])
        v = self.value(pos)
        return -v if player == 1 else v

    def prior(self, state) -> list[tuple[int, float]]:
        pos = as_position(state, self.position_type)
        if pos.is_chance_node():
            return list(pos.chance_outcomes())
        actions = pos.legal_actions()
        if not actions:
            return []
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    def player_bounds(self, player: int) -> tuple[float, float]:
        """Bounds on evaluate()[player]; may be tighter than ``bounds``."""
        del player
        return self.bounds

    def value(self, pos) -> float:  # pragma: no cover - abstract
        raise NotImplementedError(
            f"{type(self).__name__} must implement value(pos): "
            f"player 0's heuristic value of a non-terminal position"
        )


def squash(x: float) -> float:
    """Maps a heuristic score into [-0.99, 0.99]: never confused with a win."""
    return 0.99 * math.tanh(x)


EvaluatorFactory = Callable[[pyspiel.Game], PositionEvaluator]
