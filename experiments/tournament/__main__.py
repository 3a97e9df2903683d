"""The command line of experiments.tournament (see the package docstring)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from absl import app

from experiments.common import flags
from experiments.common.errors import ExperimentError
from experiments.common.signals import stop_like_ctrl_c
from experiments.tournament import presets
from experiments.tournament.run import (
    DEFAULT_GAME_TIMEOUT,
    default_out,
    run_tournament,
)
from experiments.tournament.schedule import DEFAULT_SEATING, SCHEDULES, SEATINGS

# The main job: star2 against its unpruned twin and the two MCTS bots, at equal time per move in
# EinStein: its games are short, so 300 games per pairing fit in about three minutes on two
# cores and each score's interval is about +-0.06. docs/guide/tournaments.md says what it reports.
DEFAULT_GAME = "einstein_wurfelt_nicht"
DEFAULT_BOTS = [
    "star2(time_limit=0.02)",
    "expectiminimax(time_limit=0.02)",
    "mcts(evaluator=heuristic,time_limit=0.02)",
    "mcts(time_limit=0.02)",
]
DEFAULT_SCHEDULE = "gauntlet"
DEFAULT_GAMES_PER_PAIR = 300

FLAGS, _define = flags.program_flags()
_define.string("game", DEFAULT_GAME, "OpenSpiel game string, e.g. pig or 'pig(winscore=50)'.")
_define.multi_string("bot", DEFAULT_BOTS, "A bots.make_bot spec; repeat the flag per bot.")
_define.enum(
    "schedule",
    DEFAULT_SCHEDULE,
    SCHEDULES,
    "round_robin: every pair of bots; gauntlet: the first bot against each other.",
)
_define.integer(
    "games_per_pair",
    DEFAULT_GAMES_PER_PAIR,
    "Games per pairing (seats alternate; pairs of two "
    "share dice). One-player games: games per bot. Three or more players: games per "
    "match, a multiple of the seatings per deal.",
    lower_bound=1,
)
_define.enum(
    "seating",
    DEFAULT_SEATING,
    SEATINGS,
    "Three or more players: the seatings of a deal (its games share dice): the N cyclic "
    "rotations of the match, or all N! permutations. Two players: both are the seat swap.",
)
_define.enum(
    "preset",
    None,
    list(presets.PRESETS),
    "A sized study (experiments/tournament/presets.py): sets --game, --bot, --schedule, "
    "--games_per_pair, --seating, --seed and --max_moves.",
)
_define.integer("seed", 0, "Tournament seed; every game's seeds derive from it.", lower_bound=0)
_define.string(
    "out",
    None,
    "Results folder (default: results/tournament-<game>-<hash of "
    "the configuration>, so the same command resumes the same folder).",
)
_define.integer(
    "max_moves",
    1000,
    "Safeguard: a game is cut off after this many bot "
    "moves (chance events not counted) and recorded with cut_off=true.",
    lower_bound=1,
)
_define.integer("bootstrap", 1000, "Bootstrap samples for the Elo intervals.", lower_bound=0)
_define.bool("plots", True, "Write PNG plots (needs matplotlib).")
flags.define_runner_flags(
    _define,
    timeout_flag="game_timeout",
    timeout_default=DEFAULT_GAME_TIMEOUT,
    timeout_help=(
        "Wall-time limit of one game in seconds. A game past it is stopped and recorded "
        "with an error naming the bot to move; it counts as an error, not a result. "
        "Raise it for long games with slow bots."
    ),
)


PRESET_SETS = ("game", "bot", "schedule", "games_per_pair", "seating", "seed", "max_moves")


def config_from_flags() -> dict[str, Any]:
    """The part of the flags that decides the results (compared when resuming).

    The seating enters only when not the default, so that the configurations
    (and default folders) of runs made before it existed stay the same.
    """
    if FLAGS.preset:
        given = [f"--{name}" for name in PRESET_SETS if FLAGS[name].present]
        if given:
            raise ExperimentError(
                f"--preset={FLAGS.preset} sets {', '.join(given)} itself; leave them out"
            )
        return presets.preset(FLAGS.preset).config()
    config = {
        "program": "experiments.tournament",
        "game": FLAGS.game,
        "bots": list(FLAGS.bot),
        "schedule": FLAGS.schedule,
        "games_per_pair": FLAGS.games_per_pair,
        "seed": FLAGS.seed,
        "max_moves": FLAGS.max_moves,
    }
    if FLAGS.seating != DEFAULT_SEATING:
        config["seating"] = FLAGS.seating
    return config


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    stop_like_ctrl_c()  # `kill` and background jobs stop as Ctrl-C does: records kept
    try:
        config = config_from_flags()
    except ExperimentError as error:
        flags.fail(str(error))
        return
    if FLAGS.preset:
        print(presets.preset(FLAGS.preset).describe())
    out = FLAGS.out or default_out(config)
    try:
        summary = run_tournament(
            config,
            out,
            options=flags.runner_options(FLAGS, timeout_flag="game_timeout"),
            bootstrap=FLAGS.bootstrap,
            plots=FLAGS.plots,
        )
    except ExperimentError as error:
        flags.fail(str(error))
        return
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; finished games are saved in {out}: rerun the same command to resume",
            file=sys.stderr,
        )
        sys.exit(130)
    print()
    print(summary.headline())
    print()
    print(summary.markdown())
    print("\n".join(summary.result_lines()))
    print(f"\nresults in {out}/ (summary.md, summary.csv, games.jsonl)")


if __name__ == "__main__":
    flags.run(main, FLAGS)
