"""absl flags owned by one experiment program, and the task-runner flags they share.

Each program keeps its own ``FlagValues`` so two programs imported into one
process (the test suite, a notebook) do not collide on ``--game`` or ``--seed``.
``run`` parses them first and hands the rest to absl's global flags (``--help``,
logging flags, unknown-flag errors), so the command line behaves like any absl
app; a bad flag is a one-line message and exit status 2.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from absl import app
from absl import flags as absl_flags

from experiments.common.runner import EXECUTORS, RunnerOptions

_HELP = ("--help", "-help", "-h", "--helpshort", "--helpfull", "-?")


class FlagDefiner:
    """``define.string("game", "pig", "help")`` defines a flag on one FlagValues."""

    def __init__(self, flag_values: absl_flags.FlagValues):
        self._flag_values = flag_values

    def __getattr__(self, kind: str) -> Callable[..., Any]:
        definer = getattr(absl_flags, "DEFINE_" + kind)
        return functools.partial(definer, flag_values=self._flag_values)


def program_flags() -> tuple[absl_flags.FlagValues, FlagDefiner]:
    """A program's own flag set and the definer that adds flags to it."""
    flag_values = absl_flags.FlagValues()
    return flag_values, FlagDefiner(flag_values)


def define_runner_flags(
    define: FlagDefiner,
    *,
    timeout_flag: str = "task_timeout",
    timeout_default: float | None = None,
    timeout_help: str = "Wall-time limit of one task in seconds (none: no limit).",
    workers_default: int | None = None,
) -> None:
    """--workers (default all cores), --executor, --ray_address, --retries and a
    per-task wall-time limit."""
    define.integer(
        "workers",
        workers_default or os.cpu_count() or 1,
        "Tasks run in parallel (local processes, or Ray tasks in flight); 1 runs in this process.",
        lower_bound=1,
    )
    define.enum("executor", "local", EXECUTORS, "local process pool, or a Ray cluster.")
    define.string(
        "ray_address",
        None,
        "Ray cluster to join with --executor=ray, e.g. 'auto' after `ray start --head` "
        "(default: start a private local Ray).",
    )
    define.integer(
        "retries",
        2,
        "A task whose worker process dies (kill -9, crash, out of memory) is retried this "
        "many times on a fresh worker, then recorded with an error.",
        lower_bound=0,
    )
    define.float(timeout_flag, timeout_default, timeout_help, lower_bound=0.001)
    define.bool(
        "rerun_errors",
        False,
        "On resume, run again the tasks recorded with an error (a dead worker, a timeout, "
        "a failing bot) as well as the missing ones.",
    )
    define.bool("progress", True, "Show a progress bar with ETA on stderr.")


def runner_options(
    flag_values: absl_flags.FlagValues, timeout_flag: str = "task_timeout"
) -> RunnerOptions:
    """The RunnerOptions that the runner flags of `flag_values` describe."""
    return RunnerOptions(
        workers=flag_values.workers,
        executor=flag_values.executor,
        ray_address=flag_values.ray_address,
        retries=flag_values.retries,
        task_timeout=flag_values[timeout_flag].value,
        progress=flag_values.progress,
        rerun_errors=flag_values.rerun_errors,
    )


def parse(flag_values: absl_flags.FlagValues, argv: Sequence[str]) -> list[str]:
    """Parses the program's flags, then absl's; a bad flag exits 2 with one line."""
    if any(arg in _HELP for arg in argv[1:]):
        print(f"usage: python -m {program_name(argv)} [flags]\n")
        print(flag_values.get_help())
        sys.exit(0)
    try:
        rest = flag_values(list(argv), known_only=True)
        return absl_flags.FLAGS(rest)
    except absl_flags.Error as error:
        fail(f"{error}\nrun python -m {program_name(argv)} --help for the accepted flags")
        raise  # unreachable: fail exits


def run(main: Callable[[list[str]], Any], flag_values: absl_flags.FlagValues) -> None:
    """absl's app.run with the program's own flags."""
    app.run(main, flags_parser=functools.partial(parse, flag_values))


def fail(message: str, status: int = 2) -> None:
    """Reports a user error on stderr without a traceback and exits."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(status)


def program_name(argv: Sequence[str]) -> str:
    main_module = sys.modules.get("__main__")
    spec = getattr(main_module, "__spec__", None)
    if spec is None:
        return argv[0]
    return spec.name.removesuffix(".__main__")
