"""Aggregation and tables of the benchmark: plain text for the terminal, Markdown for files.

Input are the records the benchmark stores (one per game, depth and position
for fixed-depth searches; one per game for time-limited moves and for nodes
per second); output are summary rows (dicts) and formatted tables. Nothing
here measures anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from experiments.benchmark.core import ALGORITHM_LABELS
from experiments.common.measure import move_time_tolerance
from experiments.common.tables import markdown_table

# The headline targets the summary gives a verdict on.
TARGET_SPEEDUP = 5.0  # star2+tt vs OpenSpiel expectiminimax, backgammon depth 2
TARGET_COST_RATIO = 1.5  # our s/node (expectiminimax) / OpenSpiel's s/node
TARGET_NPS_RATIO = 0.5  # star2 nodes/s on dice vs on pig
HEADLINE_GAME = "backgammon"
HEADLINE_DEPTH = 2
NPS_GAME = "dice(n=5,k=4)"
NPS_REFERENCE = "pig"


def _quotient(a: float, b: float) -> float:
    return a / b if b else math.nan


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default), q in [0, 100]."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# ------------------------------------------------------------ fixed depth


def summarize_fixed(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary row per (game, depth): totals over positions, per side."""
    groups: dict[tuple[str, int], list[dict]] = {}
    order: list[tuple[str, int]] = []
    for record in records:
        key = (record["game"], record["depth"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(record)
    rows = []
    for game, depth in order:
        group = sorted(groups[(game, depth)], key=lambda r: r["index"])
        os_side = {
            "seconds": sum(r["openspiel"]["seconds"] for r in group),
            "wall_seconds": sum(r["openspiel"].get("wall_seconds", math.nan) for r in group),
            "nodes": sum(r["openspiel"]["nodes"] for r in group),
            "evaluations": sum(r["openspiel"]["leaves"] for r in group),
        }
        os_side["nodes_per_second"] = _quotient(os_side["nodes"], os_side["seconds"])
        ours = {}
        for label in ALGORITHM_LABELS:
            runs = [r["ours"][label] for r in group if label in r["ours"]]
            if not runs:
                continue
            side = {
                key: sum(run[key] for run in runs)
                for key in ("seconds", "nodes", "evaluations", "tt_hits", "probe_nodes")
            }
            side["wall_seconds"] = sum(run.get("wall_seconds", math.nan) for run in runs)
            side["nodes_per_second"] = _quotient(side["nodes"], side["seconds"])
            side["agree"] = sum(1 for run in runs if run["agrees"])
            side["positions"] = len(runs)
            side["max_value_error"] = max(
                abs(run["value"] - r["openspiel"]["value"]) for run, r in zip(runs, group)
            )
            ours[label] = side
        row = {
            "game": game,
            "depth": depth,
            "positions": len(group),
            "openspiel": os_side,
            "ours": ours,
        }
        if "star2+tt" in ours:
            row["speedup_star2_tt"] = _quotient(os_side["seconds"], ours["star2+tt"]["seconds"])
            row["speedup_star2_tt_wall"] = _quotient(
                os_side["wall_seconds"], ours["star2+tt"]["wall_seconds"]
            )
        if "expectiminimax" in ours:
            ours_spn = _quotient(ours["expectiminimax"]["seconds"], ours["expectiminimax"]["nodes"])
            os_spn = _quotient(os_side["seconds"], os_side["nodes"])
            row["us_per_node_ours"] = ours_spn * 1e6
            row["us_per_node_openspiel"] = os_spn * 1e6
            row["cost_per_node_ratio"] = _quotient(ours_spn, os_spn)
        row["all_agree"] = all(side["agree"] == side["positions"] for side in ours.values())
        rows.append(row)
    return rows


def fixed_tables(
    rows: Sequence[dict[str, Any]],
) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    """(header, rows) of the per-algorithm table and of the comparison table."""
    detail_header = [
        "game",
        "depth",
        "pos",
        "algorithm",
        "nodes",
        "evals",
        "seconds",
        "knodes/s",
        "agree",
    ]
    detail: list[list[str]] = []
    compare_header = [
        "game",
        "depth",
        "pos",
        "OS s",
        "star2+tt s",
        "speedup",
        "(wall)",
        "values equal",
        "OS us/node",
        "emm us/node",
        "cost ratio",
    ]
    compare: list[list[str]] = []
    for row in rows:
        os_side = row["openspiel"]
        detail.append(
            [
                row["game"],
                str(row["depth"]),
                str(row["positions"]),
                "openspiel emm",
                _count(os_side["nodes"]),
                _count(os_side["evaluations"]),
                _seconds(os_side["seconds"]),
                _thousands(os_side["nodes_per_second"]),
                "-",
            ]
        )
        for label, side in row["ours"].items():
            detail.append(
                [
                    "",
                    "",
                    "",
                    label,
                    _count(side["nodes"]),
                    _count(side["evaluations"]),
                    _seconds(side["seconds"]),
                    _thousands(side["nodes_per_second"]),
                    f"{side['agree']}/{side['positions']}",
                ]
            )
        compare.append(
            [
                row["game"],
                str(row["depth"]),
                str(row["positions"]),
                _seconds(os_side["seconds"]),
                _seconds(row["ours"].get("star2+tt", {}).get("seconds", math.nan)),
                _ratio(row.get("speedup_star2_tt", math.nan)),
                _ratio(row.get("speedup_star2_tt_wall", math.nan)),
                "yes" if row["all_agree"] else "NO",
                _fixed(row.get("us_per_node_openspiel", math.nan), 2),
                _fixed(row.get("us_per_node_ours", math.nan), 2),
                _ratio(row.get("cost_per_node_ratio", math.nan), 2),
            ]
        )
    return detail_header, detail, compare_header, compare


# ------------------------------------------------------------- time limit


def summarize_overrun(records: Iterable[dict[str, Any]], time_limit: float) -> list[dict[str, Any]]:
    """Per game and overall: max / p95 of move times, moves above the tolerance."""
    tolerance = move_time_tolerance(time_limit)
    rows = []
    every: list[dict] = []
    for record in records:
        moves = record["moves"]
        every.extend(moves)
        rows.append(_overrun_row(record["game"], record["spec"], moves, time_limit, tolerance))
    if rows:
        rows.append(
            _overrun_row(
                "all", rows[0]["spec"] if len(rows) == 1 else "-", every, time_limit, tolerance
            )
        )
    return rows


def _overrun_row(
    game: str, spec: str, moves: Sequence[dict], time_limit: float, tolerance: float
) -> dict[str, Any]:
    seconds = [m["seconds"] for m in moves]
    cpu = [m.get("cpu_seconds", math.nan) for m in moves]
    collect = [m.get("gc_seconds", math.nan) for m in moves]
    depths = [m["depth"] for m in moves]
    return {
        "game": game,
        "spec": spec,
        "moves": len(moves),
        "time_limit": time_limit,
        "tolerance": tolerance,
        "mean_s": _quotient(sum(seconds), len(seconds)),
        "p95_s": percentile(seconds, 95),
        "max_s": max(seconds) if seconds else math.nan,
        "max_cpu_s": max(cpu) if cpu else math.nan,
        "over_tolerance_cpu": sum(1 for c in cpu if c > tolerance),
        "max_gc_s": max(collect) if collect else math.nan,
        "over_limit": sum(1 for s in seconds if s > time_limit),
        "over_tolerance": sum(1 for s in seconds if s > tolerance),
        "depth_min": min(depths) if depths else 0,
        "depth_mean": _quotient(sum(depths), len(depths)),
        "depth0_moves": sum(1 for d in depths if d == 0),
    }


def overrun_table(rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = [
        "game",
        "moves",
        "mean s",
        "p95 s",
        "max s",
        "max overrun ms",
        "> limit",
        "> tolerance",
        "max cpu s",
        "max gc ms",
        "depth min/mean",
        "no depth done",
    ]
    body = []
    for row in rows:
        body.append(
            [
                row["game"],
                str(row["moves"]),
                _seconds(row["mean_s"]),
                _seconds(row["p95_s"]),
                _seconds(row["max_s"]),
                _fixed((row["max_s"] - row["time_limit"]) * 1e3, 1),
                str(row["over_limit"]),
                str(row["over_tolerance"]),
                _seconds(row["max_cpu_s"]),
                _fixed(row["max_gc_s"] * 1e3, 1),
                f"{row['depth_min']}/{row['depth_mean']:.1f}",
                str(row["depth0_moves"]),
            ]
        )
    return header, body


# ------------------------------------------------------- nodes per second


def nps_table(records: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    reference = {
        r["algorithm"]: r["nodes_per_second"] for r in records if r["game"] == NPS_REFERENCE
    }
    header = [
        "game",
        "algorithm",
        "depth",
        "pos",
        "nodes",
        "seconds",
        "knodes/s",
        f"vs {NPS_REFERENCE}",
    ]
    body = []
    for r in records:
        ref = reference.get(r["algorithm"])
        body.append(
            [
                r["game"],
                r["algorithm"],
                str(r["depth"]),
                str(r["positions"]),
                _count(r["nodes"]),
                _seconds(r["seconds"]),
                _thousands(r["nodes_per_second"]),
                _ratio(_quotient(r["nodes_per_second"], ref) if ref else math.nan, 2),
            ]
        )
    return header, body


# -------------------------------------------------------------- headlines


def headlines(
    fixed_rows: Sequence[dict], overrun_rows: Sequence[dict], nps_records: Sequence[dict]
) -> list[dict[str, Any]]:
    """The targets of the issues, each with measured value, target and verdict."""
    out = []
    head = next(
        (r for r in fixed_rows if r["game"] == HEADLINE_GAME and r["depth"] == HEADLINE_DEPTH), None
    )
    if head is not None and "speedup_star2_tt" in head:
        agree = head["ours"]["star2+tt"]
        out.append(
            _verdict(
                f"star2+tt vs OpenSpiel expectiminimax, {HEADLINE_GAME} depth {HEADLINE_DEPTH} "
                f"({head['positions']} positions, values equal {agree['agree']}/"
                f"{agree['positions']}; wall-clock ratio "
                f"{head.get('speedup_star2_tt_wall', math.nan):.2f}x)",
                head["speedup_star2_tt"],
                f">= {TARGET_SPEEDUP:g}x",
                "x",
                head["speedup_star2_tt"] >= TARGET_SPEEDUP and head["all_agree"],
            )
        )
    if head is not None and "cost_per_node_ratio" in head:
        out.append(
            _verdict(
                f"cost per node, expectiminimax vs OpenSpiel, {HEADLINE_GAME} depth "
                f"{HEADLINE_DEPTH}",
                head["cost_per_node_ratio"],
                f"<= {TARGET_COST_RATIO:g}x",
                "x",
                head["cost_per_node_ratio"] <= TARGET_COST_RATIO,
            )
        )
    deepest: dict[str, dict] = {}
    for row in fixed_rows:
        if "cost_per_node_ratio" in row and (
            row["game"] not in deepest or row["depth"] > deepest[row["game"]]["depth"]
        ):
            deepest[row["game"]] = row
    if deepest:
        worst = max(deepest.values(), key=lambda r: r["cost_per_node_ratio"])
        out.append(
            _verdict(
                f"cost per node, worst game at its deepest depth ({worst['game']} depth "
                f"{worst['depth']})",
                worst["cost_per_node_ratio"],
                f"<= {TARGET_COST_RATIO:g}x",
                "x",
                worst["cost_per_node_ratio"] <= TARGET_COST_RATIO,
            )
        )
    if fixed_rows:
        bad = [f"{r['game']} d{r['depth']}" for r in fixed_rows if not r["all_agree"]]
        out.append(
            {
                "name": "exact algorithms equal OpenSpiel's value (1e-9), all rows",
                "measured": "all" if not bad else "mismatch: " + ", ".join(bad),
                "target": "all",
                "met": not bad,
            }
        )
    total = next((r for r in overrun_rows if r["game"] == "all"), None)
    if total is not None:
        out.append(
            {
                "name": f"time-limited moves ({total['moves']} moves, limit "
                f"{total['time_limit']:g} s, tolerance {total['tolerance']:.3f} s)",
                "measured": f"max {total['max_s']:.4f} s, p95 {total['p95_s']:.4f} s, "
                f"{total['over_tolerance']} above tolerance (CPU time: max "
                f"{total['max_cpu_s']:.4f} s, {total['over_tolerance_cpu']} above)",
                "target": f"none above {total['tolerance']:.3f} s, >= 200 moves",
                "met": total["over_tolerance"] == 0 and total["moves"] >= 200,
            }
        )
    by_game = {(r["game"], r["algorithm"]): r for r in nps_records}
    dice = by_game.get((NPS_GAME, "star2"))
    pig = by_game.get((NPS_REFERENCE, "star2"))
    if dice and pig:
        ratio = _quotient(dice["nodes_per_second"], pig["nodes_per_second"])
        out.append(
            _verdict(
                f"star2 nodes/s on {NPS_GAME} ({dice['nodes_per_second']:,.0f}) vs C++ "
                f"{NPS_REFERENCE} ({pig['nodes_per_second']:,.0f})",
                ratio,
                f">= {TARGET_NPS_RATIO:g}x",
                "x",
                ratio >= TARGET_NPS_RATIO,
            )
        )
    return out


def _verdict(name: str, value: float, target: str, unit: str, met: bool) -> dict[str, Any]:
    return {
        "name": name,
        "measured": f"{value:.2f}{unit}",
        "value": value,
        "target": target,
        "met": bool(met),
    }


def headline_table(items: Sequence[dict]) -> tuple[list[str], list[list[str]]]:
    return (
        ["target", "measured", "wanted", "met"],
        [[h["name"], h["measured"], h["target"], "yes" if h["met"] else "NO"] for h in items],
    )


# ------------------------------------------------------------- formatting


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Right-aligned columns (first column left-aligned) for the terminal."""
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule] + [line(r) for r in rows])


def markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The same table for summary.md: names left-aligned, numbers right-aligned."""
    return markdown_table(header, rows, "l" + "r" * (len(header) - 1))


def _count(value: float) -> str:
    return f"{int(value):,}"


def _seconds(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.4f}"


def _thousands(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value / 1e3:.1f}"


def _fixed(value: float, digits: int) -> str:
    return "nan" if math.isnan(value) else f"{value:.{digits}f}"


def _ratio(value: float, digits: int = 2) -> str:
    return "nan" if math.isnan(value) else f"{value:.{digits}f}x"
