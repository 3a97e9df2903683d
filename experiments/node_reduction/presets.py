"""Presets of the node-reduction study: the published experiments we reproduce.

A preset fixes the game (or Ballard's trees), the algorithms, depths, number
of positions and how positions are sampled, and carries the published numbers
as ``{(case, algorithm, metric): value}`` for the ``published`` column.
Explicit flags override a preset's choices (experiments/node_reduction.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bots.factory import DEFAULT_MCMS_SAMPLES
from experiments.node_reduction import ballard

# Algorithm names accepted by --algorithms -> keyword arguments for the engine.
TT_SIZE = 10**6
ALGORITHMS: dict[str, dict[str, Any]] = {
    "expectiminimax": {"algorithm": "expectiminimax"},
    "star1": {"algorithm": "star1"},
    "star2": {"algorithm": "star2"},
    "star2_tt": {"algorithm": "star2", "tt_size": TT_SIZE},
    "star2_noorder": {"algorithm": "star2", "move_ordering": False},
    "chanceprobcut": {"algorithm": "chanceprobcut", "tt_size": TT_SIZE},  # like star2_tt
    # Ballard's Star2.5 (section 7); Table 7 sets probing_factor per case, k=2 elsewhere.
    "star2.5_cyclic": {"algorithm": "star2", "probing_factor": 2, "probing": "cyclic"},
    "star2.5_sequential": {"algorithm": "star2", "probing_factor": 2, "probing": "sequential"},
    # Lanctot et al.'s MCMS: Star2 with the table over sampled chance nodes (bots.mcms),
    # the bot's default samples and seed 0; judged like ChanceProbCut, not exact.
    "mcms": {"algorithm": "mcms", "tt_size": TT_SIZE, "samples": DEFAULT_MCMS_SAMPLES, "seed": 0},
    "openspiel": {},  # open_spiel.python.algorithms.minimax.expectiminimax
}
INEXACT = ("chanceprobcut", "mcms")
REFERENCE = "expectiminimax"


@dataclasses.dataclass(frozen=True)
class Preset:
    name: str
    description: str
    game: str | None = None  # None: Ballard trees (see cases)
    algorithms: tuple[str, ...] = ()
    depths: tuple[int, ...] = ()
    positions: int = 0
    moves: tuple[int, int] = (4, 30)  # random decision moves before a position
    ballard_cases: tuple[ballard.BallardCase, ...] = ()
    published: dict[tuple[str, str, str], Any] = dataclasses.field(default_factory=dict)
    notes: tuple[str, ...] = ()
    budget: float = 60.0  # seconds per search call
    depth_limits: dict[str, int] = dataclasses.field(default_factory=dict)
    # Ballard trees: a probed leaf is counted once (the Star1 phase reuses the probe's
    # value), as Table 7 counts; Tables 1-6 count a failed probe's leaves twice.
    reuse_probes: bool = False
    # Ballard average cases: the reference runs on the first this many trees only (None: all).
    reference_trees: int | None = None

    @property
    def is_ballard(self) -> bool:
        return bool(self.ballard_cases)


def _ballard_table(
    name: str, description: str, algorithm: str, order: str, table: dict, trials: dict[int, int]
) -> Preset:
    sizes = (2, 4, 6, 8, 10, 20, 30, 40)
    cases = tuple(ballard.BallardCase(n, 3, order, trials.get(n, 1)) for n in sizes)
    published: dict = {}
    for n in sizes:
        published.update(ballard.table_published(table, algorithm, n))
    return Preset(
        name=name,
        description=description,
        algorithms=("expectiminimax", algorithm),
        ballard_cases=cases,
        published=published,
        notes=(
            "Leaves examined under the + node of a 2-ply *-complete N-ary tree "
            "(N^3 leaves); % is of N^3. Fixed left-to-right successor order, "
            "failed probes' leaves counted twice, L and U = the tree's leaf range.",
        ),
    )


# Average-case trial counts: 1000 as in Ballard where that fits in a few
# minutes on a shared 2-core machine, fewer for the large trees.
_AVERAGE_TRIALS = {2: 1000, 4: 1000, 6: 1000, 8: 1000, 10: 1000, 20: 1000, 30: 500, 40: 300}

_TABLE6_LEVELS = {4: (3, 4, 5, 6, 7), 6: (3, 4, 5, 6, 7), 10: (3, 4, 5, 6, 7), 20: (3, 4, 5, 6)}
# Trees per average-case cell: 1000 in every cell, as in Ballard. The whole preset then
# takes 49 minutes on two workers with the native engine (B=20 D=6, 4.7 s of CPU a tree,
# is four fifths of it); --trials or --sizes/--levels make it smaller.
_TABLE6_TRIALS = 1000
# B^D of the largest cells: expectiminimax visits every leaf (64 million at B=20, D=6).
_TABLE6_BUDGET = 3600.0
# The reference (expectiminimax) on the first this many trees of each average case.
_TABLE6_REFERENCE_TREES = 20


def _table6() -> Preset:
    cases = []
    published: dict = {}
    for n, levels in _TABLE6_LEVELS.items():
        for d in levels:
            for order in (ballard.BEST, ballard.AVERAGE):
                case = ballard.BallardCase(n, d, order, _TABLE6_TRIALS, show_levels=True)
                cases.append(case)
                published.update(ballard.table6_published(case))
    return Preset(
        name="ballard_table6",
        description="Ballard 1983 Table 6: Star1 and Star2 on deeper *-complete trees, "
        "% of B^D leaves examined, best case and average over random orders",
        algorithms=("expectiminimax", "star1", "star2"),
        ballard_cases=tuple(cases),
        published=published,
        budget=_TABLE6_BUDGET,
        reference_trees=_TABLE6_REFERENCE_TREES,
        notes=(
            "D = arc levels below the + node (max, chance, min, chance, ...); D even "
            "ends with a chance level above the leaves (ballard_tree final_chance=True).",
            f"expectiminimax, the reference, searches the first {_TABLE6_REFERENCE_TREES} "
            "trees of each case, where every Star1 and Star2 value is checked against it; "
            "on the other trees Star2 is checked against Star1. --reference_trees=1000 "
            "runs it on every tree (about twice the CPU: B=20 D=6 is its largest cost).",
            "1000 trees in every cell take under an hour on two workers (the native "
            "engine): run them with --workers or on Ray, --levels/--sizes to pick cells, "
            "--trials for fewer trees.",
        ),
    )


_TABLE7_TRIALS = 1000  # Ballard averaged over 100 trees


def _table7() -> Preset:
    ks = range(1, 21)
    cases = tuple(
        ballard.BallardCase(20, 3, ballard.AVERAGE, _TABLE7_TRIALS, probing_factor=k) for k in ks
    )
    published: dict = {}
    for k in ks:
        published.update(ballard.table7_published(k))
    return Preset(
        name="ballard_table7",
        description="Ballard 1983 Table 7: cyclic and sequential Star2.5, probing factor "
        "k = 1..20, average over random 2-ply trees (D=3) with B=20",
        algorithms=("expectiminimax", "star2.5_cyclic", "star2.5_sequential"),
        ballard_cases=cases,
        published=published,
        reuse_probes=True,
        notes=(
            "Leaves are counted once: a probed leaf is not counted again when the Star1 "
            "phase searches its min node (reuse_probes=True). This is how Table 7 counts: "
            "its k=N rows equal Star1 (sequential 79.6% vs Table 3's 79.9% at N=20) and "
            "cyclic levels off at 27.9% once every min node is probed exhaustively; "
            "counting probes twice, as Tables 1-6 do, gives 92% and 39% at k=20.",
            "Case k=<k>: both variants with probing factor k on the same trees (tree seeds "
            "0..trials-1 in every case); k=1 is Star2 (Table 4's N=20 cell).",
            "Cyclic probes one more child of every min node per round, up to k rounds; "
            "sequential probes k children of each min node in one phase (section 7).",
            "Published cutoffs are Ballard's 'preliminary cutoffs' per tree, compared with "
            "the engine's probe cutoffs (cutoffs_star2_probe).",
            "Ballard averaged over 100 trees; the preset uses 1000 (--trials to change).",
        ),
    )


PRESETS: dict[str, Preset] = {}


def _add(preset: Preset) -> None:
    PRESETS[preset.name] = preset


_add(
    _ballard_table(
        "ballard_table1",
        "Ballard 1983 Table 1: Star1, best case",
        "star1",
        ballard.BEST,
        ballard.TABLE1_STAR1_BEST,
        {},
    )
)
_add(
    _ballard_table(
        "ballard_table2",
        "Ballard 1983 Table 2: Star2, best case",
        "star2",
        ballard.BEST,
        ballard.TABLE2_STAR2_BEST,
        {},
    )
)
_add(
    _ballard_table(
        "ballard_table3",
        "Ballard 1983 Table 3: Star1, average over random successor orders",
        "star1",
        ballard.AVERAGE,
        ballard.TABLE3_STAR1_AVERAGE,
        _AVERAGE_TRIALS,
    )
)
_add(
    _ballard_table(
        "ballard_table4",
        "Ballard 1983 Table 4: Star2, average over random "
        "successor orders (failed probes' leaves counted twice)",
        "star2",
        ballard.AVERAGE,
        ballard.TABLE4_STAR2_AVERAGE,
        _AVERAGE_TRIALS,
    )
)
_add(_table6())
_add(_table7())

_VENESS_DEPTHS = (1, 2, 3, 4, 5, 6)
_add(
    Preset(
        name="veness_blair",
        description="Veness and Blair 2007: Star2 with and without a transposition table "
        "on Hauk's Dice (5x5 board, 4 in a row)",
        game="dice(n=5,k=4)",
        algorithms=("expectiminimax", "star2", "star2_tt"),
        depths=_VENESS_DEPTHS,
        positions=12,
        moves=(2, 12),
        budget=180.0,
        published={
            (f"depth={d}", "star2_tt", "node_reduction_vs_star2_pct"): 37 for d in _VENESS_DEPTHS
        },
        notes=(
            "Depth: our depth d counts decision plies only; Veness and Blair count chance "
            "levels too, so our d = their 2d-1 (d=5 is their 9; their depth 13 is our 7).",
            "Published: Star2 + TT examines 37% fewer nodes than Star2 (abstract; the "
            "depth is not stated there, so the number is shown at every depth).",
            f"star2_tt: {TT_SIZE:,}-entry table storing bounds at chance and decision "
            "nodes, probed for a chance node's successors before searching them.",
            "Depth 6 is as deep as 12 positions fit in about ten minutes here (depth 7: "
            "Star2 alone takes up to two minutes on some positions).",
        ),
    )
)

_add(
    Preset(
        name="hauk_backgammon",
        description="Hauk, Buro and Schaeffer 2004: Expectimax, Star1 and Star2 (with and "
        "without probing's move ordering) on backgammon",
        game="backgammon",
        algorithms=("expectiminimax", "star1", "star2", "star2_noorder", "openspiel"),
        depths=(1, 2, 3),
        positions=10,
        moves=(4, 40),
        budget=180.0,
        depth_limits={"expectiminimax": 2, "star1": 2, "openspiel": 2},
        published={
            ("star2@depth=3 vs expectiminimax@depth=2", "star2", "time_ratio"): "<=1 (same time)"
        },
        notes=(
            "Depth: our depth d counts decision plies; Hauk et al. count chance levels "
            "too, so our 1, 2, 3 are their 1, 3, 5 (5 = max, chance, min, chance, max).",
            "Published: under tournament time Star2 completes their depth 5 where "
            "Expectimax completes depth 3, i.e. time(star2, our 3) <= time(expectimax, our 2).",
            "star2_noorder = star2 with move_ordering=False (no history heuristic: the "
            "probe takes the first legal move).",
            "Positions: random play (not Hauk's 500 contact positions).",
            "Depth 3 (their 5) runs only Star2 and Star2 without move ordering: expectiminimax "
            "and Star1 take over ten minutes per position there (depth limits of the preset); "
            "the two Star2 runs are checked against each other.",
        ),
    )
)

_add(
    Preset(
        name="lanctot_pig",
        description="Lanctot et al. 2013 compare Expectimax, Star1 and Star2 on Pig (they "
        "report playing strength at equal time, no node counts)",
        game="pig",
        algorithms=("expectiminimax", "star1", "star2", "star2_tt", "mcms", "openspiel"),
        depths=(1, 2, 3, 4, 5, 6, 7, 8),
        positions=12,
        moves=(2, 40),
        notes=(
            "Pig: a decision is roll or stop; rolling a 1 passes the turn, so chance "
            "decides who moves next (Star2 probes only where the child is a decision node).",
        ),
    )
)

_add(
    Preset(
        name="lanctot_ewn",
        description="Lanctot et al. 2013 compare Expectimax, Star1 and Star2 on EinStein "
        "wurfelt nicht! (they report playing strength at equal time, no node counts)",
        game="einstein_wurfelt_nicht",
        algorithms=("expectiminimax", "star1", "star2", "star2_tt", "mcms", "openspiel"),
        depths=(1, 2, 3, 4, 5),
        positions=40,
        moves=(2, 12),
    )
)


def get_preset(name: str) -> Preset:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; accepted: {', '.join(PRESETS)}")
    return PRESETS[name]
