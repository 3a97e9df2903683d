"""`python -m experiments.learn.quantisation --run=DIR`: what quantisation costs in strength.

A run folder holds the float model it trained (checkpoint.npz) and the integer model both
engines play (model.npz). Here the two play the same greedy 1-ply policy (the trainer's:
the afterstate with the best returns_0 + out) against each other: two-player games in
seat-swapped pairs on common dice, scored for the integer model; one-player games on the
same seeds, compared by mean score. It also counts the positions where their moves differ.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # as experiments.learn: small products, one thread

import json  # noqa: E402
import math  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from absl import app  # noqa: E402

from bots.learned import LearnedModel, load_model  # noqa: E402
from experiments.common import flags  # noqa: E402
from experiments.common.errors import ExperimentError  # noqa: E402
from experiments.learn.features import encoder  # noqa: E402
from experiments.learn.models import FloatModel, parse_model_spec  # noqa: E402
from experiments.learn.selfplay import sample_chance, totals  # noqa: E402
from experiments.learn.train import MODEL, model_of  # noqa: E402

FLAGS, _define = flags.program_flags()
_define.string("run", None, "A run folder of experiments.learn (checkpoint.npz and model.npz).")
_define.string(
    "model",
    None,
    "The integer model (default: DIR/model.npz); the runs of the shipped models in "
    "results/learn/ keep theirs in bots/learned/models/.",
)
_define.integer("games", 400, "Games (two-player: seat-swapped pairs of them).", lower_bound=2)
_define.integer("seed", 0, "Seed of the dice.", lower_bound=0)
_define.integer("max_moves", 5000, "A game is cut off after this many moves.", lower_bound=1)

Totals = Callable[[list[pyspiel.State]], np.ndarray]


def float_totals(model: FloatModel, encode: Callable[[Any], np.ndarray]) -> Totals:
    """The trainer's own totals (selfplay.totals) of the float model."""
    return lambda children: totals(model, np.stack([encode(c) for c in children]), children)


def integer_totals(model: LearnedModel) -> Totals:
    def integer(children: list[pyspiel.State]) -> np.ndarray:
        return np.array(
            [c.returns()[0] + (0.0 if c.is_terminal() else model.outputs(c)[0]) for c in children]
        )

    return integer


def greedy(state: pyspiel.State, totals: Totals) -> int:
    legal = state.legal_actions()
    values = totals([state.child(a) for a in legal])
    return int(legal[int(np.argmin(values) if state.current_player() == 1 else np.argmax(values))])


def play(
    game: pyspiel.Game,
    players: Sequence[Totals],
    others: Sequence[Totals],
    seed: int,
    max_moves: int,
) -> tuple[list[float], int, int]:
    """One game; players[p] moves for seat p, others[p] is the other model there. Returns
    the returns, the decisions, and the decisions where the other model would have moved
    otherwise."""
    rng = np.random.default_rng([seed, 3])
    state = game.new_initial_state()
    moves = differ = 0
    while not state.is_terminal() and moves < max_moves:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        mover = state.current_player()
        action = greedy(state, players[mover])
        differ += action != greedy(state, others[mover])
        state.apply_action(action)
        moves += 1
    return list(state.returns()), moves, differ


def compare(
    run: str, games: int, seed: int, max_moves: int, model_file: str | None = None
) -> dict[str, Any]:
    """The integer model's score against the float one (two players) or both mean scores."""
    model, game = model_of(run)
    with open(os.path.join(run, "config.json"), encoding="utf-8") as handle:
        spec = parse_model_spec(json.load(handle)["config"]["model"], game)
    floating = float_totals(model, encoder(spec, game))
    model_file = model_file or os.path.join(run, MODEL)
    integer = integer_totals(load_model(model_file, game))
    moves = differ = 0
    samples: list[float] = []
    if game.num_players() == 2:
        for pair in range(games // 2):
            score = 0.0
            for seats in ((integer, floating), (floating, integer)):
                others = seats[::-1]
                returns, m, d = play(game, seats, others, seed * 1_000_003 + pair, max_moves)
                mine = returns[0] if seats[0] is integer else returns[1]
                theirs = returns[1] if seats[0] is integer else returns[0]
                score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                moves, differ = moves + m, differ + d
            samples.append(score / 2)
        what = "integer model's score against the float model"
    else:
        for g in range(games):
            a, m, d = play(game, [integer], [floating], seed * 1_000_003 + g, max_moves)
            b, _, _ = play(game, [floating], [integer], seed * 1_000_003 + g, max_moves)
            samples.append(a[0] - b[0])
            moves, differ = moves + m, differ + d
        what = "integer model's mean score minus the float model's, same seeds"
    mean = float(np.mean(samples))
    half = 1.96 * float(np.std(samples, ddof=1)) / math.sqrt(len(samples))
    return {
        "run": run,
        "model": model_file,
        "game": str(game),
        "measure": what,
        "value": mean,
        "interval": [mean - half, mean + half],
        "games": len(samples) * (2 if game.num_players() == 2 else 1),
        "decisions": moves,
        "moves_that_differ": differ / moves if moves else 0.0,
    }


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    if not FLAGS.run or not os.path.isfile(os.path.join(FLAGS.run, "checkpoint.npz")):
        flags.fail(f"--run={FLAGS.run!r} is not a run folder of experiments.learn")
        return
    try:
        result = compare(FLAGS.run, FLAGS.games, FLAGS.seed, FLAGS.max_moves, FLAGS.model)
    except (ExperimentError, ValueError) as error:
        flags.fail(str(error))
        return
    print(json.dumps(result))


if __name__ == "__main__":
    flags.run(main, FLAGS)
