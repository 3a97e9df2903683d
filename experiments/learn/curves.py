"""`python -m experiments.learn.curves`: the shipped models' learning curves in one picture.

Each model in bots/learned/models/<name>.npz has its run's records in
results/learn/<name>/progress.jsonl (the run folder, without its checkpoint when that is
large); the picture, docs/img/learned_curves.png, draws one panel per model: the greedy
player's score against the hand evaluator's 1-ply bot (two players) or its mean score
(one player), by self-play games, with 95% intervals.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.evaluators.learned import MODELS
from experiments.common import pictures

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path("results/learn")
PICTURE = Path("docs/img/learned_curves.png")


def points(results: Path) -> dict[str, dict[str, Any]]:
    """Per shipped model with records: its opponent and [games, score, low, high] rows."""
    drawn: dict[str, dict[str, Any]] = {}
    for model in sorted(MODELS.glob("*.npz")):
        path = results / model.stem / "progress.jsonl"
        if not path.exists():
            continue
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        records = sorted((r for r in records if "score" in r), key=lambda r: r["games"])
        drawn[model.stem] = {
            "opponent": records[-1]["opponent"] if records else "",
            "rows": [
                [r["games"], round(r["score"], 6), *map(float, r["interval"])] for r in records
            ],
        }
    return drawn


def draw(drawn: dict[str, dict[str, Any]], out: Path) -> None:
    plt = pictures.pyplot()
    columns = min(3, max(1, len(drawn)))
    rows = math.ceil(len(drawn) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4 * columns, 2.8 * rows), squeeze=False)
    for ax, (name, run) in zip(axes.flat, drawn.items()):
        data = run["rows"]
        xs = [d[0] for d in data]
        ax.fill_between(xs, [d[2] for d in data], [d[3] for d in data], alpha=0.25, linewidth=0)
        ax.plot(xs, [d[1] for d in data], "o-", markersize=3)
        if run["opponent"].startswith("none"):
            ax.set_ylabel("mean score, greedy")
        else:
            ax.axhline(0.5, color="black", linewidth=0.8, linestyle="--")
            ax.set_ylabel("score v hand 1-ply")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("self-play games", fontsize=8)
        ax.grid(linewidth=0.3)
    for ax in list(axes.flat)[len(drawn) :]:
        ax.axis("off")
    fig.tight_layout()
    pictures.save(fig, out, drawn)


def main(argv: Sequence[str]) -> int:
    del argv
    draw(points(ROOT / RESULTS), ROOT / PICTURE)
    print(f"wrote {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
