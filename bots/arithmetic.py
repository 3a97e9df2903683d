"""The one summation order of both engines: left to right, plain double addition from 0.0.

Why: a search value, an evaluator value or a node count must not depend on the Python
version, and the Python engine must agree with the C++ one to the last bit. Builtin
``sum()`` over floats does not promise an order: from Python 3.12 it is compensated
(Neumaier), so its last bit can differ from a plain loop (``0.29669618507295137`` against
``0.2966961850729513``), and a cut decided on a bound can then differ too. These helpers
write the order out; the C++ loops (``total = 0.0; total += w * v`` in
``bots/native/search.cc`` and the evaluators' twins) add in the same order, so both engines
give the same floats on Python 3.10 to 3.13. Python 3.11's ``sum()`` used this same order,
so no value or golden count changed when the engines moved to these helpers.

Integer sums may stay ``sum()``: they are exact in any order. ``tests/test_arithmetic.py``
flags a builtin ``sum()`` over floats in ``bots/`` and ``games/``.
"""

from __future__ import annotations

from collections.abc import Iterable


def ordered_sum(values: Iterable[float]) -> float:
    """``0.0 + v0 + v1 + ...``, left to right, each step one rounded double addition."""
    total = 0.0
    for value in values:
        total += value
    return total


def dot_pair(
    weights: Iterable[float], first: Iterable[float], second: Iterable[float]
) -> tuple[float, float]:
    """``0.0 + w0 * a0 + w1 * a1 + ...`` and the same over ``second``, in one pass.

    An expectation over a chance node's outcomes; its lower and upper bounds are always
    weighted together, and one loop costs the Python engine less than two.
    """
    total_first = total_second = 0.0
    for weight, a, b in zip(weights, first, second):
        total_first += weight * a
        total_second += weight * b
    return total_first, total_second
