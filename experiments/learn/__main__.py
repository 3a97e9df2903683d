"""The command line of experiments.learn (see the package docstring and train.py)."""

from __future__ import annotations

import os

# One BLAS thread: the model's small matrix products run 4-20x slower when OpenBLAS threads
# spin against each other and the self-play workers (measured: backgammon 1.6 -> 6 games/s).
# Set before numpy is first imported, which is below.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import hashlib  # noqa: E402
import json  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

from absl import app  # noqa: E402

from experiments.common import flags  # noqa: E402
from experiments.common.errors import ExperimentError  # noqa: E402
from experiments.common.runner import EXECUTORS  # noqa: E402
from experiments.common.signals import stop_like_ctrl_c  # noqa: E402
from experiments.learn.train import TrainConfig, folder_engine, resolve, train  # noqa: E402

FLAGS, _define = flags.program_flags()
_define.string("game", "backgammon", "OpenSpiel game string, e.g. pig or 'pig(winscore=50)'.")
_define.string(
    "model",
    None,
    "Model spec (default: the game's shipped architecture): 'mlp(hidden=80)', "
    "'mlp(hidden=40-40,scale=0)' (scale: output = y * 2**scale; encoding: "
    "observation_mover, the default for two players, observation, or observation_hand: "
    "observation_mover's inputs then the game's hand evaluator's values), "
    "'ntuple(tuples=lines_squares,symmetries=none)' (tuples: lines, squares, "
    "lines_squares, rectangles (2048: two rows and two 2x3 rectangles); symmetries: none, "
    "dihedral; values; output_shift; planes=P for "
    "one-hot boards).",
)
_define.integer("games", 1000, "Train until this many self-play games in all.", lower_bound=1)
_define.integer(
    "workers",
    1,
    "Self-play games per batch, played on this many threads with the batch's starting "
    "weights; their updates are applied in game order. Part of the configuration: the same "
    "seed and workers give the same model.",
    lower_bound=1,
)
_define.string(
    "out",
    None,
    "Run folder (default: results/learn-<game>-<hash of the configuration>); rerunning "
    "the same command on it resumes.",
)
_define.string(
    "init",
    None,
    "Start from this run folder's (or checkpoint.npz's) float weights, games and seconds "
    "instead of fresh weights: the same game and model, another --alpha, --epsilon or "
    "--engine, e.g. a smaller step size to fine-tune. Part of the configuration; --games "
    "counts the parent's games too.",
)
_define.integer("seed", 0, "Seed of the initial weights, the dice and exploration.", lower_bound=0)
_define.enum(
    "engine",
    None,
    ["native", "python"],
    "Where self-play and the TD updates run: native (C++ threads, GIL released; the "
    "default) or python (the numpy reference). Part of the configuration. Unset: native, "
    "except with a search-bot --policy (python only) and when resuming a folder of a python "
    "run (folders written before this flag are python runs).",
)
_define.enum(
    "executor",
    "local",
    EXECUTORS,
    "Where a batch's games are played: local (threads in this process) or ray (one Ray task "
    "per game with the batch's weights; the updates stay here). Not part of the "
    "configuration: both give the same model.",
)
_define.string(
    "ray_address",
    None,
    "Ray cluster to join with --executor=ray, e.g. 'auto' after `ray start --head` "
    "(default: start a private local Ray with --workers CPUs).",
)
_define.string(
    "policy",
    "greedy",
    "Self-play policy: 'greedy' (the best afterstate by the model, 1 ply) or a search bot "
    "spec acting with the float model on the Python engine, e.g. 'star2(max_depth=2)'.",
)
_define.float("alpha", None, "Learning rate (default: mlp 0.01, ntuple 0.0025).", lower_bound=0.0)
_define.float(
    "td_lambda",
    None,
    "TD(lambda) trace decay (default: mlp 0.7; n-tuple networks use TD(0)).",
    lower_bound=0.0,
    upper_bound=1.0,
)
_define.float(
    "epsilon",
    None,
    "Probability of a uniformly random move (default: 0 in one-player games, whose chance "
    "events explore for it; 0.01 otherwise).",
    lower_bound=0.0,
    upper_bound=1.0,
)
_define.integer(
    "eval_every",
    500,
    "Evaluate every this many games (and at the start and end); 0: never.",
    lower_bound=0,
)
_define.integer(
    "eval_games",
    100,
    "Games per evaluation: seat-swapped pairs against the hand evaluator's "
    "expectiminimax(max_depth=1); one-player games: games whose mean score is taken.",
    lower_bound=1,
)
_define.integer(
    "max_moves", 2000, "A game is cut off after this many moves (no final update).", lower_bound=1
)
_define.float(
    "checkpoint_seconds",
    300.0,
    "Write checkpoint.npz and model.npz this often (and at the end, and on Ctrl-C).",
    lower_bound=0.0,
)
_define.bool("progress", True, "Show a progress bar (games, games/s, ETA) on stderr.")
_define.bool("plots", True, "Draw learning_curve.png at every evaluation (needs matplotlib).")


def default_out(config: dict) -> str:
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    name = config["game"].split("(")[0]
    return f"results/learn-{name}-{digest}"


def resolve_flags(engine: str) -> TrainConfig:
    return resolve(
        FLAGS.game,
        FLAGS.model,
        FLAGS.policy,
        FLAGS.seed,
        FLAGS.workers,
        FLAGS.alpha,
        FLAGS.td_lambda,
        FLAGS.epsilon,
        FLAGS.eval_every,
        FLAGS.eval_games,
        FLAGS.max_moves,
        engine,
        FLAGS.init,
    )


def default_engine() -> str:
    """--engine unset: python for a search-bot policy or to resume a python run's folder
    (--out, or the default folder of the python configuration); native otherwise."""
    if FLAGS.policy != "greedy":
        return "python"
    out = FLAGS.out or default_out(resolve_flags("python").as_dict())
    engine = folder_engine(out)
    if engine == "python":
        print(f"{out} holds a python-engine run: resuming it with --engine=python", file=sys.stderr)
    return engine or "native"


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    stop_like_ctrl_c()
    try:
        config = resolve_flags(FLAGS.engine or default_engine())
    except ValueError as error:
        flags.fail(str(error))
        return
    out = FLAGS.out or default_out(config.as_dict())
    command = "python -m experiments.learn " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        last = train(
            config,
            out,
            FLAGS.games,
            checkpoint_seconds=FLAGS.checkpoint_seconds,
            progress=FLAGS.progress,
            plots=FLAGS.plots,
            command=command,
            executor=FLAGS.executor,
            ray_address=FLAGS.ray_address,
        )
    except ExperimentError as error:
        flags.fail(str(error))
        return
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; the last finished batch is saved in {out}: rerun the same "
            "command to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    score = f", score {last['score']:.4g}" if "score" in last else ""
    print(f"{last['games']} games in {last['seconds']:.1f} s{score}; model in {out}/model.npz")


if __name__ == "__main__":
    flags.run(main, FLAGS)
