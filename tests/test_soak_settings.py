"""The soak switch: off in CI, and bad values refused by name."""

from __future__ import annotations

import pytest
import soak


def test_unset_means_the_fixed_ci_examples(monkeypatch):
    monkeypatch.delenv("STARSPIEL_SOAK", raising=False)
    assert soak._int_setting("STARSPIEL_SOAK", 1, 1) == 1
    if soak.SOAK == 1:
        assert soak.SEED == 0 and soak.examples(120) == 120


def test_a_soak_factor_multiplies_the_examples(monkeypatch):
    monkeypatch.setenv("STARSPIEL_SOAK", "15")
    assert soak._int_setting("STARSPIEL_SOAK", 1, 1) == 15


@pytest.mark.parametrize("raw", ["0", "-3", "abc", "1.5", ""])
def test_bad_values_are_refused_with_the_setting_named(monkeypatch, raw):
    monkeypatch.setenv("STARSPIEL_SOAK", raw)
    with pytest.raises(ValueError, match=r"STARSPIEL_SOAK must be an integer >= 1"):
        soak._int_setting("STARSPIEL_SOAK", 1, 1)
