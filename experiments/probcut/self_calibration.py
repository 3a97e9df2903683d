"""What chanceprobcut's self-calibration costs, game by game, and that the bot then plays.

  python -m experiments.probcut.self_calibration --game=yacht --game='dice(n=4,k=3)'

Each game is calibrated with the default plan (bots/calibration_fit.py ``QUICK_PLAN``)
into a fresh temporary cache, in this one process (one core: the fit is single-threaded,
and its CPU seconds are the figure; wall seconds grow with the machine's load). With
``--play`` the bot then plays one whole game per engine through ``pyspiel.evaluate_bots``,
every seat ``chanceprobcut(time_limit=...)``. Prints a Markdown table.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import pyspiel

from bots import calibration, calibration_fit, make_bot, native_engine
from experiments.common import flags
from experiments.common.game_loader import load_game
from experiments.common.tables import markdown_table

# The games issue 72 names (besides EinStein, which has a committed calibration).
GAMES = (
    "yacht",
    "banqi",
    "catch",
    "2048(max_tile=256)",
    "backgammon(hyper_backgammon=true)",
    "dice(n=4,k=3)",
    "chance_tic_tac_toe",
)

FLAGS, _define = flags.program_flags()
_define.multi_string("game", list(GAMES), "A game string to calibrate; repeat for several.")
_define.bool("play", True, "Then play one whole game per engine with the fitted bot.")
_define.float("time_limit", 0.02, "Seconds per move of the games played.", lower_bound=0.001)
_define.integer("seed", 0, "Seed of the games played (chance outcomes).", lower_bound=0)


def measure(game_string: str, play: bool, time_limit: float, seed: int) -> dict[str, Any]:
    """One game's self-calibration (the fitted data) and, with ``play``, one game per engine."""
    game = load_game(game_string)
    start = time.perf_counter()
    _, data = calibration.self_calibration(game)
    row: dict[str, Any] = {**data, "game": game_string, "wall": time.perf_counter() - start}
    row["played"] = {}
    if play:
        engines = ["python"] + (["native"] if native_engine.problem() is None else [])
        spec = f"chanceprobcut(time_limit={time_limit})"
        for engine in engines:
            bots = [make_bot(spec, game, p, engine=engine) for p in range(game.num_players())]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            row["played"][engine] = [round(float(r), 3) for r in returns]
    return row


def table(rows: Sequence[dict[str, Any]]) -> str:
    header = [
        "game",
        "engine",
        "chance nodes",
        "outcomes",
        "children by depth",
        "models (d, R)",
        "nodes",
        "CPU s",
        "wall s",
        "returns by engine",
    ]
    body = []
    for row in rows:
        models = ", ".join(f"({m['depth']},{m['reduction']})" for m in row["models"]) or "none"
        searched = " ".join(f"{d}:{n}" for d, n in row["children_searched"].items())
        played = "; ".join(f"{e} {r}" for e, r in row["played"].items()) or "-"
        body.append(
            [
                row["game"],
                row["engine"],
                row["chance_nodes"],
                row["children"],
                searched or "-",
                models,
                f"{row['nodes']:,}",
                f"{row['cpu_seconds']:.1f}",
                f"{row['wall']:.1f}",
                played,
            ]
        )
    return markdown_table(header, body)


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    # A fresh cache, so every game is fitted here and no user's cache is touched.
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="starspiel-selfcal-")
    rows = []
    for game_string in FLAGS.game:
        try:
            rows.append(measure(game_string, FLAGS.play, FLAGS.time_limit, FLAGS.seed))
        except ValueError as error:
            flags.fail(f"{game_string}: {error}")
    print(f"plan: {calibration_fit.QUICK_PLAN}")
    print(table(rows))


if __name__ == "__main__":
    flags.run(main, FLAGS)
