"""Moved to experiments.common.flags; kept while the other programs are ported onto it."""

from experiments.common.flags import FlagDefiner, parse, program_flags, run

__all__ = ["FlagDefiner", "parse", "program_flags", "run"]
