"""The model file: one ``.npz`` holding a JSON ``metadata`` string and integer arrays.

Reading and writing only; what the arrays must look like is checked in
`bots.learned.checks`, so that a model built in memory (by the trainer) and one read
from disk pass the same checks. docs/guide/learned.md describes the format.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "starspiel.learned/1"


def read_model_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The metadata and the arrays of a model file, every array read in full now.

    A missing, corrupt or truncated file, or one whose ``metadata`` is no JSON
    object, raises ValueError naming the file: a truncated zip member only shows
    when it is read, so nothing is read lazily.
    """
    name = str(path)
    if not Path(path).is_file():
        raise ValueError(f"{name}: no such model file (a starspiel .npz model, {FORMAT})")
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {key: np.asarray(npz[key]) for key in npz.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error, KeyError) as error:
        raise ValueError(
            f"{name}: not a readable model file ({type(error).__name__}: {error}); "
            f"expected a complete .npz written by bots.learned.save_model"
        ) from None
    if "metadata" not in arrays:
        raise ValueError(
            f"{name}: holds the arrays {sorted(arrays)} but no 'metadata' entry; "
            f"not a starspiel model ({FORMAT})"
        )
    raw = arrays.pop("metadata")
    if raw.shape != () or raw.dtype.kind != "U":
        raise ValueError(
            f"{name}: 'metadata' must be a 0-d unicode array holding a JSON string, "
            f"got dtype {raw.dtype} shape {raw.shape}"
        )
    try:
        metadata = json.loads(str(raw[()]))
    except json.JSONDecodeError as error:
        raise ValueError(f"{name}: 'metadata' is not valid JSON ({error})") from None
    if not isinstance(metadata, dict):
        raise ValueError(f"{name}: 'metadata' must be a JSON object, got {type(metadata).__name__}")
    return metadata, arrays


def write_model_file(
    path: str | os.PathLike[str], metadata: dict[str, Any], arrays: dict[str, np.ndarray]
) -> None:
    """Writes the model atomically (a temporary file renamed over ``path``), so a run
    killed mid-write leaves the previous checkpoint whole."""
    if "metadata" in arrays:
        raise ValueError("the arrays of a model may not be named 'metadata'")
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    payload: dict[str, Any] = {"metadata": np.array(json.dumps(metadata)), **arrays}
    with open(temporary, "wb") as handle:  # a handle: numpy appends no ".npz"
        np.savez_compressed(handle, **payload)
    os.replace(temporary, target)
