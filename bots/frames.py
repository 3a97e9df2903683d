"""The records a chance node's search keeps: its frame, and what probing leaves behind.

A ``ChanceFrame`` holds one chance node under Star1/Star2: its outcomes, a lower and an
upper bound on each outcome's value, and the window the node must answer. The steps
(ChanceProbCut in bots/chance_probcut.py, Star2's probes and Star1's pass in
bots/star.py) read it and narrow the bounds; each either cuts, returning the value the
node answers, or leaves the frame to the next step.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Sequence
from typing import NamedTuple

from bots.arithmetic import dot_pair
from bots.node import SearchNode

INF = math.inf


def tolerance(edge: float) -> float:
    """Rounding slack for comparing a probability-weighted sum with a window edge."""
    return 1e-12 * (1.0 + abs(edge)) if edge not in (INF, -INF) else 0.0


class ProbedMove(NamedTuple):
    """One successor searched by the probing phase, with the window it had."""

    action: int
    value: float
    window_low: float
    window_high: float

    def decides(self, alpha: float, beta: float) -> bool:
        """Whether this fail-soft result answers a search with window (alpha, beta)."""
        value = self.value
        return (
            self.window_low < value < self.window_high
            or value <= self.window_low
            and value <= alpha
            or value >= self.window_high
            and value >= beta
        )


@dataclasses.dataclass(slots=True)
class ProbedChild:
    """A decision child partly searched by probing; its full search resumes from here.

    ``ordered`` is the child's move order; its first ``len(moves)`` moves were
    probed, in that order, and ``moves`` holds their results. A min child's
    probes bound it from above, a max child's from below.
    """

    ordered: Sequence[int]
    moves: list[ProbedMove]
    minimizing: bool
    key: Hashable = None  # the child's table key, computed once for probe and search
    reused: int = 0  # probed moves the full search has consumed


@dataclasses.dataclass(slots=True)
class ChanceFrame:
    """One chance node under Star1/Star2: outcome i has probability ``probs[i]`` and a
    value known to lie in ``[lower[i], upper[i]]``; the node answers ``(alpha, beta)``."""

    node: SearchNode
    outcomes: Sequence[tuple[int, float]]
    probs: list[float]
    depth: int
    alpha: float
    beta: float
    lower: list[float]
    upper: list[float]
    # Rounding slack for comparing probability-weighted sums with alpha and beta.
    tol_low: float
    tol_high: float
    # Filled by expanding the node (where probing or the table reads the children):
    # each outcome's child, its player and, where the table was asked, its key.
    children: list[SearchNode] | None = None
    players: list[int] | None = None
    keys: list[Hashable] | None = None
    # Star2's probe records, by outcome (None where a child was not probed).
    probes: list[ProbedChild | None] | None = None
    # The bounds proven before ChanceProbCut narrowed them to probable ones.
    proven: tuple[list[float], list[float]] | None = None

    @classmethod
    def open(
        cls,
        node: SearchNode,
        outcomes: Sequence[tuple[int, float]],
        depth: int,
        alpha: float,
        beta: float,
        lower_bound: float,
        upper_bound: float,
    ) -> ChanceFrame:
        """A frame whose every outcome is bounded by the search's L and U only."""
        count = len(outcomes)
        return cls(
            node=node,
            outcomes=outcomes,
            probs=[prob for _, prob in outcomes],
            depth=depth,
            alpha=alpha,
            beta=beta,
            lower=[lower_bound] * count,
            upper=[upper_bound] * count,
            tol_low=tolerance(alpha),
            tol_high=tolerance(beta),
        )

    def expected(self, upper: Sequence[float], lower: Sequence[float]) -> tuple[float, float]:
        """The probability-weighted sums of per-outcome upper and lower bounds (or values),
        added in the engines' one order (bots/arithmetic.py)."""
        return dot_pair(self.probs, upper, lower)

    def cut(self, upper_sum: float, lower_sum: float) -> float | None:
        """What the node returns when its value, known to lie in [lower_sum, upper_sum],
        falls outside the window (up to rounding: 1/6 is not exact in binary, and
        Ballard's ties must cut); None otherwise.

        The bound is clamped to the window, so a parent never mistakes it for an
        exact value.
        """
        if upper_sum <= self.alpha + self.tol_low:
            return upper_sum if upper_sum < self.alpha else self.alpha
        if lower_sum >= self.beta - self.tol_high:
            return lower_sum if lower_sum > self.beta else self.beta
        return None
