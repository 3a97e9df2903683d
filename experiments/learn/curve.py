"""learning_curve.png: the score against the fixed opponent by games trained (plots extra)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from experiments.common import pictures

FILE = "learning_curve.png"
_warned = False


def draw(out: str, records: list[dict[str, Any]], config: Any) -> None:
    """Redraws the curve from the progress records; without matplotlib, says so once."""
    global _warned
    try:
        plt = pictures.pyplot()
    except ImportError:
        if not _warned:
            print(
                "note: matplotlib is missing, so no learning_curve.png: "
                "pip install 'starspiel[plots]'",
                file=sys.stderr,
            )
            _warned = True
        return
    points = sorted((r for r in records if "score" in r), key=lambda r: r["games"])
    data = [[r["games"], r["score"], *r["interval"]] for r in points]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    xs = [d[0] for d in data]
    ax.fill_between(xs, [d[2] for d in data], [d[3] for d in data], alpha=0.25, linewidth=0)
    ax.plot(xs, [d[1] for d in data], "o-", markersize=3)
    opponent = points[-1].get("opponent", "") if points else ""
    if opponent.startswith("none"):
        ax.set_ylabel("mean score of greedy 1-ply play")
    else:
        ax.axhline(0.5, color="black", linewidth=0.8, linestyle="--")
        ax.set_ylabel(f"score against {opponent}")
    ax.set_xlabel("self-play games")
    ax.set_title(f"{config.game}\n{config.model}", fontsize=8)
    ax.grid(linewidth=0.3)
    fig.tight_layout()
    pictures.save(fig, Path(out) / FILE, data)
