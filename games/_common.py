"""Shared machinery for the Python implementations of the custom games.

Every game keeps its rules in an immutable plain-Python *position*: a tuple
(hashing and equality run at C speed and a transposition table can use it
as a key) whose fields a NamedTuple names, mixed in after ``Position``
(``class DicePosition(Position, _DiceFields)``) so that ``Position``'s
``repr``, the native engine's table key, stays ``Name(field, ...)``. The
pyspiel.State subclass below only wraps a position: one source of truth for
the rules, and a cheap clone (OpenSpiel clones a Python state by deep-copying
its ``__dict__``, and positions deep-copy to themselves). ``PositionGame``
holds the pyspiel.Game methods every game shares.

Sequence-valued position methods (``legal_actions``, ``chance_outcomes``,
``returns``) return shared *tuples*, never lists: they are cached per rule
table and must not be mutated; the pyspiel wrapper converts them to lists.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

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

    @classmethod
    def initial(cls, rules: Any) -> Position:  # pragma: no cover - abstract
        """The position at the start of a game of ``rules``."""
        raise NotImplementedError(f"{cls.__name__} must implement initial(rules)")


_RESULT_RETURNS = {1: (1.0, -1.0), -1: (-1.0, 1.0), 0: (0.0, 0.0)}
_NO_RETURNS = (0.0, 0.0)


class PlayerDetailPosition(Position):
    """A position with fields ``player`` (0, 1, CHANCE or TERMINAL) and ``detail``.

    ``detail``'s meaning depends on ``player``; at a terminal it is player 0's
    result (+1, -1 or 0). Subclasses name its other meanings.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # fields of the NamedTuple a subclass mixes in

        @property
        def player(self) -> int: ...

        @property
        def detail(self) -> int: ...

    @property
    def result(self) -> int:
        """At a terminal: player 0's result, +1, -1 or 0."""
        return self.detail

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def current_player(self) -> int:
        return self.player

    def returns(self) -> tuple[float, ...]:
        return _RESULT_RETURNS[self.detail] if self.player == TERMINAL else _NO_RETURNS


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


def chance_game_type(
    short_name: str,
    long_name: str,
    parameters: Mapping[str, Any],
    min_players: int = 2,
    max_players: int = 2,
) -> pyspiel.GameType:
    """The GameType every custom game here shares: zero-sum, sequential, perfect
    information, explicit chance, terminal rewards (two players unless given)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def register_game(game_type: pyspiel.GameType, game_class: type) -> None:
    """Registers a Python game with pyspiel under ``game_type.short_name`` (once)."""
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)


def renamed(game_type: pyspiel.GameType, short_name: str) -> pyspiel.GameType:
    """A custom game's ``chance_game_type`` under another short name: a Python twin
    standing in for its C++ game where that is not built."""
    return chance_game_type(
        short_name,
        game_type.long_name,
        game_type.parameter_specification,
        min_players=game_type.min_num_players,
        max_players=game_type.max_num_players,
    )


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


def with_defaults(
    params: Mapping[str, Any] | None, defaults: Mapping[str, Any], game: str
) -> dict[str, Any]:
    """A game's parameters, unknown names refused, the defaults filled in."""
    given = dict(params or {})
    check_known(given, defaults, game)
    return {**defaults, **given}


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


class TensorObserver:
    """Observer whose tensor is the concatenation of named pieces.

    ``shapes`` maps piece name -> shape; ``dict`` holds views into ``tensor``.
    Subclasses are built as ``cls(params, game)`` (``PositionGame.make_py_observer``).
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


class PositionGame(pyspiel.Game):
    """A pyspiel.Game whose states wrap fast-path positions: what every game here shares.

    Subclasses set ``position_class``, ``state_class`` and ``observer_class`` and
    pass their bound on chance nodes per history to ``__init__``; ``rules`` is the
    per-parameter table their positions share (None for a game without one).
    """

    position_class: type[Position]
    state_class: type[PositionState]
    observer_class: Callable[[Any, Any], TensorObserver]
    rules: Rules | None = None
    # Set on a Python twin standing in for its C++ game under the plain name
    # (games/__init__.py): the type it is registered and printed as.
    stand_in_type: pyspiel.GameType | None = None

    def __init__(
        self,
        game_type: pyspiel.GameType,
        params: Mapping[str, Any],
        *,
        actions: int,
        chance_outcomes: int,
        max_game_length: int,
        max_chance_nodes: int,
        players: int = 2,
        utility: tuple[float, float] = (-1.0, 1.0),
    ):
        """The game's GameInfo from its sizes: zero-sum, ``utility`` (min, max) for every
        player, ``max_chance_nodes`` the bound on chance nodes per history."""
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=chance_outcomes,
            num_players=players,
            min_utility=float(utility[0]),
            max_utility=float(utility[1]),
            utility_sum=0.0,
            max_game_length=max_game_length,
        )
        super().__init__(self.stand_in_type or game_type, info, dict(params))
        self._max_chance_nodes = max_chance_nodes

    def new_initial_state(self) -> PositionState:
        return self.state_class(self, self.position_class.initial(self.rules))

    def state_from_position(self, position: Position) -> PositionState:
        """A state of this game at ``position`` (its history is empty)."""
        if (
            not isinstance(position, self.position_class)
            or getattr(position, "rules", None) is not self.rules
        ):
            raise ValueError(f"{self}: position {position!r} belongs to another game")
        return self.state_class(self, position)

    def max_chance_nodes_in_history(self) -> int:
        return self._max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """Perfect-information observer selection, as in OpenSpiel's tic_tac_toe."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return self.observer_class(params, self)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)
