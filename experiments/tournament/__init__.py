r"""Tournament: plays bots against each other and reports who wins, at what search effort.

  python -m experiments.tournament                      # default: pig, 4 bots
  python -m experiments.tournament --game=einstein_wurfelt_nicht \
      --bot="star2(time_limit=0.2)" --bot="mcts(time_limit=0.2)" --bot=random \
      --games_per_pair=100 --out=results/ewn

Seat-swapped game pairs share their dice (common random numbers); in games of
three or more players, every seating of a deal does. Results go to --out
(games.jsonl, config.json, summary.md, summary.csv, PNG plots); rerunning the
same command on the same folder resumes it. Modules: schedule (which games,
their seeds), play (one game), stats, report, run (one tournament on the
shared task runner), sizing (deals a study needs), presets (sized studies),
__main__ (the flags).
"""

from experiments.tournament.report import Summary
from experiments.tournament.run import (
    DEFAULT_GAME_TIMEOUT,
    RECORDS_FILE,
    default_out,
    run_tournament,
    validate_bots,
)

__all__ = [
    "DEFAULT_GAME_TIMEOUT",
    "RECORDS_FILE",
    "Summary",
    "default_out",
    "run_tournament",
    "validate_bots",
]
