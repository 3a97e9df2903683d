"""The C++ twins of the custom games (games/native/) against their Python games
(Can't Stop's searches on both: tests/test_cant_stop_native.py).

Random play drives a Python game (its class instantiated directly, outside the
registry) and the C++ twin (``pyspiel.load_game``) with the same seeded actions,
and every step must agree exactly: player, legal actions, chance outcomes and
probabilities, returns, strings, observation tensors, evaluator values, and the
position (and MCMS's canonical text) rebuilt from the C++ state. Skipped where
the native engine is not built or ``STARSPIEL_ENGINE=python`` is set.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest
from helpers.games_in_scope import BAD_PARAMETERS
from helpers.playouts import random_action, replay

import games
from bots import native_engine
from bots.adapters import KEY_FUNCTIONS, SAMPLING_KEY_FUNCTIONS
from bots.evaluators import (
    BallardEvaluator,
    CantStopEvaluator,
    ChanceTTTEvaluator,
    DiceEvaluator,
)
from bots.keys import custom_game_key
from bots.mcms import canonical_text
from games import PYTHON_GAMES

ROOT = Path(__file__).resolve().parent.parent

EVALUATORS = {
    "dice": DiceEvaluator,
    "chance_tic_tac_toe": ChanceTTTEvaluator,
    "ballard_tree": BallardEvaluator,
    "cant_stop": CantStopEvaluator,
}
# Can't Stop's twin has no UndoAction: the native engine clones it.
UNDOABLE = {"dice", "chance_tic_tac_toe", "ballard_tree"}

DICE_PARAMS = [{"n": n, "k": k} for n in range(3, 8) for k in range(3, 6) if k <= n]
TTT_PARAMS = [{}]
BALLARD_PARAMS = [
    {"n": n, "plies": plies, "order": order, "seed": seed, "final_chance": final}
    for n in (2, 3, 4, 5)
    for plies in (1, 2, 3, 4)
    for order, seed in (("best", 0), ("random", 0), ("random", 7), ("random", -3))
    for final in (False, True)
    if n**plies <= 700
]
CANT_STOP_PARAMS = [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 2, "horizon": 30}]
CASES = (
    [("dice", p) for p in DICE_PARAMS]
    + [("chance_tic_tac_toe", p) for p in TTT_PARAMS]
    + [("ballard_tree", p) for p in BALLARD_PARAMS]
    + [("cant_stop", p) for p in CANT_STOP_PARAMS]
)
PLAYS = {"chance_tic_tac_toe": 12, "cant_stop": 4}  # whole games a case; else 3


def _native_game(name: str, params: dict):
    """The registry's game, when it is the C++ twin; else skips."""
    if native_engine.native() is None:
        pytest.skip(f"native engine unavailable: {native_engine.problem()}")
    game = pyspiel.load_game(name, params)
    assert not isinstance(game, PYTHON_GAMES[name]), f"{name}: the Python game is registered"
    return game


def _case_id(case) -> str:
    name, params = case
    return name + "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"


def test_native_twins_are_registered_when_the_engine_loads():
    if native_engine.native() is None:
        pytest.skip(f"native engine unavailable: {native_engine.problem()}")
    assert games.native_twins()
    evaluator_names = native_engine.require().evaluator_names()
    assert set(EVALUATORS) == set(PYTHON_GAMES)
    for name in PYTHON_GAMES:
        assert EVALUATORS[name].native_name == name
        assert name in evaluator_names
        assert KEY_FUNCTIONS[name] is custom_game_key
        assert name in SAMPLING_KEY_FUNCTIONS


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_game_info_and_type_agree(case):
    name, params = case
    cpp = _native_game(name, params)
    py = PYTHON_GAMES[name](params)
    # The Python twin's registered name is python_<name> (games/__init__.py).
    assert str(py) == "python_" + str(cpp)
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
    assert py_type.short_name == games.PYTHON_NAMES[name] == "python_" + cpp_type.short_name
    for attr in dir(py_type):
        if (
            not attr.startswith("_")
            and attr[0].islower()
            and attr not in ("pretty_print", "short_name")
        ):
            assert getattr(cpp_type, attr) == getattr(py_type, attr), attr
    # Loading by string and by dict gives the same game; the Python twin's name, the Python game.
    assert str(pyspiel.load_game(str(cpp))) == str(cpp)
    assert isinstance(pyspiel.load_game(str(py)), PYTHON_GAMES[name])


def _step_agrees(name, cpp_game, cpp, py, native, py_eval, rng):
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
    # The Python position rebuilt from the C++ state, and MCMS's seed text.
    pos = py.search_position()
    rebuilt = type(pos).from_state(cpp)
    assert rebuilt == pos
    assert canonical_text(SAMPLING_KEY_FUNCTIONS[name](cpp)) == canonical_text(pos)
    assert custom_game_key(cpp) == custom_game_key(py)
    # Evaluators: the C++ twin, and the Python one on either state, to the bit.
    for p in range(players):
        expected = py_eval.player_value(py, p)
        assert py_eval.player_value(cpp, p) == expected
        assert native.evaluator_value(name, cpp_game, cpp, p) == expected
    if cpp.is_terminal():
        return None
    if cpp.is_chance_node():
        assert cpp.chance_outcomes() == py.chance_outcomes()
    action = random_action(cpp, rng)
    for a in cpp.legal_actions():
        assert cpp.action_to_string(player, a) == py.action_to_string(player, a)
    if name not in UNDOABLE:
        return action
    # Undo restores the state exactly (the native engine may use it).
    child = cpp.child(action)
    child.undo_action(player, action)
    assert str(child) == str(cpp) and child.history() == cpp.history()
    assert child.legal_actions() == cpp.legal_actions()
    return action


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_random_play_agrees_step_by_step(case):
    name, params = case
    cpp_game = _native_game(name, params)
    py_game = PYTHON_GAMES[name](params)
    native = native_engine.require()
    py_eval = EVALUATORS[name](py_game)
    assert EVALUATORS[name](cpp_game).bounds == py_eval.bounds
    for p in range(cpp_game.num_players()):
        assert EVALUATORS[name](cpp_game).player_bounds(p) == py_eval.player_bounds(p)
    rng = random.Random(f"{_case_id(case)}")
    for _ in range(PLAYS.get(name, 3)):
        cpp, py = cpp_game.new_initial_state(), py_game.new_initial_state()
        while True:
            action = _step_agrees(name, cpp_game, cpp, py, native, py_eval, rng)
            if action is None:
                break
            cpp.apply_action(action)
            py.apply_action(action)
        assert cpp.is_terminal()


@pytest.mark.parametrize("n, plies, final", [(20, 2, True), (11, 3, False), (128, 2, False)])
def test_large_random_trees_walk_back_to_the_python_leaves(n, plies, final):
    # Wide random trees keep each level's arcs in a table filled a family of
    # siblings at a time (n = 128 is past the table's int8 arcs: the map). One
    # C++ state walks down and undoes back up; every leaf is the Python twin's.
    params = {"n": n, "plies": plies, "order": "random", "seed": 11, "final_chance": final}
    cpp_game = _native_game("ballard_tree", params)
    py_game = PYTHON_GAMES["ballard_tree"](params)
    rng = random.Random(n)
    state = cpp_game.new_initial_state()
    path: list[int] = []
    for _ in range(60):
        while not state.is_terminal():
            path.append(rng.randrange(n))
            state.apply_action(path[-1])
        expected = py_game.new_initial_state()
        for action in path:
            expected.apply_action(action)
        assert state.returns() == expected.returns(), path
        for _undone in range(rng.randrange(1, len(path) + 1)):
            state.undo_action(state.current_player(), path.pop())
        assert str(state) == str(replay(py_game, path))


def _cpp_arcs(state, n: int) -> tuple[int, ...]:
    """Each action's arc at a C++ ballard_tree state, read from its action strings."""
    player = state.current_player()
    texts = [state.action_to_string(player, a) for a in range(n)]
    return tuple(int(t[t.index("(arc ") + 5 : -1]) for t in texts)


@pytest.mark.parametrize(
    "n, plies, final, seed",
    [
        (6, 3, False, 3),
        (20, 2, False, 12345),
        (40, 2, False, -1),
        (10, 2, True, 987654321),
        (127, 1, True, 5),
    ],
)
def test_random_trees_match_the_python_twin_at_every_node(n, plies, final, seed):
    # Every interior node of whole random trees (drawn a family of siblings at a
    # time) carries the Python twin's permutation.
    params = {"n": n, "plies": plies, "order": "random", "seed": seed, "final_chance": final}
    cpp_game = _native_game("ballard_tree", params)
    rules = PYTHON_GAMES["ballard_tree"](params).rules
    stack = [(cpp_game.new_initial_state(), ())]
    nodes = 0
    while stack:
        state, path = stack.pop()
        if state.is_terminal():
            continue
        assert _cpp_arcs(state, n) == rules.arcs_at(path), path
        nodes += 1
        for a in range(n):
            stack.append((state.child(a), path + (a,)))
    assert nodes == sum(n**level for level in range(2 * plies - 1 + final))


@pytest.mark.parametrize("spec,words", BAD_PARAMETERS)
def test_native_parameter_errors_are_the_python_ones(spec, words):
    name = spec.split("(")[0]
    _native_game(name, {})
    with pytest.raises(ValueError) as native_error:
        pyspiel.load_game(spec)
    params = {k: v for k, v in pyspiel.game_parameters_from_string(spec).items() if k != "name"}
    with pytest.raises(ValueError) as python_error:
        PYTHON_GAMES[name](params)
    assert str(native_error.value) == str(python_error.value)
    for word in words:
        assert word in str(native_error.value)


def test_illegal_actions_are_refused_as_in_python():
    game = _native_game("dice", {"n": 3, "k": 3})
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(ValueError, match=r"illegal action 1 in this state; legal: \[0, 3, 6\]"):
        state.apply_action(1)


_LOADED_CLASSES = (
    "import pyspiel, games\n"
    "names = ['dice', 'ballard_tree', 'chance_tic_tac_toe', 'cant_stop']\n"
    "names += ['python_' + name for name in names]\n"
    "loaded = [pyspiel.load_game(name) for name in names]\n"
    "print(games.native_twins(), ' '.join(f'{type(g).__module__}.{type(g).__name__}:'"
    " f'{g.get_type().short_name}' for g in loaded))\n"
)


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_a_name_loads_the_same_class_whatever_was_imported_first(engine):
    """One registered name, one implementation: `import games` alone registers all eight
    names, and importing bots before or after it changes none of them. The plain names are
    the C++ games where they load, else (STARSPIEL_ENGINE=python here) the Python twins,
    which then print the plain name too."""
    env = {k: v for k, v in os.environ.items() if k != "STARSPIEL_ENGINE"}
    if engine == "python":
        env["STARSPIEL_ENGINE"] = "python"
    seen = {}
    for imports in ("import games", "import games, bots", "import bots, games", "import bots"):
        code = f"{imports}\nimport sys\nassert 'experiments' not in sys.modules\n" + _LOADED_CLASSES
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
        )
        assert done.returncode == 0, done.stderr
        seen[imports] = done.stdout.split()
    assert len({tuple(classes) for classes in seen.values()}) == 1, seen
    native, *loaded = seen["import games"]
    classes = [entry.split(":")[0] for entry in loaded]
    names = [entry.split(":")[1] for entry in loaded]
    python_twins = [f"{cls.__module__}.{cls.__name__}" for cls in PYTHON_GAMES.values()]
    assert sorted(classes[4:]) == sorted(python_twins)
    assert names == ["dice", "ballard_tree", "chance_tic_tac_toe", "cant_stop"] + [
        "python_" + name for name in names[:4]
    ]
    if engine == "python":
        assert native == "False"
    elif native_engine.native() is not None:
        assert native == "True"
    assert (sorted(classes[:4]) == sorted(python_twins)) is (native == "False"), classes
