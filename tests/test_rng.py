"""The generator of both engines (games/splitmix.py, games/native/splitmix.h) against fixed outputs.

The expected numbers come from the reference definitions, not from this code: SplitMix64's
published test vector (Vigna's splitmix64.c seeded with 1234567, as Java's
SplittableRandom), FNV-1a 64's published vectors, and for the seeding a separate C
program written from docs/guide/random_numbers.md. Both engines must reproduce them.
"""

from __future__ import annotations

import pytest

from bots import native_engine
from games.splitmix import MASK64, SplitMix64, fnv1a64, seed_state

native = native_engine.native()

# Vigna's splitmix64.c with x = 1234567: its first five outputs.
REFERENCE_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]
# SplitMix64 started at 0: the first output (also mix64(GAMMA)).
REFERENCE_0 = 0xE220A8397B1DCDAF
# FNV-1a 64 of "", "a", "foobar" (the FNV authors' test vectors).
FNV_VECTORS = {b"": 0xCBF29CE484222325, b"a": 0xAF63DC4C8601EC8C, b"foobar": 0x85944171F73967E8}
# SplitMix64.seeded(seed, ""): state = FNV offset basis ^ mix64(seed + gamma); first outputs.
SEEDED = {
    0: [6566800829925814604, 12461537188112276583, 2178108010794111522],
    1: [3897742281384274149, 16303881902535047049, 50953872089093409],
}
# Derived draws, pinned so a change of below, shuffle or choices cannot pass unseen.
BELOW_6 = [1, 5, 5, 0, 5, 5, 4, 2]  # seeded(0, "0,1").below(6), 8 times
SHUFFLE_10 = [1, 6, 9, 3, 5, 8, 4, 0, 7, 2]  # seeded(1, "").shuffle(list(range(10)))
CHOICES = [0, 0, 1, 3, 0, 0, 3, 0, 3, 1]  # seeded(0, "(0,1)").choices([.5, .25, .125, .125], 10)


def _outputs(generator: SplitMix64, n: int) -> list[int]:
    return [generator.next64() for _ in range(n)]


def test_python_generator_reproduces_the_reference_vectors() -> None:
    assert _outputs(SplitMix64(1234567), 5) == REFERENCE_1234567
    assert SplitMix64(0).next64() == REFERENCE_0
    for data, expected in FNV_VECTORS.items():
        assert fnv1a64(data) == expected
    for seed, expected in SEEDED.items():
        assert seed_state(seed, "") == FNV_VECTORS[b""] ^ _outputs(SplitMix64(seed), 1)[0]
        assert _outputs(SplitMix64.seeded(seed, ""), 3) == expected


def test_python_draws_are_pinned() -> None:
    generator = SplitMix64.seeded(0, "0,1")
    assert [generator.below(6) for _ in range(8)] == BELOW_6
    items = list(range(10))
    SplitMix64.seeded(1, "").shuffle(items)
    assert items == SHUFFLE_10
    assert SplitMix64.seeded(0, "(0,1)").choices([0.5, 0.25, 0.125, 0.125], 10) == CHOICES


def test_seeds_are_taken_modulo_2_to_the_64() -> None:
    assert seed_state(-1, "k") == seed_state(MASK64, "k")
    assert seed_state(2**64 + 3, "k") == seed_state(3, "k")


def test_below_is_in_range_and_covers_it() -> None:
    generator = SplitMix64.seeded(7, "below")
    for n in (1, 2, 3, 6, 7, 2**32 + 1, 2**63 + 5, 2**64 - 1):
        values = [generator.below(n) for _ in range(200)]
        assert all(0 <= v < n for v in values)
    assert {generator.below(6) for _ in range(600)} == set(range(6))
    assert generator.below(1) == 0


def test_choices_refuses_bad_weights_and_skips_zero_weights() -> None:
    for weights in ([], [0.0, 0.0], [1.0, float("inf")], [float("nan")]):
        with pytest.raises(ValueError, match="positive finite total"):
            SplitMix64(0).choices(weights, 1)
    drawn = SplitMix64(5).choices([0.0, 1.0, 0.0, 2.0, 0.0], 300)
    assert set(drawn) == {1, 3}


@pytest.mark.skipif(native is None, reason=native_engine.problem() or "no native engine")
def test_native_generator_reproduces_the_same_fixed_outputs() -> None:
    assert native.splitmix_next64(1234567, 5) == REFERENCE_1234567
    assert native.splitmix_next64(0, 1) == [REFERENCE_0]
    for data, expected in FNV_VECTORS.items():
        assert native.fnv1a64(data) == expected
    for seed, expected in SEEDED.items():
        assert native.splitmix_next64(native.splitmix_seed_state(seed, ""), 3) == expected
    assert native.splitmix_below(0, "0,1", 6, 8) == BELOW_6
    assert native.splitmix_shuffle(1, "", 10) == SHUFFLE_10
    assert native.splitmix_choices(0, "(0,1)", [0.5, 0.25, 0.125, 0.125], 10) == CHOICES
