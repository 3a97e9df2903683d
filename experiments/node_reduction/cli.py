"""The flags of `python -m experiments.node_reduction` and its main: exit status 1 when an
exact algorithm disagrees with expectiminimax (or a search failed), 2 on a bad configuration."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from absl import app

from experiments.common import flags
from experiments.common.runner import RunnerError
from experiments.common.signals import stop_like_ctrl_c
from experiments.node_reduction.config import DEFAULTS
from experiments.node_reduction.presets import ALGORITHMS, PRESETS, REFERENCE
from experiments.node_reduction.study import RECORDS_FILE, run

FLAGS, _define = flags.program_flags()
_define.string("preset", None, f"One of: {', '.join(PRESETS)}.")
_define.string(
    "game", None, f"OpenSpiel game string (default {DEFAULTS['game']} without a preset)."
)
_define.list(
    "algorithms",
    None,
    "Comma-separated, from: "
    + ", ".join(ALGORITHMS)
    + f". {REFERENCE} is always run: it is the reference.",
)
_define.list(
    "depths",
    None,
    "Search depths in decision plies (chance levels not counted), e.g. 1,2,3 or 1-4.",
)
_define.integer(
    "positions",
    None,
    "Number of positions (sampled, or the first ones of --position_file).",
    lower_bound=1,
)
_define.string(
    "position_file", None, "positions.json of an earlier run: search exactly those positions."
)
_define.string(
    "evaluator",
    None,
    "Evaluator name for bots.evaluators.make_evaluator (default: the game's default evaluator).",
)
_define.integer("seed", 0, "Seed of the position sampling.", lower_bound=0)
_define.string(
    "out",
    None,
    "Results folder (default results/node_reduction-<preset or game>-<hash of the configuration>).",
)
_define.integer(
    "trials",
    None,
    "Ballard average-case presets: random trees per case "
    "(default: the preset's, up to Ballard's 1000).",
    lower_bound=1,
)
_define.integer(
    "reference_trees",
    None,
    f"Ballard average-case presets: run {REFERENCE} (the reference) on the first N trees of "
    "each case only; on the others Star2's value is checked against Star1's. Table 6's "
    "percentages are of B^D leaves and do not need it. Default: every tree.",
    lower_bound=1,
)
_define.list("sizes", None, "Ballard presets: only these N (or B) values, e.g. 2,4 or 2-10.")
_define.list("levels", None, "Ballard presets: only these D (arc levels), e.g. 7 for Table 6.")
_define.integer(
    "probcut_R",
    None,
    "ChanceProbCut depth reduction R (default: the calibration's, R=2 where calibrated).",
    lower_bound=1,
)
_define.float("probcut_t", 1.5, "ChanceProbCut confidence factor t.")
_define.string(
    "probcut_calibration",
    None,
    "ChanceProbCut calibration file (default: the committed one for the game, bots/calibrations/).",
)
_define.float(
    "budget",
    None,
    "Seconds allowed per search call (any algorithm, the "
    "OpenSpiel baseline included); longer ones are stopped and recorded as "
    "'skipped'. Default: the preset's, else 60.",
)
_define.float(
    "max_seconds",
    None,
    "Stop starting new positions after this many "
    "seconds (finished records are kept; rerun to continue).",
)
_define.bool("plots", True, "Write nodes.png (needs matplotlib).")
flags.define_runner_flags(
    _define,
    timeout_help="Wall-time limit in seconds of one task, i.e. of all the searches of one "
    "position (Ballard: one tree) together; the searches left when it fires are recorded "
    "as 'skipped'. Default: none (--budget still limits each search).",
)


def options_from_flags() -> dict[str, Any]:
    names = (
        "preset",
        "game",
        "algorithms",
        "depths",
        "positions",
        "position_file",
        "evaluator",
        "seed",
        "trials",
        "reference_trees",
        "sizes",
        "levels",
        "probcut_R",
        "probcut_t",
        "probcut_calibration",
        "budget",
    )
    return {name: FLAGS[name].value for name in names}


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    stop_like_ctrl_c()  # `kill` and background jobs stop as Ctrl-C does: records kept
    try:
        report, out, _ = run(
            options_from_flags(),
            FLAGS.out,
            runner_options=flags.runner_options(FLAGS),
            plots=FLAGS.plots,
            max_seconds=FLAGS.max_seconds,
        )
    except (RunnerError, ValueError) as error:  # ExperimentError is a ValueError
        flags.fail(str(error))
        return
    except KeyboardInterrupt:
        print(
            "\ninterrupted; finished records are saved: rerun the same command to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    print(f"summary: {os.path.join(out, 'summary.md')}")
    if report.mismatches or report.errors:
        print(
            f"FAILED: {report.mismatches} value mismatch(es) against expectiminimax, "
            f"{report.errors} search error(s); see {os.path.join(out, RECORDS_FILE)}",
            file=sys.stderr,
        )
        sys.exit(1)
