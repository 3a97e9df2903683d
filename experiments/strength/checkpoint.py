"""An unfinished study's games, compressed into a file that is committed with its folder.

A study's games file is not committed (it is large and the result is derived from it),
so a study that takes several sessions would lose its games with the machine. Between
sessions its folder keeps them as `games.jsonl.xz` (about an eighth of the size); a
fresh clone unpacks it before playing on, and the file goes once the study has settled.
"""

from __future__ import annotations

import lzma
import os
import shutil
from pathlib import Path

from experiments.tournament import RECORDS_FILE

CHECKPOINT_FILE = RECORDS_FILE + ".xz"


def restore(out: Path) -> None:
    """Unpacks the checkpoint when the folder has no games file."""
    games, packed = out / RECORDS_FILE, out / CHECKPOINT_FILE
    if games.exists() or not packed.exists():
        return
    partial = games.with_name(games.name + ".unpacking")
    with lzma.open(packed, "rb") as source, open(partial, "wb") as target:
        shutil.copyfileobj(source, target)
    os.replace(partial, games)


def games_text(out: Path) -> str:
    """The study's games, from the games file or else from the checkpoint ("" if neither)."""
    games, packed = out / RECORDS_FILE, out / CHECKPOINT_FILE
    if games.exists():
        return games.read_text()
    return lzma.decompress(packed.read_bytes()).decode() if packed.exists() else ""


def save(out: Path, settled: bool) -> None:
    """Packs the games of an unsettled study; removes the checkpoint of a settled one."""
    games, packed = out / RECORDS_FILE, out / CHECKPOINT_FILE
    if settled:
        packed.unlink(missing_ok=True)
        return
    if not games.exists():
        return
    partial = packed.with_name(packed.name + ".packing")
    with open(games, "rb") as source, lzma.open(partial, "wb", preset=9) as target:
        shutil.copyfileobj(source, target)
    os.replace(partial, packed)
