"""python -m experiments.strength: list, run and report the strength studies (docs/guide/strength.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from absl import app

from experiments.common import flags
from experiments.common.errors import ExperimentError
from experiments.common.signals import stop_like_ctrl_c
from experiments.strength import plan, report
from experiments.strength.study import run_study
from experiments.tournament import DEFAULT_GAME_TIMEOUT

FLAGS, _define = flags.program_flags()
_define.multi_string("study", [], "A study to run or resume (names from --list); repeatable.")
_define.bool("list", False, "List every study with its size and estimated CPU time.")
_define.bool("report", False, "Print the overview and the per-study table in Markdown.")
_define.string("out", "results/strength", "Folder holding one results folder per study.")
_define.string(
    "write_docs",
    None,
    "Rewrite the per-study tables of this page (docs/results/strength.md) from the finished "
    "studies in --out.",
)
flags.define_runner_flags(
    _define,
    timeout_flag="game_timeout",
    timeout_default=DEFAULT_GAME_TIMEOUT,
    timeout_help="Wall-time limit of one game in seconds.",
)


def _list() -> None:
    total = 0.0
    for s in plan.studies():
        hours = report.estimated_cpu_hours(s)
        total += hours
        print(f"{s.name:48s} {s.games:5d} games  ~{hours:5.1f} CPU-h  {s.why_time}")
    print(f"{len(plan.studies())} studies, ~{total:.0f} CPU-hours in all")


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    out = Path(FLAGS.out)
    if FLAGS.list:
        _list()
    try:
        chosen = [plan.study(name) for name in FLAGS.study]
    except ValueError as error:
        flags.fail(str(error))
        return
    options = flags.runner_options(FLAGS, timeout_flag="game_timeout")
    # A study stopped by `kill` records its session (wall time, load) as Ctrl-C does.
    stop_like_ctrl_c()
    for s in chosen:
        print(f"{s.name}: {s.games} games of {s.bots[0]} v {s.bots[1]} in {s.game}")
        try:
            result = run_study(s, out / s.name, options)
        except ExperimentError as error:
            flags.fail(str(error))
            return
        except KeyboardInterrupt:
            print(
                f"\ninterrupted; rerun the same command to resume {out / s.name}", file=sys.stderr
            )
            sys.exit(130)
        print(f"{s.name}: {result['verdict']}, score {result['score']:.3f}")
    if FLAGS.report:
        print(report.overview(out))
        print()
        print(report.details(out))
        print()
        print(report.details(out, learned=True))
    if FLAGS.write_docs:
        page = Path(FLAGS.write_docs)
        try:
            page.write_text(report.with_details(page.read_text(), out))
        except (OSError, ValueError) as error:
            flags.fail(f"--write_docs={FLAGS.write_docs}: {error}")
            return
    if not (FLAGS.list or FLAGS.study or FLAGS.report or FLAGS.write_docs):
        raise app.UsageError("give --list, --study=NAME, --report or --write_docs=PAGE")


if __name__ == "__main__":
    flags.run(main, FLAGS)
