"""A state's features: integers derived from `observation_tensor(0)` (player 0's view),
for `observation_mover` a one-hot of the player who moved last (or moves now), and for
`observation_hand` that one-hot then the game's hand evaluator's values per player.

Both engines read the same float32 numbers from the same OpenSpiel C++ code, and every
operation here is exact or one correctly rounded IEEE operation (x * 2**k, rint), so
the C++ twin computes the same integers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from games import plain_name

QMAX = 32767  # inputs and weights are clamped to the int16 range, symmetric


def observation_inputs(x: np.ndarray, input_shift: int) -> np.ndarray:
    """``int32(clamp(rint(x * 2**input_shift), -32767, 32767))``, round half to even."""
    # x * 2**k and rint are exact in float32 as in float64 (a power of two, an integer).
    scaled = np.rint(np.asarray(x) * 2.0**input_shift)
    return np.clip(scaled, -QMAX, QMAX, out=scaled).astype(np.int32)


def mover(state: Any) -> int:
    """Who moves at a decision node; at a chance node the player of the last decision
    before it (the observation of an afterstate need not say); -1 if none came before.

    The observation of backgammon marks the player to move only at decision nodes, pig's
    and EinStein's never do: without this a model cannot tell whose move led here.
    """
    player = state.current_player()
    if player >= 0:
        return int(player)
    for entry in reversed(state.full_history()):
        if entry.player >= 0:
            return int(entry.player)
    return -1


def mover_one_hots(players: int, input_shift: int) -> np.ndarray:
    """Row p: the one-hot of mover p (1.0 quantised: ``min(2**input_shift, 32767)``);
    row -1 (the last, ``players``): all zeros, for a chance node no decision came before."""
    hots = np.zeros((players + 1, players), dtype=np.int32)
    hots[np.arange(players), np.arange(players)] = min(2**input_shift, QMAX)
    return hots


def observation_mover_inputs(
    x: np.ndarray, state: Any, hots: np.ndarray, input_shift: int
) -> np.ndarray:
    """``observation_inputs(x)`` followed by the mover's row of ``mover_one_hots``."""
    return np.concatenate((observation_inputs(x, input_shift), hots[mover(state)]))


# Game short name -> factory of its hand evaluator: bots.evaluators.registry's EVALUATORS,
# handed over by the registry when it is imported (bots.evaluators imports this package, so
# this package does not import the registry).
_HAND_FACTORIES: dict[str, Callable[[Any], Any]] = {}


def use_hand_evaluators(factories: dict[str, Callable[[Any], Any]]) -> None:
    """Makes ``factories`` (the registry's, updated in place) observation_hand's source."""
    global _HAND_FACTORIES
    _HAND_FACTORIES = factories


def hand_evaluator(game: Any) -> Any:
    """The game's default hand evaluator (bots.evaluators.registry), the extra inputs of
    `observation_hand`; a ValueError naming the encodings an MLP can read instead if the
    game has none (its default would be the midpoint, which says nothing)."""
    if not _HAND_FACTORIES:
        # Importing bots.evaluators registers every heuristic and hands them over.
        import bots.evaluators.api  # noqa: F401, PLC0415

    factory = _HAND_FACTORIES.get(plain_name(game.get_type().short_name))
    why = "has no hand evaluator"
    if factory is not None:
        try:
            return factory(game)
        except ValueError as refusal:
            why = f"has a hand evaluator that refuses it ({refusal})"
    raise ValueError(
        f"the observation_hand encoding needs the game's hand evaluator, and {game} {why}; "
        "an MLP of it reads the observation or observation_mover encoding"
    )


def observation_hand_inputs(
    x: np.ndarray, state: Any, hots: np.ndarray, hand: Any, input_shift: int
) -> np.ndarray:
    """``observation_mover_inputs`` followed by the hand evaluator's value of each player,
    quantised as the observation is (the C++ twin's values are the same doubles)."""
    h = np.asarray(hand.evaluate(state), dtype=np.float64)
    return np.concatenate(
        (observation_inputs(x, input_shift), hots[mover(state)], observation_inputs(h, input_shift))
    )


def log2_cells(x: np.ndarray, values: int) -> np.ndarray:
    """``0`` for an empty cell, else ``log2(x)`` (tiles are powers of two), at most values-1.

    ``frexp`` gives the exponent exactly: x = m * 2**e with m in [0.5, 1), so a power of
    two has log2(x) = e - 1 (floor(log2 x) for any positive x).
    """
    x = np.asarray(x, dtype=np.float64)
    exponent = np.frexp(x)[1].astype(np.int64) - 1
    cells = np.where(x == 0, 0, exponent)
    return np.minimum(cells, values - 1)


def plane_cells(x: np.ndarray, planes: int, values: int) -> np.ndarray:
    """The tensor as (planes, C) row-major: ``1 + the first plane p with x[p, i] != 0``,
    0 if none, at most values-1."""
    grid = np.asarray(x, dtype=np.float64).reshape(planes, -1) != 0
    first = np.argmax(grid, axis=0) + 1
    cells = np.where(grid.any(axis=0), first, 0).astype(np.int64)
    return np.minimum(cells, values - 1)


def encoder(metadata: dict[str, Any], game: Any) -> Callable[[np.ndarray, Any], np.ndarray]:
    """The function (observation, state) -> features that a (checked) model's metadata
    names for ``game``; `observation_mover` reads the state's history, `observation_hand`
    also the hand evaluator's values (built here, once per model)."""
    encoding = metadata["encoding"]
    if encoding in ("observation", "observation_mover", "observation_hand"):
        shift = int(metadata["quantisation"]["input_shift"])
        if encoding == "observation_mover":
            hots = mover_one_hots(game.num_players(), shift)
            return lambda x, state: observation_mover_inputs(x, state, hots, shift)
        if encoding == "observation_hand":
            hots = mover_one_hots(game.num_players(), shift)
            hand = hand_evaluator(game)
            return lambda x, state: observation_hand_inputs(x, state, hots, hand, shift)
        return lambda x, state: observation_inputs(x, shift)
    values = int(metadata["architecture"]["values"])
    if encoding == "log2_cells":
        return lambda x, state: log2_cells(x, values)
    if encoding == "plane_cells":
        planes = int(metadata["encoding_args"]["planes"])
        return lambda x, state: plane_cells(x, planes, values)
    raise ValueError(f"unknown encoding {encoding!r}")
