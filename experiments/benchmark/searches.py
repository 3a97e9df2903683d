"""`python -m experiments.benchmark.searches`: a fixed batch of fixed-depth searches, for
timing one build against another as whole processes.

It prints the searches' total nodes and leaf evaluations and its own CPU seconds; the
counts must match between the two builds compared, and the time is read from outside
(e.g. two checkouts alternated by a process timer), so start-up is paid alike by both.
The defaults are native max^n star2 at 3 and 4 players (docs/guide/benchmark.md):

  python -m experiments.benchmark.searches
  python -m experiments.benchmark.searches --spec=star2 \\
      --games=pig:7,einstein_wurfelt_nicht:5,dice:5,backgammon:2
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import games  # noqa: F401  (registers the custom games)
from bots.search import search
from bots.spec import parse_spec
from experiments.benchmark.engines import parse_pairs
from experiments.common import flags
from experiments.common.game_loader import load_game
from games.position_sampler import sample_positions

DEFAULT_GAMES = ("pig(players=4):6", "maedn(players=4):3", "yacht(players=3):2")
PLIES = (4, 30)  # random plies before a sampled position

FLAGS, _define = flags.program_flags()
_define.string("spec", "star2(multiplayer=maxn)", "Algorithm and search settings.")
_define.list("games", list(DEFAULT_GAMES), "game:depth pairs.")
_define.integer("positions", 6, "Seeded positions per game.", lower_bound=1)
_define.integer("repeats", 2, "Searches of each position.", lower_bound=1)
_define.enum("engine", "native", ["native", "python"], "Search engine.")
_define.integer("seed", 0, "Position seed.")


def run_searches(
    spec: str,
    pairs: Sequence[tuple[str, int]],
    positions: int,
    repeats: int,
    engine: str,
    seed: int,
) -> tuple[int, int]:
    """(total nodes, total evaluations) of every search of the batch."""
    algorithm, settings = parse_spec(spec)
    nodes = evaluations = 0
    for game_string, depth in pairs:
        game = load_game(game_string)
        for state in sample_positions(game, positions, seed, PLIES):
            for _ in range(repeats):
                stats = search(game, state, algorithm, depth, engine=engine, **settings).stats
                nodes += stats["nodes"]
                evaluations += stats["evaluations"]
    return nodes, evaluations


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        flags.fail(f"unexpected arguments: {' '.join(argv[1:])}")
    start = time.process_time()
    try:
        pairs = parse_pairs(FLAGS.games)
        nodes, evaluations = run_searches(
            FLAGS.spec, pairs, FLAGS.positions, FLAGS.repeats, FLAGS.engine, FLAGS.seed
        )
    except (ValueError, TypeError) as error:  # a bad game, depth or search setting
        flags.fail(str(error))
    cpu = time.process_time() - start
    print(f"nodes {nodes} evaluations {evaluations} cpu_s {cpu:.2f}")


if __name__ == "__main__":
    flags.run(main, FLAGS)
