"""The training run: batches of self-play games, TD updates, evaluations, checkpoints, resume.

Determinism: game g (counted from 0 over the whole run) draws its chance outcomes and
exploration from `np.random.default_rng([seed, 1, g])`, and the initial weights come from
`default_rng([seed, 0])`. A batch is `workers` consecutive games played with the weights
at the batch's start (on `workers` threads), whose TD updates are then applied in game
order. So the model after g games depends only on the seed, the worker count and the
configuration, never on timing: the checkpoint stores the weights and g (the generator
state of game g is a function of the seed and g), and a resumed run, however it was
stopped, continues exactly where an uninterrupted one would be.

The native engine (`--engine=native`, experiments/learn/native.py) has the same batches,
played on C++ threads and learned in C++ on the same numpy arrays; its game g draws from
SplitMix64 seeded by (seed, g) instead, so it is a run of its own, as deterministic.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pyspiel

from experiments.common.errors import ExperimentError
from experiments.common.game_loader import load_game
from experiments.common.progress import Progress, hms
from experiments.common.results import ResultsFolder
from experiments.learn import curve
from experiments.learn.export import export_model, model_metadata, save_atomic
from experiments.learn.features import encoder, n_features
from experiments.learn.models import (
    FloatModel,
    ModelSpecError,
    default_model_spec,
    head_of,
    new_model,
    parse_model_spec,
)
from experiments.learn.native import ENGINES, check_native, native_trainer, play_and_learn
from experiments.learn.native import learn as native_learn
from experiments.learn.remote import RayPlayers
from experiments.learn.selfplay import (
    GREEDY,
    FloatEvaluator,
    Player,
    Trajectory,
    evaluate,
    play_game,
    search_bots,
    td_update,
)

CHECKPOINT = "checkpoint.npz"
MODEL = "model.npz"
PROGRESS = "progress.jsonl"


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """What decides the model and its progress records (compared when resuming)."""

    game: str
    model: str
    policy: str
    seed: int
    workers: int
    alpha: float
    td_lambda: float
    epsilon: float
    eval_every: int
    eval_games: int
    max_moves: int
    engine: str = "python"  # where self-play and updates run: "native" (C++) or "python"
    init: str = ""  # the checkpoint this run starts from: "<path> at <games> games"

    def as_dict(self) -> dict[str, Any]:
        """The python engine's configuration has no engine key: run folders written before
        the native engine existed are python runs, and resume as such; nor has a run that
        starts from fresh weights an init key."""
        values = dataclasses.asdict(self)
        if values["engine"] == "python":
            del values["engine"]
        if not values["init"]:
            del values["init"]
        return {"program": "experiments.learn", **values}


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """What a checkpoint.npz holds: its run's configuration, float weights, games, seconds,
    and the model's training metadata (None in checkpoints written before it was kept)."""

    config: dict[str, Any]
    params: list[np.ndarray]
    games: int
    seconds: float
    training: dict[str, Any] | None = None


def read_checkpoint(path: str, weights: bool = True, hint: str = "") -> Checkpoint:
    """The checkpoint at `path` (a run folder or its checkpoint.npz); without `weights`,
    only its configuration, games and seconds. `hint` ends the error of an unreadable one."""
    if os.path.isdir(path):
        path = os.path.join(path, CHECKPOINT)
    try:
        with np.load(path) as data:
            stored = json.loads(str(data["config"]))
            count = sum(1 for key in data.files if re.fullmatch(r"p\d+", key))
            params = [data[f"p{i}"] for i in range(count)] if weights else []
            games, seconds = int(data["games"]), float(data["seconds"])
            training = json.loads(str(data["training"])) if "training" in data.files else None
    except (OSError, ValueError, KeyError) as error:
        raise ExperimentError(f"{path} is unreadable ({error}){hint}") from None
    return Checkpoint(stored, params, games, seconds, training)


def stage_of(path: str, checkpoint: Checkpoint) -> dict[str, Any]:
    """The training metadata of the checkpoint at `path`, for a run that starts from it:
    what it stored, or (an older checkpoint) its folder's last command, its games, seconds."""
    if checkpoint.training is not None:
        return checkpoint.training
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    command = ""
    try:
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as handle:
            argv = json.load(handle)["runs"][-1]["metadata"]["argv"]
        command = "python -m experiments.learn " + " ".join(shlex.quote(a) for a in argv[1:])
    except (OSError, ValueError, KeyError, IndexError):
        pass  # no command on record: the stage keeps its games and seconds
    stage: dict[str, Any] = {
        "command": command,
        "games": checkpoint.games,
        "seconds": round(checkpoint.seconds, 3),
        "seed": checkpoint.config.get("seed"),
        "workers": checkpoint.config.get("workers"),
    }
    init = checkpoint.config.get("init")
    if init:  # its own parent, at the games it started from
        parent_path, at = init.rsplit(" at ", 1)
        try:
            parent = read_checkpoint(parent_path, weights=False)
        except ExperimentError:
            return stage  # moved or gone: the chain ends here
        stage["init"] = {**stage_of(parent_path, parent), "games": int(at.split()[0])}
    return stage


def init_of(path: str, game: str, model: str) -> str:
    """The init key of a run starting from the checkpoint at `path`, which must hold the
    same game and model (another step size, exploration or engine is the point of it)."""
    if not os.path.exists(path):
        raise ExperimentError(f"--init={path}: no such run folder or checkpoint.npz")
    parent = read_checkpoint(
        path, weights=False, hint=": --init takes a run folder or its checkpoint.npz"
    )
    have = (parent.config.get("game"), parent.config.get("model"))
    if have != (game, model):
        raise ExperimentError(
            f"--init={path} holds game {have[0]!r} and model {have[1]!r}; this run has game "
            f"{game!r} and model {model!r}: an init must match both"
        )
    return f"{os.path.normpath(path)} at {parent.games} games"


def init_games(config: TrainConfig) -> int:
    """The games of the checkpoint a run starts from (0 without --init)."""
    return int(config.init.rsplit(" at ", 1)[1].split()[0]) if config.init else 0


def resolve(
    game_string: str,
    model: str | None,
    policy: str,
    seed: int,
    workers: int,
    alpha: float | None,
    td_lambda: float | None,
    epsilon: float | None,
    eval_every: int,
    eval_games: int,
    max_moves: int,
    engine: str = "python",
    init: str | None = None,
) -> TrainConfig:
    """Checks the flags against the game and fills in the per-family defaults."""
    game = load_game(game_string)
    if engine not in ENGINES:
        raise ExperimentError(f"--engine={engine!r}; accepted: {', '.join(ENGINES)}")
    if engine == "native" and policy != GREEDY:
        raise ExperimentError(
            f"--engine=native plays the greedy policy only; --policy={policy!r} (a search "
            "bot acting with the float model) runs on --engine=python"
        )
    if engine == "native":
        check_native(game)
    head_of(game)
    spec = parse_model_spec(model or default_model_spec(game), game)
    if spec.family == "ntuple" and td_lambda not in (None, 0.0):
        raise ModelSpecError(
            "--td_lambda: n-tuple networks learn with TD(0) on afterstates (Szubert and "
            "Jaskowski 2014); leave --td_lambda unset or 0"
        )
    if policy != GREEDY:
        from bots.spec import parse_spec

        try:
            name, _ = parse_spec(policy)
        except ValueError as error:
            raise ExperimentError(f"--policy: {error}") from None
        from bots.options import SEARCH_BOTS

        if name not in SEARCH_BOTS:
            raise ExperimentError(
                f"--policy: {policy!r} is not a search bot; accepted: 'greedy' or a make_bot "
                f"spec of {', '.join(SEARCH_BOTS)}, e.g. 'star2(max_depth=2)'"
            )
    if alpha is None:
        alpha = 0.0025 if spec.family == "ntuple" else 0.01
    if td_lambda is None:
        td_lambda = 0.0 if spec.family == "ntuple" else 0.7
    if epsilon is None:
        # One-player games' chance events explore; a random move only costs the game
        # (2048's two runs compared: docs/results/learned.md).
        epsilon = 0.0 if game.num_players() == 1 else 0.01
    return TrainConfig(
        game=str(game),
        model=spec.text(),
        init=init_of(init, str(game), spec.text()) if init else "",
        policy=policy,
        seed=seed,
        workers=workers,
        alpha=alpha,
        td_lambda=td_lambda,
        epsilon=epsilon,
        eval_every=eval_every,
        eval_games=eval_games,
        max_moves=max_moves,
        engine=engine,
    )


def folder_engine(out: str) -> str | None:
    """The engine of the run in folder `out` ("python" when its configuration has no engine
    key: it predates the native engine), or None without a readable config.json there."""
    try:
        with open(os.path.join(out, "config.json"), encoding="utf-8") as handle:
            stored = json.load(handle)["config"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return str(stored.get("engine", "python")) if isinstance(stored, dict) else None


class GameProgress(Progress):
    """The runner's bar with games per second and the last score."""

    score: str = ""

    def line(self) -> str:
        elapsed = time.monotonic() - self.t0
        new = self.done - self.start_done
        rate = new / elapsed if elapsed > 0 else 0.0
        eta = hms((self.total - self.done) / rate) if new and rate > 0 else "?"
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        return (
            f"[{bar}] {self.done}/{self.total} games  {rate:.2f} games/s  eta {eta}"
            f"{'  score ' + self.score if self.score else ''}"
        )


class Trainer:
    """One run folder: the model, its games, its clock; see the module docstring."""

    def __init__(self, config: TrainConfig, out: str, command: str):
        self.config, self.out, self.command = config, out, command
        self.game = load_game(config.game)
        self.head = head_of(self.game)
        self.spec = parse_model_spec(config.model, self.game)
        self.encode = encoder(self.spec, self.game)
        self.n_features = n_features(self.spec, self.game)
        self.model: FloatModel = new_model(
            self.spec, self.n_features, np.random.default_rng([config.seed, 0])
        )
        self.player = Player(config.policy, config.epsilon, config.max_moves)
        # The C++ trainer (engine=native), working on self.model's arrays in place.
        self.native: Any = None
        if config.engine == "native":
            self.native = native_trainer(
                self.game,
                self.spec,
                self.model,
                config.alpha,
                config.td_lambda,
                config.epsilon,
                config.max_moves,
                config.seed,
            )
        self.games = 0
        self.seconds = 0.0
        self.parent: dict[str, Any] | None = None  # the --init checkpoint's training metadata
        self.squared_error = 0.0  # of the TD updates since the last record
        self.steps = 0

    # -- files --------------------------------------------------------------------------

    def load_checkpoint(self) -> bool:
        """Resumes from the run folder's checkpoint, if it has one."""
        path = os.path.join(self.out, CHECKPOINT)
        if not os.path.exists(path):
            return False
        saved = read_checkpoint(path, hint="; remove it to start over, or use another --out")
        if saved.config != self.config.as_dict():
            raise ExperimentError(f"{path} belongs to another configuration; use another --out")
        self.take(saved, path)
        if self.config.init:
            stored = (saved.training or {}).get("init")
            if stored is None:  # an older checkpoint: the parent's record, as at the start
                parent_path = self.config.init.rsplit(" at ", 1)[0]
                parent = read_checkpoint(parent_path, weights=False)
                stored = {**stage_of(parent_path, parent), "games": init_games(self.config)}
            self.parent = stored
        return True

    def load_init(self) -> None:
        """A new run with --init starts from that checkpoint's weights, games and seconds,
        so its game g draws what game g of one longer run would, and its curve continues."""
        path = self.config.init.rsplit(" at ", 1)[0]
        parent = read_checkpoint(path)
        if f"{os.path.normpath(path)} at {parent.games} games" != self.config.init:
            raise ExperimentError(
                f"{path} has changed since this run started from it ({self.config.init}); "
                "use another --out"
            )
        self.take(parent, path)
        self.parent = stage_of(path, parent)

    def take(self, saved: Checkpoint, path: str) -> None:
        if len(saved.params) != len(self.model.params()) or any(
            have.shape != want.shape
            for have, want in zip(saved.params, self.model.params(), strict=True)
        ):
            raise ExperimentError(f"{path} holds weights of another shape; use another --out")
        self.model.set_params(saved.params)
        self.games, self.seconds = saved.games, saved.seconds

    def training_metadata(self) -> dict[str, Any]:
        """Command, games, seconds, seed, workers; with --init, the parent's under "init"
        (and so on up), so a model file names every command that made it."""
        stage: dict[str, Any] = {
            "command": self.command,
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "seed": self.config.seed,
            "workers": self.config.workers,
        }
        if self.parent is not None:
            stage["init"] = self.parent
        return stage

    def save(self) -> None:
        """checkpoint.npz (float weights, games, seconds) and model.npz (quantised)."""
        arrays = {f"p{i}": p for i, p in enumerate(self.model.params())}
        arrays["config"] = np.array(json.dumps(self.config.as_dict(), sort_keys=True))
        arrays["games"] = np.array(self.games)
        arrays["seconds"] = np.array(self.seconds)
        arrays["training"] = np.array(json.dumps(self.training_metadata()))
        save_atomic(os.path.join(self.out, CHECKPOINT), arrays)
        meta = model_metadata(self.spec, self.model, self.game, self.head, self.training_metadata())
        export_model(os.path.join(self.out, MODEL), self.model, meta)

    # -- playing and learning ------------------------------------------------------------

    def play(self, g: int, model: FloatModel) -> Trajectory:
        rng = np.random.default_rng([self.config.seed, 1, g])
        bots = None
        if self.config.policy != GREEDY:
            evaluator = FloatEvaluator(self.game, model, self.encode, self.head)
            bots = search_bots(
                self.game, self.config.policy, evaluator, self.config.seed * 7919 + g
            )
        return play_game(self.game, model, self.encode, self.player, rng, bots)

    def play_batch(self, pool: ThreadPoolExecutor | None, count: int) -> list[Trajectory]:
        """Plays the next `count` games with the current weights (changes nothing)."""
        first = self.games
        if pool is None:
            return [self.play(g, self.model) for g in range(first, first + count)]
        return list(pool.map(lambda g: self.play(g, self.model), range(first, first + count)))

    def learn(self, trajectories: list[Trajectory]) -> None:
        """The TD updates of a batch's games, in game order; then the games count. Ctrl-C
        (or kill) in the middle puts the weights back, so a save after it is consistent."""
        before = [p.copy() for p in self.model.params()]
        try:
            if self.native is not None:  # the C++ update, in place
                squared, steps = native_learn(self.native, self.model, trajectories)
                self.squared_error += squared
                self.steps += steps
            else:
                for trajectory in trajectories:
                    self.squared_error += td_update(
                        self.model, trajectory, self.config.alpha, self.config.td_lambda
                    )
                    self.steps += len(trajectory.returns)
        except KeyboardInterrupt:
            self.model.set_params(before)
            raise
        self.games += len(trajectories)

    def advance(
        self, pool: ThreadPoolExecutor | None, count: int, remote: RayPlayers | None = None
    ) -> None:
        """The next batch of `count` games, played (on threads, or as Ray tasks) and learned
        by the run's engine."""
        if remote is not None:
            self.learn(remote.play(self.model, self.games, count))
            return
        if self.native is None:
            self.learn(self.play_batch(pool, count))
            return
        before = [p.copy() for p in self.model.params()]
        try:
            squared, steps = play_and_learn(
                self.native, self.model, self.games, count, self.config.workers
            )
        except KeyboardInterrupt:  # raised as the C++ call returns: undo its batch
            self.model.set_params(before)
            raise
        self.squared_error += squared
        self.steps += steps
        self.games += count

    def evaluation(self) -> dict[str, Any]:
        result = evaluate(
            self.game,
            self.model,
            self.encode,
            self.config.eval_games,
            self.config.seed,
            self.config.max_moves,
        )
        rms = (self.squared_error / self.steps) ** 0.5 if self.steps else None
        self.squared_error, self.steps = 0.0, 0
        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            **result,
            "td_error_rms": rms,
        }


def train(
    config: TrainConfig,
    out: str,
    games: int,
    checkpoint_seconds: float = 300.0,
    progress: bool = True,
    plots: bool = True,
    command: str = "",
    executor: str = "local",
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Trains (or resumes) the run in `out` up to `games` games; returns the last record.
    executor="ray" plays each batch's games as Ray tasks (the same model as local threads)."""
    if (
        config.init
        and games <= init_games(config)
        and not os.path.exists(os.path.join(out, CHECKPOINT))
    ):
        raise ExperimentError(
            f"--games={games}: this run starts from {config.init}, and --games counts those "
            "too; ask for more"
        )
    trainer = Trainer(config, out, command)
    with ResultsFolder(out, config.as_dict(), records_file=PROGRESS, key="games") as folder:
        resumed = trainer.load_checkpoint()
        if resumed:
            print(f"resuming {out} at game {trainer.games}", file=sys.stderr)
        elif config.init:
            trainer.load_init()
            print(f"starting from {config.init}", file=sys.stderr)
        records = dict(folder.existing)
        started = time.monotonic()
        base_seconds = trainer.seconds
        last_save = started
        bar = GameProgress(games, min(trainer.games, games), "games") if progress else None
        last: dict[str, Any] = {}

        def record() -> None:
            nonlocal last
            trainer.seconds = base_seconds + time.monotonic() - started
            if str(trainer.games) in records:
                last = records[str(trainer.games)]
                return
            last = trainer.evaluation()
            folder.append(last)
            records[str(trainer.games)] = last
            if bar is not None:
                low, high = last["interval"]
                bar.score = f"{last['score']:.3f} [{low:.3f}, {high:.3f}]"
            if plots:
                curve.draw(out, list(records.values()), config)

        threads = config.workers > 1 and config.engine == "python" and executor == "local"
        pool = ThreadPoolExecutor(config.workers) if threads else None  # native: C++ threads
        remote = None
        try:
            if executor == "ray":
                remote = RayPlayers(config.as_dict(), config.workers, ray_address)
            if config.eval_every and not resumed:
                record()
                if bar is not None:
                    bar.t0 = time.monotonic()  # the rate counts training, not that evaluation
            while trainer.games < games:
                count = min(config.workers, games - trainer.games)
                before = trainer.games
                trainer.advance(pool, count, remote)
                if bar is not None:
                    bar.update(count)
                if (
                    config.eval_every
                    and trainer.games // config.eval_every > before // config.eval_every
                ):
                    record()
                if time.monotonic() - last_save >= checkpoint_seconds:
                    trainer.seconds = base_seconds + time.monotonic() - started
                    trainer.save()
                    last_save = time.monotonic()
            if config.eval_every and str(trainer.games) not in records:
                record()
        except KeyboardInterrupt:
            trainer.seconds = base_seconds + time.monotonic() - started
            trainer.save()
            if bar is not None:
                bar.close()
            raise
        finally:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            if remote is not None:
                remote.close()
        trainer.seconds = base_seconds + time.monotonic() - started
        trainer.save()
        if bar is not None:
            bar.close()
        return {"games": trainer.games, "seconds": trainer.seconds, **last}


def model_of(out: str) -> tuple[FloatModel, pyspiel.Game]:
    """The float model of a run folder's checkpoint (for tests and comparisons)."""
    with open(os.path.join(out, "config.json"), encoding="utf-8") as handle:
        config = TrainConfig(
            **{k: v for k, v in json.load(handle)["config"].items() if k != "program"}
        )
    trainer = Trainer(config, out, "")
    trainer.load_checkpoint()
    return trainer.model, trainer.game
