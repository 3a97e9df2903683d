"""The native evaluators (bots/native/evaluators/*.cc) return their Python twins' values bit for bit.

Every published node count depends on the leaf values, so the comparison is
`==`, never approx: on states sampled along seeded random playouts (decision
and chance nodes, terminal states, every player), under default and non-default
game parameters, and on the golden values of tests/data/evaluator_golden_values.json.
"""

from __future__ import annotations

import pyspiel
import pytest
from helpers.evaluator_golden import GOLDEN, golden_states
from helpers.playouts import pig_states, playout_states

import games  # noqa: F401 - registers the custom games of the golden file
from bots import native_engine
from bots.evaluators import (
    BackgammonEvaluator,
    BanqiEvaluator,
    CatchEvaluator,
    EinsteinEvaluator,
    Game2048Evaluator,
    MaednEvaluator,
    MidpointEvaluator,
    PigEvaluator,
    YachtEvaluator,
)

pytestmark = pytest.mark.parity  # engine parity and golden values: every supported Python

native = native_engine.native()
if native is None:
    pytest.skip(native_engine.problem() or "no native engine", allow_module_level=True)


# (game spec, Python evaluator class): default parameters plus variants of the
# parameters each evaluator reads (pig's tables, catch's rows, 2048's bound,
# maedn's seating) or that change the positions it sees.
CASES = [
    ("pig", PigEvaluator),
    ("pig(winscore=50)", PigEvaluator),
    ("pig(winscore=30,diceoutcomes=4)", PigEvaluator),
    ("pig(piglet=True,winscore=20)", PigEvaluator),
    ("backgammon", BackgammonEvaluator),
    ("backgammon(hyper_backgammon=True)", BackgammonEvaluator),
    ("einstein_wurfelt_nicht", EinsteinEvaluator),
    ("2048", Game2048Evaluator),
    ("2048(max_tile=64)", Game2048Evaluator),
    ("catch", CatchEvaluator),
    ("catch(rows=6,columns=3)", CatchEvaluator),
    ("yacht", YachtEvaluator),
    ("yacht(rolls_per_turn=2,sort_dice=True)", YachtEvaluator),
    ("maedn(players=2)", MaednEvaluator),
    ("maedn(players=2,twoPlayersOpposite=False)", MaednEvaluator),
    ("banqi", BanqiEvaluator),
    ("banqi(max_no_progress=10)", BanqiEvaluator),
]
MIDPOINT_SPECS = ["pig", "2048", "backgammon", "tic_tac_toe", "chance_tic_tac_toe"]


def _mismatches(name, game, evaluator, states) -> list[str]:
    bad = []
    for s in states:
        for p in range(game.num_players()):
            got = native.evaluator_value(name, game, s, p)
            want = evaluator.player_value(s, p)
            if got != want:
                bad.append(f"player {p}: native {got!r} != python {want!r} at\n{s}")
    return bad


@pytest.mark.parametrize("spec,cls", CASES, ids=[spec for spec, _ in CASES])
def test_native_equals_python(spec, cls):
    game = pyspiel.load_game(spec)
    evaluator = cls(game)
    # Long games (backgammon, banqi, maedn) keep fewer states per playout.
    keep = 0.05 if spec.startswith(("backgammon", "banqi", "maedn", "2048")) else 0.3
    # Python yacht costs ms a state: fewer states, still chance and decision nodes.
    states = playout_states(game, 150 if spec.startswith("yacht") else 300, seed=17, keep=keep)
    kinds = {(s.is_chance_node(), s.is_terminal()) for s in states}
    assert (True, False) in kinds and (False, False) in kinds, (spec, kinds)
    bad = _mismatches(cls.native_name, game, evaluator, states)
    assert not bad, f"{spec}: {len(bad)} mismatches, first: {bad[0]}"


@pytest.mark.parametrize("spec", MIDPOINT_SPECS)
def test_native_midpoint_equals_python(spec):
    game = pyspiel.load_game(spec)
    states = playout_states(game, 100, seed=3, keep=0.1)
    bad = _mismatches("midpoint", game, MidpointEvaluator(game), states)
    assert not bad, f"{spec}: {len(bad)} mismatches, first: {bad[0]}"


def _golden_cases():
    heuristics = {cls.native_name for _, cls in CASES}
    for spec in sorted(GOLDEN):
        short = pyspiel.load_game(spec).get_type().short_name
        if short in heuristics:
            yield spec, "default", short
        yield spec, "zero", "midpoint"


@pytest.mark.parametrize("spec,golden_name,native_name", list(_golden_cases()))
def test_native_reproduces_golden_values(spec, golden_name, native_name):
    game = pyspiel.load_game(spec)
    states = golden_states(game)
    want = dict(GOLDEN[spec])[golden_name]
    got = [
        [native.evaluator_value(native_name, game, s, p) for p in range(game.num_players())]
        for s in states
    ]
    assert got == want, spec


def test_pig_long_turns_and_near_wins():
    """A roll-happy policy reaches turn totals past the hold-wins threshold and scores near w."""
    for spec in ("pig(winscore=20)", "pig(winscore=20,piglet=True)"):
        game = pyspiel.load_game(spec)
        states = pig_states(game, 300, seed=5, roll=0.9)
        bad = _mismatches("pig", game, PigEvaluator(game), states)
        assert not bad, f"{spec}: {len(bad)} mismatches, first: {bad[0]}"


def test_every_python_twin_is_registered():
    classes = [cls for _, cls in CASES] + [MidpointEvaluator]
    assert {cls.native_name for cls in classes} <= set(native.evaluator_names())


@pytest.mark.parametrize(
    "name,spec,message",
    [
        ("yacht", "yacht(num_dice=4)", "YachtEvaluator supports 5 six-sided dice"),
        ("pig", "backgammon", "PigEvaluator evaluates game 'pig', got game 'backgammon'"),
        ("no_such_evaluator", "pig", "no native evaluator named 'no_such_evaluator'"),
    ],
)
def test_refused_games_raise_clear_errors(name, spec, message):
    game = pyspiel.load_game(spec)
    with pytest.raises(ValueError, match=message):
        native.evaluator_value(name, game, game.new_initial_state(), 0)


def test_state_of_another_game_is_an_error():
    catch = pyspiel.load_game("catch")
    pig_state = pyspiel.load_game("pig").new_initial_state()
    with pytest.raises(ValueError, match="not a state of its game"):
        native.evaluator_value("catch", catch, pig_state, 0)
