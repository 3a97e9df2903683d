"""Moved to experiments.common.results; kept while the other programs are ported onto it."""

from __future__ import annotations

from experiments.common import results as _results
from experiments.common.results import (
    CONFIG_FILE,
    append_record,
    git_revision,
    library_versions,
    prepare_output_dir,
    run_metadata,
)

OutputDirError = _results.ResultsError


def read_records(path: str, key: str = "id", repair: bool = True) -> dict[str, dict]:
    """Records keyed by `record[key]`; a torn last line is ignored, a corrupt middle one raises."""
    del repair  # the torn last line is ignored here and cut off when a run reopens the folder
    return _results.read_records(path, key)


__all__ = [
    "CONFIG_FILE",
    "OutputDirError",
    "append_record",
    "git_revision",
    "library_versions",
    "prepare_output_dir",
    "read_records",
    "run_metadata",
]
