"""The configuration of a node-reduction run: presets and flags resolved, checked, and the
positions (sampled, Ballard trees or a file) that it searches."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from collections.abc import Sequence
from typing import Any

from bots.factory import check_game_supported
from experiments.common import game_loader as common_games
from experiments.common import results
from experiments.common.errors import ExperimentError
from experiments.common.parsing import parse_int_list
from experiments.node_reduction import ballard
from experiments.node_reduction import position_sets as positions_io
from experiments.node_reduction.presets import ALGORITHMS, REFERENCE, get_preset

DEFAULTS: dict[str, Any] = {
    "game": "pig",
    "algorithms": "expectiminimax,star1,star2,star2_tt",
    "depths": "1,2,3",
    "positions": 10,
    "moves": (4, 30),
    "budget": 60.0,
}


def _parse_ints(values: Sequence[Any], flag: str, minimum: int) -> list[int]:
    try:
        return parse_int_list([str(v) for v in values], flag, minimum=minimum)
    except ValueError as error:
        raise ExperimentError(str(error)) from None


def _pick_cases(
    cases: list[Any], options: dict[str, Any], flag: str, field: str, preset: str
) -> list[Any]:
    """The Ballard cases whose ``field`` is among ``--<flag>``'s values (all without it)."""
    if not options.get(flag):
        return cases
    wanted = set(_parse_ints(options[flag], f"--{flag}", minimum=1))
    known = sorted({getattr(c, field) for c in cases})
    if not wanted <= set(known):
        raise ExperimentError(
            f"--{flag} {sorted(wanted - set(known))} not in preset {preset!r}; accepted: {known}"
        )
    return [c for c in cases if getattr(c, field) in wanted]


def _check_algorithms(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in ALGORITHMS]
    if unknown or not names:
        raise ExperimentError(
            f"unknown algorithm(s) {', '.join(unknown) or '(none)'} in "
            f"--algorithms; accepted: {', '.join(ALGORITHMS)}"
        )
    ordered = [REFERENCE] + [n for n in dict.fromkeys(names) if n != REFERENCE]
    return ordered


def build_config(options: dict[str, Any]) -> dict[str, Any]:
    """The result-deciding configuration from flag-like options (None = not given)."""
    name = options.get("preset")
    preset = get_preset(name) if name else None
    config: dict[str, Any] = {
        "program": "experiments.node_reduction",
        "preset": name,
        "seed": options.get("seed", 0),
        "evaluator": options.get("evaluator"),
    }
    algorithms = options.get("algorithms") or (
        preset.algorithms if preset else DEFAULTS["algorithms"].split(",")
    )
    config["algorithms"] = _check_algorithms(list(algorithms))
    if "chanceprobcut" in config["algorithms"]:
        config["probcut"] = {
            "R": options.get("probcut_R"),
            "t": options.get("probcut_t", 1.5),
            "calibration": options.get("probcut_calibration"),
        }
    budget = options.get("budget") or (preset.budget if preset else DEFAULTS["budget"])
    if not budget > 0:
        raise ExperimentError(f"--budget must be > 0 seconds, got {budget}")
    config["budget"] = float(budget)
    if preset is not None and preset.depth_limits:
        config["depth_limits"] = dict(preset.depth_limits)
    if preset is not None and preset.reuse_probes:
        config["reuse_probes"] = True  # only where set, so older folders still resume
    if preset is not None and preset.is_ballard:
        for flag in ("game", "depths", "positions", "position_file"):
            if options.get(flag) is not None:
                raise ExperimentError(
                    f"--{flag} does not apply to Ballard preset {name!r}: its trees are fixed; use "
                    f"--sizes to pick N values and --trials for the number of random trees"
                )
        cases = list(preset.ballard_cases)
        cases = _pick_cases(cases, options, "sizes", "n", name)
        cases = _pick_cases(cases, options, "levels", "levels", name)
        if options.get("trials"):
            cases = [dataclasses.replace(c, trials=options["trials"]) for c in cases]
        config["ballard_cases"] = [_case_fields(c) for c in cases]
        reference_trees = options.get("reference_trees") or preset.reference_trees
        if reference_trees is not None:
            config["reference_trees"] = int(reference_trees)  # only where set: older folders
        return config
    for flag in ("trials", "sizes", "levels", "reference_trees"):
        if options.get(flag):
            raise ExperimentError(f"--{flag} applies only to the Ballard presets")
    config["game"] = options.get("game") or (preset.game if preset else DEFAULTS["game"])
    depths = options.get("depths") or (preset.depths if preset else DEFAULTS["depths"].split(","))
    config["depths"] = _parse_ints(depths, "--depths", minimum=1)
    config["positions"] = options.get("positions") or (
        preset.positions if preset else DEFAULTS["positions"]
    )
    config["moves"] = list(preset.moves if preset else DEFAULTS["moves"])
    return config


def _case_fields(case: ballard.BallardCase) -> list:
    """A case in the configuration; k only where set, so older folders still resume."""
    fields = [case.n, case.levels, case.order, case.trials, case.show_levels]
    return fields + [case.probing_factor] if case.probing_factor is not None else fields


def ballard_cases(config: dict) -> list[ballard.BallardCase]:
    return [ballard.BallardCase(*fields) for fields in config["ballard_cases"]]


def make_positions(config: dict, position_file: str | None) -> list[dict]:
    """The position entries of this configuration (sampled, Ballard trees or from a file)."""
    common_games.register_custom_games()
    if "ballard_cases" in config:
        return positions_io.ballard_positions(ballard_cases(config), config.get("reference_trees"))
    game = common_games.load_game(config["game"])
    check_game_supported(game, "node_reduction")
    if position_file:
        entries = positions_io.load_positions(position_file)
        if config["positions"] < len(entries):
            entries = entries[: config["positions"]]
        for entry in entries:
            loaded, _ = positions_io.deserialize(entry)
            if str(loaded) != str(game):
                raise ExperimentError(
                    f"position {entry['id']!r} of {position_file} is a "
                    f"{loaded} position, not {game}; pass --game={loaded}"
                )
        return entries
    return positions_io.sample_positions(
        game, config["positions"], config["seed"], tuple(config["moves"])
    )


def engine_digest() -> dict[str, str]:
    """sha1 of the engine and game sources this run used (uncommitted edits included)."""
    return results.source_digests(("bots", "games"))


def default_out(config: dict) -> str:
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    label = config.get("preset") or re.sub(r"[^A-Za-z0-9_.-]+", "_", config["game"]).strip("_")
    return os.path.join("results", f"node_reduction-{label}-{digest}")
