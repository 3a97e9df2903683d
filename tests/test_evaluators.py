"""Tests for bots.evaluators: bounds hold on real play, terminal states give
returns(), the registry and make_evaluator pick and reject the right things.

Why random play: it reaches the odd corners (bar checkers, captures, empty
face-down pools, full 2048 boards) that hand-built positions miss."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pyspiel
import pytest
from helpers.playouts import random_action

from bots import evaluators as ev
from bots.evaluators.yacht import _YACHT_EXPECTED as YACHT_EXPECTED
from experiments.benchmark.evaluator_speed import BENCH_GAMES

# The benchmark's games, then the variants only the tests play.
GAMES = [
    *BENCH_GAMES,
    ("maedn", {"players": 2, "twoPlayersOpposite": False}),
    ("pig", {"winscore": 20, "piglet": True, "diceoutcomes": 2}),
]

EXPECTED_CLASS = {
    "backgammon": ev.BackgammonEvaluator,
    "pig": ev.PigEvaluator,
    "einstein_wurfelt_nicht": ev.EinsteinEvaluator,
    "2048": ev.Game2048Evaluator,
    "yacht": ev.YachtEvaluator,
    "maedn": ev.MaednEvaluator,
    "catch": ev.CatchEvaluator,
    "banqi": ev.BanqiEvaluator,
}


def _random_games(game, n_games: int, seed: int, max_moves: int = 3000):
    """Yield every state (terminal included) of seeded random games."""
    rng = random.Random(seed)
    for _ in range(n_games):
        s = game.new_initial_state()
        yield s
        moves = 0
        while not s.is_terminal() and moves < max_moves:
            s.apply_action(random_action(s, rng))
            moves += 1
            yield s


def _check_values(game, evaluator, state):
    lo, hi = ev.evaluator_bounds(evaluator, game)
    values = evaluator.evaluate(state)
    assert isinstance(values, np.ndarray)
    assert values.shape == (game.num_players(),)
    assert all(lo <= v <= hi for v in values), (values, (lo, hi), str(state))
    for p in range(game.num_players()):
        assert evaluator.player_value(state, p) == pytest.approx(values[p], abs=1e-12)
    if state.is_terminal():
        assert values.tolist() == state.returns()
        return
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert values.sum() == pytest.approx(0.0, abs=1e-12)
        assert game.min_utility() < values[0] < game.max_utility()
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS:
        assert values[0] >= state.returns()[0]
    assert np.isfinite(values).all()


@pytest.mark.parametrize("name,params", GAMES, ids=lambda x: str(x))
def test_values_within_bounds_on_random_games(name, params):
    game = pyspiel.load_game(name, params)
    evaluator = ev.default_evaluator(game)
    assert isinstance(evaluator, EXPECTED_CLASS[name])
    lo, hi = evaluator.bounds
    assert (lo, hi) == ev.evaluator_bounds(evaluator, game)
    assert game.min_utility() <= lo <= hi <= ev.game_value_bounds(game)[1]
    terminals = 0
    for state in _random_games(game, n_games=4, seed=7):
        _check_values(game, evaluator, state)
        terminals += state.is_terminal()
    assert terminals >= 1


@pytest.mark.parametrize("name,params", GAMES[:6], ids=lambda x: str(x))
def test_prior_is_a_distribution(name, params):
    game = pyspiel.load_game(name, params)
    evaluator = ev.default_evaluator(game)
    for _i, state in enumerate(_random_games(game, n_games=1, seed=3, max_moves=60)):
        if state.is_terminal():
            continue
        prior = evaluator.prior(state)
        assert sum(p for _, p in prior) == pytest.approx(1.0)
        legal = set(state.legal_actions())
        assert {a for a, _ in prior} == legal


def test_backgammon_features_match_board_accessor():
    game = pyspiel.load_game("backgammon")
    evaluator = ev.BackgammonEvaluator(game)
    assert evaluator.evaluate(game.new_initial_state())[0] == pytest.approx(0.0, abs=1e-9)
    checked = 0
    for state in _random_games(game, n_games=2, seed=11):
        if state.is_terminal():
            continue
        x = [state.board(0, p) for p in range(24)]
        o = [state.board(1, p) for p in range(24)]
        obs = state.observation_tensor(0)  # bar and borne-off counts
        expected = [
            sum(c * (24 - p) for p, c in enumerate(x)) + 25 * obs[192],
            sum(c * (p + 1) for p, c in enumerate(o)) + 25 * obs[195],
            x.count(1),
            o.count(1),
            obs[193],
            obs[196],
            sum(c >= 2 for c in x[18:]),
            sum(c >= 2 for c in o[:6]),
        ]
        assert evaluator.features(state) == expected
        pip_x, pip_o = expected[:2]
        if pip_o - pip_x > 60:
            assert evaluator.evaluate(state)[0] > 0
        if pip_x - pip_o > 60:
            assert evaluator.evaluate(state)[0] < 0
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("opposite", [True, False])
def test_maedn_piece_parsing_matches_observation_tensor(opposite):
    game = pyspiel.load_game("maedn", {"players": 2, "twoPlayersOpposite": opposite})
    evaluator = ev.MaednEvaluator(game)
    checked = 0
    for state in _random_games(game, n_games=2, seed=13, max_moves=600):
        s = str(state)
        for player, char in ((0, "1"), (1, "2")):
            obs = state.observation_tensor(player)  # the player's own view
            expected = [i for i in range(40) if obs[4 * i + player]]
            expected += [40 + i for i in range(4) if obs[160 + 4 * i + player]]
            got = sorted(rel for rel, _ in evaluator._pieces(s, char, evaluator._fields[player]))
            assert got == expected, (player, s)
            checked += bool(expected)
    assert checked > 100


def test_pig_value_tracks_scores_and_turn_total():
    game = pyspiel.load_game("pig")
    evaluator = ev.PigEvaluator(game)
    state = game.new_initial_state()
    start = evaluator.evaluate(state)[0]
    assert 0 < start < 0.3  # moving first is a small edge
    # Player 0 rolls a 6 three times: turn total 18 raises player 0's value.
    values = [start]
    for _ in range(3):
        state.apply_action(0)  # roll
        values.append(evaluator.evaluate(state)[0])
        state.apply_action(5)  # a six
        values.append(evaluator.evaluate(state)[0])
    assert values[-1] > start
    state.apply_action(1)  # hold 18: player 1 to move, behind
    assert evaluator.evaluate(state)[0] > start


def test_pig_holds_near_twenty_at_the_start():
    evaluator = ev.PigEvaluator(pyspiel.load_game("pig"))
    value, roll = evaluator._turn(0, 0)
    first_hold = next(t for t in range(100) if value[t] > roll[t])
    assert 15 <= first_hold <= 25  # the classic "hold at 20" region


@pytest.mark.parametrize(
    "params, step",
    [({}, 7), ({"winscore": 20, "piglet": True, "diceoutcomes": 2}, 1), ({"winscore": 30}, 1)],
)
def test_pig_shared_tables_equal_the_per_pair_recursion(params, step):
    # The vectorised tables must give the very floats of the scalar recursion:
    # every published pig node count depends on them.
    evaluator = ev.PigEvaluator(pyspiel.load_game("pig", params))
    w = evaluator.win_score
    pairs = [(a, b) for a in range(w + 1) for b in range(w + 1)][::step]
    for a, b in pairs:
        value, roll = evaluator._turns[(a, b)]
        want_value, want_roll = evaluator._turn(a, b)
        assert list(value) == want_value and list(roll) == want_roll, (params, a, b)
    # A second evaluator of the same game shares the tables instead of rebuilding them.
    assert ev.PigEvaluator(pyspiel.load_game("pig", params))._turns is evaluator._turns


def test_einstein_next_mover_and_expected_distance():
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    evaluator = ev.EinsteinEvaluator(game)
    checked = 0
    for state in _random_games(game, n_games=5, seed=17):
        if state.is_chance_node() and state.move_number() >= 2:
            child = state.child(state.chance_outcomes()[0][0])
            assert evaluator.next_mover(state) == child.current_player()
            checked += 1
    assert checked > 20
    assert evaluator._expected((1, 2, 3, 4, 4, 4)) == pytest.approx(3.0)
    # Only cube 6 left: every die value selects it.
    assert evaluator._expected((None,) * 5 + (2,)) == pytest.approx(2.0)
    # Cubes 1 and 6: die 2..5 may pick either, so the nearer one counts.
    assert evaluator._expected((4, None, None, None, None, 1)) == pytest.approx((4 + 1 * 5) / 6)


def test_yacht_totals_match_the_state_string():
    game = pyspiel.load_game("yacht")
    evaluator = ev.YachtEvaluator(game)
    for state in _random_games(game, n_games=2, seed=23):
        if state.is_terminal():
            continue
        text = str(state)
        totals = [int(part.split(")")[0]) for part in text.split("(total: ")[1:]]
        sections = text.split("\nPlayer ")[1:]  # one per player
        used = [sum(line.startswith("  ") for line in part.splitlines()) for part in sections]
        total0, total1, rest0, rest1, left = evaluator.expectations(state)
        assert [total0, total1] == totals
        assert left == 24 - sum(used)
        assert rest0 <= sum(YACHT_EXPECTED) and rest1 <= sum(YACHT_EXPECTED)


def test_catch_sign_is_exact():
    game = pyspiel.load_game("catch")
    evaluator = ev.CatchEvaluator(game)
    rows = game.get_parameters()["rows"]
    for state in _random_games(game, n_games=20, seed=5):
        if state.is_terminal() or state.ball_row() < 0:
            continue
        left = rows - 1 - state.ball_row()
        catchable = abs(state.paddle_col() - state.ball_col()) <= left
        assert (evaluator.evaluate(state)[0] > 0) == catchable


def test_2048_bounds_are_proven_not_max_utility():
    """OpenSpiel's 2048 max_utility is exceeded by real games; ours is not."""
    game = pyspiel.load_game("2048", {"max_tile": 64})
    evaluator = ev.Game2048Evaluator(game)
    assert evaluator.bounds == (0.0, 16 * game.max_utility())
    best = 0.0
    for state in _random_games(game, n_games=6, seed=2):
        _check_values(game, evaluator, state)
        best = max(best, state.returns()[0])
    assert best > game.max_utility()  # why the evaluator cannot declare it


def test_2048_future_estimate_is_clamped():
    game = pyspiel.load_game("2048")
    evaluator = ev.Game2048Evaluator(game)
    evaluator._max = 30.0  # squeeze the room left for the future
    seen = 0
    for state in _random_games(game, n_games=1, seed=3, max_moves=60):
        if not state.is_terminal():
            score = state.returns()[0]
            value = evaluator.evaluate(state)[0]
            assert score <= value <= max(score, 30.0)
            seen += score < 30.0 < value + 1e-9
    assert seen  # the clamp was active at least once


def _banqi_material_from_history(history):
    """Red minus black material by replaying the history: 0 minus captures."""
    values = (6, 5, 4, 3, 2, 4, 1)
    board = {}
    diff = 0
    i = 0
    while i < len(history):
        a = history[i]
        if a < 32:  # flip, then the revealed piece
            board[a] = history[i + 1]
            i += 2
            continue
        src, dst = divmod(a - 32, 32)
        captured = board.get(dst)
        if captured is not None:
            diff += values[captured % 7] * (1 if captured >= 7 else -1)
        board[dst] = board.pop(src)
        i += 1
    return diff


def test_banqi_material_matches_history_replay():
    game = pyspiel.load_game("banqi")
    evaluator = ev.BanqiEvaluator(game)
    captures = 0
    for state in _random_games(game, n_games=3, seed=21):
        if state.is_terminal() or state.is_chance_node():
            continue
        expected = _banqi_material_from_history(state.history())
        assert evaluator.material(state) == pytest.approx(expected, abs=1e-9)
        captures += expected != 0
    assert captures > 50


def test_banqi_flips_are_value_neutral():
    """Material counts the face-down pool, so revealing a piece changes nothing."""
    game = pyspiel.load_game("banqi")
    evaluator = ev.BanqiEvaluator(game)
    checked = 0
    for state in _random_games(game, n_games=2, seed=4, max_moves=300):
        if not state.is_chance_node() or "(P0=" not in str(state):
            continue
        before = evaluator.evaluate(state)[0]
        for action, _ in state.chance_outcomes():
            child = state.child(action)
            if not child.is_terminal():
                assert evaluator.evaluate(child)[0] == pytest.approx(before, abs=1e-9)
                checked += 1
    assert checked > 10


def test_midpoint_fallback():
    game = pyspiel.load_game("tic_tac_toe")
    evaluator = ev.default_evaluator(game)
    assert isinstance(evaluator, ev.MidpointEvaluator)
    assert evaluator.bounds == (-1.0, 1.0)
    state = game.new_initial_state()
    assert evaluator.evaluate(state).tolist() == [0.0, 0.0]
    for a in (0, 3, 1, 4, 2):
        state.apply_action(a)
    assert evaluator.evaluate(state).tolist() == [1.0, -1.0]
    # Rewards game: the fallback returns the score collected so far.
    g2048 = pyspiel.load_game("2048")
    mid = ev.make_evaluator("zero", g2048)
    for state in _random_games(g2048, n_games=1, seed=1, max_moves=80):
        assert mid.evaluate(state).tolist() == state.returns()


def test_fallback_when_heuristic_rejects_parameters():
    game = pyspiel.load_game("yacht", {"num_dice": 4})
    with pytest.warns(ev.EvaluatorFallbackWarning) as caught:
        assert isinstance(ev.default_evaluator(game), ev.MidpointEvaluator)
    # The warning names the game, the heuristic, its reason and the replacement.
    (message,) = [str(w.message) for w in caught]
    for words in ("yacht(num_dice=4)", "YachtEvaluator", "supports 5 six-sided dice", "midpoint"):
        assert words in message
    with pytest.raises(ValueError, match="5 six-sided dice"):
        ev.make_evaluator("yacht", game)


def test_fallback_warns_once_per_game_under_the_default_filter():
    four, sides = pyspiel.load_game("yacht(num_dice=4)"), pyspiel.load_game("yacht(dice_sides=4)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            for game in (four, sides):
                ev.make_evaluator(None, game)
    assert sorted(str(w.message).split(":")[0] for w in caught) == [
        "yacht(dice_sides=4)",
        "yacht(num_dice=4)",
    ]


def test_no_fallback_warning_where_the_heuristic_accepts_the_game():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(ev.default_evaluator(pyspiel.load_game("pig")), ev.PigEvaluator)
        assert isinstance(
            ev.default_evaluator(pyspiel.load_game("tic_tac_toe")), ev.MidpointEvaluator
        )


def test_rollout_evaluator_is_a_pure_function_of_the_state():
    game = pyspiel.load_game("pig", {"winscore": 10})
    a = ev.make_evaluator("rollout(n=5,seed=3)", game)
    b = ev.RolloutEvaluator(game, n_rollouts=5, seed=3)
    assert isinstance(a, ev.RolloutEvaluator) and a.n_rollouts == 5
    state = game.new_initial_state()
    first = a.evaluate(state).tolist()
    b.evaluate(state.child(0))  # a different call history ...
    assert b.evaluate(state.clone()).tolist() == first == a.evaluate(state).tolist()
    assert ev.evaluator_bounds(a, game) == (-1.0, 1.0)
    for state in _random_games(game, n_games=1, seed=2):
        v = a.evaluate(state)
        assert -1.0 <= v[0] <= 1.0 and v.sum() == pytest.approx(0.0)
        if state.is_terminal():
            assert v.tolist() == state.returns()
    default_rollout = ev.make_evaluator("rollout", game)
    assert default_rollout.n_rollouts == 1 and default_rollout.seed == 0
    fresh = ev.make_evaluator("rollout(n=3,seed=None)", game)
    assert fresh.seed is None and -1.0 <= fresh.evaluate(state)[0] <= 1.0
    truncated = ev.make_evaluator("rollout(n=2, max_length=3)", game)
    assert truncated.max_length == 3
    assert truncated.evaluate(game.new_initial_state()).tolist() == [0.0, 0.0]


def test_make_evaluator_accepts_names_and_objects():
    game = pyspiel.load_game("pig")
    assert isinstance(ev.make_evaluator(None, game), ev.PigEvaluator)
    assert isinstance(ev.make_evaluator("default", game), ev.PigEvaluator)
    assert isinstance(ev.make_evaluator("pig", game), ev.PigEvaluator)
    assert isinstance(ev.make_evaluator("zero", game), ev.MidpointEvaluator)
    assert isinstance(ev.make_evaluator(" 2048 ", pyspiel.load_game("2048")), ev.Game2048Evaluator)

    class Mine:
        def evaluate(self, state):
            return [0.5, -0.5]

    mine = Mine()
    assert ev.make_evaluator(mine, game) is mine
    assert ev.evaluator_bounds(mine, game) == (-1.0, 1.0)
    from open_spiel.python.algorithms import mcts

    os_eval = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    assert ev.make_evaluator(os_eval, game) is os_eval
    with pytest.raises(ValueError, match="C\\+\\+ evaluator"):
        ev.make_evaluator(pyspiel.RandomRolloutEvaluator(1, 0), game)


@pytest.mark.parametrize(
    "spec,match",
    [
        ("nope", "unknown evaluator 'nope'"),
        ("backgammon", "not for 'pig'"),
        ("rollout(k=3)", "bad argument"),
        ("rollout(n=x)", "must be an integer"),
        ("rollout(n=0)", "n_rollouts must be"),
        ("zero(1)", "takes no arguments"),
        ("rollout(", "unknown evaluator"),
        (42, "got int"),
        (object(), "evaluate"),
    ],
)
def test_make_evaluator_errors(spec, match):
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError, match=match) as info:
        ev.make_evaluator(spec, game)
    assert "accepted" in str(info.value)


def test_evaluator_bounds_validation():
    game = pyspiel.load_game("pig")

    class Bad:
        bounds = (1.0, -1.0)

        def evaluate(self, state):
            return [0.0, 0.0]

    with pytest.raises(ValueError, match="L <= U"):
        ev.evaluator_bounds(Bad(), game)
    Bad.bounds = "wide"
    with pytest.raises(ValueError, match="pair of numbers"):
        ev.evaluator_bounds(Bad(), game)
    Bad.bounds = (-0.5, 0.5)
    assert ev.evaluator_bounds(Bad(), game) == (-0.5, 0.5)


def test_game_specific_class_rejects_other_game():
    with pytest.raises(ValueError, match="evaluates game 'pig'"):
        ev.PigEvaluator(pyspiel.load_game("backgammon"))


def test_registered_evaluator_becomes_the_default(monkeypatch):
    game = pyspiel.load_game("tic_tac_toe")
    made = []

    def factory(g):
        made.append(g)
        return ev.MidpointEvaluator(g)

    monkeypatch.delitem(ev.EVALUATORS, "tic_tac_toe", raising=False)
    assert "tic_tac_toe" not in ev.EVALUATORS
    ev.register_evaluator("tic_tac_toe", factory)
    try:
        evaluator = ev.default_evaluator(game)
        assert made == [game] and isinstance(evaluator, ev.MidpointEvaluator)
        assert isinstance(ev.make_evaluator("tic_tac_toe", game), ev.MidpointEvaluator)
        assert made == [game, game]
        # The same factory again is fine (a module imported twice); another one is refused.
        ev.register_evaluator("tic_tac_toe", factory)
        with pytest.raises(ValueError, match="already has the evaluator"):
            ev.register_evaluator("tic_tac_toe", ev.RolloutEvaluator)
    finally:
        del ev.EVALUATORS["tic_tac_toe"]


@pytest.mark.parametrize(
    "name, factory, match",
    [
        ("", ev.MidpointEvaluator, "short name"),
        ("zero", ev.MidpointEvaluator, "reserved"),
        ("rollout", ev.MidpointEvaluator, "reserved"),
        ("tic_tac_toe", 42, "must be callable"),
    ],
)
def test_register_evaluator_rejects_bad_input(name, factory, match):
    with pytest.raises(ValueError, match=match):
        ev.register_evaluator(name, factory)


def test_custom_games_register_into_the_one_registry():
    import games  # noqa: F401 - registers the custom games (their C++ twins where built)

    for name in ("dice", "ballard_tree", "chance_tic_tac_toe"):
        evaluator = ev.default_evaluator(pyspiel.load_game(name))
        assert type(evaluator) is ev.EVALUATORS[name]
        assert evaluator.accepts_positions is True


def test_registry_covers_games_in_scope():
    assert set(EXPECTED_CLASS) <= set(ev.EVALUATORS)
    for name in EXPECTED_CLASS:
        params = {"players": 2} if name == "maedn" else {}
        evaluator = ev.EVALUATORS[name](pyspiel.load_game(name, params))
        lo, hi = evaluator.bounds
        assert math.isfinite(lo) and math.isfinite(hi) and lo <= hi
        assert evaluator.accepts_positions is False
        assert isinstance(evaluator, ev.EvaluatorLike)
