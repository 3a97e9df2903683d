"""Pictures that carry a digest of the numbers they show.

A plotting program draws from committed, machine-readable results and writes the
sha256 of the plotted numbers (canonical JSON) into the PNG's text chunk
``starspiel-data``. A test recomputes the numbers from the committed results and
compares digests, so a picture that no longer matches its results fails the suite.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

DATA_KEY = "starspiel-data"


def data_digest(data: Any) -> str:
    """sha256 of `data` (anything JSON can write: dicts, lists, numbers) as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def picture_digest(path: Path) -> str | None:
    """The digest a committed picture was drawn with, from its PNG text chunk."""
    from PIL import Image  # matplotlib's own dependency (the plots extra)

    with Image.open(path) as image:
        return image.info.get(DATA_KEY)


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, out: Path, data: Any) -> None:
    """Writes `fig` to `out` (PNG) with the digest of `data` in its text chunk."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110, metadata={DATA_KEY: data_digest(data)})
    pyplot().close(fig)
