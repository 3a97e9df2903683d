"""The reproductions' pictures, one per paper, from committed node-reduction results.

Run ``python -m experiments.node_reduction.plot`` to redraw every picture whose results are
committed under ``results/node_reduction/<folder>/summary.csv`` (the summary
``python -m experiments.node_reduction --out=...`` writes; ``--figures=ballard,hauk`` picks
some). Each picture shows one metric against depth (or Ballard's N) per algorithm, ours as
lines and the published numbers, where the paper gives them, as open markers. The PNG
carries a digest of the plotted numbers (``experiments.common.pictures``), which
tests/test_pictures.py compares with the committed results.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from experiments.common import flags, pictures

RESULTS = Path("results/node_reduction")
IMAGES = Path("docs/img")


@dataclass(frozen=True)
class Figure:
    """One reproduction's picture: which folders, which metric, how to read it."""

    title: str
    folders: tuple[str, ...]
    metric: str
    ylabel: str
    algorithms: tuple[str, ...] = ()  # () draws every algorithm with the metric
    log: bool = True
    one_panel: bool = False  # every folder's lines in one panel (Ballard's two tables)


FIGURES: dict[str, Figure] = {
    "ballard": Figure(
        "Ballard 1983, Tables 1 and 2: best case, 2-ply tree",
        ("ballard_table1", "ballard_table2"),
        "leaves_pct",
        "leaves examined, % of N^3",
        ("star1", "star2"),
        log=False,
        one_panel=True,
    ),
    "hauk": Figure(
        "Hauk, Buro and Schaeffer 2004: backgammon",
        ("hauk_backgammon",),
        "nodes",
        "mean nodes per search",
        ("expectiminimax", "star1", "star2", "star2_noorder"),
    ),
    "veness_blair": Figure(
        "Veness and Blair 2007: dice(n=5,k=4)",
        ("veness_blair",),
        "nodes",
        "mean nodes per search",
        ("expectiminimax", "star2", "star2_tt"),
    ),
    "schadd": Figure(
        "ChanceProbCut against Star2 with a table",
        ("chanceprobcut_dice", "chanceprobcut_pig", "chanceprobcut_backgammon"),
        "node_reduction_vs_star2_tt_pct",
        "% fewer nodes than star2_tt",
        ("chanceprobcut",),
        log=False,
    ),
    "lanctot": Figure(
        "Lanctot et al. 2013: nodes per search",
        ("lanctot_pig", "lanctot_ewn"),
        "nodes",
        "mean nodes per search",
        ("expectiminimax", "star1", "star2", "star2_tt"),
    ),
}

FLAGS, _define = flags.program_flags()
_define.string("results", str(RESULTS), "Folder holding one node-reduction folder per run.")
_define.string("images", str(IMAGES), "Where to write the PNGs.")
_define.list("figures", list(FIGURES), f"Pictures to draw: {', '.join(FIGURES)}.")


def picture(name: str, images: Path = IMAGES) -> Path:
    return images / f"{name}.png"


def _x(case: str) -> float:
    """The number a case is plotted at: N=4 -> 4, depth=3 -> 3."""
    match = re.search(r"=(\d+(?:\.\d+)?)$", case)
    if not match:
        raise ValueError(f"cannot plot case {case!r}: expected NAME=NUMBER")
    return float(match.group(1))


def _number(text: str) -> float | None:
    return round(float(text), 6) if text else None


def committed(figure: Figure, results: Path = RESULTS) -> bool:
    """Whether every folder of the figure has its summary.csv."""
    return all((results / folder / "summary.csv").exists() for folder in figure.folders)


def points(figure: Figure, results: Path = RESULTS) -> list[dict]:
    """The plotted numbers: one row per folder, algorithm and case, in the CSV's order."""
    rows = []
    for folder in figure.folders:
        with open(results / folder / "summary.csv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                wanted = not figure.algorithms or row["algorithm"] in figure.algorithms
                if wanted and row["metric"] == figure.metric and row["measured"]:
                    rows.append(
                        {
                            "folder": folder,
                            "algorithm": row["algorithm"],
                            "x": _x(row["case"]),
                            "measured": _number(row["measured"]),
                            "published": _number(row["published"]),
                        }
                    )
    return rows


def draw(figure: Figure, rows: Sequence[dict], out: Path) -> None:
    """One panel per folder (or one for all), a line per algorithm, published as open marks."""
    plt = pictures.pyplot()
    from matplotlib.ticker import MaxNLocator

    panels = [None] if figure.one_panel else list(figure.folders)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 0.8, 3.4), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        mine = [r for r in rows if panel is None or r["folder"] == panel]
        series = sorted({(r["folder"], r["algorithm"]) for r in mine}, key=str)
        for folder, algorithm in series:
            line = sorted(
                (r for r in mine if (r["folder"], r["algorithm"]) == (folder, algorithm)),
                key=lambda r: r["x"],
            )
            label = algorithm if panel is not None else f"{algorithm} ({folder})"
            (drawn,) = ax.plot(
                [r["x"] for r in line],
                [r["measured"] for r in line],
                "o-",
                markersize=3,
                label=label,
            )
            published = [r for r in line if r["published"] is not None]
            if published:
                ax.plot(
                    [r["x"] for r in published],
                    [r["published"] for r in published],
                    "o",
                    markersize=8,
                    fillstyle="none",
                    color=drawn.get_color(),
                )
        if figure.log:
            ax.set_yscale("log")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("N" if figure.one_panel else "depth (decision plies)")
        ax.set_ylabel(figure.ylabel)
        ax.set_title(panel or figure.title, fontsize=9)
        ax.grid(linewidth=0.3)
        ax.legend(fontsize=7)
    if not figure.one_panel:
        fig.suptitle(figure.title, fontsize=10)
    if any(r["published"] is not None for r in rows):
        fig.text(0.01, 0.01, "open circles: published", fontsize=7)
    fig.tight_layout()
    pictures.save(fig, out, list(rows))


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    unknown = sorted(set(FLAGS.figures) - set(FIGURES))
    if unknown:
        flags.fail(f"unknown figure(s) {', '.join(unknown)}; accepted: {', '.join(FIGURES)}")
    results, images = Path(FLAGS.results), Path(FLAGS.images)
    for name in FLAGS.figures:
        figure = FIGURES[name]
        if not committed(figure, results):
            print(f"skipped {name}: no summary.csv in every folder of {', '.join(figure.folders)}")
            continue
        rows = points(figure, results)
        draw(figure, rows, picture(name, images))
        print(f"wrote {picture(name, images)}: {len(rows)} points")


if __name__ == "__main__":
    flags.run(main, FLAGS)
