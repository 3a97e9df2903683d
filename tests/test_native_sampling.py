"""The native engine's sampling is Python's, bit for bit.

MCMS seeds a chance node's draws with ``(seed << 64) | blake2b8(key text)`` and
draws them with ``random.Random(...).choices``; the native engine reproduces
CPython's Mersenne Twister (int and str seeds), ``random()``, ``getrandbits``,
``_randbelow``, ``shuffle`` and ``choices``, plus SHA-512 and BLAKE2b, in C++.
Each hook of ``bots._native`` is compared here with the real Python.
"""

from __future__ import annotations

import hashlib
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import native_engine
from bots.mcms import canonical_text, draw_outcomes, sampling_seed

native = native_engine.native()
if native is None:
    pytest.skip(native_engine.problem() or "no native engine", allow_module_level=True)

INT_SEEDS = [0, 1, 2, 5, 2**31, 2**32 - 1, 2**32, 2**64 - 1, 2**64, 2**64 + 5, 2**127 + 3]
INT_SEEDS += [2**128 - 1, 3**200, -1, -(2**70)]  # negative seeds seed as their abs
STR_SEEDS = ["", "a", "ballard:7:0,1,2", "yacht:(0,1,2)", "ünïcödé ✓", "x" * 300]
SEEDS = INT_SEEDS + STR_SEEDS
FAST = settings(max_examples=60, deadline=None)


def _floats(seed: int | str, n: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.random() for _ in range(n)]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_random_floats(seed: int | str) -> None:
    # 1,300 floats use 2,600 outputs: the state is twisted five times.
    assert native.py_random_floats(seed, 1300) == _floats(seed, 1300)


@pytest.mark.parametrize("seed", STR_SEEDS, ids=repr)
def test_random_from_string(seed: str) -> None:
    assert native.py_random_from_string(seed, 50) == _floats(seed, 50)


@FAST
@given(st.integers(min_value=0, max_value=2**300), st.integers(min_value=0, max_value=30))
def test_random_floats_any_int(seed: int, n: int) -> None:
    assert native.py_random_floats(seed, n) == _floats(seed, n)


@FAST
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_random_from_u64(seed: int) -> None:
    assert native.py_random_floats_u64(seed, 5) == _floats(seed, 5)


@FAST
@given(st.text(max_size=40))
def test_random_any_string(seed: str) -> None:
    assert native.py_random_floats(seed, 5) == _floats(seed, 5)


@pytest.mark.parametrize("seed", [0, 2**64 + 5, "ballard:7:0,1,2"], ids=repr)
@pytest.mark.parametrize("k", [0, 1, 2, 5, 31, 32, 33, 40, 63, 64])
def test_getrandbits(seed: int | str, k: int) -> None:
    rng = random.Random(seed)
    assert native.py_getrandbits(seed, k, 40) == [rng.getrandbits(k) for _ in range(40)]


BOUNDS = [1, 2, 3, 6, 7, 100, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**33 - 1]
BOUNDS += [2**63, 2**63 + 1, 2**64 - 1]


@pytest.mark.parametrize("bound", BOUNDS)
def test_randbelow(bound: int) -> None:
    for seed in (0, 2**127 + 3, "ballard:7:0,1,2"):
        rng = random.Random(seed)
        assert native.py_randbelow(seed, bound, 30) == [rng._randbelow(bound) for _ in range(30)]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_shuffle(seed: int | str) -> None:
    for n in range(0, 21):
        items = list(range(n))
        random.Random(seed).shuffle(items)
        assert native.py_shuffle(seed, n) == items, n


def _shuffled(text: str, n: int) -> list[int]:
    items = list(range(n))
    random.Random(text).shuffle(items)
    return items


@pytest.mark.parametrize("n", [1, 2, 4, 6, 10, 20, 40, 127, 300])
def test_shuffles_seeded_side_by_side(n: int) -> None:
    # Ballard's trees seed a family of siblings at once: mixed key lengths, more
    # texts than lanes, a key too long for the lanes, and (n = 300) shuffles that
    # need more outputs than the shortcut has all take the same permutations.
    texts = [f"ballard:{s}:3,{a}" for s in (0, -7, 12345) for a in range(n if n < 30 else 13)]
    texts += ["", "x" * 3000]
    assert native.py_shuffled_ranges(texts, n) == [_shuffled(t, n) for t in texts]


def _mixed_texts(rng: random.Random, count: int) -> list[str]:
    # Ballard families (siblings differ in the last number, of one to three
    # digits: keys of one or two lengths), texts of every length around the
    # one-block SHA limit (111 bytes) and the 624-word key limit (2,432 bytes),
    # multi-byte characters, and leading NULs (the key int then loses words).
    texts = []
    for _ in range(count // 3):
        prefix = f"ballard:{rng.choice([0, -7, 3, 12345, -(2**40)])}:"
        prefix += ",".join(str(rng.randrange(128)) for _ in range(rng.randrange(8)))
        texts += [prefix + ("," if prefix[-1] != ":" else "") + str(a) for a in range(98, 102)]
    lengths = [0, 1, 2, 3, 4, 5, 7, 8, 9, 20, 21, 22, 23, 24, 63, 64, 110, 111, 112, 113]
    lengths += [127, 128, 129, 300, 1000, 2431, 2432, 2433, 2436, 3000]
    while len(texts) < count:
        length = rng.choice(lengths)
        kind = rng.randrange(4)
        if kind == 0:
            text = "".join(chr(rng.randrange(32, 127)) for _ in range(length))
        elif kind == 1:
            text = "".join(
                chr(rng.choice([0xE9, 0x3B1, 0x2713, 0x1F600])) for _ in range(length // 3)
            )
        elif kind == 2:
            text = "\0" * rng.randrange(1, 9) + "".join(
                chr(rng.randrange(1, 256)) for _ in range(length)
            )
        else:
            text = "\0" * length
        texts.append(text)
    rng.shuffle(texts)
    return texts


@pytest.mark.parametrize("n", [2, 4, 6, 10, 20, 40, 100, 150])
def test_shuffles_seeded_side_by_side_match_python_broadly(n: int) -> None:
    # Many texts per call (chains of different key lengths side by side, idle
    # lanes), in batches of every size: shuffles that need more words than the
    # vector draws (n = 10 to 100, now and then), or than the lazy words (n = 150,
    # the ordinary seeding), and keys too long for the lanes.
    rng = random.Random(n)
    texts = _mixed_texts(rng, 240)
    expected = [_shuffled(t, n) for t in texts]
    assert native.py_shuffled_ranges(texts, n) == expected
    first = 0
    for size in [1, 2, 3, 7, 8, 9, 16, 17, 23, 24, 25, 31, 32, 33, 40, 41]:
        assert (
            native.py_shuffled_ranges(texts[first : first + size], n)
            == expected[first : first + size]
        )
        first += size


@FAST
@given(st.lists(st.text(max_size=40), max_size=20), st.integers(min_value=0, max_value=60))
def test_shuffles_seeded_side_by_side_any(texts: list[str], n: int) -> None:
    assert native.py_shuffled_ranges(texts, n) == [_shuffled(t, n) for t in texts]


@FAST
@given(st.integers(min_value=0, max_value=2**128), st.integers(min_value=0, max_value=200))
def test_shuffle_any(seed: int, n: int) -> None:
    items = list(range(n))
    random.Random(seed).shuffle(items)
    assert native.py_shuffle(seed, n) == items


WEIGHTS = {
    "one": [1.0],
    "uniform": [1 / 6] * 6,
    "non-uniform": [0.5, 0.25, 0.125, 0.0625, 0.0625],
    "zeros inside": [0.0, 0.3, 0.0, 0.7, 0.0],
    "tiny": [1e-300, 3e-300, 5e-324, 2e-300],
    "huge": [1e300, 1e299, 5e300],
    "2d6": [(6 - abs(total - 7)) / 36 for total in range(2, 13)],
    "yacht-like": [(i % 7 + 1) / 1000 for i in range(252)],
}


@pytest.mark.parametrize("name", list(WEIGHTS))
def test_choices(name: str) -> None:
    weights = WEIGHTS[name]
    for seed in (0, 1, 2**64 + 5, 2**127 + 3, "ballard:7:0,1,2"):
        for k in (0, 1, 7, 500):
            expected = random.Random(seed).choices(range(len(weights)), weights=weights, k=k)
            assert native.py_choices(seed, weights, k) == expected, (seed, k)


def _choices_or_error(seed: int, weights: list[float], k: int) -> list[int] | str:
    try:
        return random.Random(seed).choices(range(len(weights)), weights=weights, k=k)
    except ValueError:
        return "ValueError"


@FAST
@given(
    st.integers(min_value=0, max_value=2**128),
    st.lists(
        st.floats(min_value=0, max_value=1e308, allow_subnormal=True), min_size=1, max_size=30
    ),
    st.integers(min_value=0, max_value=60),
)
def test_choices_any(seed: int, weights: list[float], k: int) -> None:
    expected = _choices_or_error(seed, weights, k)
    try:
        drawn: list[int] | str = native.py_choices(seed, weights, k)
    except ValueError:
        drawn = "ValueError"
    assert drawn == expected


@pytest.mark.parametrize("weights", [[0.0, 0.0], [1.0, math.inf], [math.nan, 1.0]], ids=repr)
def test_choices_refuses_what_python_refuses(weights: list[float]) -> None:
    with pytest.raises(ValueError):
        random.Random(0).choices(range(len(weights)), weights=weights)
    with pytest.raises(ValueError):
        native.py_choices(0, weights, 1)


@pytest.mark.parametrize("n", [1, 2, 6, 1000])
def test_choices_uniform(n: int) -> None:
    for seed in (0, 2**127 + 3, "ballard:7:0,1,2"):
        expected = random.Random(seed).choices(range(n), k=100)
        assert native.py_choices_uniform(seed, n, 100) == expected


# Lengths around SHA-512's and BLAKE2b's 128-byte blocks and padding boundaries.
LENGTHS = [0, 1, 3, 55, 63, 64, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257, 1000]


@pytest.mark.parametrize("length", LENGTHS)
def test_hashes(length: int) -> None:
    data = random.Random(length).randbytes(length)
    assert native.sha512(data) == hashlib.sha512(data).digest()
    assert native.blake2b8(data) == hashlib.blake2b(data, digest_size=8).digest()
    for size in (1, 8, 32, 64):
        assert native.blake2b(data, size) == hashlib.blake2b(data, digest_size=size).digest()


@FAST
@given(st.binary(max_size=600))
def test_hashes_any(data: bytes) -> None:
    assert native.sha512(data) == hashlib.sha512(data).digest()
    assert native.blake2b8(data) == hashlib.blake2b(data, digest_size=8).digest()


KEYS = [
    "",
    "ballard:7:0,1,2",
    (0, "x:1,2"),
    (1, (2, 3), None, True, 0.5, "é"),
    12345678901234567890,
    (-1, 2.5e-7, ("nested", (1,))),
]

OUTCOMES = {
    "die": [(face, 1 / 6) for face in range(1, 7)],
    "2d6": [(total, (6 - abs(total - 7)) / 36) for total in range(2, 13)],
    "skewed": [(10, 0.9), (20, 0.05), (30, 0.03), (40, 0.02)],
    "sparse actions": [(7, 0.25), (1000, 0.25), (3, 0.25), (2**40, 0.25)],
    "yacht-like": [(i, (i % 7 + 1) / 1008) for i in range(252)],
}


def _python_draws(outcomes: list[tuple[int, float]], samples: int, seed: int, key: object):
    return draw_outcomes(outcomes, samples, sampling_seed(seed, key))


@pytest.mark.parametrize("name", list(OUTCOMES))
@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_mcms_draw_outcomes(name: str, key: object) -> None:
    outcomes = OUTCOMES[name]
    text = canonical_text(key)
    for seed in (0, 1, 7, 2**32, 2**64 - 1):
        assert native.mcms_sampling_seed(seed, text) == sampling_seed(seed, key)
        for samples in (1, 3, 5, 20, 100):
            expected = _python_draws(outcomes, samples, seed, key)
            assert native.mcms_draw_outcomes(outcomes, samples, seed, text) == expected


@FAST
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.text(max_size=60),
    st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=60),
)
def test_mcms_draw_outcomes_any(seed: int, key: str, probs: list[float], samples: int) -> None:
    outcomes = [(3 * i + 1, prob) for i, prob in enumerate(probs)]
    expected = _python_draws(outcomes, samples, seed, key)
    assert native.mcms_draw_outcomes(outcomes, samples, seed, canonical_text(key)) == expected


@pytest.mark.parametrize("seed", [0, 2**70 + 9, 3**100], ids=repr)
def test_draw_outcomes_any_seed(seed: int) -> None:
    outcomes = OUTCOMES["2d6"]
    expected = draw_outcomes(outcomes, 9, seed)
    assert native.mcms_draw_outcomes_seeded(outcomes, 9, seed) == expected
