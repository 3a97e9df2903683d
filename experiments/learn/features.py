"""The inputs of a model: the spec's encodings, all read from `observation_tensor(0)`.

The MLP reads the raw observation floats (its integer twin rounds them to
`input_shift` bits), with `observation_mover` followed by a one-hot (1.0) of the player who
moved last, and `observation_hand` by that one-hot then the game's hand evaluator's values;
the n-tuple network reads small integer cell values.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

from bots.learned.encodings import hand_evaluator, log2_cells, mover, plane_cells
from experiments.learn.models import ModelSpec

Encoder = Callable[[pyspiel.State], np.ndarray]


def observation_mover(state: pyspiel.State) -> np.ndarray:
    """The observation floats, then 1.0 for the mover (bots.learned.encodings.mover) among
    the players: what the integer model rounds (1.0 quantised is 2**input_shift)."""
    x = state.observation_tensor(0)
    players = state.get_game().num_players()
    features = np.zeros(len(x) + players, np.float64)
    features[: len(x)] = x
    who = mover(state)
    if who >= 0:
        features[len(x) + who] = 1.0
    return features


def observation_hand(hand: object) -> Encoder:
    """`observation_mover`'s floats, then the hand evaluator ``hand``'s value h_p of each
    player (what the integer model rounds to input_shift bits)."""

    def encode(state: pyspiel.State) -> np.ndarray:
        return np.concatenate((observation_mover(state), hand.evaluate(state)))  # type: ignore[attr-defined]

    return encode


def encoder(spec: ModelSpec, game: pyspiel.Game | None = None) -> Encoder:
    """state -> features for `spec`'s encoding: the raw observation floats for the MLP
    (its integer twin rounds them to input_shift bits), bots.learned's cells otherwise.
    `observation_hand` needs the ``game``, to build its hand evaluator once."""
    if spec.encoding == "observation":
        return lambda state: np.asarray(state.observation_tensor(0), np.float64)
    if spec.encoding == "observation_mover":
        return observation_mover
    if spec.encoding == "observation_hand":
        if game is None:
            raise ValueError("the observation_hand encoding needs the game (its hand evaluator)")
        return observation_hand(hand_evaluator(game))
    values = spec.values
    if spec.encoding == "log2_cells":
        return lambda state: log2_cells(np.asarray(state.observation_tensor(0)), values)
    planes = dict(spec.encoding_args)["planes"]
    return lambda state: plane_cells(np.asarray(state.observation_tensor(0)), planes, values)


def n_features(spec: ModelSpec, game: pyspiel.Game) -> int:
    """Inputs of the MLP, or cells of the n-tuple board."""
    size = int(np.prod(game.observation_tensor_shape()))
    if spec.encoding == "observation_mover":
        return size + game.num_players()
    if spec.encoding == "observation_hand":
        return size + 2 * game.num_players()
    planes = dict(spec.encoding_args).get("planes")
    return size if planes is None else size // planes
