"""ChanceProbCut calibration: fits v_deep ~ a * v_shallow + b (residual sigma) per (d, R).

  python -m experiments.probcut.calibrate --game=pig --depths=2,3,4,5 \
      --reduction=1,2 --positions=60 --out=results/calibrate-pig --install

Each sampled chance node is one task of the shared runner; its outcome children get
exact Star2 values at every depth, the pairs (search(c, d - R), search(c, d)) that the
engine's ChanceProbCut predicts from. The searches and the fit are
bots/calibration_fit.py's, which the bot's self-calibration shares. How positions are
drawn, why the fit is symmetrised and what the folder holds:
docs/guide/chanceprobcut.md, "Calibration".
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from bots import calibration
from bots.calibration_fit import (  # noqa: F401  (collect_pairs, fit_probcut_model: the API)
    collect_pairs,
    combinations,
    fit_models,
    fit_probcut_model,
    measure_position,
    symmetric,
)
from bots.factory import check_game_supported
from experiments.common import flags, parsing, results, runner
from experiments.common.game_loader import load_game
from experiments.common.tables import markdown_table
from games.position_sampler import sample_position

RECORDS_FILE = "positions.jsonl"
CALIBRATION_FILE = "calibration.json"
PLOT_FILE = "scatter.png"
SUMMARY_FILE = "summary.md"

FLAGS, _define = flags.program_flags()
_define.string("game", None, "Game string, e.g. pig, 'dice(n=5,k=4)', backgammon.")
_define.list("depths", ["2", "3", "4"], "Deep depths d (decision plies) to calibrate.")
_define.list(
    "reduction",
    ["1"],
    "Depth reduction(s) R; the shallow search has depth d-R. "
    "Several (e.g. 1,2) share the deep searches.",
)
_define.integer("positions", 50, "Sampled chance nodes.", lower_bound=1)
_define.integer("seed", 0, "Seed of the position sampler.", lower_bound=0)
_define.string("plies", "0-30", "Random decision moves before a sampled chance node: LOW-HIGH.")
_define.string("out", None, "Output folder (default results/calibrate-<game>-<hash>).")
_define.bool(
    "install",
    False,
    "Also copy the parameter file to your calibrations folder (bots.calibration."
    "user_calibration_dir(): $XDG_CACHE_HOME/starspiel/calibrations), where bots find it "
    "before the committed one. Without it, pass calibration=<out>/calibration.json to the bot.",
)
_define.string("evaluator", "default", "Leaf evaluator (bots.evaluators name).")
_define.integer("player", 0, "Point of view of the collected values.", lower_bound=0)
_define.integer(
    "max_outcomes",
    0,
    "At most this many outcome children per sampled chance node, drawn by seeded RNG (0: all).",
    lower_bound=0,
)
_define.integer(
    "tt_size",
    200_000,
    "Transposition-table entries of the exact searches (values do not depend on it).",
    lower_bound=0,
)
_define.bool(
    "symmetrize",
    True,
    "Two-player zero-sum games: fit on the pairs and their "
    "negations, so one model serves both seats.",
)
_define.bool("plots", True, "Write scatter.png (needs matplotlib).")
flags.define_runner_flags(_define)


# ---------------------------------------------------------------- sampling


def parse_plies(text: str) -> tuple[int, int]:
    """--plies as (low, high): "10-30", or "12" for exactly 12 random decision moves."""
    values = parsing.parse_int_list(text, "--plies")
    if "," in text or not values:
        raise ValueError(f"--plies must be LOW-HIGH or one number, got {text!r}")
    return values[0], values[-1]


def task_position(payload: dict[str, Any], **where: Any) -> tuple[Any, Any, int]:
    """A task's game, its sampled position ``index`` (``where``: the sampler's kind and
    conditions) and that index: what the calibration's and the evaluation's tasks share."""
    game = load_game(payload["game"])
    index = payload["index"]
    return (
        game,
        sample_position(game, payload["seed"], index, tuple(payload["plies"]), **where),
        index,
    )


def measure_task(payload: dict[str, Any]) -> dict[str, Any]:
    """One runner task: sample chance node `index` and search its outcome children."""
    return measure_position(
        *task_position(payload, kind="chance"),
        seed=payload["seed"],
        player=payload["player"],
        depths=payload["depths"],
        evaluator=payload["evaluator"],
        tt_size=payload["tt_size"],
        max_outcomes=payload["max_outcomes"],
    )


# ----------------------------------------------------------------- outputs


def _plot(path: str, records: Sequence[dict], fits: dict, title: str, player: int) -> bool:
    """One panel per (d, R): the pairs coloured by who moves at c, the fit and the diagonal."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib not installed; no scatter plot", file=sys.stderr)
        return False
    models = fits["models"]
    reductions = sorted({m["reduction"] for m in models})
    depths = sorted({m["depth"] for m in models})
    fig, axes = plt.subplots(
        len(reductions),
        len(depths),
        squeeze=False,
        figsize=(3.6 * len(depths), 3.4 * len(reductions)),
    )
    for ax in axes.flat:
        ax.set_visible(False)
    for model in models:
        ax = axes[reductions.index(model["reduction"])][depths.index(model["depth"])]
        ax.set_visible(True)
        pairs = np.asarray(collect_pairs(records, model["depth"], model["reduction"]))
        movers = np.asarray([c["mover"] for r in records for c in r["children"]])
        for mask, label, color in (
            (movers == player, f"player {player} to move", "C0"),
            ((movers != player) & (movers >= 0), "other player to move", "C1"),
            (movers < 0, "chance node", "C7"),
        ):
            if mask.any():
                ax.scatter(pairs[mask, 0], pairs[mask, 1], s=6, alpha=0.4, color=color, label=label)
        lo, hi = float(pairs.min()), float(pairs.max())
        xs = np.linspace(lo, hi, 2)
        ax.plot(xs, model["a"] * xs + model["b"], color="C3", lw=1.5)
        ax.plot(xs, xs, color="grey", lw=0.7, ls="--")
        ax.set_title(
            f"d={model['depth']} R={model['reduction']}: a={model['a']:.3f} "
            f"b={model['b']:.3f}\nsigma={model['sigma']:.3f} R^2={model['r2']:.3f} "
            f"n={len(pairs)}",
            fontsize=8,
        )
        ax.set_xlabel(f"v_shallow (depth {model['depth'] - model['reduction']})", fontsize=8)
        ax.set_ylabel(f"v_deep (depth {model['depth']})", fontsize=8)
    handles, labels = axes.flat[-1].get_legend_handles_labels()
    if len(labels) > 1:
        fig.legend(handles, labels, loc="upper right", fontsize=7, markerscale=2)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _models_table(models: Sequence[dict], with_samples: bool) -> str:
    """One row per fitted (d, R) model: v_deep ~ a * v_shallow + b and how well it fits."""
    header = ["d", "R", "a", "b", "sigma", "R^2"] + (["samples"] if with_samples else [])
    rows = [
        [
            m["depth"],
            m["reduction"],
            f"{m['a']:.4f}",
            f"{m['b']:.4f}",
            f"{m['sigma']:.4f}",
            f"{m['r2']:.4f}",
        ]
        + ([m["samples"]] if with_samples else [])
        for m in models
    ]
    return markdown_table(header, rows)


def _summary(data: dict, records: Sequence[dict]) -> str:
    lines = [
        f"# ChanceProbCut calibration: {data['game']}",
        "",
        f"evaluator `{data['evaluator']}`, values from player {data['player']}'s view"
        + (", symmetrized (pairs and their negations)" if data["symmetrized"] else ""),
        f"{len(records)} sampled chance nodes, "
        f"{sum(len(r['children']) for r in records)} outcome children",
        "",
        _models_table(data["models"], with_samples=True),
    ]
    for name, label in (
        ("unsymmetrized", "Unsymmetrized (player's view)"),
        ("mover_relative", "Mover-relative (view of the player to move at c)"),
    ):
        rows = data["diagnostics"].get(name) or []
        if rows:
            lines += [
                "",
                f"{label}:",
                "",
                _models_table(rows, with_samples=False),
            ]
    per_depth: dict[str, list[int]] = {}
    for record in records:
        for child in record["children"]:
            for depth, nodes in child["nodes"].items():
                per_depth.setdefault(depth, []).append(nodes)
    lines += [
        "",
        "Mean nodes per exact search: "
        + ", ".join(
            f"depth {d}: {np.mean(v):.0f}"
            for d, v in sorted(per_depth.items(), key=lambda i: int(i[0]))
        ),
    ]
    lines += ["", f"Command: `{data['command']}`", ""]
    return "\n".join(lines)


def calibration_command(
    game_string: str,
    depths: Sequence[int],
    reductions: Sequence[int],
    positions: int,
    seed: int,
    plies: tuple[int, int],
    *,
    evaluator: str,
    player: int,
    max_outcomes: int,
    symmetrize: bool,
) -> str:
    """The command that samples and fits the same calibration (every setting that changes it;
    not --tt_size: Star2's values are exact whatever the table's size)."""
    command = (
        f"python -m experiments.probcut.calibrate --game='{game_string}' "
        f"--depths={','.join(map(str, depths))} --reduction={','.join(map(str, reductions))} "
        f"--positions={positions} --seed={seed} --plies={plies[0]}-{plies[1]}"
    )
    if max_outcomes:
        command += f" --max_outcomes={max_outcomes}"
    if evaluator != "default":
        command += f" --evaluator={evaluator}"
    if player:
        command += f" --player={player}"
    if not symmetrize:
        command += " --nosymmetrize"
    return command


def run(
    game_string: str,
    depths: Sequence[int],
    reductions: Sequence[int],
    positions: int,
    seed: int,
    out: str | None,
    *,
    install: bool = False,
    evaluator: str = "default",
    player: int = 0,
    plies: tuple[int, int] = (0, 30),
    max_outcomes: int = 0,
    tt_size: int = 200_000,
    symmetrize: bool = True,
    plots: bool = True,
    verbose: bool = True,
    runner_options: runner.RunnerOptions | None = None,
) -> dict[str, Any]:
    """Samples, searches (one runner task per position), fits and writes; returns the data."""
    game = load_game(game_string)
    check_game_supported(game, "chanceprobcut")
    if player >= game.num_players():
        raise ValueError(
            f"--player must be in 0..{game.num_players() - 1} for '{game}', got {player}"
        )
    combos = combinations(depths, reductions)
    if not combos:
        raise ValueError(
            f"no depth d > R among --depths={depths} and --reduction={reductions}: the "
            f"shallow search d-R must be at least 1 ply"
        )
    needed = sorted({d for d, _ in combos} | {d - r for d, r in combos})
    symmetrize = bool(symmetrize and symmetric(game))
    canonical = calibration.canonical_game_string(game)
    config = {
        "game": canonical,
        "depths": list(depths),
        "reductions": list(reductions),
        "seed": seed,
        "evaluator": evaluator,
        "player": player,
        "plies": list(plies),
        "max_outcomes": max_outcomes,
    }
    if out is None:
        digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
        out = os.path.join(
            "results", f"calibrate-{re.sub(r'[^A-Za-z0-9]+', '_', str(game)).strip('_')}-{digest}"
        )
    options = runner_options or runner.RunnerOptions(progress=verbose)
    search_evaluator = None if evaluator == "default" else evaluator
    payload = {
        "game": str(game),
        "seed": seed,
        "plies": list(plies),
        "player": player,
        "depths": needed,
        "evaluator": search_evaluator,
        "tt_size": tt_size,
        "max_outcomes": max_outcomes,
    }
    tasks = [runner.Task(str(i), {**payload, "index": i}) for i in range(positions)]
    extra = {"positions": positions, "tt_size": tt_size, "workers": options.workers}
    with results.ResultsFolder(out, config, records_file=RECORDS_FILE, extra=extra) as folder:
        report = runner.run_missing(measure_task, tasks, folder, options, unit="positions")
        by_id = {record["id"]: record for record in folder.records()}
    records = [by_id[t.id] for t in tasks if t.id in by_id and by_id[t.id].get("error") is None]
    failed = positions - len(records)
    if verbose:
        print(
            f"{report.ran} positions searched in {report.seconds:.0f}s "
            f"({report.done_before} already done, {report.errors} errors)"
        )
    if not records:
        raise ValueError(f"no position was measured ({failed} failed): see {out}")
    fits = fit_models(records, combos, symmetrize=symmetrize, player=player)
    command = calibration_command(
        game_string,
        depths,
        reductions,
        positions,
        seed,
        plies,
        evaluator=evaluator,
        player=player,
        max_outcomes=max_outcomes,
        symmetrize=symmetrize,
    )
    data = {
        "game": canonical,
        "game_string": str(game),
        "evaluator": evaluator,
        "player": player,
        "symmetrized": symmetrize,
        "positions": len(records),
        "children": sum(len(r["children"]) for r in records),
        "seed": seed,
        "sampling": {
            "sampler": "games.position_sampler, kind=chance",
            "plies": list(plies),
            "max_outcomes": max_outcomes,
        },
        "models": fits["models"],
        "diagnostics": {
            "unsymmetrized": fits["unsymmetrized"],
            "mover_relative": fits["mover_relative"],
        },
        "command": command,
    }
    calibration.save_calibration(os.path.join(out, CALIBRATION_FILE), data)
    results.write_atomic(os.path.join(out, SUMMARY_FILE), _summary(data, records))
    if plots:
        _plot(
            os.path.join(out, PLOT_FILE),
            records,
            fits,
            f"{game}: v_deep vs v_shallow (player {player}'s view), fit line in red",
            player,
        )
    if install:
        path = calibration.user_calibration_path(game)
        calibration.save_calibration(path, data)
        if verbose:
            print(f"installed {path}")
    if verbose:
        print(_summary(data, records))
        print(f"results in {out}")
    return data


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    if not FLAGS.game:
        flags.fail("--game is required, e.g. --game=pig")
    try:
        run(
            FLAGS.game,
            parsing.parse_int_list(FLAGS.depths, "--depths", minimum=1),
            parsing.parse_int_list(FLAGS.reduction, "--reduction", minimum=1),
            FLAGS.positions,
            FLAGS.seed,
            FLAGS.out,
            install=FLAGS.install,
            evaluator=FLAGS.evaluator,
            player=FLAGS.player,
            plies=parse_plies(FLAGS.plies),
            max_outcomes=FLAGS.max_outcomes,
            tt_size=FLAGS.tt_size,
            symmetrize=FLAGS.symmetrize,
            plots=FLAGS.plots,
            runner_options=flags.runner_options(FLAGS),
        )
    except ValueError as error:  # ResultsError and GameError are ValueErrors too
        flags.fail(str(error))


if __name__ == "__main__":
    flags.run(main, FLAGS)
