"""Can't Stop's C++ twin (games/native/cant_stop.cc) against the Python game, and the
search engines on either.

Random play drives the Python game and the C++ twin with the same seeded actions at
2, 3 and 4 players; every step must agree: player, legal actions, chance outcomes and
probabilities, returns, strings, observation tensors, the evaluators' values (Python on
either state, native) to the bit, and the Python position (and MCMS's seed text)
rebuilt from the C++ state. Then expectiminimax, star2 and MCMS must return the same
values, moves and counters on both engines and both games. Skipped where the native
engine is not built or ``STARSPIEL_ENGINE=python`` is set.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from exactness import deepen, deepening_differences
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import bots
import games
from bots import native_engine
from bots.evaluators import CantStopEvaluator
from bots.keys import KEY_FUNCTIONS, SAMPLING_KEY_FUNCTIONS, custom_game_key
from bots.mcms import canonical_text
from games.cant_stop import CantStopGame, CantStopPosition

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=f"engine=native: {native_engine.problem()}"
)

PARAMS = [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 2, "horizon": 30}]


def _games(params: dict[str, Any]) -> tuple[pyspiel.Game, CantStopGame]:
    cpp = pyspiel.load_game("cant_stop", params)
    assert not isinstance(cpp, CantStopGame), "the Python game is registered"
    return cpp, CantStopGame(params)


def _id(params: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())


def test_the_twin_and_its_evaluator_and_keys_are_registered():
    assert games.native_twins()
    assert CantStopEvaluator.native_name in native_engine.require().evaluator_names()
    assert KEY_FUNCTIONS["cant_stop"] is custom_game_key
    assert "cant_stop" in SAMPLING_KEY_FUNCTIONS


@pytest.mark.parametrize("params", PARAMS, ids=_id)
def test_game_info_and_type_agree(params):
    cpp, py = _games(params)
    assert str(cpp) == str(py)
    assert cpp.get_parameters() == py.get_parameters()
    for attr in (
        "num_distinct_actions",
        "max_chance_outcomes",
        "num_players",
        "min_utility",
        "max_utility",
        "utility_sum",
        "max_game_length",
        "max_chance_nodes_in_history",
        "max_history_length",
        "observation_tensor_shape",
        "observation_tensor_size",
    ):
        assert getattr(cpp, attr)() == getattr(py, attr)(), attr
    cpp_type, py_type = cpp.get_type(), py.get_type()
    for attr in dir(py_type):
        if not attr.startswith("_") and attr[0].islower() and attr != "pretty_print":
            assert getattr(cpp_type, attr) == getattr(py_type, attr), attr
    assert str(pyspiel.load_game(str(cpp))) == str(cpp)


def _step_agrees(cpp_game, cpp, py, native, py_eval, rng) -> int | None:
    players = cpp_game.num_players()
    assert str(cpp) == str(py)
    player = cpp.current_player()
    assert player == py.current_player()
    assert cpp.is_terminal() == py.is_terminal()
    assert cpp.is_chance_node() == py.is_chance_node()
    assert cpp.returns() == py.returns()
    assert cpp.legal_actions() == py.legal_actions()
    assert cpp.history() == py.history()
    for p in range(players):
        assert cpp.observation_tensor(p) == py.observation_tensor(p)
        assert cpp.observation_string(p) == py.observation_string(p)
        assert cpp.information_state_string(p) == py.information_state_string(p)
    pos = py.search_position()
    assert CantStopPosition.from_state(cpp) == pos
    assert canonical_text(SAMPLING_KEY_FUNCTIONS["cant_stop"](cpp)) == canonical_text(pos)
    for p in range(players):
        expected = py_eval.player_value(py, p)
        assert py_eval.player_value(cpp, p) == expected
        assert native.evaluator_value("cant_stop", cpp_game, cpp, p) == expected
    if cpp.is_terminal():
        return None
    if cpp.is_chance_node():
        outcomes = cpp.chance_outcomes()
        assert outcomes == py.chance_outcomes()
        actions, probs = zip(*outcomes)
        action = rng.choices(actions, probs)[0]
    else:
        action = rng.choice(cpp.legal_actions())
    for a in cpp.legal_actions():
        assert cpp.action_to_string(player, a) == py.action_to_string(player, a)
    return action


@pytest.mark.parametrize("params", PARAMS, ids=_id)
def test_random_play_agrees_step_by_step(params):
    cpp_game, py_game = _games(params)
    native = native_engine.require()
    py_eval = CantStopEvaluator(py_game)
    assert CantStopEvaluator(cpp_game).bounds == py_eval.bounds == (-1.0, 1.0)
    rng = random.Random(_id(params))
    for _ in range(4):
        cpp, py = cpp_game.new_initial_state(), py_game.new_initial_state()
        while True:
            action = _step_agrees(cpp_game, cpp, py, native, py_eval, rng)
            if action is None:
                break
            cpp.apply_action(action)
            py.apply_action(action)
        assert cpp.is_terminal()


@pytest.mark.parametrize(
    "spec, words",
    [
        ("cant_stop(players=5)", ["players=5", "[2, 4]"]),
        ("cant_stop(horizon=0)", ["horizon=0", ">= 1", "turns before a draw"]),
    ],
)
def test_native_parameter_errors_are_the_python_ones(spec, words):
    with pytest.raises(ValueError) as native_error:
        pyspiel.load_game(spec)
    params = {k: v for k, v in pyspiel.game_parameters_from_string(spec).items() if k != "name"}
    with pytest.raises(ValueError) as python_error:
        CantStopGame(params)
    assert str(native_error.value) == str(python_error.value)


def _positions(count: int, seed: int, players: int = 2) -> list[list[int]]:
    """Histories of seeded random play that end at a decision."""
    game = CantStopGame({"players": players})
    rng = random.Random(seed)
    histories = []
    while len(histories) < count:
        state = game.new_initial_state()
        target = rng.randrange(5, 60)
        while not state.is_terminal() and len(state.history()) < target:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state.is_chance_node():
            histories.append(state.history())
    return histories


def _replay(game: pyspiel.Game, history: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize(
    "spec, depth, tt_size",
    [
        ("expectiminimax", 3, None),
        ("expectiminimax", 3, 0),
        ("star1", 3, 0),
        ("star2", 4, None),
        ("star2", 3, 0),
        ("mcms(samples=5,seed=3)", 4, None),
        ("mcms(samples=5,seed=3)", 4, 0),
    ],
)
def test_engines_and_games_agree_on_every_counter(spec, depth, tt_size):
    """The Python engine on the Python game is the reference; the native engine on the
    C++ twin, and each engine on the other's game, must match it counter for counter."""
    cpp_game, py_game = _games({})
    options = {} if tt_size is None else {"tt_size": tt_size}
    for history in _positions(3, 11):
        where = f"{spec} tt_size={tt_size} after {history}"
        reference = deepen(py_game, _replay(py_game, history), spec, depth, "python", **options)
        assert reference["stats"]["nodes"] > 50, where
        for game, engine in ((cpp_game, "native"), (cpp_game, "python"), (py_game, "native")):
            other = deepen(game, _replay(game, history), spec, depth, engine, **options)
            differences = deepening_differences(reference, other)
            assert not differences, f"{where}, {engine} on {type(game).__name__}: {differences}"


@pytest.mark.parametrize("engine", ["python", "native"])
def test_whole_two_player_games_of_star2_against_random_and_mcts(engine):
    game = pyspiel.load_game("cant_stop")
    star2 = bots.make_bot("star2(max_depth=2)", game, 0, engine=engine)
    opponents = [
        bots.make_bot("random", game, 1, seed=3),
        bots.make_bot("mcts(evaluator=heuristic,max_simulations=50)", game, 1),
    ]
    for index, opponent in enumerate(opponents):
        seats = [star2, opponent]
        if index:
            returns = pyspiel.evaluate_bots(game.new_initial_state(), seats, 5)
        else:
            returns = evaluate_bots(game.new_initial_state(), seats, np.random.RandomState(5))
        assert sorted(returns) == [-1.0, 1.0]
        assert star2.last_search["engine"] == engine


@pytest.mark.parametrize("spec", ["star2", "star2(multiplayer=maxn)", "mcms(samples=4,seed=1)"])
@pytest.mark.parametrize("players", [3, 4])
def test_engines_agree_with_three_and_four_players(spec, players):
    """Paranoid and max^n read the evaluator's vectors (in bounds, summing to 0): the native
    engine on the C++ twin matches the Python engine on the Python game."""
    cpp_game, py_game = _games({"players": players})
    for history in _positions(2, players, players):
        reference = deepen(py_game, _replay(py_game, history), spec, 2, "python")
        other = deepen(cpp_game, _replay(cpp_game, history), spec, 2, "native")
        differences = deepening_differences(reference, other)
        assert not differences, f"{spec} after {history}: {differences}"
