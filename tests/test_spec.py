"""Editing bot specs: bots.spec.with_params is the one way the experiments change a spec."""

from __future__ import annotations

import pytest

from bots.spec import format_value, parse_spec, with_params


@pytest.mark.parametrize(
    "spec, params, expected",
    [
        ("star2", {"time_limit": 0.05}, "star2(time_limit=0.05)"),
        ("star2()", {"time_limit": 0.05}, "star2(time_limit=0.05)"),
        ("star2()", {}, "star2"),
        ("star2(time_limit=1)", {"time_limit": 0.5}, "star2(time_limit=0.5)"),
        ("star2(tt_size=10)", {"time_limit": 0.5}, "star2(tt_size=10,time_limit=0.5)"),
        (" star2( tt_size = 10 ,max_depth=3) ", {"tt_size": 0}, "star2(tt_size=0,max_depth=3)"),
        (
            "star2(evaluator=rollout(n=3),max_depth=2)",
            {"time_limit": 1},
            "star2(evaluator=rollout(n=3),max_depth=2,time_limit=1)",
        ),
        ("mcms(game=pig(winscore=50))", {"seed": 7}, "mcms(game=pig(winscore=50),seed=7)"),
        ("star2", {"probing": "cyclic", "reuse": False, "cap": None}, None),
    ],
)
def test_with_params_overrides_and_keeps_the_rest_as_written(spec, params, expected):
    edited = with_params(spec, **params)
    if expected is not None:
        assert edited == expected
    name, parsed = parse_spec(edited)
    assert name == parse_spec(spec)[0]
    assert parsed == {**parse_spec(spec)[1], **params}


@pytest.mark.parametrize("spec", ["star2(", "star2(time_limit=1", "star2(a=1,a=2)", "star2(x)", ""])
def test_with_params_refuses_what_parse_spec_refuses(spec):
    with pytest.raises(ValueError):
        with_params(spec, time_limit=1)


@pytest.mark.parametrize("value", ["a,b", "f(", "", "12"])
def test_values_that_would_read_back_differently_are_refused(value):
    with pytest.raises(ValueError, match="cannot be written"):
        format_value(value)


def test_numbers_read_back_exactly():
    for value in (0.1, 1e-7, 2.5e10, 3, -4, float("inf")):
        assert parse_spec(with_params("star2", x=value))[1]["x"] == value
