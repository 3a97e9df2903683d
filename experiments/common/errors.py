"""The one error type of the measuring programs: a problem with what the user asked for
(a flag, a game string, a results folder), reported as one line without a traceback."""

from __future__ import annotations


class ExperimentError(ValueError):
    """A bad configuration or an unusable results folder; the message says what to do."""
