"""The one random generator of both engines: SplitMix64, seeded by (seed, key).

Ballard's random trees (games/ballard_tree.py) and MCMS's draws (bots/mcms.py) use
it, and the C++ engine has the same generator (games/native/splitmix.h), so both
engines build the same trees and draw the same outcomes. Everything is written out
here, in integer and double arithmetic that Python and C++ do alike, so that a paper
can restate it (docs/guide/random_numbers.md):

* SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state; each output adds the
  golden gamma to the state and returns ``mix64`` of it.
* Seeding from an integer ``seed`` and a text ``key``: the state starts at
  ``fnv1a64(key as UTF-8) XOR mix64(seed + gamma)`` (FNV-1a 64, modulo 2^64).
* ``below(n)``: an unbiased integer in [0, n), Lemire's multiply-shift with rejection.
* ``shuffle``: Fisher-Yates, from the last position down.
* ``choices``: weighted draws with replacement, by a uniform double from the top 53
  bits times the total weight, against the cumulative weights summed left to right.

This module lives in ``games`` (which imports nothing from ``bots``) so that both
packages can use it; it imports nothing but the standard library.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: 2^64 / golden ratio, odd
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
FNV_OFFSET = 0xCBF29CE484222325  # FNV-1a 64 offset basis
FNV_PRIME = 0x100000001B3  # FNV-1a 64 prime: 2^40 + 2^8 + 0xB3
DOUBLE_UNIT = 2.0**-53


def mix64(z: int) -> int:
    """SplitMix64's output function (a bijection of 64-bit words)."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def fnv1a64(data: bytes) -> int:
    """FNV-1a 64 of ``data``: for each byte, XOR it in, then multiply by the prime."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def seed_state(seed: int, key: str) -> int:
    """The initial state for (``seed``, ``key``): ``fnv1a64(key) ^ mix64(seed + GAMMA)``.

    ``seed`` is taken modulo 2^64 (a negative seed as its two's complement), so the
    second term is the first output of SplitMix64 started at ``seed``.
    """
    return fnv1a64(key.encode("utf-8")) ^ mix64((seed + GAMMA) & MASK64)


class SplitMix64:
    """SplitMix64: the state advances by GAMMA per output, which is ``mix64(state)``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def seeded(cls, seed: int, key: str) -> SplitMix64:
        """The generator of one (seed, key): Ballard's tree node, MCMS's chance node."""
        return cls(seed_state(seed, key))

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GAMMA) & MASK64
        return mix64(self.state)

    def random(self) -> float:
        """A uniform double in [0, 1): the top 53 bits of one output times 2^-53."""
        return (self.next64() >> 11) * DOUBLE_UNIT

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n) for 1 <= n < 2^64 (Lemire 2019).

        m = output * n (128 bits); its high 64 bits are the result unless its low 64
        bits fall below 2^64 mod n, where the output is redrawn (rejection keeps
        every result equally likely).
        """
        m = self.next64() * n
        low = m & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n  # 2^64 mod n
            while low < threshold:
                m = self.next64() * n
                low = m & MASK64
        return m >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place: for i from len-1 down to 1, swap i with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choices(self, weights: Sequence[float], k: int) -> list[int]:
        """``k`` indices drawn with replacement, index i with probability weights[i] / total.

        The cumulative weights are summed left to right in plain double addition;
        each draw takes t = random() * total and returns the first i whose
        cumulative weight exceeds t (at most the last index).
        """
        cumulative: list[float] = []
        total = 0.0
        for weight in weights:
            total += weight
            cumulative.append(total)
        if not cumulative or not total > 0.0 or total == float("inf"):
            raise ValueError("choices needs weights with a positive finite total")
        last = len(cumulative) - 1
        return [bisect_right(cumulative, self.random() * total, 0, last) for _ in range(k)]
