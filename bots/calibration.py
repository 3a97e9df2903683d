"""ChanceProbCut calibration files: where they live and how they are read.

A calibration is a JSON file with the fitted model v_deep ~ a * v_shallow + b
(residual sigma) for each remaining depth d and reduction R of one game::

  {"game": "dice(k=4,n=5)", "evaluator": "default",
   "models": [{"depth": 3, "reduction": 1, "a": 0.93, "b": 0.0,
               "sigma": 0.08, "r2": 0.9, "samples": 400}, ...]}

Files are found by the canonical game string (short name plus every parameter,
defaults included, so ``pig`` and ``pig(winscore=100)`` share one file). Which
file a bot reads, first match wins:

1. the file the user names (``calibration=<file>``);
2. the user's own, in ``user_calibration_dir()`` (``$XDG_CACHE_HOME/starspiel/
   calibrations``, default ``~/.cache/...``), where
   ``experiments.probcut.calibrate --install`` writes: never into the package,
   which may be a read-only site-packages;
3. the committed ones shipped in ``bots/calibrations/``, so
   ``make_bot("chanceprobcut", game, 0)`` works out of the box.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from typing import Any

import pyspiel

from bots.probcut import ProbCutModel, ProbCutSettings

CALIBRATION_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrations")


def calibration_command(game: pyspiel.Game | str) -> str:
    return f"python -m experiments.probcut.calibrate --game='{game}' --depths=2,3,4 --reduction=1"


def canonical_game_string(game: pyspiel.Game | str) -> str:
    """``short_name(k=v,...)`` with every parameter, defaults included, sorted.

    ``str(game)`` depends on how the game was spelled (``pig()`` vs
    ``pig(winscore=100)`` are the same game), so files are named from this.
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    params = game.get_parameters()
    body = ",".join(f"{key}={params[key]}" for key in sorted(params))
    return f"{game.get_type().short_name}({body})"


def calibration_filename(game: pyspiel.Game | str) -> str:
    """A file name derived from the canonical game string, e.g. ``dice_k_4_n_5.json``."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", canonical_game_string(game)).strip("_")
    return name + ".json"


def user_calibration_dir() -> str:
    """The per-user folder of calibrations made with ``calibrate --install``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "starspiel", "calibrations")


def user_calibration_path(game: pyspiel.Game | str) -> str:
    """Where ``calibrate --install`` puts ``game``'s calibration."""
    return os.path.join(user_calibration_dir(), calibration_filename(game))


def default_calibration_path(game: pyspiel.Game | str) -> str:
    """The user's calibration of ``game`` where there is one, else the committed one's path."""
    user = user_calibration_path(game)
    if os.path.exists(user):
        return user
    return os.path.join(CALIBRATION_DIR, calibration_filename(game))


def save_calibration(path: str, data: dict[str, Any]) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.write("\n")


def load_calibration(game: pyspiel.Game, path: str | None = None) -> dict[str, Any]:
    looked = path or f"{user_calibration_path(game)} and {default_calibration_path(game)}"
    path = path or default_calibration_path(game)
    if not os.path.exists(path):
        raise ValueError(
            f"no ChanceProbCut calibration for game '{game}' (looked for {looked}); "
            f"make one with: {calibration_command(game)}  "
            f"or pass calibration=<file> to the bot"
        )
    with open(path) as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"calibration file {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise ValueError(f"calibration file {path} has no 'models' list")
    return data


def _model(entry: Any, path: str) -> tuple[int, int, ProbCutModel]:
    try:
        depth, reduction = int(entry["depth"]), int(entry["reduction"])
        a, b, sigma = float(entry["a"]), float(entry["b"]), float(entry["sigma"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"calibration file {path}: model {entry!r} needs numeric depth, "
            f"reduction, a, b and sigma ({error})"
        ) from None
    if not all(math.isfinite(x) for x in (a, b, sigma)) or sigma < 0:
        raise ValueError(
            f"calibration file {path}: model for depth {depth}, R={reduction} "
            f"needs finite a, b and sigma >= 0, got a={a}, b={b}, sigma={sigma}"
        )
    mover = entry.get("mover_relative") if isinstance(entry, dict) else None
    mover_model = None
    if isinstance(mover, dict):
        try:
            mover_model = (float(mover["a"]), float(mover["b"]), float(mover["sigma"]))
        except (KeyError, TypeError, ValueError):
            mover_model = None
        if mover_model is not None and (
            not all(math.isfinite(x) for x in mover_model) or mover_model[2] < 0
        ):
            mover_model = None
    return depth, reduction, ProbCutModel(a=a, b=b, sigma=sigma, mover=mover_model)


def probcut_settings(
    game: pyspiel.Game,
    reduction: int | None,
    t: float,
    path: str | None = None,
    mover_relative: bool = True,
) -> ProbCutSettings:
    """The models of one reduction R from a calibration file, ready for the engine.

    ``reduction=None`` takes R=2 when the file has it (shallow and deep searches
    then end on the same player's move, which fits far better), else the
    smallest R it has.
    """
    path = path or default_calibration_path(game)
    data = load_calibration(game, path)
    if reduction is None:
        available = sorted(
            {int(e.get("reduction", 0)) for e in data["models"] if isinstance(e, dict)} - {0}
        )
        reduction = 2 if 2 in available else (available[0] if available else 1)
    stored = data.get("game")
    if isinstance(stored, str) and stored.split("(")[0] != game.get_type().short_name:
        raise ValueError(
            f"calibration file {path} is for game '{stored}', not '{game}'; "
            f"make one with: {calibration_command(game)}"
        )
    models = {}
    for entry in data["models"]:
        depth, entry_reduction, model = _model(entry, path)
        if entry_reduction == int(reduction):
            models[depth] = model if mover_relative else dataclasses.replace(model, mover=None)
    if not models:
        available = sorted({int(e["reduction"]) for e in data["models"]})
        raise ValueError(
            f"calibration for '{game}' has no models for R={reduction} "
            f"(available: {available}); make one with: "
            f"python -m experiments.probcut.calibrate --game='{game}' --reduction={reduction}"
        )
    return ProbCutSettings(reduction, t, models)
