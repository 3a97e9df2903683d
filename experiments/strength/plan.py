"""The strength studies: every question, game and time per move, sized before it runs.

A study is one gauntlet of two bots at equal time per move, seat-swapped pairs
on common dice. Its size comes from `power.pairs_needed` with the pair standard
deviation of an earlier run of the same kind in the same game (`PRIORS`); the
second time per move of each question is where the bot's depth lead is largest
in the equal-time depth run `results/strength/depth_lead` (`LEAD_TIMES`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import pyspiel

from bots.calibration import probcut_settings
from bots.factory import DEFAULT_T
from bots.spec import with_params
from experiments.strength import power

BASE_TIME = 0.1
LEARNED = "learned"  # the evaluator spec of the game's shipped model (bots/learned/models)
GAMES = {
    "dice": "dice(n=5,k=4)",
    "einstein": "einstein_wurfelt_nicht",
    "pig": "pig",
    "backgammon": "backgammon",
    "yacht": "yacht",
}
FAIR_MCTS = "mcts(evaluator=heuristic)"
ROLLOUT_MCTS = "mcts"


@dataclasses.dataclass(frozen=True)
class Question:
    name: str
    bot: str
    opponent: str
    kind: str  # "search": two search bots; "mcts": a search bot against an MCTS
    lead_over: str  # whose depth the bot's depth lead is measured against
    games: tuple[str, ...] = ("dice", "einstein", "pig", "backgammon")


QUESTIONS = (
    Question("star2_vs_expectiminimax", "star2", "expectiminimax", "search", "expectiminimax"),
    Question("chanceprobcut_vs_star2", "chanceprobcut", "star2", "search", "star2"),
    Question(
        "mcms_vs_star2",
        "mcms",
        "star2",
        "search",
        "star2",
        ("dice", "einstein", "pig", "backgammon", "yacht"),
    ),
    *(
        Question(f"{bot}_vs_{label}_mcts", bot, mcts, "mcts", "expectiminimax")
        for bot in ("star2", "chanceprobcut", "mcms")
        for label, mcts in (("fair", FAIR_MCTS), ("rollout", ROLLOUT_MCTS))
    ),
)

# Pentanomials of earlier equal-time runs (Python-engine tournaments; git history of docs/tournaments_archive*.md),
# pooled per game: "search" from search bots against each other, "mcts" from star2 against
# the rollout MCTS.
PRIORS: dict[tuple[str, str], tuple[tuple[int, int, int, int, int], str]] = {
    ("dice", "search"): (
        (19, 1, 208, 6, 16),
        "star2 depth 3 v 2 and star2 v chanceprobcut at 0.2 s",
    ),
    ("dice", "mcts"): ((24, 4, 115, 3, 54), "star2 v mcts at 0.2 s"),
    ("einstein", "search"): ((328, 0, 2272, 0, 400), "star2 v expectiminimax at 0.01 and 0.05 s"),
    ("einstein", "mcts"): ((208, 0, 657, 0, 335), "star2 v mcts at 0.01 s"),
    ("pig", "search"): ((1, 0, 144, 0, 5), "chanceprobcut v star2 at 0.05 and 0.2 s"),
    ("pig", "mcts"): ((44, 0, 146, 0, 60), "star2 v mcts at 0.05 s"),
    ("backgammon", "search"): (
        (194, 0, 1446, 0, 260),
        "star2 v expectiminimax at 0.05 s, chanceprobcut v star2 at 0.2 s",
    ),
    ("backgammon", "mcts"): ((0, 0, 14, 0, 286), "star2 v mcts at 0.05 s"),
}
# A prior from a few hundred pairs of near-identical bots (pig) or of a lopsided match
# (backgammon against rollouts) would size a study too small: no study assumes a pair
# standard deviation below the smallest other search prior's, and a study against an MCTS
# assumes at least its game's search prior.
SD_FLOOR = 0.2


def prior_sd(game: str, kind: str) -> float:
    """The pair standard deviation a study of `kind` in `game` is sized with."""
    if (game, kind) not in PRIORS:  # yacht: no earlier run; the largest search prior
        return max(power.pair_sd(p) for (_, k), (p, _) in PRIORS.items() if k == "search")
    sd = max(power.pair_sd(PRIORS[game, kind][0]), SD_FLOOR)
    if kind == "mcts":
        sd = max(sd, prior_sd(game, "search"))
    return sd


def sized(game_key: str, kind: str, effect: float = power.EFFECT) -> tuple[float, int]:
    """(prior pair sd, planned games): whole pairs enough to detect `effect` with the prior."""
    sd = prior_sd(game_key, kind)
    return sd, 2 * power.pairs_needed(sd, effect=effect)


# Seconds per move where each bot's mean depth lead over `lead_over` is largest among
# 0.02, 0.1 and 0.5 s in results/strength/depth_lead (test_strength.py recomputes it).
LEAD_TIMES: dict[tuple[str, str, str], float] = {
    ("dice", "star2", "expectiminimax"): 0.02,
    ("einstein", "star2", "expectiminimax"): 0.5,
    ("pig", "star2", "expectiminimax"): 0.02,
    ("backgammon", "star2", "expectiminimax"): 0.5,
    ("dice", "chanceprobcut", "star2"): 0.5,
    ("einstein", "chanceprobcut", "star2"): 0.02,
    ("pig", "chanceprobcut", "star2"): 0.1,
    ("backgammon", "chanceprobcut", "star2"): 0.5,
    ("dice", "mcms", "star2"): 0.02,
    ("einstein", "mcms", "star2"): 0.5,
    ("pig", "mcms", "star2"): 0.5,
    ("backgammon", "mcms", "star2"): 0.5,
    ("yacht", "mcms", "star2"): 0.1,
    ("dice", "chanceprobcut", "expectiminimax"): 0.5,
    ("einstein", "chanceprobcut", "expectiminimax"): 0.5,
    ("pig", "chanceprobcut", "expectiminimax"): 0.1,
    ("backgammon", "chanceprobcut", "expectiminimax"): 0.5,
    ("dice", "mcms", "expectiminimax"): 0.02,
    ("einstein", "mcms", "expectiminimax"): 0.5,
    ("pig", "mcms", "expectiminimax"): 0.5,
    ("backgammon", "mcms", "expectiminimax"): 0.5,
}


@dataclasses.dataclass(frozen=True)
class Study:
    name: str
    game_key: str
    game: str
    question: Question
    time_limit: float | None  # seconds per move; None: the bots' fixed depths decide
    why_time: str
    games: int  # planned, even (whole pairs)
    sd: float  # the prior pair standard deviation it is sized with
    effect: float = power.EFFECT  # the lead over 0.5 it is sized to detect
    evaluator: str | None = None  # both bots' leaf evaluator; None: each bot's own default

    @property
    def bots(self) -> list[str]:
        return [self._bot(self.question.bot), self._bot(self.question.opponent)]

    def _bot(self, spec: str) -> str:
        if self.evaluator is not None:
            spec = with_params(spec, evaluator=self.evaluator)
        return spec if self.time_limit is None else with_params(spec, time_limit=self.time_limit)

    @property
    def learned(self) -> bool:
        """Whether a learned model plays in it (the strength page's second panel)."""
        return self.evaluator == LEARNED or any("evaluator=learned" in b for b in self.bots)


def lead_times(records: Iterable[dict]) -> dict[tuple[str, str, str], float]:
    """(game key, bot, lead_over) -> the time per move with the largest mean depth lead."""
    depths: dict[tuple[str, str, float], list[int]] = defaultdict(list)
    for r in records:
        if r.get("section") == "equal_time" and r.get("depth") is not None:
            depths[r["game"], r["bot"], float(r["time_limit"])].append(int(r["depth"]))
    keys = {v: k for k, v in GAMES.items()}
    times = sorted({t for (_, _, t) in depths})
    leads: dict[tuple[str, str, str], float] = {}
    for q in QUESTIONS:
        for game_key in q.games:
            best: tuple[float, float] | None = None
            for t in times:
                mine = depths.get((GAMES[game_key], q.bot, t))
                theirs = depths.get((GAMES[game_key], q.lead_over, t))
                if not mine or not theirs:
                    continue
                lead = statistics.fmean(mine) - statistics.fmean(theirs)
                if best is None or lead > best[0] + 1e-9:
                    best = (lead, t)
            if best is not None:
                leads[game_key, q.bot, q.lead_over] = best[1]
    assert all(k in keys.values() for k, _, _ in leads)
    return leads


def read_records(folder: str | Path) -> list[dict]:
    path = Path(folder) / "records.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def studies() -> list[Study]:
    """Every study, in the order a session should run them (cheapest questions first)."""
    out = []
    for q in QUESTIONS:
        for game_key in q.games:
            sd, games = sized(game_key, q.kind)
            lead = LEAD_TIMES.get((game_key, q.bot, q.lead_over))
            times = [(BASE_TIME, "the common fast clock")]
            if lead is not None and lead != BASE_TIME:
                times.append((lead, f"{q.bot}'s depth lead over {q.lead_over} is largest here"))
            elif lead == BASE_TIME:
                times[0] = (BASE_TIME, f"the common clock, and {q.bot}'s largest depth lead")
            for t, why in times:
                name = f"{game_key}-{q.name}-{t:g}"
                out.append(Study(name, game_key, GAMES[game_key], q, t, why, games, sd))
    return out + paper_studies() + learned_studies() + reasked_studies() + ply_studies()


# Lanctot et al. (2013) report MCMS's largest margin over Star1/Star2 in Can't Stop at 200 ms
# per move (85% in a secondary summary). This study asks it in our Can't Stop, with MCMS's
# `samples` from the sweep in docs/reproductions/lanctot2013.md (20 did best of 2-20), sized
# to detect a margin of PAPER_EFFECT (a score of 0.6, far below the reported 0.85) with the
# largest search prior: a margin like the paper's stops it at the first look.
PAPER_EFFECT = 0.1
CANT_STOP_MCMS = Question(
    "mcms_vs_star2", "mcms(samples=20)", "star2", "search", "star2", ("cant_stop",)
)


def paper_studies() -> list[Study]:
    """The studies that repeat a paper's own setting, outside the question-by-game grid."""
    sd, games = sized("cant_stop", "search", PAPER_EFFECT)
    why = "Lanctot et al.'s 200 ms per move"
    return [
        Study(
            "cant_stop-mcms_vs_star2-0.2",
            "cant_stop",
            "cant_stop",
            CANT_STOP_MCMS,
            0.2,
            why,
            games,
            sd,
            PAPER_EFFECT,
        )
    ]


# Issue 79's goals: star2 with the shipped learned model (bots/learned/models) against star2
# with the hand evaluator at the common clock, each sized to detect the goal's lead over 0.5
# (a score of 0.60 in backgammon and EinStein, 0.55 in Can't Stop) with the game's search
# prior; pig has no goal (its hand evaluator is strong) and is sized to detect 0.55.
LEARNED_EFFECTS = {"backgammon": 0.10, "einstein": 0.10, "cant_stop": 0.05, "pig": 0.05}
LEARNED_VS_HAND = Question(
    "learned_vs_hand",
    "star2(evaluator=learned)",
    "star2",
    "search",
    "star2",
    tuple(LEARNED_EFFECTS),
)


def learned_studies() -> list[Study]:
    """Learned against hand, one study per game of LEARNED_EFFECTS."""
    out = []
    for game_key, effect in LEARNED_EFFECTS.items():
        sd, games = sized(game_key, "search", effect)
        game = GAMES.get(game_key, game_key)
        name = f"{game_key}-learned_vs_hand-{BASE_TIME:g}"
        why = f"issue 79's goal: a score of {0.5 + effect:.2f}"
        out.append(Study(name, game_key, game, LEARNED_VS_HAND, BASE_TIME, why, games, sd, effect))
    return out


def study(name: str) -> Study:
    for s in studies():
        if s.name == name:
            return s
    raise ValueError(f"unknown study {name!r}; list them with --list")


# Issue 80: the old questions re-asked where the leaf is strong. Both bots of a study play
# the game's shipped learned model, at the common clock and at 0.5 s (the times the issue
# fixes), sized as the hand evaluators' studies with the game's prior.
LEARNED_TIMES = (BASE_TIME, 0.5)
REASKED = (
    Question(
        "star2_vs_expectiminimax",
        "star2",
        "expectiminimax",
        "search",
        "expectiminimax",
        ("backgammon", "einstein", "pig", "cant_stop"),
    ),
    Question(
        "chanceprobcut_vs_star2",
        "chanceprobcut",
        "star2",
        "search",
        "star2",
        ("backgammon", "einstein"),
    ),
    Question("mcms_vs_star2", "mcms", "star2", "search", "star2", ("einstein", "pig", "cant_stop")),
    # The value MCTS (no policy, no rollouts: the model values its leaves) against star2.
    Question(
        "star2_vs_value_mcts", "star2", "mcts", "mcts", "expectiminimax", ("backgammon", "einstein")
    ),
)


@functools.cache
def hand_reduction(game: str) -> int:
    """The R ChanceProbCut plays with the hand evaluator in `game` (its committed
    calibration's default). A re-asked study pins it: a learned model's self-calibration
    may offer R=2 only at depths a 0.1 s search never reaches, which would leave
    ChanceProbCut nothing to cut, and the question is what the evaluator changes."""
    return probcut_settings(pyspiel.load_game(game), None, DEFAULT_T).reduction


def reasked_studies() -> list[Study]:
    """Every question of REASKED in each of its games at each of LEARNED_TIMES."""
    out = []
    for question in REASKED:
        for game_key in question.games:
            sd, games = sized(game_key, question.kind)
            game = GAMES.get(game_key, game_key)
            q = question
            if q.bot == "chanceprobcut":
                q = dataclasses.replace(q, bot=with_params(q.bot, R=hand_reduction(game)))
            for t in LEARNED_TIMES:
                name = f"{game_key}-{q.name}-{LEARNED}-{t:g}"
                why = "issue 80's clocks, learned leaves on both sides"
                out.append(Study(name, game_key, game, q, t, why, games, sd, evaluator=LEARNED))
    return out


# What one ply is worth at fixed depths (no clock): star2 against itself a ply shallower,
# with the hand evaluator and with the learned model, at the depths of the hand evaluator's
# figures (docs/results/strength.md#how-much-is-one-ply-worth: 0.670, 0.595 and 0.569). A
# study is sized to detect a lead of PLY_EFFECT.
PLY_DEPTHS = (("backgammon", 2, 1), ("einstein", 3, 2), ("einstein", 5, 4))
PLY_EFFECT = 0.05


def ply_studies() -> list[Study]:
    """star2 at depth d+1 against depth d, hand and learned, at each of PLY_DEPTHS."""
    out = []
    for game_key, deep, shallow in PLY_DEPTHS:
        q = Question(
            f"star2_d{deep}_vs_d{shallow}",
            f"star2(max_depth={deep})",
            f"star2(max_depth={shallow})",
            "search",
            "star2",
            (game_key,),
        )
        sd, games = sized(game_key, "search", PLY_EFFECT)
        for evaluator in (None, LEARNED):
            name = f"{game_key}-{q.name}-{evaluator or 'hand'}"
            why = "fixed depths: what a ply is worth"
            out.append(
                Study(
                    name, game_key, GAMES[game_key], q, None, why, games, sd, PLY_EFFECT, evaluator
                )
            )
    return out
