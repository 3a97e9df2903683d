"""experiments.learn --engine=native: the C++ self-play and TD update against the numpy
reference, its determinism over threads, and its run folders (resume, old folders)."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from helpers.learn_config import PIG, kill_9_after, learn_command, learn_config

from bots import native_engine
from experiments.common.errors import ExperimentError
from experiments.common.game_loader import load_game
from experiments.learn import native
from experiments.learn.features import encoder, n_features
from experiments.learn.models import FloatModel, new_model, parse_model_spec
from experiments.learn.selfplay import td_update
from experiments.learn.train import CHECKPOINT, folder_engine, train

pytestmark = pytest.mark.skipif(
    native_engine.native() is None, reason=f"native engine: {native_engine.problem()}"
)

REPO = Path(__file__).resolve().parents[1]


def setup(game_string: str, model_spec: str, seed: int = 1, **options):
    """(game, spec, float model, C++ trainer) with the test's hyperparameters."""
    game = load_game(game_string)
    spec = parse_model_spec(model_spec, game)
    model = new_model(spec, n_features(spec, game), np.random.default_rng([seed, 0]))
    settings = dict(alpha=0.05, td_lambda=0.7, epsilon=0.1, max_moves=2000, seed=seed)
    settings.update(options)
    trainer = native.native_trainer(game, spec, model, **settings)
    return game, spec, model, trainer


def params_equal(a: FloatModel, b: FloatModel) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.params(), b.params(), strict=True))


@pytest.mark.parametrize(
    "game_string,model_spec",
    [
        ("backgammon", "mlp(hidden=8)"),
        (PIG, "mlp(hidden=8)"),
        (PIG, "mlp(hidden=6-5,encoding=observation)"),
        (PIG, "mlp(hidden=8,encoding=observation_hand)"),
        ("einstein_wurfelt_nicht", "mlp(hidden=8,encoding=observation_hand)"),
    ],
)
def test_cpp_learn_gives_the_numpy_td_update(game_string, model_spec):
    _, _, model, trainer = setup(game_string, model_spec)
    trajectories = [native.play(trainer, model, g)[0] for g in range(4)]
    reference = copy.deepcopy(model)
    squared_reference = sum(td_update(reference, t, 0.05, 0.7) for t in trajectories)
    squared, steps = native.learn(trainer, model, trajectories)
    assert steps == sum(len(t.returns) for t in trajectories)
    assert squared == pytest.approx(squared_reference, rel=1e-9)
    for mine, theirs in zip(model.params(), reference.params(), strict=True):
        assert np.allclose(mine, theirs, rtol=1e-9, atol=1e-12)
    assert not params_equal(model, setup(game_string, model_spec)[2])  # it learned


@pytest.mark.parametrize(
    "game_string,model_spec",
    [
        ("2048", "ntuple(tuples=lines_squares,symmetries=none)"),
        ("2048", "ntuple(tuples=lines,symmetries=dihedral)"),
        ("einstein_wurfelt_nicht", "ntuple(planes=12)"),
    ],
)
def test_cpp_ntuple_td0_gives_numpys_weights_and_features(game_string, model_spec):
    game, spec, model, trainer = setup(game_string, model_spec, alpha=0.0025, td_lambda=0.0)
    encode = encoder(spec)
    for first in (0, 3):  # twice: the second batch starts from learned (non-zero) tables
        played = [native.play(trainer, model, g) for g in range(first, first + 3)]
        trajectories = [trajectory for trajectory, _ in played]
        reference = copy.deepcopy(model)
        squared_reference = sum(td_update(reference, t, 0.0025, 0.0) for t in trajectories)
        squared, _ = native.learn(trainer, model, trajectories)
        assert squared == squared_reference
        assert np.array_equal(model.luts, reference.luts)  # numpy's sums and adds, in order
    trajectory, actions = played[0]
    state, rows = game.new_initial_state(), []
    for action in actions:
        decision = not state.is_chance_node()
        state.apply_action(int(action))
        if decision and not state.is_terminal():
            rows.append(encode(state))
    assert np.array_equal(trajectory.features, np.array(rows))
    assert np.any(model.luts != 0)


def test_a_cut_off_game_gets_no_final_update():
    _, _, model, trainer = setup(PIG, "mlp(hidden=8)", max_moves=5)
    trajectory, _ = native.play(trainer, model, 0)
    assert trajectory.cut_off and trajectory.moves == 5
    reference = copy.deepcopy(model)
    td_update(reference, trajectory, 0.05, 0.7)
    native.learn(trainer, model, [trajectory])
    for mine, theirs in zip(model.params(), reference.params(), strict=True):
        assert np.allclose(mine, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "game_string,model_spec",
    [
        ("backgammon", "mlp(hidden=8)"),
        (PIG, "mlp(hidden=8)"),
        (PIG, "mlp(encoding=observation)"),
        ("cant_stop", "mlp(hidden=8,encoding=observation_hand)"),
    ],
)
def test_cpp_features_are_the_encoders_of_the_replayed_afterstates(game_string, model_spec):
    game, spec, model, trainer = setup(game_string, model_spec, epsilon=0.3)
    encode = encoder(spec, game)
    for g in range(3):
        trajectory, actions = native.play(trainer, model, g)
        state = game.new_initial_state()
        rows, returns, moves = [], [], 0
        for action in actions:
            decision = not state.is_chance_node()
            state.apply_action(int(action))
            if decision:
                moves += 1
                if not state.is_terminal():
                    rows.append(encode(state))
                    returns.append(state.returns()[0])
        assert state.is_terminal() and not trajectory.cut_off
        assert trajectory.moves == moves
        assert trajectory.final_return == state.returns()[0]
        assert np.array_equal(trajectory.features, np.array(rows))
        assert np.array_equal(trajectory.returns, np.array(returns))


def test_the_greedy_move_is_the_best_afterstate_by_the_model():
    game, spec, model, trainer = setup("backgammon", "mlp(hidden=8)", epsilon=0.0)
    encode = encoder(spec)
    _, actions = native.play(trainer, model, 0)
    state = game.new_initial_state()
    for action in actions[:40]:
        if not state.is_chance_node():
            children = [state.child(a) for a in state.legal_actions()]
            totals = [
                c.returns()[0] + (0.0 if c.is_terminal() else model.outputs(encode(c)[None])[0])
                for c in children
            ]
            best = np.argmin(totals) if state.current_player() == 1 else np.argmax(totals)
            assert state.legal_actions()[int(best)] == action
        state.apply_action(int(action))


def test_same_seed_and_workers_give_identical_weights_and_threads_match_sequential():
    runs = []
    for workers in (2, 2, 1):
        _, _, model, trainer = setup(PIG, "mlp(hidden=8)")
        native.play_and_learn(trainer, model, 0, 7, workers)
        runs.append(model)
    assert params_equal(runs[0], runs[1])
    assert not params_equal(runs[0], runs[2])  # the batches differ
    # workers=2: each pair of games played with the pair's starting weights, then learned.
    _, _, model, trainer = setup(PIG, "mlp(hidden=8)")
    for first in range(0, 7, 2):
        batch = [native.play(trainer, model, g)[0] for g in range(first, min(first + 2, 7))]
        native.learn(trainer, model, batch)
    assert params_equal(model, runs[0])


def test_bad_weights_are_refused_not_copied():
    _, _, model, trainer = setup(PIG, "mlp(hidden=8)")
    params = model.params()
    with pytest.raises(ValueError, match="parameter arrays given"):
        trainer.play(params[:-1], 0)
    with pytest.raises(ValueError, match="C-contiguous float64"):
        trainer.play([params[0].astype(np.float32), *params[1:]], 0)
    with pytest.raises(ValueError, match="C-contiguous float64"):
        trainer.play([np.asfortranarray(params[0]), *params[1:]], 0)
    frozen = [p.copy() for p in params]
    for p in frozen:
        p.flags.writeable = False
    trainer.play(frozen, 0)  # play reads (Ray's store gives read-only arrays)
    with pytest.raises(ValueError, match="writeable C-contiguous float64"):
        trainer.play_and_learn(frozen, 0, 1, 1)


def config(**changes):
    """The shared configuration on the native engine, two workers, no evaluation."""
    return learn_config(**{"workers": 2, "eval_every": 0, "engine": "native", **changes})


def checkpoint(path: Path) -> dict[str, np.ndarray]:
    with np.load(path / CHECKPOINT) as data:
        return {key: data[key] for key in data.files}


def test_native_runs_resume_and_repeat(tmp_path):
    cfg = config()
    train(cfg, str(tmp_path / "whole"), 40, progress=False, plots=False)
    train(cfg, str(tmp_path / "again"), 40, progress=False, plots=False)
    train(cfg, str(tmp_path / "parts"), 15, progress=False, plots=False)
    last = train(cfg, str(tmp_path / "parts"), 40, progress=False, plots=False)
    assert last["games"] == 40
    whole = checkpoint(tmp_path / "whole")
    for other in ("again", "parts"):
        for key, value in checkpoint(tmp_path / other).items():
            if key.startswith("p") or key == "games":
                assert np.array_equal(whole[key], value), (other, key)
    stored = json.loads((tmp_path / "whole" / "config.json").read_text())["config"]
    assert stored["engine"] == "native" and folder_engine(str(tmp_path / "whole")) == "native"


def test_python_runs_keep_their_configuration_without_an_engine_key(tmp_path):
    train(config(engine="python"), str(tmp_path), 2, progress=False, plots=False)
    stored = json.loads((tmp_path / "config.json").read_text())["config"]
    assert "engine" not in stored
    assert folder_engine(str(tmp_path)) == "python"
    assert folder_engine(str(tmp_path / "none")) is None


def test_native_engine_refusals():
    with pytest.raises(ExperimentError, match="greedy policy only"):
        config(policy="expectiminimax(max_depth=1)")
    with pytest.raises(ExperimentError, match="implemented in Python"):
        config(game_string="python_cant_stop(players=2)")
    with pytest.raises(ExperimentError, match="--engine='gpu'"):
        config(engine="gpu")


def command(out: Path, *extra: str) -> list[str]:
    return learn_command(out, "--workers=2", *extra)


@pytest.mark.slow
def test_kill_9_resumes_a_native_run(tmp_path):
    out = tmp_path / "killed"
    args = command(out, "--games=2000", "--checkpoint_seconds=0")
    done = kill_9_after(args, out, REPO)
    assert 0 < done < 2000
    resumed = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {out} at game" in resumed.stderr
    train(config(), str(tmp_path / "whole"), 2000, progress=False, plots=False)
    a, b = checkpoint(out), checkpoint(tmp_path / "whole")
    for key in a:
        if key.startswith("p") or key == "games":
            assert np.array_equal(a[key], b[key]), key


@pytest.mark.slow
def test_the_command_resumes_a_python_run_folder_as_python(tmp_path):
    out = tmp_path / "old"
    first = subprocess.run(
        command(out, "--games=4", "--engine=python"), cwd=REPO, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr
    again = subprocess.run(command(out, "--games=6"), cwd=REPO, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "resuming it with --engine=python" in again.stderr
    assert int(checkpoint(out)["games"]) == 6
    refused = subprocess.run(
        command(out, "--games=8", "--engine=native"), cwd=REPO, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "engine" in refused.stderr


@pytest.fixture(scope="module")
def ray_session():
    """One local Ray for the Ray tests (train joins it instead of starting its own)."""
    ray = pytest.importorskip("ray")
    from experiments.common import runner

    started = runner._ray_init(ray, runner.RunnerOptions(workers=2, executor="ray"))
    yield
    if started:
        ray.shutdown()


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["native", "python"])
def test_ray_tasks_give_the_model_of_the_threads(tmp_path, engine, ray_session):
    cfg = config(engine=engine, workers=3)
    train(cfg, str(tmp_path / "ray"), 8, progress=False, plots=False, executor="ray")
    train(cfg, str(tmp_path / "threads"), 8, progress=False, plots=False)
    a, b = checkpoint(tmp_path / "ray"), checkpoint(tmp_path / "threads")
    assert int(a["games"]) == 8
    for key in a:
        if key.startswith("p"):
            assert np.array_equal(a[key], b[key]), key
