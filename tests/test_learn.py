"""experiments.learn: the numpy TD trainer, its run folder, resume, determinism and errors."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.learn_config import PIG, kill_9_after, learn_command, learn_config

from bots.learned import float_ntuple_outputs, load_model
from bots.learned.encodings import log2_cells
from bots.settings_docs import commands
from experiments.common.game_loader import GameError, load_game
from experiments.common.results import FolderLock, ResultsError
from experiments.learn import train as train_module
from experiments.learn.features import encoder, n_features
from experiments.learn.models import FloatMLP, ModelSpecError, new_model, parse_model_spec
from experiments.learn.selfplay import Player, evaluate, play_game, td_update
from experiments.learn.train import (
    CHECKPOINT,
    MODEL,
    PROGRESS,
    GameProgress,
    Trainer,
    train,
)

REPO = Path(__file__).resolve().parents[1]


def config(game: str = PIG, **changes):
    return learn_config(game, **changes)


def arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def test_short_run_writes_model_and_progress(tmp_path):
    last = train(config(), str(tmp_path), games=20, progress=False, plots=False)
    assert last["games"] == 20
    records = [json.loads(line) for line in (tmp_path / PROGRESS).read_text().splitlines()]
    assert [r["games"] for r in records] == [0, 10, 20]
    assert all({"games", "seconds", "score", "interval"} <= set(r) for r in records)
    model = load_model(tmp_path / MODEL, load_game(PIG))
    assert model.metadata["training"]["games"] == 20
    assert model.metadata["training"]["workers"] == 1
    assert model.metadata["head"] == "zero_sum"
    assert (tmp_path / CHECKPOINT).exists()


def test_same_seed_and_workers_give_the_same_model(tmp_path):
    for workers in (1, 2):
        for run in ("a", "b"):
            train(
                config(workers=workers, eval_every=0),
                str(tmp_path / f"{workers}{run}"),
                12,
                progress=False,
            )
        a, b = arrays(tmp_path / f"{workers}a" / MODEL), arrays(tmp_path / f"{workers}b" / MODEL)
        assert a.keys() == b.keys()
        for key in a:
            if key != "metadata":
                assert np.array_equal(a[key], b[key]), key


def test_rerun_resumes_and_matches_one_run(tmp_path):
    cfg = config(eval_every=0)
    train(cfg, str(tmp_path / "whole"), 16, progress=False)
    train(cfg, str(tmp_path / "parts"), 7, progress=False)
    train(cfg, str(tmp_path / "parts"), 16, progress=False)
    whole, parts = arrays(tmp_path / "whole" / CHECKPOINT), arrays(tmp_path / "parts" / CHECKPOINT)
    assert int(parts["games"]) == 16
    for key in whole:
        if key.startswith("p"):
            assert np.array_equal(whole[key], parts[key]), key


def test_init_continues_as_one_longer_run_would(tmp_path):
    # A run started from another's checkpoint with the same settings is that run continued:
    # game g draws the same dice, and the curve goes on from the parent's games.
    cfg = config(eval_every=4)
    train(cfg, str(tmp_path / "whole"), 16, progress=False, plots=False)
    train(cfg, str(tmp_path / "parent"), 8, progress=False, plots=False, command="parent's")
    child = config(eval_every=4, init=str(tmp_path / "parent"))
    assert child.init == f"{tmp_path / 'parent'} at 8 games"
    assert child.as_dict()["init"] == child.init and "init" not in cfg.as_dict()
    train(child, str(tmp_path / "child"), 16, progress=False, plots=False, command="child's")
    whole, grown = arrays(tmp_path / "whole" / CHECKPOINT), arrays(tmp_path / "child" / CHECKPOINT)
    assert int(grown["games"]) == 16
    for key in whole:
        if key.startswith("p"):
            assert np.array_equal(whole[key], grown[key]), key
    records = [
        json.loads(line) for line in (tmp_path / "child" / PROGRESS).read_text().splitlines()
    ]
    assert [r["games"] for r in records] == [8, 12, 16]
    # The model file names both commands, the parent's with the games it was left at.
    training = load_model(tmp_path / "child" / MODEL).metadata["training"]
    assert training["games"] == 16 and training["init"]["games"] == 8
    assert training["command"] == "child's" and training["init"]["command"] == "parent's"
    assert commands(training) == "`parent's` to 8 games, then `child's`"
    train(child, str(tmp_path / "child"), 20, progress=False, plots=False, command="again")
    assert load_model(tmp_path / "child" / MODEL).metadata["training"]["init"]["games"] == 8
    # A checkpoint written before it kept its training metadata: its folder's last command.
    older = {k: v for k, v in arrays(tmp_path / "parent" / CHECKPOINT).items() if k != "training"}
    np.savez(tmp_path / "parent" / CHECKPOINT, **older)
    train(child, str(tmp_path / "child2"), 9, progress=False, plots=False, command="c2")
    stage = load_model(tmp_path / "child2" / MODEL).metadata["training"]["init"]
    assert stage["games"] == 8 and stage["command"].startswith("python -m experiments.learn ")
    # Another step size from the same parent is another model, from the same start.
    smaller = config(eval_every=0, alpha=0.01, init=str(tmp_path / "parent" / CHECKPOINT))
    train(smaller, str(tmp_path / "smaller"), 9, progress=False)
    assert int(arrays(tmp_path / "smaller" / CHECKPOINT)["games"]) == 9


def test_init_errors_say_what_is_wrong(tmp_path):
    train(config(eval_every=0), str(tmp_path / "parent"), 4, progress=False)
    with pytest.raises(ValueError, match="no such run folder"):
        config(init=str(tmp_path / "nowhere"))
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    with pytest.raises(ValueError, match="unreadable .*--init takes a run folder or its"):
        config(init=str(tmp_path / "notes.txt"))
    with pytest.raises(ValueError, match=r"model 'mlp\(hidden=8,.*must match both"):
        config(model="mlp(hidden=9)", init=str(tmp_path / "parent"))
    with pytest.raises(ValueError, match="--games=4: this run starts from .* at 4 games"):
        train(config(init=str(tmp_path / "parent")), str(tmp_path / "child"), 4, progress=False)
    assert not (tmp_path / "child").exists()


def test_folder_in_use_is_locked(tmp_path):
    lock = FolderLock(str(tmp_path))
    lock.acquire()
    try:
        with pytest.raises(ResultsError, match="in use by a live run"):
            train(config(), str(tmp_path), 2, progress=False)
    finally:
        lock.release()


def test_bad_flags_are_clear_errors():
    with pytest.raises(GameError, match="unknown game 'no_such_game'"):
        config("no_such_game")
    with pytest.raises(ModelSpecError, match="unknown family 'cnn'"):
        config(model="cnn(hidden=3)")
    with pytest.raises(ModelSpecError, match="hidden='x' .*layer sizes"):
        config(model="mlp(hidden=x)")
    with pytest.raises(ModelSpecError, match="unknown parameter.*depth"):
        config(model="mlp(depth=3)")
    with pytest.raises(ModelSpecError, match="no observation tensor"):
        config("morpion_solitaire")
    with pytest.raises(ModelSpecError, match="square board"):
        config(model="ntuple(tuples=lines)")
    with pytest.raises(ValueError, match="not a search bot"):
        config(policy="mcts")


def test_epsilon_defaults_to_no_random_moves_in_one_player_games():
    assert config(epsilon=None).epsilon == 0.01
    assert config("2048", model="ntuple(tuples=lines)", epsilon=None).epsilon == 0.0
    assert config("2048", model="ntuple(tuples=lines)", epsilon=0.2).epsilon == 0.2


def test_bad_flag_on_the_command_line_exits_2(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "experiments.learn",
            "--game=pig",
            "--model=mlp(hidden=0)",
            f"--out={tmp_path}",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.returncode == 2
    assert "error: --model: hidden='0'" in result.stderr
    assert "Traceback" not in result.stderr


def test_two_player_mlps_read_the_observation_and_the_mover(tmp_path):
    """The default for two players: the observation floats, then 1.0 for who moved last;
    the exported model's integer inputs are those floats quantised, and its outputs its
    float twin's up to quantisation."""
    game = load_game(PIG)
    spec = parse_model_spec("mlp(hidden=8)", game)
    assert spec.encoding == "observation_mover"
    assert parse_model_spec(spec.text(), game) == spec
    assert parse_model_spec("mlp(hidden=8,encoding=observation)", game).encoding == "observation"
    assert parse_model_spec("mlp(hidden=8)", load_game("2048")).encoding == "observation"
    with pytest.raises(ModelSpecError, match="encoding='cells'.*observation_mover"):
        parse_model_spec("mlp(encoding=cells)", game)
    train(config(eval_every=0), str(tmp_path), 4, progress=False)
    learned = load_model(tmp_path / MODEL, game)
    assert learned.metadata["encoding"] == "observation_mover"
    model = new_model(spec, n_features(spec, game), np.random.default_rng(0))
    with np.load(tmp_path / CHECKPOINT) as data:
        model.set_params([data[f"p{i}"] for i in range(len(model.params()))])
    encode, size = encoder(spec), game.observation_tensor_size()
    rng = np.random.default_rng(2)
    state, movers = game.new_initial_state(), set()
    while not state.is_terminal():
        x = encode(state)
        assert x[:size].tolist() == state.observation_tensor(0)
        movers.add((state.is_chance_node(), int(np.argmax(x[size:]))))
        assert x[size:].sum() == 1.0
        assert learned.features(state).tolist() == np.rint(x * 64).astype(int).tolist()
        assert learned.outputs(state)[0] == pytest.approx(model.outputs(x[None, :])[0], abs=0.05)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert movers == {(False, 0), (False, 1), (True, 0), (True, 1)}


def test_mlp_gradient_matches_finite_differences():
    rng = np.random.default_rng(7)
    spec = parse_model_spec("mlp(hidden=6-5,scale=2)", load_game("pig"))
    model = FloatMLP.initial(9, spec, rng)
    x = rng.random(9)
    value, grads = model.output_and_gradient(x)
    assert value == pytest.approx(model.outputs(x[None, :])[0], abs=1e-12)
    h = 1e-6
    for param, grad in zip(model.params(), grads, strict=True):
        assert param.shape == grad.shape
        for index in np.ndindex(param.shape):
            keep = param[index]
            param[index] = keep + h
            up = model.outputs(x[None, :])[0]
            param[index] = keep - h
            down = model.outputs(x[None, :])[0]
            param[index] = keep
            assert (up - down) / (2 * h) == pytest.approx(grad[index], abs=1e-6)


def test_ntuple_matches_bots_learned_float_twin_and_quantised_model(tmp_path):
    game = load_game("2048")
    cfg = config("2048", model="ntuple(symmetries=dihedral)", eval_every=0)
    train(cfg, str(tmp_path), 2, progress=False)
    learned = load_model(tmp_path / MODEL, game)
    spec = parse_model_spec(cfg.model, game)
    model = new_model(spec, 16, np.random.default_rng(0))
    with np.load(tmp_path / CHECKPOINT) as data:
        model.set_params([data["p0"]])
    rng = np.random.default_rng(1)
    encode = encoder(spec)
    trajectory = play_game(game, model, encode, Player(), rng)
    sizes = np.diff(model.lut_offsets)
    luts = np.split(model.luts, np.cumsum(sizes)[:-1])
    for cells in trajectory.features[:20]:
        ours = model.outputs(cells[None, :])[0]
        twin = float_ntuple_outputs(
            luts, model.placements, model.placement_tables, cells, spec.values
        )[0]
        assert ours == pytest.approx(twin, abs=1e-9)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    cells = log2_cells(np.asarray(state.observation_tensor(0)), spec.values)
    step = 2.0**-spec.output_shift * len(model.placements)
    assert learned.outputs(state)[0] == pytest.approx(model.outputs(cells[None, :])[0], abs=step)


def test_td_learns_catch():
    game = load_game("catch")
    spec = parse_model_spec("mlp(hidden=20)", game)
    encode = encoder(spec)
    model = new_model(spec, 50, np.random.default_rng(1))
    before = evaluate(game, model, encode, 20, seed=5, max_moves=50)["score"]
    player = Player(epsilon=0.1, max_moves=50)
    for g in range(600):
        td_update(
            model, play_game(game, model, encode, player, np.random.default_rng([1, g])), 0.1, 0.7
        )
    after = evaluate(game, model, encode, 20, seed=5, max_moves=50)["score"]
    assert after > before
    assert after >= 0.95  # nearly every ball caught


def test_td_error_falls_on_pig(tmp_path):
    # The observation alone: with the mover's one-hot (the default) the TD error rose over
    # the first 240 games at seeds 3 to 5 while the score against the hand evaluator after
    # 600 games matched (0.71 against 0.73-0.76): telling the movers apart spreads the
    # values, and the dice's share of the error with them (a guess, not measured).
    model = "mlp(hidden=8,encoding=observation)"
    cfg = config(eval_every=40, eval_games=2, epsilon=0.05, alpha=0.05, model=model)
    train(cfg, str(tmp_path), 120, progress=False, plots=False)
    rms = [
        json.loads(line)["td_error_rms"] for line in (tmp_path / PROGRESS).read_text().splitlines()
    ]
    assert rms[-1] < rms[1]


def test_search_bot_as_the_self_play_policy(tmp_path):
    cfg = config(policy="expectiminimax(max_depth=1)", eval_every=0)
    last = train(cfg, str(tmp_path), 3, progress=False)
    assert last["games"] == 3
    assert load_model(tmp_path / MODEL).metadata["training"]["games"] == 3


@pytest.mark.slow
def test_kill_9_resumes_from_the_last_checkpoint(tmp_path):
    out = tmp_path / "killed"
    command = learn_command(out, "--checkpoint_seconds=0", "--games=1000", "--engine=python")
    done = kill_9_after(command, out, REPO)
    assert 0 < done < 1000
    resumed = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {out} at game" in resumed.stderr
    whole = tmp_path / "whole"
    train(config(eval_every=0), str(whole), 1000, progress=False)
    a, b = arrays(out / CHECKPOINT), arrays(whole / CHECKPOINT)
    for key in a:
        if key.startswith("p"):
            assert np.array_equal(a[key], b[key]), key


def test_another_configuration_on_the_folder_is_refused(tmp_path):
    train(config(eval_every=0), str(tmp_path), 2, progress=False)
    with pytest.raises(ResultsError, match="alpha: folder has 0.05, now 0.1"):
        train(config(eval_every=0, alpha=0.1), str(tmp_path), 4, progress=False)


def test_progress_bar_shows_games_per_second_and_eta():
    bar = GameProgress(10, 0, "games", stream=io.StringIO())
    bar.update(4)
    assert re.search(r"4/10 games  [\d.]+ games/s  eta \d+:\d\d", bar.line())


def test_an_interrupted_update_leaves_the_weights_of_the_last_batch(tmp_path, monkeypatch):
    trainer = Trainer(config(workers=2, eval_every=0), str(tmp_path), "")
    before = [p.copy() for p in trainer.model.params()]
    trajectories = trainer.play_batch(None, 2)
    calls = []

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return td_update(*args)

    monkeypatch.setattr(train_module, "td_update", interrupted)
    with pytest.raises(KeyboardInterrupt):
        trainer.learn(trajectories)
    assert trainer.games == 0
    for old, new in zip(before, trainer.model.params(), strict=True):
        assert np.array_equal(old, new)


def test_quantisation_cost_plays_the_float_model_against_the_integer_one(tmp_path):
    from experiments.learn.quantisation import compare

    train(config(eval_every=0), str(tmp_path / "pig"), games=20, progress=False, plots=False)
    result = compare(str(tmp_path / "pig"), games=6, seed=0, max_moves=300)
    assert result["games"] == 6 and 0.0 <= result["value"] <= 1.0
    assert 0.0 <= result["moves_that_differ"] <= 1.0 and result["decisions"] > 0
    small = "ntuple(tuples=lines,symmetries=none)"
    train(config("2048", model=small, eval_every=0), str(tmp_path / "t"), games=2, progress=False)
    one = compare(str(tmp_path / "t"), games=2, seed=0, max_moves=40)
    assert one["games"] == 2 and "minus the float model" in one["measure"]


def test_the_rectangles_network_is_szubert_and_jaskowskis():
    from experiments.learn.models import named_tuples, placements_of

    tuples = named_tuples("rectangles", 4)
    assert tuples == [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 2, 4, 5, 6], [4, 5, 6, 8, 9, 10]]
    tables, placements, owners = placements_of(tuples, 4, "dihedral")
    assert len(tables) == 4 and len(placements) == 32 and sorted(set(owners)) == [0, 1, 2, 3]
