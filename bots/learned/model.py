"""`LearnedModel`: a checked model file, its inference and its head; load and save."""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from bots.learned.checks import check_arrays, check_game, check_metadata, output_count
from bots.learned.encodings import encoder
from bots.learned.file_format import FORMAT, read_model_file, write_model_file
from bots.learned.heads import loser_return, one_player, win_shares, zero_sum
from bots.learned.inference import make_inference


def library_version() -> str:
    """starspiel's installed version, for the metadata."""
    try:
        return importlib.metadata.version("starspiel")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def make_metadata(
    game: pyspiel.Game | str,
    family: str,
    encoding: str,
    architecture: dict[str, Any],
    quantisation: dict[str, int],
    head: str,
    encoding_args: dict[str, Any] | None = None,
    training: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A model's metadata with the format, the game string and the library version filled
    in; ``training`` (command, games, seconds, seed, workers) is the trainer's record."""
    return {
        "format": FORMAT,
        "game": str(game),
        "family": family,
        "encoding": encoding,
        "encoding_args": dict(encoding_args or {}),
        "architecture": architecture,
        "quantisation": quantisation,
        "head": head,
        "training": dict(training or {}),
        "library_version": library_version(),
    }


class LearnedModel:
    """A learned value function: the file's ``metadata`` and ``arrays``, checked once.

    ``outputs(state)`` is the network's ``out`` vector, ``values(state)`` the values per
    player its head makes of it (a terminal state's are its returns). The game is the
    one given, else the first state's (checked then, not at every call).
    """

    def __init__(
        self,
        metadata: dict[str, Any],
        arrays: dict[str, np.ndarray],
        path: str | os.PathLike[str] | None = None,
        game: pyspiel.Game | None = None,
    ):
        self.path = None if path is None else str(path)
        where = self.path or "model"
        try:
            check_metadata(metadata)
            check_arrays(metadata, arrays)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        self.metadata = metadata
        self.arrays = arrays
        self.outputs_count = output_count(metadata, arrays)
        self._encode: Any = None  # set by bind(): the encodings may need the game
        self._inference = make_inference(metadata, arrays)
        self.head = str(metadata["head"])
        self.game: pyspiel.Game | None = None
        self._observer: Any = None
        self.bounds = (-np.inf, np.inf)  # the head's (L, U), set by bind()
        self.loser = -np.inf  # win_shares: a loser's return, set by bind()
        if game is not None:
            self.bind(game)

    def bind(self, game: pyspiel.Game) -> None:
        """Checks that the model evaluates ``game`` and fixes the head's bounds from it."""
        try:
            check_game(self.metadata, self.arrays, game)
            self._encode = encoder(self.metadata, game)
        except ValueError as error:
            raise ValueError(f"{self.path or 'model'}: {error}") from None
        self.game = game
        self._observer = _observer(game)
        if self.head == "one_player":
            # Imported here: bots.evaluators imports this package (its LearnedEvaluator).
            from bots.evaluators.api import game_value_bounds  # noqa: PLC0415

            self.bounds = game_value_bounds(game)
        else:
            self.bounds = (float(game.min_utility()), float(game.max_utility()))
        if self.head == "win_shares":
            self.loser = loser_return(game)

    def observation(self, state: Any) -> np.ndarray:
        """``state.observation_tensor(0)`` as an array (read in place where it can be)."""
        if self._observer is None:
            return np.asarray(state.observation_tensor(0), dtype=np.float64)
        self._observer.set_from(state, 0)
        return self._observer.tensor

    def features(self, state: Any) -> np.ndarray:
        """The encoding of ``state``: int32 inputs (mlp) or int64 cells (ntuple)."""
        if self.game is None:
            self.bind(state.get_game())
        return self._encode(self.observation(state), state)

    def outputs(self, state: Any) -> np.ndarray:
        """The network's ``out`` vector (float64) for ``state``."""
        return self._inference.outputs(self.features(state))

    def values(self, state: Any) -> np.ndarray:
        """Values per player: the returns of a terminal state, else the head's values."""
        if self.game is None:
            self.bind(state.get_game())
        if state.is_terminal():
            return np.array(state.returns(), dtype=np.float64)
        return np.array(self.head_values(state, self.outputs(state)), dtype=np.float64)

    def head_values(self, state: Any, out: np.ndarray) -> list[float]:
        """The head applied to ``out`` for the non-terminal ``state``."""
        lo, hi = self.bounds
        if self.head == "zero_sum":
            return zero_sum(out, lo, hi)
        if self.head == "one_player":
            return one_player(out, float(state.returns()[0]), lo, hi)
        return win_shares(out, self.loser, hi)

    def __repr__(self) -> str:
        m = self.metadata
        return (
            f"LearnedModel({m['family']} {m['encoding']} {m['head']} of {m['game']!r}, {self.path})"
        )


def _observer(game: pyspiel.Game) -> Any:
    """OpenSpiel's observer writing the observation tensor in place (25x faster than the
    list ``observation_tensor(0)`` returns), if it writes the same numbers on the initial
    state; else None, and the features read ``observation_tensor(0)``."""
    from open_spiel.python.observation import make_observation

    try:
        observer = make_observation(game)
        state = game.new_initial_state()
        observer.set_from(state, 0)
    except Exception:  # noqa: BLE001 - any game without a working default observer
        return None
    same = np.array_equal(observer.tensor.ravel(), np.asarray(state.observation_tensor(0)))
    return observer if same and observer.tensor.ndim == 1 else None


def load_model(path: str | os.PathLike[str], game: pyspiel.Game | None = None) -> LearnedModel:
    """Reads and checks a model file; with ``game``, also that it is a model of that game.

    Anything wrong (missing or truncated file, missing key, wrong dtype or shape, unknown
    format, family, encoding or head, another game or other parameters) is a ValueError
    naming the file and what it holds.
    """
    path = Path(os.path.expanduser(str(path)))
    metadata, arrays = read_model_file(path)
    return LearnedModel(metadata, arrays, path=path, game=game)


def save_model(path: str | os.PathLike[str], model: LearnedModel) -> None:
    """Writes ``model`` as one ``.npz`` (atomically: a killed run leaves the old file)."""
    write_model_file(Path(os.path.expanduser(str(path))), model.metadata, model.arrays)
