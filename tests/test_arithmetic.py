"""The one summation order (bots/arithmetic.py, docs/guide/search.md "Conventions"): the helpers
add left to right from 0.0 on every Python, and no search, evaluator or game module goes
back to a float summation whose order depends on the Python version."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from bots.arithmetic import dot_pair, ordered_sum

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("bots", "games")

# Ten outcomes of probability 0.1: left to right from 0.0 the sum is 1 - 2**-53, while a
# compensated sum (Python 3.12's sum(), math.fsum) rounds it to 1.0.
TENTHS = [0.1] * 10
PLAIN_TENTHS = 0.9999999999999999


def test_the_cases_tell_the_orders_apart():
    assert math.fsum(TENTHS) == 1.0 != PLAIN_TENTHS
    assert math.fsum([1e16, 1.0, -1e16]) == 1.0


def test_ordered_sum_adds_left_to_right_from_zero():
    assert ordered_sum(TENTHS) == PLAIN_TENTHS
    assert ordered_sum([1e16, 1.0, -1e16]) == 0.0  # 1e16 + 1.0 rounds back to 1e16
    assert ordered_sum([1.0, 1e16, -1e16]) == 0.0
    assert ordered_sum([1e16, -1e16, 1.0]) == 1.0
    assert ordered_sum(iter([0.5, 0.25])) == 0.75
    assert ordered_sum([]) == 0.0
    # It starts from +0.0, as the C++ loops do: a lone -0.0 gives +0.0.
    assert math.copysign(1.0, ordered_sum([-0.0])) == 1.0


def test_dot_pair_is_two_left_to_right_expectations():
    assert dot_pair(TENTHS, [1.0] * 10, [-1.0] * 10) == (PLAIN_TENTHS, -PLAIN_TENTHS)
    weights = [1.0, 1.0, 1.0]
    assert dot_pair(weights, [1e16, 1.0, -1e16], [1e16, -1e16, 1.0]) == (0.0, 1.0)
    assert dot_pair([], [], []) == (0.0, 0.0)
    first, second = dot_pair([0.5, -0.5], [-0.0, 0.0], [0.0, 0.0])
    assert math.copysign(1.0, first) == 1.0 and second == 0.0


FLOAT_REDUCTIONS = ("sum", "fsum", "sumprod", "mean", "fmean")


def _float_sum_calls(source: str) -> list[str]:
    """Each call in ``source`` whose summation order is the Python version's, not ours.

    Those are builtin ``sum()`` (compensated over floats from Python 3.12) unless its
    argument is plainly integer, and any ``fsum``, ``sumprod``, ``mean``, ``fmean`` or
    ``.sum()`` (compensated, extended precision or pairwise) but ``.sum(dtype=np.int64)``.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "sum":
            flagged = not _plainly_integer(node)
        else:
            flagged = (
                isinstance(func, ast.Attribute)
                and func.attr in FLOAT_REDUCTIONS
                and not _integer_accumulator(node)
            )
        if flagged:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


# Builtin sum() calls over integers that the simple rule below cannot see, with the reason
# each term is an int. A float sum belongs in bots/arithmetic.py's helpers instead.
INTEGER_SUMS = {
    # iterating over bytes gives ints
    "sum(board.translate(_BANQI_TABLE))",
    # tiles and ranks are lists of ints
    "sum((a for a, b in zip(tiles, tiles[1:]) if a == b))",
    "sum((max(0, b - a) for a, b in zip(ranks, ranks[1:])))",
    "sum((max(0, a - b) for a, b in zip(ranks, ranks[1:])))",
    # Ballard's arcs are tuples of ints
    "sum((min(a) for a in arcs))",
    "sum((max(a) for a in arcs))",
    # observation tensor sizes
    "sum(sizes)",
}


def _integer_accumulator(call: ast.Call) -> bool:
    """``x.sum(dtype=np.int64)``: an integer sum, exact in any order."""
    return any(
        k.arg == "dtype" and ast.unparse(k.value) in ("np.int64", "numpy.int64")
        for k in call.keywords
    )


def _plainly_integer(call: ast.Call) -> bool:
    """A sum of int literals, comparisons, bit operations or len(), or one listed above."""
    if ast.unparse(call) in INTEGER_SUMS:
        return True
    if len(call.args) != 1 or call.keywords:
        return False
    arg = call.args[0]
    if not isinstance(arg, ast.GeneratorExp | ast.ListComp):
        return False
    term = arg.elt
    return (
        (isinstance(term, ast.Constant) and type(term.value) is int)
        or isinstance(term, ast.Compare)
        or (isinstance(term, ast.BinOp) and isinstance(term.op, ast.LShift | ast.BitOr))
        or (
            isinstance(term, ast.Call) and isinstance(term.func, ast.Name) and term.func.id == "len"
        )
    )


def test_no_float_sum_outside_the_helpers():
    files = sorted(p for folder in CHECKED for p in (ROOT / folder).rglob("*.py"))
    assert files, "no modules found"
    found = [
        f"{path.relative_to(ROOT)}:{call}"
        for path in files
        for call in _float_sum_calls(path.read_text())
    ]
    assert found == [], "sum in bots/arithmetic.py's order instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source,flagged",
    [
        ("total = sum(map(mul, probs, upper))", True),
        ("total = sum(p * v for p, v in outcomes)", True),
        ("total = sum(values)", True),
        ("total = math.fsum(values)", True),
        ("total = math.sumprod(probs, values)", True),
        ("total = statistics.fmean(values)", True),
        ("total = array.sum()", True),
        ("count = sum(1 for v in line if v == 0)", False),
        ("count = sum(c >= 2 for c in checkers)", False),
        ("mask = sum(1 << c for c in line)", False),
        ("size = sum(sizes)", False),
        ("total = ordered_sum(p * v for p, v in outcomes)", False),
    ],
)
def test_the_check_flags_float_sums(source, flagged):
    assert bool(_float_sum_calls(source)) == flagged
