"""The one evaluator registry: game short name -> factory, and construction from a spec.

Every heuristic, the custom games' of `games/` included, registers here from
its module in `bots/evaluators/` when `bots.evaluators` is imported, so a game
has its evaluator whichever of its twins (C++ or Python) is loaded and whether
or not `games` was imported. Games know nothing of their evaluators.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import pyspiel

from bots.evaluators.api import short_name
from bots.evaluators.fallbacks import MidpointEvaluator, RolloutEvaluator
from bots.learned.encodings import use_hand_evaluators

EvaluatorFactory = Callable[[pyspiel.Game], Any]

EVALUATORS: dict[str, EvaluatorFactory] = {}
use_hand_evaluators(EVALUATORS)  # the learned encoding observation_hand reads the heuristics

_GENERIC_NAMES = (
    "default",
    "zero",
    "rollout",
    "rollout(n=10,seed=0)",
    "learned",
    "learned(path=FILE)",
)
_RESERVED = ("default", "zero", "rollout", "learned")


def register_evaluator(game_short_name: str, factory: EvaluatorFactory) -> None:
    """Makes `factory(game)` the default evaluator of the game `game_short_name`.

    Registering a second, different factory for a name is an error (two
    modules would silently fight over one game); registering the same class
    again (a module imported twice, e.g. under runpy) is allowed.
    """
    if not isinstance(game_short_name, str) or not game_short_name:
        raise ValueError(
            f"register_evaluator: game_short_name must be a game's short name "
            f"(game.get_type().short_name), got {game_short_name!r}"
        )
    if not callable(factory):
        raise ValueError(
            f"register_evaluator: factory must be callable as factory(game) -> evaluator, "
            f"got {type(factory).__name__} {factory!r}"
        )
    if game_short_name in _RESERVED:
        raise ValueError(
            f"register_evaluator: {game_short_name!r} is reserved for a generic evaluator; "
            f"reserved names: {', '.join(_RESERVED)}"
        )
    old = EVALUATORS.get(game_short_name)
    if old is not None and _qualified(old) != _qualified(factory):
        raise ValueError(
            f"register_evaluator: game {game_short_name!r} already has the evaluator "
            f"{_qualified(old)}; refusing to replace it with {_qualified(factory)}"
        )
    EVALUATORS[game_short_name] = factory


def _qualified(factory: EvaluatorFactory) -> str:
    return f"{getattr(factory, '__module__', '?')}.{getattr(factory, '__qualname__', factory)}"


class EvaluatorFallbackWarning(UserWarning):
    """A game's registered heuristic refused it; its search uses the midpoint evaluator."""


def default_evaluator(game: pyspiel.Game) -> Any:
    """The game's registered heuristic, else the midpoint fallback.

    A registered factory that rejects the game's parameters with a ValueError
    (e.g. 3-player pig) also falls back to `MidpointEvaluator`, with an
    `EvaluatorFallbackWarning` that says why (shown once per game and
    heuristic under Python's default warning filter). Both engines and the
    registry bots (``pyspiel.load_bot("starspiel_...")``) search with it.
    """
    factory = EVALUATORS.get(short_name(game))
    if factory is None:
        return MidpointEvaluator(game)
    try:
        return factory(game)
    except ValueError as refusal:
        warnings.warn(
            f"{game}: the heuristic {_qualified(factory)} refuses this game ({refusal}); "
            f"searching with the midpoint evaluator ('zero') instead",
            EvaluatorFallbackWarning,
            stacklevel=2,
        )
        return MidpointEvaluator(game)


_CALL_RE = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*$")


def _parse_rollout_args(text: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    aliases = {
        "n": "n_rollouts",
        "n_rollouts": "n_rollouts",
        "seed": "seed",
        "max_length": "max_length",
    }
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in aliases:
            raise ValueError(
                f"rollout evaluator: bad argument {part!r}; accepted: "
                f"n (or n_rollouts), seed, max_length, e.g. "
                f"'rollout(n=10,seed=0)'"
            )
        value = value.strip()
        try:
            kwargs[aliases[key]] = None if value == "None" else int(value)
        except ValueError:
            raise ValueError(
                f"rollout evaluator: {key} must be an integer, got "
                f"{value!r}; accepted: n (or n_rollouts), seed, "
                f"max_length with integer values, e.g. "
                f"'rollout(n=10,seed=0)'"
            ) from None
    return kwargs


def _learned_evaluator(args: str | None, game: pyspiel.Game) -> Any:
    """``learned``: the model shipped for the game; ``learned(path=FILE)``: a model file."""
    from bots.evaluators.learned import LearnedEvaluator, shipped_model

    if args is None or not args.strip():
        return LearnedEvaluator(game, shipped_model(game))
    key, sep, path = args.partition("=")
    path = path.strip().strip("'\"")
    if key.strip() != "path" or not sep or not path:
        raise ValueError(
            f"learned evaluator: bad argument {args!r}; accepted: 'learned' (the model "
            f"shipped for the game) or 'learned(path=FILE)', e.g. 'learned(path=run/model.npz)'"
        )
    return LearnedEvaluator(game, path)


def _accepted() -> str:
    names = list(_GENERIC_NAMES) + sorted(EVALUATORS)
    return (
        ", ".join(repr(n) for n in names)
        + ", None (default), or an object with an evaluate(state) method"
    )


def make_evaluator(spec: Any, game: pyspiel.Game) -> Any:
    """Build an evaluator from None, a registry name, or an evaluator object.

    Strings: "default" (= None), "zero" (midpoint fallback), "rollout",
    "rollout(n=10,seed=0,max_length=200)", "learned" (the model shipped for the
    game), "learned(path=FILE)" (a model file), or a game short name from
    the registry `EVALUATORS` (must match `game`). An object with a
    callable `evaluate` is returned unchanged.
    """
    if spec is None:
        return default_evaluator(game)
    if isinstance(spec, str):
        m = _CALL_RE.match(spec)
        if m is None:
            raise ValueError(f"unknown evaluator {spec!r}; accepted: {_accepted()}")
        name, args = m.group(1), m.group(2)
        if name == "rollout":
            return RolloutEvaluator(game, **_parse_rollout_args(args or ""))
        if name == "learned":
            return _learned_evaluator(args, game)
        if args is not None and name not in ("default", "zero") and name not in EVALUATORS:
            raise ValueError(f"unknown evaluator {spec!r}; accepted: {_accepted()}")
        if args is not None:
            raise ValueError(
                f"evaluator {name!r} takes no arguments, got {spec!r}; accepted: {_accepted()}"
            )
        if name == "default":
            return default_evaluator(game)
        if name == "zero":
            return MidpointEvaluator(game)
        factory = EVALUATORS.get(name)
        if factory is None:
            raise ValueError(f"unknown evaluator {spec!r}; accepted: {_accepted()}")
        if name != short_name(game):
            raise ValueError(
                f"evaluator {name!r} is for game {name!r}, not for "
                f"{short_name(game)!r}; accepted: {_accepted()}"
            )
        return factory(game)
    if callable(getattr(spec, "evaluate", None)):
        return spec
    if isinstance(spec, pyspiel.Evaluator):
        raise ValueError(
            f"{type(spec).__name__} is a C++ evaluator with no Python "
            f"evaluate(); use 'rollout(n=...)' or "
            f"open_spiel.python.algorithms.mcts.RandomRolloutEvaluator; "
            f"accepted: {_accepted()}"
        )
    raise ValueError(
        f"evaluator must be a string or an object with an evaluate(state) "
        f"method, got {type(spec).__name__} {spec!r}; accepted: "
        f"{_accepted()}"
    )
