"""The soak switch: off in CI, a factor and a seed when asked, and bad values refused by name."""

from __future__ import annotations

import pytest
from helpers import soak


def test_unset_means_the_fixed_ci_examples():
    assert soak.soak_settings({}) == (1, 0)


def test_a_soak_factor_draws_a_fresh_seed_unless_one_is_given():
    factor, seed = soak.soak_settings({"STARSPIEL_SOAK": "15"})
    assert factor == 15 and 0 <= seed < 2**31
    given = {"STARSPIEL_SOAK": "15", "STARSPIEL_SOAK_SEED": "1234"}
    assert soak.soak_settings(given) == (15, 1234)


def test_examples_multiply_by_the_soak_factor(monkeypatch):
    monkeypatch.setattr(soak, "SOAK", 3)
    assert soak.examples(120) == 360


@pytest.mark.parametrize("name", ["STARSPIEL_SOAK", "STARSPIEL_SOAK_SEED"])
@pytest.mark.parametrize("raw", ["-3", "abc", "1.5", ""])
def test_bad_values_are_refused_with_the_setting_named(name, raw):
    with pytest.raises(ValueError, match=rf"{name} must be an integer >= [01]"):
        soak.soak_settings({"STARSPIEL_SOAK": "2", name: raw})


def test_a_soak_factor_of_zero_is_refused():
    with pytest.raises(ValueError, match=r"STARSPIEL_SOAK must be an integer >= 1, got '0'"):
        soak.soak_settings({"STARSPIEL_SOAK": "0"})
