"""The speed chart: the native engine against the Python engine, the floor and OpenSpiel.

Run ``python -m experiments.benchmark.plot`` to redraw ``docs/img/speed.png`` from the
committed records of ``python -m experiments.benchmark.engines`` (``results/benchmark/
engines`` for the engines and floor sections, ``results/benchmark/openspiel`` for the
openspiel section). Left: CPU microseconds per node of star2 on each engine and of the
floor, a plain C++ expectimax over the same positions. Right: CPU seconds of native star2
and of OpenSpiel's C++ expectiminimax over the same positions and depth (same values).
The PNG carries a digest of the plotted numbers (``experiments.common.pictures``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from experiments.common import flags, pictures
from experiments.common.results import read_records

ENGINES = Path("results/benchmark/engines")
OPENSPIEL = Path("results/benchmark/openspiel")
PICTURE = Path("docs/img/speed.png")
RECORDS = "records.jsonl"

FLAGS, _define = flags.program_flags()
_define.string("engines", str(ENGINES), "Results folder of the engines and floor sections.")
_define.string("openspiel", str(OPENSPIEL), "Results folder of the openspiel section.")
_define.string("out", str(PICTURE), "Where to write the PNG.")


def _by_game(records: Sequence[dict[str, Any]], section: str) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for record in records:
        if record["section"] == section:
            groups.setdefault(f"{record['game']} d{record['depth']}", []).append(record)
    return groups


def _per(rs: Sequence[dict], numerator: str, denominator: str, scale: float) -> float:
    return round(scale * sum(r[numerator] for r in rs) / sum(r[denominator] for r in rs), 6)


def points(engines: Path, openspiel: Path) -> dict[str, Any]:
    """The plotted numbers: per game, microseconds per node (Python, native, floor), and
    per OpenSpiel game, the summed CPU seconds of both searches."""
    records = list(read_records(str(engines / RECORDS)).values())
    floor = _by_game(records, "floor")
    per_node = {
        game: {
            "python": _per(rs, "python_cpu", "nodes", 1e6),
            "native": _per(rs, "native_cpu", "nodes", 1e6),
            "floor": _per(floor[game], "floor_cpu", "floor_nodes", 1e6) if game in floor else None,
            "positions": len(rs),
        }
        for game, rs in _by_game(records, "engines").items()
    }
    os_records = list(read_records(str(openspiel / RECORDS)).values())
    searches = {
        game: {
            "openspiel": round(sum(r["openspiel_cpu"] for r in rs), 6),
            "native": round(sum(r["star2_cpu"] for r in rs), 6),
            "positions": len(rs),
        }
        for game, rs in _by_game(os_records, "openspiel").items()
    }
    return {"per_node": per_node, "searches": searches}


def draw(data: dict[str, Any], out: Path) -> None:
    """Two panels of grouped horizontal bars on log scales."""
    plt = pictures.pyplot()
    per_node, searches = data["per_node"], data["searches"]
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(10, 3.6), gridspec_kw={"width_ratios": [len(per_node), len(searches)]}
    )
    series = [
        ("python", "star2, Python engine"),
        ("native", "star2, native engine"),
        ("floor", "floor: plain C++ expectimax"),
    ]
    colours = {
        "python": "tab:orange",
        "native": "tab:blue",
        "floor": "tab:gray",
        "openspiel": "tab:red",
    }
    games = list(per_node)
    width = 0.27
    for i, (key, label) in enumerate(series):
        xs = [g + (i - 1) * width for g in range(len(games))]
        values = [per_node[game][key] or 0 for game in games]
        left.bar(xs, values, width, label=label, color=colours[key])
    left.set_xticks(range(len(games)))
    left.set_xticklabels(games, fontsize=7, rotation=20)
    left.set_yscale("log")
    left.set_ylabel("CPU microseconds per node")
    left.set_title("Cost of a node (same positions, same node counts)", fontsize=9)
    top = max(v[key] or 0 for v in per_node.values() for key, _ in series)
    left.set_ylim(top=top * 12)  # room for the legend above the bars
    left.legend(fontsize=7, ncol=3, loc="upper center")
    names = list(searches)
    for i, (key, label) in enumerate(
        [("openspiel", "OpenSpiel C++ expectiminimax"), ("native", "star2, native engine")]
    ):
        xs = [g + (i - 0.5) * width * 1.5 for g in range(len(names))]
        right.bar(
            xs, [searches[n][key] for n in names], width * 1.5, label=label, color=colours[key]
        )
    for g, name in enumerate(names):
        ratio = searches[name]["openspiel"] / searches[name]["native"]
        right.annotate(
            f"{ratio:.0f}x", (g, searches[name]["openspiel"]), ha="center", va="bottom", fontsize=8
        )
    right.set_xticks(range(len(names)))
    right.set_xticklabels(names, fontsize=7, rotation=20)
    right.set_yscale("log")
    right.set_ylabel("CPU seconds, all positions")
    right.set_title("Against OpenSpiel (same values)", fontsize=9)
    right.set_ylim(top=max(s["openspiel"] for s in searches.values()) * 40)
    right.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    pictures.save(fig, out, data)


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    data = points(Path(FLAGS.engines), Path(FLAGS.openspiel))
    if not data["per_node"] or not data["searches"]:
        flags.fail(f"no engines or openspiel records under {FLAGS.engines}, {FLAGS.openspiel}")
    draw(data, Path(FLAGS.out))
    print(
        f"wrote {FLAGS.out}: {len(data['per_node'])} games, {len(data['searches'])} against OpenSpiel"
    )


if __name__ == "__main__":
    flags.run(main, FLAGS)
