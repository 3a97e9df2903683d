r"""ChanceProbCut against exact Star2 (both with a transposition table) at fixed depth.

  python -m experiments.probcut.evaluate --game=dice --depth=5 --positions=40 \
      --t=1.0,1.5,2.0 --out=results/probcut-eval-dice

Decision positions (at least two legal moves) come from the project's one
seeded position sampler (games.position_sampler): position i depends only
on (--seed, i) and is one task of the shared runner (--workers, --executor=ray,
resume), so node counts are the same whatever the backend. At each,
star2 and chanceprobcut (R, each t) search to --depth from the mover's point
of view with fresh tables. Reported per t: node reduction (1 - total
chanceprobcut nodes / total star2 nodes, and the median per-position ratio),
how often the chosen move differs, the mean absolute root-value difference,
and the move-quality loss: the exact depth-(d-1) Star2 value of star2's move
minus that of chanceprobcut's move (0 when the moves are equally good).

Results: config.json, records.jsonl (one line per position), summary.md;
rerunning the same command resumes.

  python -m experiments.probcut.evaluate --from_node_reduction=results/nr-dice

instead summarizes an `experiments.node_reduction` folder that ran star2_tt
and chanceprobcut: per depth, node reduction, moves differing and mean
absolute root-value difference of chanceprobcut against star2_tt.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from bots.calibration import canonical_game_string, probcut_settings
from bots.factory import check_game_supported
from bots.search import search
from experiments.common import flags, results, runner
from experiments.common.game_loader import load_game
from experiments.common.measure import timed_search
from experiments.common.tables import markdown_table
from experiments.probcut.calibrate import parse_plies, task_position

FLAGS, _define = flags.program_flags()
_define.string("game", "dice", "Game string.")
_define.integer("depth", 4, "Fixed search depth (decision plies).", lower_bound=1)
_define.integer("positions", 30, "Decision positions.", lower_bound=1)
_define.integer("seed", 0, "Seed of the position sampler.", lower_bound=0)
_define.string("plies", "4-30", "Random decision moves before a position: LOW-HIGH.")
_define.integer("reduction", 1, "ChanceProbCut depth reduction R.", lower_bound=1)
_define.list("t", ["1.5"], "Confidence factor(s) t.")
_define.string("calibration", None, "Calibration file (default: the committed one).")
_define.integer("tt_size", 100_000, "Transposition-table entries.", lower_bound=1)
_define.string("out", None, "Output folder (required unless --from_node_reduction).")
_define.string(
    "from_node_reduction",
    None,
    "Summarize this experiments.node_reduction "
    "folder (star2_tt vs chanceprobcut) instead of searching.",
)
flags.define_runner_flags(_define)


def evaluate_task(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: sample decision position `index` and search it both ways."""
    return evaluate_position(
        *task_position(payload, min_legal_actions=2),
        depth=payload["depth"],
        reduction=payload["reduction"],
        ts=payload["t"],
        calibration=payload["calibration"],
        tt_size=payload["tt_size"],
    )


def _timed(game, state, algorithm, depth, **options) -> dict[str, Any]:
    """One fresh fixed-depth search: value, action, wall seconds ("time") and statistics."""
    record, timing = timed_search(game, state, algorithm, depth, **options)
    del record["engine"]
    return {**record, "time": timing.wall}


def move_value(game, state, action, depth, tt_size) -> float:
    """Exact Star2 value (mover's view) of playing ``action`` and searching depth-1 more plies."""
    player = state.current_player()
    return search(
        game, state.child(action), "star2", depth - 1, tt_size=tt_size, player=player
    ).value


def evaluate_position(
    game, state, index, *, depth, reduction, ts, calibration, tt_size
) -> dict[str, Any]:
    exact = _timed(game, state, "star2", depth, tt_size=tt_size)
    record: dict[str, Any] = {
        "id": str(index),
        "state": str(state),
        "player": state.current_player(),
        "legal": len(state.legal_actions()),
        "star2": exact,
        "probcut": {},
    }
    for t in ts:
        settings = probcut_settings(game, reduction, t, calibration)
        pruned = _timed(game, state, "chanceprobcut", depth, tt_size=tt_size, probcut=settings)
        loss = 0.0
        if pruned["action"] != exact["action"]:
            loss = exact["value"] - move_value(game, state, pruned["action"], depth, tt_size)
        pruned["loss"] = loss
        record["probcut"][str(t)] = pruned
    return record


def summarize(records: Sequence[dict], ts: Sequence[float]) -> list[dict[str, Any]]:
    rows = []
    star2_nodes = sum(r["star2"]["nodes"] for r in records)
    star2_time = sum(r["star2"]["time"] for r in records)
    for t in ts:
        key = str(t)
        pruned = [r["probcut"][key] for r in records]
        nodes = sum(p["nodes"] for p in pruned)
        ratios = [p["nodes"] / r["star2"]["nodes"] for p, r in zip(pruned, records)]
        differ = [p["action"] != r["star2"]["action"] for p, r in zip(pruned, records)]
        rows.append(
            {
                "t": t,
                "positions": len(records),
                "star2_nodes": star2_nodes,
                "probcut_nodes_total": nodes,
                "node_reduction": 1.0 - nodes / star2_nodes if star2_nodes else 0.0,
                "median_node_ratio": statistics.median(ratios) if ratios else 0.0,
                "time_ratio": sum(p["time"] for p in pruned) / star2_time if star2_time else 0.0,
                "move_differs": sum(differ) / len(records) if records else 0.0,
                "mean_abs_value_diff": statistics.fmean(
                    abs(p["value"] - r["star2"]["value"]) for p, r in zip(pruned, records)
                ),
                "mean_loss": statistics.fmean(p["loss"] for p in pruned),
                "max_loss": max(p["loss"] for p in pruned),
                "probcut_cuts": sum(p["cutoffs_probcut"] for p in pruned),
                "shallow_node_share": sum(p["probcut_nodes"] for p in pruned) / nodes
                if nodes
                else 0.0,
            }
        )
    return rows


def summary_markdown(
    game: str, depth: int, reduction: int, rows: Sequence[dict], command: str
) -> str:
    lines = [
        f"# ChanceProbCut vs Star2 (TT), {game}, depth {depth}, R={reduction}",
        "",
        markdown_table(
            [
                "t",
                "positions",
                "star2 nodes",
                "cpc nodes",
                "node reduction",
                "median node ratio",
                "time ratio",
                "move differs",
                "mean abs value diff",
                "mean loss",
                "max loss",
                "cuts",
                "shallow share",
            ],
            [
                [
                    r["t"],
                    r["positions"],
                    r["star2_nodes"],
                    r["probcut_nodes_total"],
                    f"{100 * r['node_reduction']:.1f}%",
                    f"{r['median_node_ratio']:.3f}",
                    f"{r['time_ratio']:.3f}",
                    f"{100 * r['move_differs']:.1f}%",
                    f"{r['mean_abs_value_diff']:.4f}",
                    f"{r['mean_loss']:.4f}",
                    f"{r['max_loss']:.4f}",
                    r["probcut_cuts"],
                    f"{100 * r['shallow_node_share']:.1f}%",
                ]
                for r in rows
            ],
        ),
    ]
    lines += [
        "",
        "loss = exact depth-(d-1) Star2 value of star2's move minus that of "
        "chanceprobcut's move (mover's view).",
        "",
        f"Command: `{command}`",
        "",
    ]
    return "\n".join(lines)


def run(
    game_string: str,
    depth: int,
    positions: int,
    seed: int,
    reduction: int,
    ts: Sequence[float],
    out: str,
    *,
    calibration: str | None = None,
    tt_size: int = 100_000,
    plies: tuple[int, int] = (4, 30),
    verbose: bool = True,
    runner_options: runner.RunnerOptions | None = None,
) -> list[dict]:
    game = load_game(game_string)
    check_game_supported(game, "chanceprobcut")
    for t in ts:
        probcut_settings(game, reduction, t, calibration)  # fail early on a missing calibration
    config = {
        "game": canonical_game_string(game),
        "depth": depth,
        "seed": seed,
        "plies": list(plies),
        "reduction": reduction,
        "t": list(ts),
        "calibration": calibration,
        "tt_size": tt_size,
    }
    options = runner_options or runner.RunnerOptions(progress=verbose)
    payload = {**config, "game": str(game)}
    tasks = [runner.Task(str(i), {**payload, "index": i}) for i in range(positions)]
    extra = {"positions": positions, "workers": options.workers, "executor": options.executor}
    with results.ResultsFolder(out, config, records_file="records.jsonl", extra=extra) as folder:
        report = runner.run_missing(evaluate_task, tasks, folder, options, unit="positions")
        by_id = {record["id"]: record for record in folder.records()}
    records = [by_id[t.id] for t in tasks if t.id in by_id and by_id[t.id].get("error") is None]
    if verbose:
        print(
            f"{report.ran} positions searched in {report.seconds:.0f}s "
            f"({report.done_before} already done, {report.errors} errors)"
        )
    if not records:
        raise ValueError(f"no position was evaluated: see the errors in {out}/records.jsonl")
    rows = summarize(records, ts)
    command = "python -m experiments.probcut.evaluate " + " ".join(sys.argv[1:])
    text = summary_markdown(str(game), depth, reduction, rows, command)
    results.write_atomic(os.path.join(out, "summary.md"), text)
    if verbose:
        print(text)
    return rows


def node_reduction_comparison(
    folder: str, baseline: str = "star2_tt", algorithm: str = "chanceprobcut"
) -> str:
    """Markdown table: ``algorithm`` against ``baseline`` per depth, from results.jsonl."""
    records = results.read_records(os.path.join(folder, "results.jsonl"))
    by_key: dict[tuple, dict[str, dict]] = {}
    for record in records.values():
        if record.get("status") == "ok":
            key = (record["case"], record["depth"], record["position"])
            by_key.setdefault(key, {})[record["algorithm"]] = record
    depths: dict[int, list[tuple[dict, dict]]] = {}
    for (_, depth, _), algs in by_key.items():
        if baseline in algs and algorithm in algs:
            depths.setdefault(depth, []).append((algs[baseline], algs[algorithm]))
    game = next(iter(records.values()))["game"] if records else "?"
    if not depths:
        return f"(no {baseline} and {algorithm} records to compare in {folder})\n"
    header = [
        "depth",
        "positions",
        "baseline nodes",
        "cpc nodes",
        "node reduction",
        "move differs",
        "mean abs value diff",
        "probcut cuts",
    ]
    table_rows: list[list[Any]] = []
    for depth in sorted(depths):
        pairs = depths[depth]
        base = sum(b["nodes"] for b, _ in pairs)
        cpc = sum(c["nodes"] for _, c in pairs)
        differ = sum(b["action"] != c["action"] for b, c in pairs)
        diff = statistics.fmean(abs(b["value"] - c["value"]) for b, c in pairs)
        cuts = sum(c.get("cutoffs_probcut", 0) for _, c in pairs)
        table_rows.append(
            [
                depth,
                len(pairs),
                base,
                cpc,
                f"{100 * (1 - cpc / base):.1f}%",
                f"{differ}/{len(pairs)}",
                f"{diff:.4f}",
                cuts,
            ]
        )
    title = f"# {algorithm} vs {baseline}: {game} ({folder})"
    return "\n".join([title, "", markdown_table(header, table_rows)]) + "\n"


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    if FLAGS.from_node_reduction:
        for baseline in ("star2_tt", "star2"):
            print(node_reduction_comparison(FLAGS.from_node_reduction, baseline))
        return
    if not FLAGS.out:
        flags.fail("--out is required")
    try:
        ts = [float(t) for t in FLAGS.t]
        run(
            FLAGS.game,
            FLAGS.depth,
            FLAGS.positions,
            FLAGS.seed,
            FLAGS.reduction,
            ts,
            FLAGS.out,
            calibration=FLAGS.calibration,
            tt_size=FLAGS.tt_size,
            plies=parse_plies(FLAGS.plies),
            runner_options=flags.runner_options(FLAGS),
        )
    except ValueError as error:  # ResultsError and GameError are ValueErrors too
        flags.fail(str(error))


if __name__ == "__main__":
    flags.run(main, FLAGS)
