"""ChanceProbCut calibration files: where they live and how they are read.

A calibration is a JSON file with the fitted model v_deep ~ a * v_shallow + b
(residual sigma) for each remaining depth d and reduction R of one game::

  {"game": "dice(k=4,n=5)", "evaluator": "default",
   "models": [{"depth": 3, "reduction": 1, "a": 0.93, "b": 0.0,
               "sigma": 0.08, "r2": 0.9, "samples": 400}, ...]}

Committed calibrations live in ``bots/calibrations/`` and are found by game
string, so ``make_bot("chanceprobcut", game, 0)`` works out of the box.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pyspiel

from bots.search import ProbCutModel, ProbCutSettings

CALIBRATION_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrations")


def calibration_command(game: pyspiel.Game | str) -> str:
  return (f"python -m experiments.calibrate_probcut --game='{game}' "
          f"--depths=2,3,4 --reduction=1")


def calibration_filename(game: pyspiel.Game | str) -> str:
  """A file name derived from the canonical game string, e.g. ``dice_k_4_n_5.json``."""
  name = re.sub(r"[^A-Za-z0-9]+", "_", str(game)).strip("_")
  return name + ".json"


def default_calibration_path(game: pyspiel.Game | str) -> str:
  return os.path.join(CALIBRATION_DIR, calibration_filename(game))


def save_calibration(path: str, data: dict[str, Any]) -> None:
  os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
  with open(path, "w") as handle:
    json.dump(data, handle, indent=2, sort_keys=True)
    handle.write("\n")


def load_calibration(game: pyspiel.Game, path: str | None = None) -> dict[str, Any]:
  path = path or default_calibration_path(game)
  if not os.path.exists(path):
    raise ValueError(
        f"no ChanceProbCut calibration for game '{game}' (looked for {path}); "
        f"make one with: {calibration_command(game)}  "
        f"or pass calibration=<file> to the bot")
  with open(path) as handle:
    try:
      data = json.load(handle)
    except json.JSONDecodeError as error:
      raise ValueError(f"calibration file {path} is not valid JSON: {error}") from None
  if not isinstance(data, dict) or not isinstance(data.get("models"), list):
    raise ValueError(f"calibration file {path} has no 'models' list")
  return data


def probcut_settings(game: pyspiel.Game, reduction: int, t: float,
                     path: str | None = None) -> ProbCutSettings:
  """The models of one reduction R from a calibration file, ready for the engine."""
  data = load_calibration(game, path)
  models = {}
  for entry in data["models"]:
    if int(entry["reduction"]) == int(reduction):
      models[int(entry["depth"])] = ProbCutModel(
          a=float(entry["a"]), b=float(entry["b"]), sigma=float(entry["sigma"]))
  if not models:
    available = sorted({int(e["reduction"]) for e in data["models"]})
    raise ValueError(
        f"calibration for '{game}' has no models for R={reduction} "
        f"(available: {available}); make one with: "
        f"python -m experiments.calibrate_probcut --game='{game}' --reduction={reduction}")
  return ProbCutSettings(reduction, t, models)
