"""The pig, maedn and yacht heuristics at more than two players, and their native twins.

max^n's shallow pruning needs every leaf vector within the declared bounds and summing to
the game's utility sum (0 here); the native engine needs each twin to return the Python
value bit for bit. Both are checked on states of seeded random playouts (decision and
chance nodes, terminal states) at 3, 4 and more players; the two-player values are pinned
by tests/data/evaluator_golden_values.json.
"""

from __future__ import annotations

import functools
import itertools
import random
import warnings

import numpy as np
import pyspiel
import pytest
from helpers.playouts import pig_states, playout_states, random_action

import bots
from bots import native_engine
from bots.arithmetic import ordered_sum
from bots.evaluators import (
    EvaluatorFallbackWarning,
    MaednEvaluator,
    PigEvaluator,
    YachtEvaluator,
    default_evaluator,
    evaluator_bounds,
)
from bots.evaluators.multiplayer import pairwise_win_values
from bots.evaluators.yacht import _YACHT_EXPECTED as YACHT_EXPECTED

CASES = [
    ("pig(players=3)", PigEvaluator),
    ("pig(players=4,winscore=50)", PigEvaluator),
    ("pig(players=6,winscore=30)", PigEvaluator),
    ("pig(players=10,winscore=20,diceoutcomes=4)", PigEvaluator),
    ("pig(players=3,piglet=True,winscore=15)", PigEvaluator),
    ("maedn(players=3)", MaednEvaluator),
    ("maedn(players=4)", MaednEvaluator),
    ("maedn(players=3,twoPlayersOpposite=False)", MaednEvaluator),
    ("yacht(players=3)", YachtEvaluator),
    ("yacht(players=4,rolls_per_turn=2,sort_dice=True)", YachtEvaluator),
]
# One-player yacht: its own checks, and the native comparison.
NATIVE_CASES = CASES + [("yacht(players=1)", YachtEvaluator)]
IDS = [spec for spec, _ in CASES]


@functools.cache
def _states(spec: str) -> tuple[pyspiel.State, ...]:
    """States of seeded playouts, shared by the tests (yacht's 7,776-outcome rolls are slow)."""
    game = pyspiel.load_game(spec)
    if spec.startswith("maedn"):  # long games: few states per playout
        n, keep = 250, 0.03
    else:
        n, keep = (250, 0.3) if spec.startswith("pig") else (150, 0.3)
    states = tuple(playout_states(game, n, seed=11, keep=keep))
    kinds = {(s.is_chance_node(), s.is_terminal()) for s in states}
    assert {(True, False), (False, False), (False, True)} <= kinds, (spec, kinds)
    return states


@pytest.mark.parametrize("spec,cls", CASES, ids=IDS)
def test_vectors_in_bounds_summing_to_the_utility_sum(spec, cls):
    game = pyspiel.load_game(spec)
    evaluator = cls(game)
    lo, hi = evaluator_bounds(evaluator, game)
    assert game.min_utility() <= lo < hi <= game.max_utility()
    total = game.utility_sum()
    for s in _states(spec):
        values = evaluator.evaluate(s)
        assert isinstance(values, np.ndarray) and values.shape == (game.num_players(),)
        if s.is_terminal():
            assert values.tolist() == s.returns()
        else:
            # Strictly inside: no estimate claims a certain outcome.
            assert all(lo < v < hi for v in values), (values, str(s))
        assert all(lo <= r <= hi for r in s.returns())
        assert abs(ordered_sum(values.tolist()) - total) <= 1e-12, (values, str(s))
        # The scalar path is the same number as the vector's component.
        for p in range(game.num_players()):
            assert evaluator.player_value(s, p) == values[p]


def test_bounds_are_the_returns_range():
    assert PigEvaluator(pyspiel.load_game("pig")).bounds == (-1.0, 1.0)
    assert PigEvaluator(pyspiel.load_game("pig(players=3)")).bounds == (-0.5, 1.0)
    assert PigEvaluator(pyspiel.load_game("pig(players=5)")).bounds == (-0.25, 1.0)
    assert MaednEvaluator(pyspiel.load_game("maedn(players=2)")).bounds == (-1.0, 1.0)
    assert MaednEvaluator(pyspiel.load_game("maedn(players=3)")).bounds == (-1.0, 2.0)
    assert MaednEvaluator(pyspiel.load_game("maedn(players=4)")).bounds == (-1.0, 3.0)
    # Yacht: N - 1 tied winners leave the lone loser -1.
    assert YachtEvaluator(pyspiel.load_game("yacht(players=4)")).bounds == (-1.0, 1.0)


@pytest.mark.parametrize("spec", ["pig(players=3)", "maedn(players=4)", "yacht(players=5)"])
def test_default_evaluator_is_the_heuristic_without_a_warning(spec):
    game = pyspiel.load_game(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EvaluatorFallbackWarning)
        evaluator = default_evaluator(game)
    assert type(evaluator).__name__.lower().startswith(game.get_type().short_name)


def test_yacht_refuses_other_dice():
    for spec in ("yacht(players=3,num_dice=4)", "yacht(players=1,dice_sides=4)"):
        with pytest.raises(ValueError, match="supports 5 six-sided dice"):
            YachtEvaluator(pyspiel.load_game(spec))


def test_solo_yacht_estimates_the_normalised_final_score():
    """One player: returns are score / 305 in [0, 1] (OpenSpiel's utility sum of 0 does not
    hold there), the estimate is 0.99 * expected final score / 305."""
    game = pyspiel.load_game("yacht(players=1)")
    evaluator = YachtEvaluator(game)
    assert evaluator.bounds == (0.0, 1.0)
    states = _states("yacht(players=1)")
    assert evaluator.evaluate(states[0]).tolist() == [0.99 * ordered_sum(YACHT_EXPECTED) / 305]
    for s in states:
        (value,) = evaluator.evaluate(s)
        if s.is_terminal():
            assert value == s.returns()[0]
        else:
            assert 0.0 < value < 0.99
        assert evaluator.player_value(s, 0) == value


# ------------------------------------------------------------ the combination rule


def _pairs(race: dict, n: int, seat: list[int]) -> list[float]:
    """The races of every i < j when player k is `seat[k]` of `race`."""
    return [race[seat[i], seat[j]] for i in range(n) for j in range(i + 1, n)]


@pytest.mark.parametrize("n", [3, 4, 7, 10])
def test_pairwise_values_are_symmetric_in_the_players(n):
    """Relabelling the players permutes the values (up to rounding)."""
    rng = random.Random(n)
    race = {}
    for i, j in itertools.combinations(range(n), 2):
        race[i, j] = rng.uniform(-0.99, 0.99)
        race[j, i] = -race[i, j]
    values = pairwise_win_values(_pairs(race, n, list(range(n))), n, n - 1)
    assert abs(ordered_sum(values)) <= 1e-12
    assert all(-1.0 / (n - 1) < v < 1.0 for v in values)
    for _ in range(5):
        perm = list(range(n))
        rng.shuffle(perm)  # new player k is old player perm[k]
        moved = pairwise_win_values(_pairs(race, n, perm), n, n - 1)
        assert moved == pytest.approx([values[perm[k]] for k in range(n)], abs=1e-14)


def test_pairwise_values_of_equal_and_dominant_players():
    assert pairwise_win_values([0.0, 0.0, 0.0], 3, 2) == pytest.approx([0.0, 0.0, 0.0], abs=1e-15)
    # Two players: the race itself, as a win chance (1 + v) / 2 turned into a return.
    assert pairwise_win_values([0.4], 2, 1) == pytest.approx([0.4, -0.4], abs=1e-15)
    # Player 0 beats both others, who are even: 0 first, the others tied.
    v0, v1, v2 = pairwise_win_values([0.8, 0.8, 0.0], 3, 2)
    assert v0 > 0 > v1 and v1 == pytest.approx(v2, abs=1e-15)
    # Maedn's scale (divisor 1): a win is N - 1, a loss -1.
    assert pairwise_win_values([0.99] * 3 + [0.0] * 3, 4, 1)[0] == pytest.approx(3.0, abs=0.1)


# ------------------------------------------------------------ game sense


def _pig_state(game: pyspiel.Game, turns: list[list[int]]) -> pyspiel.State:
    """Pig after the given turns: each a list of die faces rolled (1 busts), then a hold."""
    s = game.new_initial_state()
    for faces in turns:
        for face in faces:
            s.apply_action(0)  # roll
            s.apply_action(face - 1)  # chance outcome k is face k + 1
        if not faces or faces[-1] != 1:
            s.apply_action(1)  # hold
    return s


def test_pig_values_rotate_with_the_turn_player():
    """The value depends on the scores in turn order from the turn player, not on seat labels."""
    game = pyspiel.load_game("pig(players=3)")
    ev = PigEvaluator(game)
    # A: scores (6, 0, 0), player 1 to move. B: scores (0, 6, 0), player 2 to move.
    a = _pig_state(game, [[6]])
    b = _pig_state(game, [[1], [6]])
    assert str(a).startswith("Scores: 6 0 0") and a.current_player() == 1
    assert str(b).startswith("Scores: 0 6 0") and b.current_player() == 2
    va, vb = ev.evaluate(a), ev.evaluate(b)
    # Seat k of A plays the part of seat k + 1 of B.
    assert vb.tolist() == pytest.approx(np.roll(va, 1).tolist(), abs=1e-14)
    # The same after a roll of 5 by the turn player (a decision with a turn total).
    a5, b5 = a.child(0).child(4), b.child(0).child(4)
    assert ev.evaluate(b5).tolist() == pytest.approx(np.roll(ev.evaluate(a5), 1).tolist())
    assert ev.evaluate(a5)[1] > va[1]  # a banked-able turn total is worth something


def test_pig_leader_and_turn_order():
    game = pyspiel.load_game("pig(players=4)")
    ev = PigEvaluator(game)
    start = ev.evaluate(game.new_initial_state())
    # Equal scores: moving earlier in the round is worth more.
    assert start[0] > start[1] > start[2] > start[3]
    ahead = ev.evaluate(_pig_state(game, [[1], [1], [6, 6, 6, 6, 6]]))  # player 2 has 30
    assert ahead.argmax() == 2


def test_maedn_and_yacht_start_even():
    for spec in ("maedn(players=3)", "maedn(players=4)", "yacht(players=3)", "yacht(players=6)"):
        game = pyspiel.load_game(spec)
        values = default_evaluator(game).evaluate(game.new_initial_state())
        assert values.tolist() == pytest.approx([0.0] * game.num_players(), abs=1e-15), spec


def test_maedn_progress_is_worth_more():
    """Along random play, the player with the most progress (least to go) leads the values."""
    game = pyspiel.load_game("maedn(players=4)")
    ev = MaednEvaluator(game)
    checked = 0
    for s in _states("maedn(players=4)"):
        if s.is_terminal():
            continue
        text = str(s)
        pieces = [ev._pieces(text, str(p + 1), ev._fields[p]) for p in range(4)]
        progress = [sum(rel + 1 for rel, _ in own) for own in pieces]
        values = ev.evaluate(s)
        if max(progress) - sorted(progress)[-2] >= 30:  # a clear leader
            assert values.argmax() == int(np.argmax(progress)), (progress, values)
            checked += 1
    assert checked >= 5


# ------------------------------------------------------------ native twins


def _native():
    native = native_engine.native()
    if native is None:
        pytest.skip(native_engine.problem() or "no native engine")
    return native


@pytest.mark.parametrize("spec,cls", NATIVE_CASES, ids=[spec for spec, _ in NATIVE_CASES])
def test_native_equals_python_bit_for_bit(spec, cls):
    native = _native()
    game = pyspiel.load_game(spec)
    evaluator = cls(game)
    bad = []
    for s in _states(spec):
        for p in range(game.num_players()):
            got = native.evaluator_value(cls.native_name, game, s, p)
            want = evaluator.player_value(s, p)
            if got != want:
                bad.append(f"player {p}: native {got!r} != python {want!r} at\n{s}")
    assert not bad, f"{spec}: {len(bad)} mismatches, first: {bad[0]}"


def test_native_pig_long_turns_at_five_players():
    """A roll-happy policy reaches turn totals past the hold-wins threshold and scores near w."""
    native = _native()
    game = pyspiel.load_game("pig(players=5,winscore=20)")
    evaluator = PigEvaluator(game)
    for s in pig_states(game, 400, seed=9, roll=0.85):
        for p in range(5):
            assert native.evaluator_value("pig", game, s, p) == evaluator.player_value(s, p), s


def test_native_refuses_other_dice():
    native = _native()
    game = pyspiel.load_game("yacht(players=3,dice_sides=4)")
    with pytest.raises(ValueError, match="supports 5 six-sided dice"):
        native.evaluator_value("yacht", game, game.new_initial_state(), 0)


# ------------------------------------------------------------ in the search

SEARCHES = [
    ("pig(players=3)", 4),
    ("pig(players=6,winscore=30)", 3),
    ("maedn(players=3)", 4),
    ("maedn(players=4)", 4),
    ("yacht(players=3)", 1),
    ("yacht(players=1)", 1),
]


def _position(game: pyspiel.Game, plies: int, seed: int) -> pyspiel.State:
    """A decision node after `plies` seeded random steps."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(plies):
        s.apply_action(random_action(s, rng))
    while s.is_chance_node():
        s.apply_action(random_action(s, rng))
    assert not s.is_terminal()
    return s


@pytest.mark.parametrize("spec,depth", SEARCHES, ids=[spec for spec, _ in SEARCHES])
def test_searches_with_the_heuristics_agree_across_engines(spec, depth):
    """Paranoid and max^n searches leaf on these evaluators: both engines, same everything."""
    _native()
    game = pyspiel.load_game(spec)
    modes = ["paranoid", "maxn"] if game.num_players() > 2 else [""]
    for seed in (1, 2):
        state = _position(game, 60, seed)
        for mode, algorithm in itertools.product(modes, ("expectiminimax", "star2")):
            got = {}
            for engine in ("python", "native"):
                option = f",multiplayer={mode}" if mode else ""
                spec_ = f"{algorithm}(max_depth={depth},engine={engine}{option})"
                with warnings.catch_warnings():
                    warnings.simplefilter("error", EvaluatorFallbackWarning)
                    bot = bots.make_bot(spec_, game, state.current_player())
                action = bot.step(state)
                ls = bot.last_search
                assert ls["engine"] == engine
                got[engine] = (
                    action,
                    ls["value"],
                    ls.get("values"),
                    ls["nodes"],
                    ls["evaluations"],
                )
            assert got["python"] == got["native"], (spec, seed, mode, algorithm)
            assert got["python"][4] > 0
