"""ChanceProbCut calibration files: where they live, how they are read, and the
self-calibration of games that have none.

A calibration is a JSON file with the fitted model v_deep ~ a * v_shallow + b
(residual sigma) for each remaining depth d and reduction R of one game::

  {"game": "dice(k=4,n=5)", "evaluator": "default",
   "models": [{"depth": 3, "reduction": 1, "a": 0.93, "b": 0.0,
               "sigma": 0.08, "r2": 0.9, "samples": 400}, ...]}

Files are found by the canonical game string (short name plus every parameter,
defaults included, so ``pig`` and ``pig(winscore=100)`` share one file). Which
calibration a bot reads, first match wins:

1. the file the user names (``calibration=<file>``); missing, it is an error;
2. the user's own, in ``user_calibration_dir()`` (``$XDG_CACHE_HOME/starspiel/
   calibrations``, default ``~/.cache/...``), where
   ``experiments.probcut.calibrate --install`` writes: never into the package,
   which may be a read-only site-packages;
3. the committed ones shipped in ``bots/calibrations/``, so
   ``make_bot("chanceprobcut", game, 0)`` works out of the box;

   2 and 3 only where the file's ``evaluator`` is the bot's (``default``: the game's
   hand evaluator): a learned model's errors are not the hand evaluator's;
4. the self-calibration: a quick fit (bots/calibration_fit.py ``quick_fit``) cached in
   the same folder as ``auto-<game>-<evaluator>-<digest>.json``, the digest over all
   that changes the fit (game, evaluator, plan, engine, format); made at the bot's first
   search, never in ``make_bot`` (``fits_on_first_use``), with one line on stderr that
   says it runs and then what it fitted; read on every later use. ``STARSPIEL_SELF_CALIBRATION=off`` turns it
   off: a game with none of 1-3 is then refused, naming the command that makes one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pyspiel

from bots import calibration_fit
from bots.probcut_models import ProbCutModel, ProbCutSettings
from games import plain_name

CALIBRATION_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrations")

# Turns the self-calibration off (off, 0, false, no); on by default.
SELF_CALIBRATION_ENV = "STARSPIEL_SELF_CALIBRATION"
# Part of the cache key: raise it when the fit changes, so old caches are refitted.
SELF_CALIBRATION_FORMAT = 1
_SELF_PREFIX = "auto-"


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
    return f"{plain_name(game.get_type().short_name)}({body})"  # a Python twin's too


def _file_stem(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def calibration_filename(game: pyspiel.Game | str) -> str:
    """A file name derived from the canonical game string, e.g. ``dice_k_4_n_5.json``."""
    return _file_stem(canonical_game_string(game)) + ".json"


def user_calibration_dir() -> str:
    """The per-user folder of calibrations: ``calibrate --install``'s and the cache of
    self-calibrations."""
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
    """Writes a temporary file beside ``path`` and renames it: a reader (another worker)
    sees the old file or the new one, never half of one."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
    try:
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide a shared results folder's file
        with os.fdopen(handle, "w") as stream:
            json.dump(data, stream, indent=2, sort_keys=True)
            stream.write("\n")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def self_calibration_enabled() -> bool:
    """Whether a game without a calibration is calibrated on first use
    (``STARSPIEL_SELF_CALIBRATION``; on unless off, 0, false or no)."""
    value = os.environ.get(SELF_CALIBRATION_ENV, "on").strip().lower()
    if value in ("", "on", "1", "true", "yes"):
        return True
    if value in ("off", "0", "false", "no"):
        return False
    raise ValueError(
        f"{SELF_CALIBRATION_ENV}={value!r}: accepted on (1, true, yes) or off (0, false, no)"
    )


def _missing(game: pyspiel.Game, looked: str, evaluator: Any = None) -> ValueError:
    off = (
        ""
        if self_calibration_enabled()
        else f" (self-calibration is off: {SELF_CALIBRATION_ENV}="
        f"{os.environ.get(SELF_CALIBRATION_ENV)})"
    )
    key = evaluator_key(evaluator)
    which = "" if key == "default" else f" with evaluator {key!r}"
    command = calibration_command(game) + ("" if key == "default" else f" --evaluator={key}")
    return ValueError(
        f"no ChanceProbCut calibration for game '{game}'{which} (looked for {looked}){off}; "
        f"make one with: {command}  "
        f"or pass calibration=<file> to the bot"
    )


def load_calibration(game: pyspiel.Game, path: str | None = None) -> dict[str, Any]:
    """The file at ``path`` (default: the user's, else the committed one), checked to hold
    a models list; no self-calibration."""
    looked = path or f"{user_calibration_path(game)} and {default_calibration_path(game)}"
    path = path or default_calibration_path(game)
    if not os.path.exists(path):
        raise _missing(game, looked)
    with open(path) as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"calibration file {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise ValueError(f"calibration file {path} has no 'models' list")
    return data


def evaluator_key(evaluator: Any) -> str:
    """How the cache names an evaluator: its registry name, ``default`` for none, or an
    object's class (give ``calibration=`` for objects their class does not identify)."""
    if evaluator is None:
        return "default"
    if isinstance(evaluator, str):
        return evaluator
    kind = type(evaluator)
    return f"{kind.__module__}.{kind.__qualname__}"


def self_calibration_key(
    game: pyspiel.Game, evaluator: Any, plan: calibration_fit.QuickPlan
) -> dict[str, Any]:
    """Everything that changes a self-calibration: the engine only picks the budget (its
    values are exact)."""
    return {
        "format": SELF_CALIBRATION_FORMAT,
        "game": canonical_game_string(game),
        "evaluator": evaluator_key(evaluator),
        "plan": json.loads(json.dumps(dataclasses.asdict(plan))),
        "engine": calibration_fit.fit_engine(game, evaluator),
    }


def self_calibration_path(
    game: pyspiel.Game, evaluator: Any, plan: calibration_fit.QuickPlan
) -> str:
    """The cache file of this self-calibration, in ``user_calibration_dir()``."""
    return _cache_path(self_calibration_key(game, evaluator, plan))


def _cache_path(key: dict[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    name = f"{_SELF_PREFIX}{_file_stem(key['game'])}-{_file_stem(key['evaluator'])}-{digest}"
    return os.path.join(user_calibration_dir(), name + ".json")


def _cached(path: str, key: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The cached calibration, or None and why it cannot be used (None if absent)."""
    try:
        with open(path) as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as error:
        return None, f"unreadable ({error})"
    if not isinstance(data, dict) or data.get("key") != key:
        return None, "not the self-calibration its name says"
    models = data.get("models")
    if not isinstance(models, list):
        return None, "no 'models' list"
    try:
        for entry in models:
            _model(entry, path)
    except ValueError as error:
        return None, str(error)
    return data, None


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    """Holds ``path``.lock, so that concurrent workers fit once and the others wait and
    read (POSIX; elsewhere each may fit, and the rename keeps the file whole)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
    except ImportError:
        yield
        return
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def self_calibration(
    game: pyspiel.Game, evaluator: Any = None, plan: calibration_fit.QuickPlan | None = None
) -> tuple[str, dict[str, Any]]:
    """The cached self-calibration of ``game`` (path, data), fitted and stored first if
    there is none. A cached file that cannot be used (corrupt, edited, another key) is
    fitted again and replaced, with a line on stderr that says so."""
    plan = plan or calibration_fit.QUICK_PLAN
    key = self_calibration_key(game, evaluator, plan)
    path = _cache_path(key)
    data, problem = _cached(path, key)
    if data is not None:
        return path, data
    try:
        with _locked(path):
            data, problem = _cached(path, key)  # another worker may have fitted it meanwhile
            if data is not None:
                return path, data
            if problem is not None:
                print(
                    f"starspiel: replacing the cached calibration {path}: {problem}",
                    file=sys.stderr,
                )
            data = _quick_fit(game, evaluator, plan, key)
            save_calibration(path, data)
    except OSError as error:  # a folder that cannot be written: fit, use, do not cache
        data = data or _quick_fit(game, evaluator, plan, key)
        print(f"{_fit_summary(data)}; not cached: {error}", file=sys.stderr)
        return path, data
    print(f"{_fit_summary(data)}; cached in {path}", file=sys.stderr)
    return path, data


def fits_on_first_use(game: pyspiel.Game, path: str | None = None, evaluator: Any = None) -> bool:
    """Whether ``find_calibration`` would fit a self-calibration now: no file named, none
    of the user's or committed ones, self-calibration on, no usable cached fit. make_bot
    then leaves the fit to the bot's first search (bots/factory.py)."""
    if path or not self_calibration_enabled():
        return False
    found = default_calibration_path(game)
    if os.path.exists(found) and _fitted_for(load_calibration(game, found), evaluator):
        return False
    key = self_calibration_key(game, evaluator, calibration_fit.QUICK_PLAN)
    return _cached(_cache_path(key), key)[0] is None


def _quick_fit(
    game: pyspiel.Game, evaluator: Any, plan: calibration_fit.QuickPlan, key: dict[str, Any]
) -> dict[str, Any]:
    """The quick fit with what identifies it, as the cache stores it; the one line it
    prints begins here (the caller ends it with what was fitted)."""
    print(
        f"starspiel: chanceprobcut self-calibrating for '{game}' (evaluator "
        f"{key['evaluator']}) at its first search, a minute at most...",
        end=" ",
        file=sys.stderr,
        flush=True,
    )
    return {
        "game": key["game"],
        "game_string": str(game),
        "evaluator": key["evaluator"],
        "key": key,
        "self_calibration": True,
        **calibration_fit.quick_fit(game, evaluator, plan),
    }


def _fit_summary(data: dict[str, Any]) -> str:
    """What a self-calibration fitted, in a few words (the end of the one line it prints)."""
    head = "self-calibrated"
    cost = (
        f"{data['nodes']:,} nodes ({data['engine']} engine) in {data['seconds']:.1f} s "
        f"({data['cpu_seconds']:.1f} s CPU)"
    )
    models = data["models"]
    if not models:
        why = (
            "no chance node after the first decision"
            if not data["chance_nodes"]
            else f"too few outcome children ({data['children']})"
        )
        return f"{head}: {why}, so it never prunes; {cost}"
    depths = sorted({m["depth"] for m in models})
    reductions = ",".join(str(r) for r in sorted({m["reduction"] for m in models}))
    return (
        f"{head}: R={reductions} at depths {depths[0]}-{depths[-1]} from "
        f"{data['chance_nodes']} chance nodes, {data['children']} outcomes; {cost}"
    )


def find_calibration(
    game: pyspiel.Game, path: str | None = None, evaluator: Any = None
) -> tuple[str, dict[str, Any]]:
    """The calibration a bot reads (path, data), in the order the module docstring gives."""
    if path:
        return path, load_calibration(game, path)
    found = default_calibration_path(game)
    if os.path.exists(found):
        data = load_calibration(game, found)
        if _fitted_for(data, evaluator):
            return found, data
    if self_calibration_enabled():
        return self_calibration(game, evaluator)
    raise _missing(game, f"{user_calibration_path(game)} and {found}", evaluator)


def _fitted_for(data: dict[str, Any], evaluator: Any) -> bool:
    """Whether a user's or committed file was fitted with the bot's evaluator: a fit of
    the hand evaluator's values says nothing of a learned model's (their errors differ)."""
    return str(data.get("evaluator", "default")) == evaluator_key(evaluator)


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


def never_prunes(reduction: int | None, t: float) -> ProbCutSettings:
    """Settings whose one model has infinite sigma: ChanceProbCut then searches as star2,
    node for node (a game with nothing to sample, or max^n, which reads no model)."""
    return ProbCutSettings(reduction or 1, t, {1: ProbCutModel(1.0, 0.0, math.inf)})


def probcut_settings(
    game: pyspiel.Game,
    reduction: int | None,
    t: float,
    path: str | None = None,
    mover_relative: bool = True,
    evaluator: Any = None,
) -> ProbCutSettings:
    """The models of one reduction R from the game's calibration, ready for the engine.

    ``path`` names a file; without one the module docstring's order finds it, where
    ``evaluator`` (the bot's) keys a self-calibration. ``reduction=None`` takes R=2
    when the file has it (shallow and deep searches then end on the same player's
    move, which fits far better), else the smallest R it has. A self-calibration
    without models (no chance node to sample) gives a model that never prunes.
    """
    path, data = find_calibration(game, path, evaluator)
    if not data["models"] and data.get("self_calibration"):
        return never_prunes(reduction, t)
    if reduction is None:
        available = sorted(
            {int(e.get("reduction", 0)) for e in data["models"] if isinstance(e, dict)} - {0}
        )
        reduction = 2 if 2 in available else (available[0] if available else 1)
    stored = data.get("game")
    if isinstance(stored, str) and stored.split("(")[0] != plain_name(game.get_type().short_name):
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
