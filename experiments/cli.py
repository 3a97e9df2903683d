"""absl flags owned by one experiment program.

Every experiment is an absl app with OpenSpiel-style flags (``--game``,
``--seed``, ``--out`` ...). Defined on absl's global ``FLAGS``, two programs
imported into one process (the test suite, a notebook) would collide on those
names. Each program therefore keeps its own ``FlagValues``; ``run`` parses them
first and hands the rest to absl's global flags (``--help``, logging flags,
unknown-flag errors), so the command line behaves like any absl app.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any

from absl import app, flags

_HELP = ("--help", "-help", "-h", "--helpshort", "--helpfull", "-?")


class FlagDefiner:
    """``define.string("game", "pig", "help")`` defines a flag on one FlagValues."""

    def __init__(self, flag_values: flags.FlagValues):
        self._flag_values = flag_values

    def __getattr__(self, kind: str) -> Callable[..., Any]:
        definer = getattr(flags, "DEFINE_" + kind)
        return functools.partial(definer, flag_values=self._flag_values)


def program_flags() -> tuple[flags.FlagValues, FlagDefiner]:
    flag_values = flags.FlagValues()
    return flag_values, FlagDefiner(flag_values)


def parse(flag_values: flags.FlagValues, argv: Sequence[str]) -> list[str]:
    if any(arg in _HELP for arg in argv[1:]):
        print(f"usage: python -m {_program(argv)} [flags]\n")
        print(flag_values.get_help())
        sys.exit(0)
    try:
        rest = flag_values(list(argv), known_only=True)
        return flags.FLAGS(rest)
    except flags.Error as error:
        print(
            f"error: {error}\nrun python -m {_program(argv)} --help for the accepted flags",
            file=sys.stderr,
        )
        sys.exit(2)


def run(main: Callable[[list[str]], Any], flag_values: flags.FlagValues) -> None:
    app.run(main, flags_parser=functools.partial(parse, flag_values))


def _program(argv: Sequence[str]) -> str:
    main_module = sys.modules.get("__main__")
    spec = getattr(main_module, "__spec__", None)
    return spec.name if spec is not None else argv[0]
