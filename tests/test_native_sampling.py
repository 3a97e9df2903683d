"""The native engine's generator and MCMS draws are the Python ones, bit for bit.

Both engines use SplitMix64 seeded by (seed, key) (games/splitmix.py and
games/native/splitmix.h); MCMS seeds a chance node's draws with its seed and the
canonical text of the node's key. Each hook of ``bots._native`` is compared here with
the Python definition; tests/test_rng.py pins both to fixed outputs.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import native_engine
from bots.mcms import canonical_text, draw_outcomes, sampling_seed
from games.splitmix import MASK64, SplitMix64, fnv1a64, seed_state

native = native_engine.native()
if native is None:
    pytest.skip(native_engine.problem() or "no native engine", allow_module_level=True)

SEEDS = [0, 1, 2, 5, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
KEY_TEXTS = ["", "a", "0,1,2", "(0,'x:1,2')", "ünïcödé ✓", "x" * 300]
FAST = settings(max_examples=60, deadline=None)
SEED = st.integers(min_value=0, max_value=MASK64)


@FAST
@given(st.binary(max_size=300))
def test_fnv1a64_any(data: bytes) -> None:
    assert native.fnv1a64(data) == fnv1a64(data)


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_and_outputs(seed: int) -> None:
    for key in KEY_TEXTS:
        state = seed_state(seed, key)
        assert native.splitmix_seed_state(seed, key) == state
        generator = SplitMix64(state)
        assert native.splitmix_next64(state, 20) == [generator.next64() for _ in range(20)]
        generator = SplitMix64.seeded(seed, key)
        assert native.splitmix_random(seed, key, 20) == [generator.random() for _ in range(20)]


@FAST
@given(SEED, st.text(max_size=40), st.integers(min_value=1, max_value=2**64 - 1))
def test_below_any(seed: int, key: str, bound: int) -> None:
    generator = SplitMix64.seeded(seed, key)
    assert native.splitmix_below(seed, key, bound, 30) == [
        generator.below(bound) for _ in range(30)
    ]


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 2**32 + 1, 2**63 + 5, 2**64 - 1])
def test_below_bounds(bound: int) -> None:
    # Large bounds reject often (2^64 mod n is large): the redraws must agree too.
    for seed in SEEDS:
        generator = SplitMix64.seeded(seed, "below")
        expected = [generator.below(bound) for _ in range(50)]
        assert native.splitmix_below(seed, "below", bound, 50) == expected


@FAST
@given(SEED, st.text(max_size=40), st.integers(min_value=0, max_value=200))
def test_shuffle_any(seed: int, key: str, n: int) -> None:
    items = list(range(n))
    SplitMix64.seeded(seed, key).shuffle(items)
    assert native.splitmix_shuffle(seed, key, n) == items


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
    for seed in (0, 1, 2**64 - 1):
        for k in (0, 1, 7, 500):
            expected = SplitMix64.seeded(seed, name).choices(weights, k)
            assert native.splitmix_choices(seed, name, weights, k) == expected, (seed, k)


def _choices_or_error(seed: int, weights: list[float], k: int) -> list[int] | str:
    try:
        return SplitMix64.seeded(seed, "w").choices(weights, k)
    except ValueError:
        return "ValueError"


@FAST
@given(
    SEED,
    st.lists(
        st.floats(min_value=0, max_value=1e308, allow_subnormal=True), min_size=1, max_size=30
    ),
    st.integers(min_value=0, max_value=60),
)
def test_choices_any(seed: int, weights: list[float], k: int) -> None:
    expected = _choices_or_error(seed, weights, k)
    try:
        drawn: list[int] | str = native.splitmix_choices(seed, "w", weights, k)
    except ValueError:
        drawn = "ValueError"
    assert drawn == expected


@pytest.mark.parametrize(
    "weights", [[], [0.0, 0.0], [1.0, math.inf], [math.nan, 1.0], [1e308, 1e308]], ids=repr
)
def test_choices_refuses_what_python_refuses(weights: list[float]) -> None:
    with pytest.raises(ValueError):
        SplitMix64(0).choices(weights, 1)
    with pytest.raises(ValueError):
        native.splitmix_choices(0, "", weights, 1)


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
        assert native.splitmix_seed_state(seed, text) == sampling_seed(seed, key)
        for samples in (1, 3, 5, 20, 100):
            expected = _python_draws(outcomes, samples, seed, key)
            assert native.mcms_draw_outcomes(outcomes, samples, seed, text) == expected


@FAST
@given(
    SEED,
    st.text(max_size=60),
    st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=60),
)
def test_mcms_draw_outcomes_any(seed: int, key: str, probs: list[float], samples: int) -> None:
    outcomes = [(3 * i + 1, prob) for i, prob in enumerate(probs)]
    expected = _python_draws(outcomes, samples, seed, key)
    assert native.mcms_draw_outcomes(outcomes, samples, seed, canonical_text(key)) == expected
