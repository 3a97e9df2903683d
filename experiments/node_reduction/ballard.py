"""Ballard (1983) test trees for the node-reduction study: cases, counting rules, published tables.

Ballard analysed the + node of *-complete N-ary trees (``games/ballard_tree.py``):
a 2-ply tree (max, chance, min, leaves: D = 3 arc levels, N^3 leaves) for
Tables 1-4 and deeper trees of D = 3..6 arc levels (B^D leaves) for Table 6.
D odd is ``plies=(D+1)/2``; D even adds ``final_chance`` (leaves below a
chance level). We count leaves the way Ballard did:

* successors are searched left to right: ``move_ordering=False`` (otherwise the
  engine's history heuristic reorders moves);
* a failed probe's leaves are counted again when Star1 re-searches the child:
  ``reuse_probes=False`` (the engine's default reuses the probe's result);
* "leaves examined" = ``stats['leaves']`` (terminal nodes + evaluator leaves);
* L and U are the tree's own smallest and largest leaf value for the max
  player (``game.leaf_bounds()``). The game declares per-player utilities, so
  the engine would otherwise use the union [-max(|L|,|U|), max(|L|,|U|)],
  which is wider than Ballard's bounds for trees with asymmetric leaf ranges
  (D = 5, 6) and loses cutoffs.

Best case = ``order=best``; average case = ``order=random`` over tree seeds
0..trials-1 (Ballard: 1000 random trees per N, all N! orders equally likely
at every node).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pyspiel

from bots.native_searcher import make_searcher
from games import ballard_tree

BEST, AVERAGE = "best", "average"
_ORDER_PARAM = {BEST: "best", AVERAGE: "random"}


@dataclasses.dataclass(frozen=True)
class BallardCase:
    """One table cell: branching n, arc levels D, best or average order, trial count."""

    n: int
    levels: int
    order: str
    trials: int
    show_levels: bool = False  # Table 6 names its cells by D as well
    probing_factor: int | None = None  # Table 7: Star2.5's k, the cell's name

    @property
    def name(self) -> str:
        if self.probing_factor is not None:
            return f"k={self.probing_factor}"
        if self.show_levels:
            return f"B={self.n},D={self.levels},{self.order}"
        return f"N={self.n}"

    @property
    def plies(self) -> int:
        return (self.levels + 1) // 2

    @property
    def final_chance(self) -> bool:
        return self.levels % 2 == 0

    @property
    def search_depth(self) -> int:
        """Decision plies that reach every leaf (a final chance level needs one more)."""
        return self.plies + int(self.final_chance)

    @property
    def full_leaves(self) -> int:
        return self.n**self.levels

    def game_string(self, seed: int) -> str:
        params = f"n={self.n},plies={self.plies},order={_ORDER_PARAM[self.order]}"
        if self.order == AVERAGE:
            params += f",seed={seed}"
        if self.final_chance:
            params += ",final_chance=True"
        return f"ballard_tree({params})"

    def seeds(self) -> range:
        return range(1 if self.order == BEST else self.trials)


def leaf_bounds(game: pyspiel.Game) -> tuple[float, float]:
    """Ballard's L and U: the tree's own leaf range for the max player (player 0)."""
    if game.get_type().short_name != "ballard_tree":
        raise ValueError(f"game {game} is not a ballard_tree")
    low, high = ballard_tree.leaf_bounds(game)  # the C++ or the Python twin
    return float(low), float(high)


def ballard_searcher(
    game: pyspiel.Game,
    algorithm: str,
    evaluator: Any,
    tt_size: int = 0,
    probcut: Any = None,
    reuse_probes: bool = False,
    **star25: Any,
) -> Any:
    """A StarSearcher for player 0 that prunes and counts as Ballard did (see module doc).

    `star25` holds Star2.5's `probing_factor` and `probing` where a table varies them;
    `reuse_probes` counts a probed leaf once, as Table 7 does (Tables 1-6 count twice).
    """
    return make_searcher(
        "auto",
        game,
        0,
        algorithm,
        evaluator=evaluator,
        tt_size=tt_size,
        move_ordering=False,
        probcut=probcut,
        reuse_probes=reuse_probes,
        # Every leaf value for player 0 lies in leaf_bounds: the searches stay exact.
        bounds=leaf_bounds(game),
        **star25,
    )


def release_tree_caches() -> None:
    """Drops the cached rule tables of finished trees.

    ``games.ballard_tree.ballard_rules`` is an unbounded lru_cache, and each
    random tree's rules keep a permutation per visited node (about 1 MB per
    N=40 tree); a run over 1000 trees would otherwise keep them all.
    """
    from games import ballard_tree  # noqa: PLC0415 - registers the game

    cache_clear = getattr(ballard_tree.ballard_rules, "cache_clear", None)
    if cache_clear is not None:
        cache_clear()


# --------------------------------------------------------------------------
# Published numbers (LITERATURE.md, Ballard 1983 Tables 1-4 and 6): leaves and %.

TABLE1_STAR1_BEST = {
    2: (5, 62.5),
    4: (40, 62.5),
    6: (138, 63.9),
    8: (336, 65.6),
    10: (670, 67.0),
    20: (5560, 69.5),
    30: (18990, 70.3),
    40: (45320, 70.8),
}
TABLE2_STAR2_BEST = {
    2: (5, 62.5),
    4: (25, 39.1),
    6: (58, 26.9),
    8: (105, 20.5),
    10: (166, 16.6),
    20: (677, 8.5),
    30: (1532, 5.7),
    40: (2732, 4.3),
}
TABLE3_STAR1_AVERAGE = {
    2: (7.1, 88.8),
    4: (53.9, 84.1),
    6: (178, 82.5),
    8: (418, 81.6),
    10: (810, 81.1),
    20: (6389, 79.9),
    30: (21382, 79.2),
    40: (50425, 78.8),
}
TABLE4_STAR2_AVERAGE = {
    4: (48, 75.4),
    6: (139, 64.5),
    8: (293, 57.3),
    10: (531, 53.1),
    20: (3341, 41.8),
    30: (10109, 37.4),
    40: (22390, 35.0),
}

# Table 6: (B, D) -> (star1 best %, star1 average %, star2 best %, star2 average %);
# None where the paper gives no number ("--").
TABLE6: dict[tuple[int, int], tuple[float | None, ...]] = {
    (4, 3): (62, 84, 45, 87),
    (4, 4): (58, 81, 38, 75),
    (4, 5): (55, 77, 38, 64),
    (4, 6): (56, 77, 32, 40),
    (4, 7): (54, None, 28, None),
    (6, 3): (64, 82, 30, 71),
    (6, 4): (56, 77, 24, 61),
    (6, 5): (56, 74, 21, 38),
    (6, 6): (55, 73, 17, 25),
    (6, 7): (53, None, 11, None),
    (10, 3): (67, 81, 18, 57),
    (10, 4): (55, 73, 14, 46),
    (10, 5): (58, 73, 11, 22),
    (10, 6): (54, None, 8, 12),
    (10, 7): (56, None, 4, None),
    (20, 3): (70, 80, 9, 44),
    (20, 4): (55, 70, 7, 32),
    (20, 5): (60, None, 5, 12),
    (20, 6): (55, None, 3, None),
}

# Table 7: Star2.5 on 100 random 2-ply trees (D=3) with B=20; k -> (cyclic preliminary
# cutoffs, cyclic % of leaves, sequential cutoffs, sequential %).
TABLE7 = {
    1: (8.0, 40.7, 8.0, 40.7),
    2: (11.3, 34.4, 11.1, 36.8),
    3: (12.7, 31.7, 13.0, 34.7),
    4: (13.7, 30.2, 14.2, 34.7),
    5: (14.4, 29.3, 14.8, 36.6),
    6: (14.8, 28.7, 14.9, 39.8),
    7: (15.2, 28.4, 15.4, 41.6),
    8: (15.5, 28.1, 16.5, 45.2),
    9: (15.7, 28.0, 15.9, 46.7),
    10: (16.0, 27.9, 16.0, 50.4),
    11: (16.2, 27.9, 16.4, 52.4),
    12: (16.3, 27.9, 16.2, 56.3),
    13: (16.3, 27.9, 16.5, 58.7),
    14: (16.3, 27.9, 16.4, 61.8),
    15: (16.3, 27.9, 16.2, 65.6),
    16: (16.3, 27.9, 16.3, 68.0),
    17: (16.3, 27.9, 16.3, 71.1),
    18: (16.3, 27.9, 16.5, 73.7),
    19: (16.3, 27.9, 16.4, 76.7),
    20: (16.3, 27.9, 16.5, 79.6),
}


def table_published(table: dict, algorithm: str, n: int) -> dict[tuple, float]:
    """{(case, algorithm, metric): value} for one Table 1-4 entry."""
    if n not in table:
        return {}
    leaves, pct = table[n]
    case = f"N={n}"
    return {(case, algorithm, "leaves"): leaves, (case, algorithm, "leaves_pct"): pct}


def table6_published(case: BallardCase) -> dict[tuple, float]:
    row = TABLE6.get((case.n, case.levels))
    if row is None:
        return {}
    s1_best, s1_avg, s2_best, s2_avg = row
    star1, star2 = (s1_best, s2_best) if case.order == BEST else (s1_avg, s2_avg)
    cells = {(case.name, "star1", "leaves_pct"): star1, (case.name, "star2", "leaves_pct"): star2}
    return {key: value for key, value in cells.items() if value is not None}


def table7_published(k: int) -> dict[tuple, float]:
    """Leaves % and preliminary (probe) cutoffs of both Star2.5 variants at probing factor k."""
    if k not in TABLE7:
        return {}
    cyclic_cuts, cyclic_pct, seq_cuts, seq_pct = TABLE7[k]
    case = f"k={k}"
    return {
        (case, "star2.5_cyclic", "leaves_pct"): cyclic_pct,
        (case, "star2.5_cyclic", "cutoffs_star2_probe"): cyclic_cuts,
        (case, "star2.5_sequential", "leaves_pct"): seq_pct,
        (case, "star2.5_sequential", "cutoffs_star2_probe"): seq_cuts,
    }
