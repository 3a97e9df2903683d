"""The N-player studies of issue 72, sized in advance: one tournament configuration each.

Each study seats paranoid star2, max^n star2, the fair MCTS and random at
TIME_LIMIT seconds per move, and is sized (`sizing.deals_needed`) so that
paranoid and max^n star2, the closest question, are told apart when their win
rates differ by `difference` (80% power, two-sided 5%). Their mean win rate is
taken as 1/(N-1), as if random never won: that sizes larger than 1/N.
Run one with `python -m experiments.tournament --preset=NAME` (docs/guide/tournaments.md).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from experiments.tournament import sizing
from experiments.tournament.schedule import matches, seatings
from experiments.tournament.stats import MIN_PAIRS

TIME_LIMIT = 0.1
# Fixed before any game: 0.25 fitted both studies into one session on two cores by a pilot's
# times (0.1 would have taken 3.4 and 9.1 hours; docs/guide/tournaments.md).
DIFFERENCE = 0.25
PARANOID = f"star2(multiplayer=paranoid,time_limit={TIME_LIMIT:g})"
MAXN = f"star2(multiplayer=maxn,time_limit={TIME_LIMIT:g})"
FAIR_MCTS = f"mcts(evaluator=heuristic,time_limit={TIME_LIMIT:g})"
BOTS = (PARANOID, MAXN, FAIR_MCTS, "random")


@dataclasses.dataclass(frozen=True)
class Preset:
    name: str
    game: str
    players: int
    seating: str
    difference: float  # win-rate difference of bots 0 and 1 detected with 80% power
    max_moves: int
    seconds_per_game: float  # wall seconds per game on one worker, from the study's own run
    why: str
    schedule: str = "round_robin"
    bots: tuple[str, ...] = BOTS
    base: float | None = None  # bots 0 and 1's mean win rate; None: 1/(players - 1)

    @property
    def deal_size(self) -> int:
        return len(seatings(self.players, self.seating))

    @property
    def meetings(self) -> int:
        """Matches of the schedule at which bots 0 and 1 both sit."""
        tables = matches(len(self.bots), self.players, self.schedule)
        return sum(1 for m in tables if 0 in m and 1 in m)

    @property
    def deals(self) -> int:
        """Deals per match: the deals needed, spread over the matches with bots 0 and 1,
        and never fewer than the report's deal intervals need (`stats.MIN_PAIRS`)."""
        base = 1 / (self.players - 1) if self.base is None else self.base
        needed = sizing.deals_needed(self.difference, self.players, self.deal_size, base=base)
        return max(math.ceil(needed / self.meetings), MIN_PAIRS)

    @property
    def games(self) -> int:
        return (
            self.deals * self.deal_size * len(matches(len(self.bots), self.players, self.schedule))
        )

    @property
    def worker_hours(self) -> float:
        """Estimated hours on one worker; the bots' clock is wall time, so N workers on N
        idle cores take 1/N of it."""
        return self.games * self.seconds_per_game / 3600

    def config(self) -> dict[str, Any]:
        return {
            "program": "experiments.tournament",
            "game": self.game,
            "bots": list(self.bots),
            "schedule": self.schedule,
            "games_per_pair": self.deals * self.deal_size,
            "seed": 0,
            "max_moves": self.max_moves,
            "seating": self.seating,
        }

    def describe(self) -> str:
        return (
            f"{self.name}: {self.game}, {self.games} games ({self.deals} deals of "
            f"{self.deal_size} per match), detects a win-rate difference of "
            f"{self.difference:g} between bots 0 and 1; about {self.worker_hours:.1f} hours "
            f"on one worker ({self.worker_hours / 2:.1f} with --workers=2). " + self.why
        )


# The yardstick (issue 78, docs/guide/gnubg.md): each bot at 0.1 s per move against gnubg
# 0-ply, a gauntlet of seat-swapped pairs on common dice, in full scoring so that a game's
# return is its money points (1, 2 for a gammon, 3 for a backgammon).
GNUBG_GAME = "backgammon(scoring_type=full_scoring)"
GNUBG_BOTS = (
    "gnubg(plies=0)",
    f"star2(time_limit={TIME_LIMIT:g})",
    f"expectiminimax(time_limit={TIME_LIMIT:g})",
    f"chanceprobcut(time_limit={TIME_LIMIT:g})",
    f"mcms(time_limit={TIME_LIMIT:g})",
    FAIR_MCTS,
)
# Fixed before any game so that the study fits the session it ran in, about 45 minutes on 2
# workers (1,320 games at the pilot's 3.9 s): a bot's win rate of 0.415 against gnubg is told
# from 0.585 (80% power), and its 95% interval is about +-0.06. (0.11, the first sizing, took
# 3,210 games, 1.7 hours: more than the session had once the refactor of issue 77 was done.)
GNUBG_DIFFERENCE = 0.17
# The check: gnubg 2-ply should beat 0-ply. The two differ, so a pair's two games differ
# on the same dice (gnubg against itself at one setting would replay each pair twice).
GNUBG_CHECK_BOTS = ("gnubg(plies=2)", "gnubg(plies=0)")
GNUBG_CHECK_DIFFERENCE = 0.10  # 2-ply winning 0.55: about half an hour on 2 workers
# Issue 79's goal: star2 with the shipped learned model against gnubg 0-ply, sized as the
# yardstick (its hand-evaluator figure is the gnubg preset's star2 row); the target is 0.40.
GNUBG_LEARNED_BOTS = ("gnubg(plies=0)", f"star2(evaluator=learned,time_limit={TIME_LIMIT:g})")
GNUBG1_LEARNED_BOTS = ("gnubg(plies=1)", GNUBG_LEARNED_BOTS[1])
# Wall seconds per game on one worker, from a pilot of each preset on a loaded machine
# (10 and 4 games; docs/guide/gnubg.md).
GNUBG_SECONDS = 3.9
GNUBG_CHECK_SECONDS = 4.3

PRESETS = {
    p.name: p
    for p in (
        Preset(
            "maedn4",
            "maedn(players=4)",
            4,
            "permutations",
            DIFFERENCE,
            4000,
            25.8,
            "All 24 seatings: in maedn who moves behind whom decides who can hit whom.",
        ),
        Preset(
            "pig3",
            "pig(players=3)",
            3,
            "rotations",
            DIFFERENCE,
            2000,
            9.3,
            "Rotations: pig's players only race, so the seat, not the neighbour, matters.",
        ),
        Preset(
            "gnubg",
            GNUBG_GAME,
            2,
            "rotations",
            GNUBG_DIFFERENCE,
            1000,
            GNUBG_SECONDS,
            "Each bot against gnubg 0-ply (bot 0), both seats on the same dice; the "
            "summary gives each bot's win rate and mean return (money points per game) "
            "with 95% intervals (docs/guide/gnubg.md).",
            schedule="gauntlet",
            bots=GNUBG_BOTS,
            base=0.5,
        ),
        Preset(
            "gnubg_learned",
            GNUBG_GAME,
            2,
            "rotations",
            GNUBG_DIFFERENCE,
            1000,
            GNUBG_SECONDS,
            "star2 with the shipped learned model against gnubg 0-ply (issue 79's goal: 0.40), "
            "sized as the gnubg preset (docs/results/yardsticks.md).",
            schedule="gauntlet",
            bots=GNUBG_LEARNED_BOTS,
            base=0.5,
        ),
        Preset(
            "gnubg1_learned",
            GNUBG_GAME,
            2,
            "rotations",
            GNUBG_DIFFERENCE,
            1000,
            GNUBG_SECONDS,
            "star2 with the shipped learned model against gnubg 1-ply (issue 80's yardstick), "
            "sized as the gnubg preset (docs/results/yardsticks.md).",
            schedule="gauntlet",
            bots=GNUBG1_LEARNED_BOTS,
            base=0.5,
        ),
        Preset(
            "gnubg_check",
            GNUBG_GAME,
            2,
            "rotations",
            GNUBG_CHECK_DIFFERENCE,
            1000,
            GNUBG_CHECK_SECONDS,
            "The yardstick's check: gnubg 2-ply should beat gnubg 0-ply.",
            schedule="gauntlet",
            bots=GNUBG_CHECK_BOTS,
            base=0.5,
        ),
    )
}


def preset(name: str) -> Preset:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; accepted: {', '.join(PRESETS)}")
    return PRESETS[name]
