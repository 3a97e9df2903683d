"""Learned models (bots/learned): the file, its checks, integer inference, heads, and use.

The values are checked against an independent reference written here from the
specification (docs/guide/learned.md) with Python ints and loops, with ``==``; the float
twins show what quantisation costs; a Star2 search with a learned evaluator returns plain
expectiminimax's value.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from helpers.learned_models import (
    NTUPLE_GAMES,
    random_mlp,
    random_ntuple,
    scale_log2,
)
from helpers.plain_expectiminimax import plain_expectiminimax, sample_positions
from helpers.soak import PROFILE, examples
from hypothesis import given, settings
from hypothesis import strategies as st

import bots
from bots.evaluators import make_evaluator
from bots.evaluators.learned import LearnedEvaluator, shipped_model_path
from bots.learned import (
    FORMAT,
    LearnedModel,
    float_mlp_outputs,
    float_ntuple_outputs,
    load_model,
    ntuple_placements,
    save_model,
)
from bots.learned.file_format import write_model_file

MLP_GAMES = ("backgammon", "pig", "2048", "einstein_wurfelt_nicht")


def _game(name: str) -> pyspiel.Game:
    return pyspiel.load_game(name)


def walk_states(game: pyspiel.Game, games: int, seed: int) -> list[pyspiel.State]:
    """Every state (decision, chance, terminal) of ``games`` uniformly random playouts."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            states.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return states


def spread(states: list[Any], count: int) -> list[Any]:
    """``count`` states evenly spread over ``states`` (openings, middles and ends)."""
    step = max(1, len(states) // count)
    return states[::step][:count]


# --- an independent reference of the specification: Python ints, loops, no numpy ----------


_FILES: dict[Path, tuple[dict[str, Any], dict[str, list[Any]]]] = {}


def _read(path: Path) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    if path in _FILES:
        return _FILES[path]
    with np.load(path) as npz:
        metadata = json.loads(str(npz["metadata"][()]))
        arrays = {key: npz[key].tolist() for key in npz.files if key != "metadata"}
    _FILES[path] = metadata, arrays
    return metadata, arrays


def reference_values(path: Path, state: pyspiel.State) -> list[float]:
    """The values the specification gives ``state``, computed the slow, obvious way."""
    metadata, arrays = _read(path)
    if state.is_terminal():
        return list(state.returns())
    x = list(state.observation_tensor(0))
    if metadata["encoding"] == "observation_mover":  # then who moved last, one-hot
        deciders = [e.player for e in state.full_history() if e.player >= 0]
        if state.current_player() >= 0:
            deciders.append(state.current_player())
        players = state.get_game().num_players()
        x += [1.0 if deciders and deciders[-1] == p else 0.0 for p in range(players)]
    q = metadata["quantisation"]
    if metadata["family"] == "mlp":
        hidden = metadata["architecture"]["hidden"]
        a = [min(max(round(xi * 2.0 ** q["input_shift"]), -32767), 32767) for xi in x]
        for layer in range(len(hidden) + 1):
            w, b = arrays[f"w{layer}"], arrays[f"b{layer}"]
            acc = [b[j] + sum(a[i] * w[i][j] for i in range(len(a))) for j in range(len(b))]
            if layer == len(hidden):
                a = acc
            else:
                shift = q["input_shift"] + q["weight_shift"] - q["activation_shift"]
                if layer > 0:
                    shift = q["weight_shift"]
                a = [min(max(v >> shift, 0), 2 ** q["activation_shift"]) for v in acc]
        out = [math.ldexp(float(o), -q["output_shift"]) for o in a]
    else:
        values = metadata["architecture"]["values"]
        if metadata["encoding"] == "log2_cells":
            cells = [0 if xi == 0 else int(math.log2(xi)) for xi in x]
        else:
            planes = metadata["encoding_args"]["planes"]
            width = len(x) // planes
            cells = []
            for i in range(width):
                found = [p for p in range(planes) if x[p * width + i] != 0]
                cells.append(1 + found[0] if found else 0)
        cells = [min(c, values - 1) for c in cells]
        total = 0
        for row, table in zip(arrays["placements"], arrays["placement_tables"]):
            live = [cell for cell in row if cell >= 0]
            index = sum(cells[c] * values ** (len(live) - 1 - j) for j, c in enumerate(live))
            total += arrays["luts"][arrays["lut_offsets"][table] + index]
        out = [math.ldexp(float(total), -q["output_shift"])]
    game = state.get_game()
    lo, hi = game.min_utility(), game.max_utility()
    if metadata["head"] == "zero_sum":
        v = min(max(out[0], 0.99 * lo), 0.99 * hi)
        return [v, -v]
    if metadata["head"] == "one_player":
        return [min(max(state.returns()[0] + out[0], lo), 16 * hi)]
    loser = (game.utility_sum() - hi) / (game.num_players() - 1)  # a loser's return
    shares = [max(o, 0.0) + 2.0**-20 for o in out]
    total_share = 0.0
    for s in shares:
        total_share += s
    return [loser + (hi - loser) * (s / total_share) for s in shares]


def _models(game: pyspiel.Game, seed: int) -> list[LearnedModel]:
    models = [random_mlp(game, [6], seed)[0], random_mlp(game, [], seed + 1)[0]]
    if game.num_players() == 2:
        models.append(random_mlp(game, [5, 4], seed + 2, head="win_shares")[0])
        models.append(random_mlp(game, [6], seed + 3, encoding="observation_mover")[0])
    if game.get_type().short_name in NTUPLE_GAMES:
        models.append(random_ntuple(game, seed)[0])
    return models


@pytest.mark.parametrize("name", MLP_GAMES)
def test_values_equal_the_independent_reference(tmp_path, name):
    game = _game(name)
    states = spread(walk_states(game, 2, seed=1), examples(12))
    for number, model in enumerate(_models(game, seed=3)):
        path = tmp_path / f"model{number}.npz"
        save_model(path, model)
        evaluator = LearnedEvaluator(game, path)
        for state in states:
            expected = reference_values(path, state)
            assert evaluator.evaluate(state).tolist() == expected, (model, str(state))


MOVER_GAMES = ("backgammon", "pig", "einstein_wurfelt_nicht", "cant_stop")


@pytest.mark.parametrize("name", MOVER_GAMES)
def test_observation_mover_appends_a_one_hot_of_who_moved_last(name):
    """The player to move at a decision node; at a chance node the one whose decision led
    to it (tracked here along the playout), none before the first decision."""
    game = _game(name)
    model = random_mlp(game, [6], 5, encoding="observation_mover")[0]
    size, players = game.observation_tensor_size(), game.num_players()
    rng = random.Random(2)
    seen = set()
    for _ in range(3):
        state, last = game.new_initial_state(), None
        while not state.is_terminal():
            features = model.features(state)
            who = last if state.is_chance_node() else state.current_player()
            expected = [0] * players
            if who is not None:
                expected[who] = 2 ** model.metadata["quantisation"]["input_shift"]
            assert features[size:].tolist() == expected, str(state)
            assert features[:size].tolist() == [
                min(max(round(x * 64.0), -32767), 32767) for x in state.observation_tensor(0)
            ]
            seen.add((state.is_chance_node(), who))
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                last = state.current_player()
                state.apply_action(rng.choice(state.legal_actions()))
    assert {(True, 0), (True, 1), (False, 0), (False, 1)} <= seen


@pytest.mark.parametrize("name", MOVER_GAMES)
def test_observation_mover_equals_the_loop_reference(name):
    """bots.learned against tests/helpers/learned_reference.py (the native twin's reference)."""
    from helpers import learned_reference as ref

    game = _game(name)
    metadata, arrays = ref.random_mlp(game, [16], "zero_sum", 3, encoding="observation_mover")
    model = LearnedModel(metadata, arrays, game=game)
    for state in spread(walk_states(game, 2, seed=5), examples(60)):
        assert model.values(state).tolist() == ref.values(metadata, arrays, game, state)


@pytest.mark.parametrize("name", ("pig", "einstein_wurfelt_nicht", "cant_stop"))
def test_observation_hand_loads_and_appends_the_hand_values(tmp_path, name):
    """observation_mover's inputs, then the default hand evaluator's values, quantised."""
    from bots.evaluators.registry import default_evaluator

    game = _game(name)
    path = tmp_path / "model.npz"
    save_model(path, random_mlp(game, [6], 7, encoding="observation_hand")[0])
    model = load_model(path, game)
    mover = random_mlp(game, [6], 7, encoding="observation_mover")[0]
    hand, size = default_evaluator(game), game.observation_tensor_size() + game.num_players()
    checked = 0
    for state in spread(walk_states(game, 1, seed=4), examples(30)):
        if state.is_terminal():
            continue
        features = model.features(state)
        assert features[:size].tolist() == mover.features(state).tolist()
        expected = [min(max(round(h * 64.0), -32767), 32767) for h in hand.evaluate(state)]
        assert features[size:].tolist() == expected
        checked += any(expected)
    assert checked > 0


def test_observation_hand_needs_a_hand_evaluator():
    with pytest.raises(ValueError, match="tic_tac_toe.* has no hand evaluator.*observation_mover"):
        random_mlp(_game("tic_tac_toe"), [4], encoding="observation_hand")


# --- the file: round trip and every way it can be wrong ------------------------------------


@pytest.mark.parametrize("name", ["backgammon", "2048", "einstein_wurfelt_nicht"])
def test_round_trip_keeps_metadata_arrays_and_values(tmp_path, name):
    game = _game(name)
    model = random_ntuple(game)[0] if name in NTUPLE_GAMES else random_mlp(game, [8])[0]
    path = tmp_path / "model.npz"
    save_model(path, model)
    loaded = load_model(path, game)
    assert loaded.metadata == model.metadata and loaded.path == str(path)
    assert sorted(loaded.arrays) == sorted(model.arrays)
    for key, array in model.arrays.items():
        assert loaded.arrays[key].dtype == array.dtype
        assert np.array_equal(loaded.arrays[key], array)
    for state in spread(walk_states(game, 1, seed=2), 20):
        assert loaded.values(state).tolist() == model.values(state).tolist()
    assert not list(tmp_path.glob("*.tmp")), "the temporary file is renamed away"


def _pig_file(tmp_path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    model = random_mlp(_game("pig"), [4])[0]
    return dict(model.metadata), dict(model.arrays)


def _with(metadata: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**metadata, **changes}


BROKEN = {
    "missing key": (lambda m, a: (m, {k: v for k, v in a.items() if k != "b1"}), "missing b1"),
    "extra key": (lambda m, a: (m, {**a, "w9": a["w0"]}), "unexpected w9"),
    "wrong dtype": (
        lambda m, a: (m, {**a, "w0": a["w0"].astype(np.int32)}),
        "'w0' must be int16",
    ),
    "wrong shape": (lambda m, a: (m, {**a, "b0": a["b0"][:-1]}), "do not match"),
    "hidden sizes": (
        lambda m, a: (_with(m, architecture={"hidden": [5]}), a),
        "do not match hidden [5]",
    ),
    "unknown format": (lambda m, a: (_with(m, format="other/2"), a), "unknown format"),
    "unknown family": (lambda m, a: (_with(m, family="cnn"), a), "unknown family 'cnn'"),
    "unknown encoding": (lambda m, a: (_with(m, encoding="pixels"), a), "unknown encoding"),
    "unknown head": (lambda m, a: (_with(m, head="softmax"), a), "unknown head 'softmax'"),
    "encoding of another family": (
        lambda m, a: (_with(m, encoding="log2_cells"), a),
        "feeds the 'ntuple' family",
    ),
    "missing metadata key": (
        lambda m, a: ({k: v for k, v in m.items() if k != "quantisation"}, a),
        "metadata lacks quantisation",
    ),
    "bad shift": (
        lambda m, a: (_with(m, quantisation={**m["quantisation"], "weight_shift": -1}), a),
        "weight_shift",
    ),
    "another game": (
        lambda m, a: (_with(m, game="backgammon()"), a),
        "holds a model of 'backgammon', not of 'pig'",
    ),
    "other parameters": (
        lambda m, a: (_with(m, game="pig(winscore=50)"), a),
        "holds a model of 'pig(winscore=50)', not of 'pig()'",
    ),
    "unknown game": (lambda m, a: (_with(m, game="no_such_game"), a), "pyspiel cannot load"),
    "no mover inputs": (
        lambda m, a: (_with(m, encoding="observation_mover"), a),
        "observation tensor has 303 and observation_mover adds 2",
    ),
    "no hand inputs": (
        lambda m, a: (_with(m, encoding="observation_hand"), a),
        "observation tensor has 303 and observation_hand adds 4",
    ),
    "head of another game": (
        lambda m, a: (_with(m, head="one_player"), a),
        "head 'one_player' needs a one-player game, pig() has 2",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_model_file_names_the_file_and_the_problem(tmp_path, case):
    break_it, message = BROKEN[case]
    metadata, arrays = break_it(*_pig_file(tmp_path))
    path = tmp_path / "model.npz"
    write_model_file(path, metadata, arrays)
    with pytest.raises(ValueError, match=r"model\.npz") as error:
        load_model(path, _game("pig"))
    assert message in str(error.value)


def test_missing_corrupt_and_truncated_files_are_value_errors(tmp_path):
    game = _game("pig")
    with pytest.raises(ValueError, match="nowhere.npz: no such model file"):
        load_model(tmp_path / "nowhere.npz", game)
    path = tmp_path / "model.npz"
    save_model(path, random_mlp(game, [30])[0])
    data = path.read_bytes()
    (tmp_path / "truncated.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated.npz: not a readable model file"):
        load_model(tmp_path / "truncated.npz", game)
    middle = len(data) // 2
    (tmp_path / "corrupt.npz").write_bytes(data[:middle] + b"\xff" * 64 + data[middle + 64 :])
    with pytest.raises(ValueError, match="corrupt.npz: not a readable model file"):
        load_model(tmp_path / "corrupt.npz", game)
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ValueError, match="text.npz: not a readable model file"):
        load_model(tmp_path / "text.npz", game)
    np.savez(tmp_path / "plain.npz", w0=np.zeros(3))
    with pytest.raises(ValueError, match=r"plain.npz: holds the arrays \['w0'\] but no 'metadata'"):
        load_model(tmp_path / "plain.npz", game)
    np.savez(tmp_path / "json.npz", metadata=np.array("{not json"))
    with pytest.raises(ValueError, match="json.npz: 'metadata' is not valid JSON"):
        load_model(tmp_path / "json.npz", game)


def test_a_broken_ntuple_network_is_refused(tmp_path):
    game = _game("2048")
    model = random_ntuple(game)[0]
    arrays = dict(model.arrays)
    arrays["luts"] = arrays["luts"][:-1]
    arrays["lut_offsets"] = arrays["lut_offsets"].copy()
    arrays["lut_offsets"][-1] -= 1
    write_model_file(tmp_path / "model.npz", model.metadata, arrays)
    with pytest.raises(ValueError, match=r"model.npz: .* needs 16\*\*4 = 65536 entries"):
        load_model(tmp_path / "model.npz", game)
    placements = model.arrays["placements"].copy()
    placements[0, 0] = -1
    arrays = {**model.arrays, "placements": placements}
    write_model_file(tmp_path / "model.npz", model.metadata, arrays)
    with pytest.raises(ValueError, match="then -1 padding"):
        load_model(tmp_path / "model.npz", game)


def test_a_backgammon_model_plays_any_scoring_but_not_another_variant(tmp_path):
    model = random_mlp(_game("backgammon"), [4])[0]
    write_model_file(tmp_path / "model.npz", model.metadata, model.arrays)
    full = pyspiel.load_game("backgammon(scoring_type=full_scoring)")
    state = sample_positions(full, 1, 0, 6)[0]
    assert (
        load_model(tmp_path / "model.npz", full).outputs(state).tolist()
        == model.outputs(state).tolist()
    )
    with pytest.raises(ValueError, match="not of 'backgammon.hyper_backgammon=True"):
        load_model(tmp_path / "model.npz", pyspiel.load_game("backgammon(hyper_backgammon=True)"))


def test_a_model_without_a_game_takes_the_first_state_s():
    game = _game("pig")
    model = random_mlp(game, [4])[0]
    unbound = LearnedModel(model.metadata, model.arrays)
    state = sample_positions(game, 1, 0, 6)[0]
    assert unbound.values(state).tolist() == model.values(state).tolist()
    other = LearnedModel(model.metadata, model.arrays)
    with pytest.raises(ValueError, match="holds a model of 'pig', not of 'backgammon'"):
        other.values(_game("backgammon").new_initial_state())


# --- quantisation: the integer model is close to the float one it came from --------------


@settings(max_examples=examples(12), **PROFILE)
@given(
    name=st.sampled_from(["backgammon", "pig", "einstein_wurfelt_nicht"]),
    hidden=st.lists(st.integers(1, 24), max_size=2),
    seed=st.integers(0, 2**16),
)
def test_quantised_mlp_is_close_to_its_float_twin(name, hidden, seed):
    game = _game(name)
    model, layers, _ = random_mlp(game, hidden, seed)
    for state in spread(walk_states(game, 1, seed), 15):
        x = np.array(state.observation_tensor(0))
        error = np.abs(model.outputs(state) - float_mlp_outputs(layers, x))
        assert error.max() <= 0.03, (state, error)


def test_quantised_linear_2048_model_is_within_its_rounding():
    """2048's inputs are raw tiles (input_shift 0: exact integers), so a linear model's
    only error is each weight's rounding, at most 2**-(weight_shift + 1) times the tile."""
    game = _game("2048")
    model, layers, q = random_mlp(game, [], seed=2)
    for state in spread(walk_states(game, 2, seed=2), 40):
        x = np.array(state.observation_tensor(0))
        expected = float_mlp_outputs(layers, x, scale_log2(model))
        bound = 2.0 ** (scale_log2(model) - q["weight_shift"] - 1) * (x.sum() + 1)
        assert abs(model.outputs(state)[0] - expected[0]) <= bound


@pytest.mark.parametrize("name", sorted(NTUPLE_GAMES))
def test_quantised_ntuple_is_within_half_a_step_per_placement(name):
    """Each table entry is rounded by at most half of 2**-output_shift, nothing else."""
    game = _game(name)
    model, luts, placements, tables, spec = random_ntuple(game, seed=5)
    bound = len(tables) * 0.5 * 2.0 ** -spec["output_shift"]
    for state in spread(walk_states(game, 2, seed=4), 40):
        cells = model.features(state)
        expected = float_ntuple_outputs(luts, placements, tables, cells, spec["values"])
        assert abs(model.outputs(state)[0] - expected[0]) <= bound * (1 + 1e-9)


def test_symmetric_placements_are_listed_once_each():
    placements, tables = ntuple_placements([[0], [0, 1, 2, 3]], "dihedral", side=4)
    corner = sorted(int(row[0]) for row, t in zip(placements, tables) if t == 0)
    assert corner == [0, 3, 12, 15]  # the 8 images of a corner are the 4 corners
    rows = [tuple(int(c) for c in row) for row, t in zip(placements, tables) if t == 1]
    assert len(rows) == 8 and (0, 1, 2, 3) in rows and (3, 2, 1, 0) in rows
    assert (12, 8, 4, 0) in rows and (0, 4, 8, 12) in rows
    assert placements.shape == (12, 4) and placements[0].tolist() == [0, -1, -1, -1]
    none, none_tables = ntuple_placements([[0, 1], [7, 3]], "none")
    assert none.tolist() == [[0, 1], [7, 3]] and none_tables.tolist() == [0, 1]
    dihedral5 = ntuple_placements([[0, 1, 2, 3, 4]], "dihedral", side=5)[0]
    assert len({tuple(r) for r in dihedral5.tolist()}) == 8
    with pytest.raises(ValueError, match="unknown symmetries 'hexagonal'"):
        ntuple_placements([[0]], "hexagonal", side=4)
    with pytest.raises(ValueError, match="leaves the 4x4 board"):
        ntuple_placements([[16]], "dihedral", side=4)


# --- the evaluator contract -----------------------------------------------------------------


@settings(max_examples=examples(10), **PROFILE)
@given(name=st.sampled_from(MLP_GAMES), seed=st.integers(0, 2**16), big=st.booleans())
def test_values_keep_the_bounds_and_the_utility_sum(name, seed, big):
    """Large weights drive the outputs into every clamp."""
    game = _game(name)
    heads = ["zero_sum", "win_shares"] if game.num_players() == 2 else [None]  # N > 2: win_shares
    for head in heads:
        model = random_mlp(game, [8], seed, head=head, weight_scale=40.0 if big else 0.5)[0]
        evaluator = LearnedEvaluator(game, model)
        lo, hi = evaluator.bounds
        for state in spread(walk_states(game, 1, seed), 30):
            values = evaluator.evaluate(state)
            assert values.shape == (game.num_players(),)
            assert np.all(lo <= values) and np.all(values <= hi), (head, values, str(state))
            if game.num_players() == 2:
                assert values[0] + values[1] == pytest.approx(0.0, abs=1e-12)
                if head == "zero_sum" and not state.is_terminal():
                    assert values[0] == -values[1] and abs(values[0]) <= 0.99 * hi
            for player in range(game.num_players()):
                assert evaluator.player_value(state, player) == values[player]


def test_evaluator_bounds_prior_and_repr(tmp_path):
    game = _game("2048")
    evaluator = LearnedEvaluator(game, random_mlp(game, [4])[0])
    assert evaluator.bounds == (0.0, 16 * game.max_utility())
    pig = _game("pig")
    path = tmp_path / "pig.npz"
    save_model(path, random_mlp(pig, [4])[0])
    evaluator = make_evaluator(f"learned(path={path})", pig)
    assert evaluator.bounds == (-1.0, 1.0) and str(path) in repr(evaluator)
    state = pig.new_initial_state()
    assert evaluator.prior(state) == [(0, 0.5), (1, 0.5)]
    terminal = walk_states(pig, 1, seed=0)[-1]
    assert evaluator.evaluate(terminal).tolist() == terminal.returns()


def test_native_model_is_built_once_from_the_metadata_and_arrays(monkeypatch):
    game = _game("pig")
    evaluator = LearnedEvaluator(game, random_mlp(game, [4])[0])
    built = []

    class FakeNative:
        class LearnedModel:
            def __init__(self, metadata: str, arrays: dict[str, np.ndarray]):
                built.append((json.loads(metadata), arrays))

    monkeypatch.setattr(bots.native_engine, "native", lambda: FakeNative)
    twin = evaluator.native_model()
    assert isinstance(twin, FakeNative.LearnedModel) and evaluator.native_model() is twin
    assert built == [(evaluator.model.metadata, evaluator.model.arrays)]
    monkeypatch.setattr(bots.native_engine, "native", lambda: None)
    assert LearnedEvaluator(game, evaluator.model).native_model() is None


# --- make_evaluator and make_bot --------------------------------------------------------


def test_learned_without_a_shipped_model_names_the_training_command():
    game = _game("yacht")  # no model ships for yacht
    assert not shipped_model_path(game).exists()
    with pytest.raises(ValueError) as error:
        make_evaluator("learned", game)
    assert "python -m experiments.learn --game=yacht --out=DIR" in str(error.value)
    assert "learned(path=DIR/model.npz)" in str(error.value)


def test_learned_paths_in_evaluator_and_bot_specs(tmp_path, monkeypatch):
    game = _game("pig")
    folder = tmp_path / "run-1.2" / "a.b"
    folder.mkdir(parents=True)
    save_model(folder / "model-v1.npz", random_mlp(game, [4])[0])
    monkeypatch.setenv("HOME", str(tmp_path))
    for spec in (
        f"learned(path={folder}/model-v1.npz)",
        "learned(path=~/run-1.2/a.b/model-v1.npz)",
        f" learned( path = {folder}/model-v1.npz ) ",
    ):
        assert isinstance(make_evaluator(spec, game), LearnedEvaluator)
    spec = f"star2(max_depth=2,evaluator=learned(path={folder}/model-v1.npz))"
    bot = bots.make_bot(spec, game, 0, engine="python")
    assert bot.step(game.new_initial_state()) in (0, 1)
    with pytest.raises(ValueError, match="bad argument 'file=x.npz'.*learned\\(path=FILE\\)"):
        make_evaluator("learned(file=x.npz)", game)
    with pytest.raises(ValueError, match="missing.npz: no such model file"):
        bots.make_bot("star2(evaluator=learned(path=missing.npz))", game, 0, engine="python")


SEARCH_DEPTHS = {"backgammon": 1, "pig": 3, "2048": 2, "einstein_wurfelt_nicht": 2}


@pytest.mark.parametrize("name", MLP_GAMES)
def test_star2_with_a_learned_model_returns_plain_expectiminimax_s_value(tmp_path, name):
    game = _game(name)
    depth = SEARCH_DEPTHS[name]
    model = random_ntuple(game)[0] if name in NTUPLE_GAMES else random_mlp(game, [8])[0]
    path = tmp_path / "model.npz"
    save_model(path, model)
    evaluator = LearnedEvaluator(game, path)
    for state in sample_positions(game, 3, seed=7, max_moves=12):
        player = state.current_player()
        bot = bots.make_bot(
            f"star2(max_depth={depth},evaluator=learned(path={path}))",
            game,
            player,
            engine="python",
        )
        bot.step(state)
        expected = plain_expectiminimax(state, depth, evaluator, player).value
        assert bot.last_search["value"] == pytest.approx(expected, abs=1e-9)


def test_a_learned_bot_plays_a_whole_game_of_pig(tmp_path):
    game = _game("pig")
    path = tmp_path / "model.npz"
    save_model(path, random_mlp(game, [8], seed=11)[0])
    players = [
        bots.make_bot(
            "star2(max_depth=2)", game, 0, evaluator=f"learned(path={path})", engine="python"
        ),
        bots.make_bot("random", game, 1, seed=3),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), players, 5)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert players[0].last_search["evaluations"] > 0


def test_the_format_constant_is_the_specification_s():
    assert FORMAT == "starspiel.learned/1"


def test_mcts_values_leaves_with_a_learned_model(tmp_path):
    """The fair MCTS takes ``evaluator=learned(path=FILE)`` and calls the model through
    OpenSpiel's Evaluator protocol (evaluate and prior)."""
    game = _game("pig")
    path = tmp_path / "model.npz"
    save_model(path, random_mlp(game, [8], seed=1)[0])
    bot = bots.make_bot(f"mcts(evaluator=learned(path={path}),max_simulations=30)", game, 0)
    # The C++ MCTS with the model's native twin where the engine is built, else Python's.
    from bots.mcts import CppMCTSBot

    assert isinstance(bot, CppMCTSBot) or isinstance(bot.evaluator, LearnedEvaluator)
    assert bot.step(game.new_initial_state()) in (0, 1)
    with pytest.raises(ValueError, match="unknown evaluator 'zero'; accepted: rollout, heuristic"):
        bots.make_bot("mcts(evaluator=zero)", game, 0)
    if not shipped_model_path(game).exists():
        with pytest.raises(ValueError, match="python -m experiments.learn --game=pig"):
            bots.make_bot("mcts(evaluator=learned)", game, 0)


@pytest.mark.parametrize("name", ["backgammon", "einstein_wurfelt_nicht"])
def test_the_float64_and_int64_sums_agree_bit_for_bit(name):
    """Inference sums in float64 where every partial sum is an integer below 2**53 (exact),
    else in int64 over the nonzero inputs; both give the same outputs."""
    from bots.learned.inference import MlpInference

    game = _game(name)
    model = random_mlp(game, [12, 6], seed=9, weight_scale=3.0)[0]
    fast = MlpInference(model.metadata, model.arrays)
    sparse = MlpInference(model.metadata, model.arrays, exact_float=False)
    assert fast.exact_float and not sparse.exact_float
    huge = {**model.arrays, "b0": model.arrays["b0"] + 2**60}
    assert not MlpInference(model.metadata, huge).exact_float
    for state in spread(walk_states(game, 2, seed=9), 60):
        q = model.features(state)
        assert fast.outputs(q).tolist() == sparse.outputs(q).tolist()


def test_a_model_of_a_c_plus_plus_game_evaluates_its_python_twin_alike():
    """cant_stop and python_cant_stop share a model (and their observation tensors)."""
    import games  # noqa: F401 - registers the custom games and their Python twins

    cpp, python = _game("cant_stop"), _game("python_cant_stop")
    model = random_mlp(cpp, [8])[0]
    one, two = LearnedEvaluator(cpp, model), LearnedEvaluator(python, model)
    assert model.game is cpp  # the twin's evaluator bound a copy
    rng = random.Random(0)
    a, b = cpp.new_initial_state(), python.new_initial_state()
    for _ in range(150):
        if a.is_terminal():
            break
        assert one.evaluate(a).tolist() == two.evaluate(b).tolist()
        actions = [x for x, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions()
        action = rng.choice(actions)
        a.apply_action(action)
        b.apply_action(action)


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [
        ("learned(path=a.npz", "unbalanced '('"),
        ("learned(a.npz)", "learned evaluator: bad argument 'a.npz'"),
        ("learned(path=)", "learned evaluator: bad argument 'path='"),
        ("learnd(path=a.npz)", "unknown evaluator 'learnd(path=a.npz)'; accepted:"),
    ],
)
def test_bad_learned_specs_in_a_bot_spec_say_what_is_wrong(evaluator, message):
    with pytest.raises(ValueError) as error:
        bots.make_bot(f"star2(max_depth=1,evaluator={evaluator})", _game("pig"), 0)
    assert message in str(error.value)


def test_openspiel_s_bot_registry_takes_a_learned_evaluator(tmp_path):
    if bots.native_engine.native() is None:
        pytest.skip(
            f"the registry entries come with the native engine: {bots.native_engine.problem()}"
        )
    game = _game("pig")
    path = tmp_path / "model.npz"
    save_model(path, random_mlp(game, [8], seed=4)[0])
    params = {"max_depth": 2, "evaluator": f"learned(path={path})", "engine": "python"}
    bot = pyspiel.load_bot("starspiel_star2", game, 0, params)
    assert bot.step(game.new_initial_state()) in (0, 1)


def test_every_shipped_model_loads_for_its_game_and_they_fit_in_10_mb():
    from bots.evaluators.learned import MODELS

    files = sorted(MODELS.glob("*.npz"))
    assert sum(f.stat().st_size for f in files) <= 10 * 2**20
    for path in files:
        # The file is named by the game's short name; the game is the one it was trained on
        # (2048's is 2048(max_tile=4096), and plain 2048 refuses it, naming that game).
        with np.load(path) as data:
            game = pyspiel.load_game(json.loads(str(data["metadata"]))["game"])
        assert game.get_type().short_name == path.stem
        model = load_model(path, game)
        assert model.metadata["training"]["games"] > 0 and model.metadata["training"]["command"]
        state = sample_positions(game, 1, 0, 6)[0]
        low, high = make_evaluator("learned", game).bounds
        assert all(low <= v <= high for v in model.values(state))
