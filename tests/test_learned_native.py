"""The native twin of learned evaluators (bots/native/evaluators/learned.cc) against the
specification's direct reference (tests/helpers/learned_reference.py): the same values,
compared with ``==``, on thousands of positions of backgammon, pig, 2048 and EinStein; the
same search, counter for counter, on both engines; the fair MCTS plays with it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from helpers import learned_reference as ref
from helpers.engines import native_problem
from helpers.exactness import deepen, deepening_differences
from helpers.playouts import pig_states, playout_states, random_action

import bots
from bots import native_engine
from bots.mcts import CppMCTSBot, _native_heuristic
from bots.native_searcher import NativeSearcher, make_searcher

pytestmark = [
    pytest.mark.parity,
    pytest.mark.skipif(native_problem() is not None, reason=f"engine=native: {native_problem()}"),
]

Model = tuple[dict[str, Any], dict[str, np.ndarray]]

# The 2048 board's 4-tuples (a row, an inner row, the three kinds of 2x2 square), each read
# in its 8 dihedral placements.
TUPLES_2048 = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6], [5, 6, 9, 10]]
# EinStein's 5x5 board: rows, columns and squares of the corners the pieces start in.
TUPLES_EINSTEIN = [[0, 1, 2, 3], [0, 5, 10, 15], [0, 1, 5, 6], [24, 23, 22, 21], [18, 19, 23, 24]]

# name: (game, model builder)
MODELS: dict[str, tuple[str, Callable[[pyspiel.Game], Model]]] = {
    "backgammon_mlp": ("backgammon", lambda g: ref.random_mlp(g, [80], "zero_sum", 1)),
    "backgammon_mlp2": ("backgammon", lambda g: ref.random_mlp(g, [16, 8], "zero_sum", 2)),
    "pig_mlp": ("pig", lambda g: ref.random_mlp(g, [16], "zero_sum", 3)),
    "pig_linear": ("pig", lambda g: ref.random_mlp(g, [], "zero_sum", 4)),
    "pig_win_shares": ("pig", lambda g: ref.random_mlp(g, [16], "win_shares", 5, output_mean=0.5)),
    "2048_ntuple": (
        "2048",
        lambda g: ref.random_ntuple(
            g, TUPLES_2048, "one_player", 6, encoding="log2_cells", values=16, side=4, mean=8.0
        ),
    ),
    "2048_mlp": ("2048", lambda g: ref.random_mlp(g, [20], "one_player", 7, output_scale=10)),
    "einstein_ntuple": (
        "einstein_wurfelt_nicht",
        lambda g: ref.random_ntuple(
            g,
            TUPLES_EINSTEIN,
            "zero_sum",
            8,
            encoding="plane_cells",
            encoding_args={"planes": 12},
            values=13,
            spread=0.2,
        ),
    ),
    "einstein_mlp": ("einstein_wurfelt_nicht", lambda g: ref.random_mlp(g, [24], "zero_sum", 9)),
    # observation_mover: the observation, then a one-hot of the player who moved last.
    "backgammon_mover": (
        "backgammon",
        lambda g: ref.random_mlp(g, [40], "zero_sum", 10, encoding="observation_mover"),
    ),
    "pig_mover": (
        "pig",
        lambda g: ref.random_mlp(g, [16], "zero_sum", 11, encoding="observation_mover"),
    ),
    "einstein_mover": (
        "einstein_wurfelt_nicht",
        lambda g: ref.random_mlp(g, [24], "zero_sum", 12, encoding="observation_mover"),
    ),
    # observation_hand: observation_mover's inputs, then the hand evaluator's values.
    "cant_stop_hand": (
        "cant_stop",
        lambda g: ref.random_mlp(g, [24], "zero_sum", 13, encoding="observation_hand"),
    ),
    "einstein_hand": (
        "einstein_wurfelt_nicht",
        lambda g: ref.random_mlp(g, [24], "zero_sum", 14, encoding="observation_hand"),
    ),
    "pig_hand": (
        "pig",
        lambda g: ref.random_mlp(g, [16], "zero_sum", 15, encoding="observation_hand"),
    ),
}


def model(name: str) -> tuple[pyspiel.Game, dict[str, Any], dict[str, np.ndarray], Any]:
    game_string, build = MODELS[name]
    game = pyspiel.load_game(game_string)
    metadata, arrays = build(game)
    native = native_engine.require().LearnedModel(json.dumps(metadata), arrays)
    return game, metadata, arrays, native


def positions(game: pyspiel.Game, n: int, seed: int) -> list[pyspiel.State]:
    """Seeded random-play states (pig's with long turns, which uniform play rarely has)."""
    if game.get_type().short_name == "pig":
        return pig_states(game, n, seed, roll=0.8)[:n]
    return playout_states(game, n, seed, keep=0.5)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_native_values_equal_the_reference(name: str) -> None:
    game, metadata, arrays, native = model(name)
    states = positions(game, 2000, seed=11)
    lo, hi = native.bounds
    assert (lo, hi) == ref.head_bounds(metadata, game)
    inside = terminal = 0
    for i, state in enumerate(states):
        want = ref.values(metadata, arrays, game, state)
        got = native.values(state)
        assert got == want, f"{name}, state {i} ({state.history()}): native {got}, reference {want}"
        if i % 10 == 0:  # the one-player entry point, as the search calls it
            for p in range(game.num_players()):
                assert native.value(state, p) == want[p]
        if state.is_terminal():
            terminal += 1
        else:
            out = ref.outputs(metadata, arrays, state)
            assert native.outputs(state) == out
            if metadata["head"] == "win_shares":
                inside += all(o > 0 for o in out)  # no share clamped
            else:
                inside += all(lo * ref.SHRINK < v < hi * ref.SHRINK for v in want)
    assert terminal > 0
    # The random model is not saturated: the comparison sees the network, not the clamps.
    assert inside > 0.3 * (len(states) - terminal), f"{name}: {inside} values off the bounds"


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_python_learned_evaluator_agrees(name: str, tmp_path: Any) -> None:
    """bots.evaluators.learned (the Python engine's leaf) against the native twin, on the
    same positions, from the same model file."""
    learned = pytest.importorskip("bots.evaluators.learned")
    game, metadata, arrays, _ = model(name)
    path = tmp_path / "model.npz"
    np.savez_compressed(path, metadata=np.array(json.dumps(metadata)), **arrays)
    evaluator = learned.LearnedEvaluator(game, str(path))
    native = evaluator.native_model()
    for i, state in enumerate(positions(game, 2000, seed=12)):
        want = [float(v) for v in evaluator.evaluate(state)]
        assert native.values(state) == want, f"{name}, state {i} ({state.history()})"


def test_einstein_observation_is_12_planes_of_25_cells() -> None:
    """plane_cells(planes=12) reads EinStein's observation as (12, 25): plane 2 (d - 1) + c
    holds colour c's (black 0, white 1) die d, one cell set where it stands, the cells
    column-major (cell 5 x + y of column x, row y), and an empty plane once it is taken."""
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    assert game.observation_tensor_shape() == [300]
    for state in playout_states(game, 200, seed=3, keep=0.5):
        planes = np.array(state.observation_tensor(0)).reshape(12, 25)
        want = np.zeros((12, 25))
        for y, line in enumerate(str(state).splitlines()[:5]):
            for x, piece in enumerate(line.strip("|").split("||")):
                if piece != "__":
                    want[2 * (int(piece[1]) - 1) + "bw".index(piece[0]), 5 * x + y] = 1.0
        assert (planes == want).all(), str(state)


def test_terminal_states_give_the_returns() -> None:
    game, metadata, arrays, native = model("pig_mlp")
    rng = random.Random(2)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
        assert native.values(state) == state.returns()
        assert [native.value(state, p) for p in range(2)] == state.returns()


def _broken(change: Callable[[dict[str, Any], dict[str, np.ndarray]], Any]) -> tuple[str, dict]:
    game = pyspiel.load_game("pig")
    metadata, arrays = ref.random_mlp(game, [8], "zero_sum", 0)
    change(metadata, arrays)
    return json.dumps(metadata), arrays


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m, a: m.update(family="tree"), "unknown family 'tree'"),
        (lambda m, a: m.update(encoding="pixels"), "unknown encoding 'pixels'"),
        (lambda m, a: m.update(head="draws"), "unknown head 'draws'"),
        (lambda m, a: m.update(encoding="log2_cells"), "an MLP reads the observation"),
        (lambda m, a: m.pop("quantisation"), "no 'quantisation'"),
        (lambda m, a: a.pop("b1"), "'b1' is missing"),
        (lambda m, a: a.update(w0=a["w0"].astype(np.int32)), "'w0' is int32, not int16"),
        (lambda m, a: a.update(w0=a["w0"][1:]), "'w0' has shape (302, 8)"),
        (lambda m, a: a.update(w1=a["w1"].astype(np.float32)), "not a signed integer array"),
        (
            lambda m, a: m.update(game="pig(winscore=50)"),
            "'w0' has shape (303, 8): its layer reads 153",
        ),
        (
            lambda m, a: m.update(encoding="observation_mover"),
            "'w0' has shape (303, 8): its layer reads 305",
        ),
        (
            lambda m, a: m.update(encoding="observation_hand"),
            "'w0' has shape (303, 8): its layer reads 307",
        ),
        (lambda m, a: m.update(game="pig(players=3)"), "zero_sum head needs a two-player game"),
        (lambda m, a: m.update(head="one_player"), "needs a one-player game"),
    ],
)
def test_a_broken_model_is_a_value_error(change: Any, message: str) -> None:
    metadata, arrays = _broken(change)
    with pytest.raises(ValueError, match=re.escape(message)):
        native_engine.require().LearnedModel(metadata, arrays)


def _set(array: np.ndarray, at: tuple[int, ...], value: int) -> np.ndarray:
    array = array.copy()
    array[at] = value
    return array


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m, a: m.update(encoding="observation"), "an n-tuple network reads log2_cells"),
        (lambda m, a: m["architecture"].pop("values"), "architecture has no 'values'"),
        (
            lambda m, a: a.update(placements=_set(a["placements"], (0, 0), 16)),
            "reads cell 16 of 16",
        ),
        (lambda m, a: a.update(placements=_set(a["placements"], (0, 1), -1)), "not padded with -1"),
        (lambda m, a: a.update(placement_tables=_set(a["placement_tables"], (0,), 9)), "no table"),
        (
            lambda m, a: a.update(
                lut_offsets=_set(a["lut_offsets"], (1,), 100), luts=a["luts"][:100]
            ),
            "table 0 has 100 entries, placement 0 needs values ** 4 = 65536",
        ),
        (lambda m, a: a.update(luts=a["luts"][1:]), "lut_offsets must run from 0 to the size"),
    ],
)
def test_a_broken_ntuple_is_a_value_error(change: Any, message: str) -> None:
    game = pyspiel.load_game("2048")
    metadata, arrays = ref.random_ntuple(
        game, [[0, 1, 2, 3]], "one_player", 0, encoding="log2_cells", values=16, side=4
    )
    change(metadata, arrays)
    with pytest.raises(ValueError, match=re.escape(message)):
        native_engine.require().LearnedModel(json.dumps(metadata), arrays)


def test_planes_must_divide_the_observation() -> None:
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    metadata, arrays = ref.random_ntuple(
        game,
        [[0, 1]],
        "zero_sum",
        0,
        encoding="plane_cells",
        encoding_args={"planes": 12},
        values=13,
    )
    metadata["encoding_args"]["planes"] = 7
    with pytest.raises(ValueError, match="planes = 7 does not divide the observation size 300"):
        native_engine.require().LearnedModel(json.dumps(metadata), arrays)


def test_observation_hand_needs_a_hand_evaluator() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    metadata, arrays = ref.random_mlp(game, [4], "zero_sum", 0, encoding="observation_hand")
    with pytest.raises(ValueError, match="needs the game's hand evaluator.*observation_mover"):
        native_engine.require().LearnedModel(json.dumps(metadata), arrays)


def test_metadata_that_is_not_json_is_a_value_error() -> None:
    _, arrays = _broken(lambda m, a: None)
    with pytest.raises(ValueError, match="the metadata is not JSON"):
        native_engine.require().LearnedModel("{", arrays)


def test_win_shares_sum_to_the_utility_sum_with_three_players() -> None:
    """pig with 3 players pays the winner 1 and the others -1/2 (not min_utility, -1): the
    head's values are expected returns with that loser's return, summing to 0."""
    game = pyspiel.load_game("pig(players=3)")
    metadata, arrays = ref.random_mlp(game, [8], "win_shares", 0, output_mean=0.5)
    native = native_engine.require().LearnedModel(json.dumps(metadata), arrays)
    for state in playout_states(game, 200, seed=0, keep=0.5):
        want = ref.values(metadata, arrays, game, state)
        assert native.values(state) == want
        assert abs(sum(want)) < 1e-12 and all(-0.5 <= v <= 1 for v in want)


def test_win_shares_needs_a_constant_sum_game_of_two_or_more() -> None:
    game = pyspiel.load_game("2048")
    metadata, arrays = ref.random_mlp(game, [8], "win_shares", 0)
    with pytest.raises(ValueError, match="win_shares head needs"):
        native_engine.require().LearnedModel(json.dumps(metadata), arrays)


def test_a_state_of_another_game_is_refused() -> None:
    _, _, _, native = model("pig_mlp")
    with pytest.raises(ValueError, match="cannot evaluate states of 'backgammon"):
        native.values(pyspiel.load_game("backgammon").new_initial_state())
    with pytest.raises(ValueError, match="player 2 out of range"):
        native.value(pyspiel.load_game("pig").new_initial_state(), 2)


@pytest.mark.parametrize("encoding", ["observation", "observation_hand"])
def test_a_model_of_the_python_twin_evaluates_the_cpp_game(encoding: str) -> None:
    """A model of python_cant_stop (the Python twin) and of cant_stop are one model (its
    hand evaluator, for observation_hand, the C++ game's)."""
    import games  # noqa: F401  (registers cant_stop and python_cant_stop)

    game = pyspiel.load_game("cant_stop")
    metadata, arrays = ref.random_mlp(game, [8], "zero_sum", 0, encoding=encoding)
    module = native_engine.require()
    native = module.LearnedModel(json.dumps(metadata), arrays)
    twin = module.LearnedModel(json.dumps({**metadata, "game": "python_cant_stop()"}), arrays)
    for state in playout_states(game, 300, seed=1, keep=0.5):
        assert (
            twin.values(state) == native.values(state) == ref.values(metadata, arrays, game, state)
        )


def test_a_searcher_refuses_a_model_of_another_game() -> None:
    game, metadata, arrays, _ = model("pig_mlp")
    evaluator = ref.ReferenceEvaluator(game, metadata, arrays)
    backgammon = pyspiel.load_game("backgammon")
    with pytest.raises(ValueError, match="a model of 'pig\\(\\)' cannot evaluate states of"):
        NativeSearcher(backgammon, 0, "star2", evaluator=evaluator)


def _root(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A decision node a few random moves into a seeded game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(random_action(state, rng))
        if state.is_terminal():
            state = game.new_initial_state()
        elif not state.is_chance_node() and rng.random() < 0.15:
            break
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    return state


# model, depth of the deepening, positions
SEARCHES = [
    ("pig_mlp", 6, 2),
    ("pig_win_shares", 5, 1),
    ("pig_mover", 6, 2),
    ("cant_stop_hand", 3, 1),
    ("einstein_hand", 3, 1),
    ("backgammon_mover", 2, 1),
    ("backgammon_mlp", 2, 1),
    ("2048_ntuple", 2, 2),
    ("einstein_ntuple", 3, 2),
]


@pytest.mark.parametrize("spec", ["star2", "expectiminimax"])
@pytest.mark.parametrize("name, depth, count", SEARCHES)
def test_both_engines_search_alike(name: str, depth: int, count: int, spec: str) -> None:
    game, metadata, arrays, _ = model(name)
    evaluator = ref.ReferenceEvaluator(game, metadata, arrays)
    for seed in range(count):
        state = _root(game, seed)
        python = deepen(game, state, spec, depth, "python", evaluator=evaluator)
        native = deepen(game, state, spec, depth, "native", evaluator=evaluator)
        differences = deepening_differences(python, native)
        assert not differences, f"{name} {spec}: native differs: " + "; ".join(differences)
        assert native["iterations"] == python["iterations"]  # the values bit for bit


def test_the_native_engine_evaluates_the_model_itself() -> None:
    game, metadata, arrays, _ = model("pig_mlp")
    evaluator = ref.ReferenceEvaluator(game, metadata, arrays)
    searcher = make_searcher("auto", game, 0, "star2", evaluator=evaluator)
    assert isinstance(searcher, NativeSearcher)
    assert searcher.native_evaluator == "learned"
    assert searcher.releases_gil  # no Python call per leaf


def test_the_fair_mcts_plays_with_the_model() -> None:
    game, metadata, arrays, _ = model("pig_mlp")
    evaluator = ref.ReferenceEvaluator(game, metadata, arrays)
    heuristic = _native_heuristic(game, evaluator)
    assert heuristic is not None
    state = game.new_initial_state()
    bot = CppMCTSBot(
        game, heuristic, 2.0, 50, 100, False, 7, False, pyspiel.ChildSelectionPolicy.UCT, -1.0
    )
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node() or state.current_player() == 1:
            state.apply_action(random_action(state, rng))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_a_bot_plays_with_the_model() -> None:
    game, metadata, arrays, _ = model("einstein_ntuple")
    evaluator = ref.ReferenceEvaluator(game, metadata, arrays)
    state = _root(game, 4)
    player = state.current_player()
    bot = bots.make_bot("star2(max_depth=2)", game, player, engine="native", evaluator=evaluator)
    action = bot.step(state)
    assert action in state.legal_actions()
    assert bot.last_search["engine"] == "native"


def test_the_leaf_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from experiments.benchmark import learned_speed

    learned_speed.FLAGS(["learned_speed", "--states=20", "--calls=40", "--tuples=2"])
    try:
        learned_speed.main([])
    finally:
        learned_speed.FLAGS.unparse_flags()
    out = capsys.readouterr().out
    assert "backgammon mlp 200-80-1" in out and "2048 ntuple 2x4 x 8 symmetries" in out
    assert out.count("native via Python") == 2
