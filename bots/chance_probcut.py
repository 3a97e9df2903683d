"""ChanceProbCut's step at a chance node (Schadd et al. 2009): forward pruning.

Before Star2's probes, a shallow search (depth reduced by R) of every outcome is
mapped through the calibrated linear model of bots/probcut_models.py into probable bounds
on the outcome's deep value. The node is cut when the probable bounds put it outside
the window; otherwise they narrow the Star1 windows, and a child that fails against
a bound that was only probable is searched again (``verify_probable``). Not exact:
judged by node reduction and playing strength.
"""

from __future__ import annotations

from bots.expectiminimax import INF, ExpectiminimaxSearcher
from bots.frames import ChanceFrame
from bots.probcut_models import ProbCutSettings


def chance_probcut(
    searcher: ExpectiminimaxSearcher, frame: ChanceFrame, settings: ProbCutSettings
) -> float | None:
    """Narrows ``frame``'s bounds to probable ones, or returns the value of a cut.

    Needs the frame expanded (its children read); keeps the proven bounds in
    ``frame.proven`` for ``verify_probable``.
    """
    assert frame.children is not None, "chance_probcut needs the node's children"
    lower, upper = frame.lower, frame.upper
    frame.proven = (list(lower), list(upper))
    model = settings.model_for(frame.depth)
    shallow_depth = frame.depth - settings.reduction
    probable_lower = list(lower)
    probable_upper = list(upper)
    # Shallow searches inside shallow searches count their nodes once.
    nodes_before = searcher.nodes
    searcher._probcut_level += 1
    try:
        for i, child in enumerate(frame.children):
            if lower[i] == upper[i]:
                continue
            shallow = searcher._search(child, shallow_depth, -INF, INF)
            low, high = model.probable_range(
                shallow, child.current_player(), searcher.player, settings.t
            )
            if low > probable_lower[i]:
                probable_lower[i] = min(low, upper[i])
            if high < probable_upper[i]:
                probable_upper[i] = max(high, lower[i])
    finally:
        searcher._probcut_level -= 1
        if searcher._probcut_level == 0:
            searcher.probcut_nodes += searcher.nodes - nodes_before
    expected_upper, expected_lower = frame.expected(probable_upper, probable_lower)
    cut = frame.cut(expected_upper, expected_lower)
    if cut is not None:
        searcher.cutoffs_probcut += 1
        return cut
    lower[:] = probable_lower
    upper[:] = probable_upper
    return None


def verify_probable(
    searcher: ExpectiminimaxSearcher,
    frame: ChanceFrame,
    i: int,
    value: float,
    lower_cut: float,
    upper_cut: float,
    window_low: float,
    window_high: float,
) -> float:
    """Outcome ``i``'s value, searched again where it failed against a bound
    ChanceProbCut only guessed.

    Failing low against a proven bound makes the value exact, but against a
    probable one it is only an upper bound; the child is searched again with
    the window its proven bounds allow (likewise failing high).
    """
    assert frame.proven is not None and frame.children is not None
    proven_lower, proven_upper = frame.proven[0][i], frame.proven[1][i]
    child = frame.children[i]
    if lower_cut < value <= window_low and proven_lower < value:
        searcher.probcut_researches += 1
        return searcher._search(child, frame.depth, max(lower_cut, proven_lower), window_high)
    if upper_cut > value >= window_high and proven_upper > value:
        searcher.probcut_researches += 1
        return searcher._search(child, frame.depth, window_low, min(upper_cut, proven_upper))
    return value
