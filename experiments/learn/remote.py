"""experiments.learn --executor=ray: a batch's self-play games as Ray tasks.

Each batch's `workers` games are Ray tasks given the batch's starting weights (one object in
Ray's store per batch); the head applies their TD updates in game order. A game depends only
on the weights, the seed and its index, so this gives the model the threads give for the same
seed and workers, on one machine or a cluster (`ray start --head`, then --ray_address=auto).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from experiments.common.errors import ExperimentError
from experiments.common.runner import (
    RAY_MISSING,
    RunnerError,
    RunnerOptions,
    _ray_init,
    ray_available,
)
from experiments.learn.models import FloatModel
from experiments.learn.selfplay import Trajectory

# A worker process's trainers, by configuration (built once per worker, not per game).
_TRAINERS: dict[str, Any] = {}


def play_task(config: dict[str, Any], params: list[np.ndarray], game_index: int) -> Trajectory:
    """Game `game_index` of the run `config` (TrainConfig.as_dict()) with weights `params`,
    on the run's engine (the C++ `play`, or the numpy reference)."""
    from experiments.learn.train import TrainConfig, Trainer

    key = json.dumps(config, sort_keys=True)
    trainer = _TRAINERS.get(key)
    if trainer is None:
        values = {k: v for k, v in config.items() if k != "program"}
        trainer = _TRAINERS[key] = Trainer(TrainConfig(**values), "", "")
    if trainer.native is not None:
        # The store's arrays are read-only; play only reads them.
        features, returns, final, cut_off, moves, _ = trainer.native.play(params, game_index)
        return Trajectory(features, returns, final, cut_off, moves)
    model: FloatModel = trainer.model
    model.set_params(params)
    return trainer.play(game_index, model)


class RayPlayers:
    """Starts or joins Ray, and plays batches of games there."""

    def __init__(self, config: dict[str, Any], workers: int, ray_address: str | None):
        if not ray_available():
            raise ExperimentError(RAY_MISSING)
        import ray

        self.ray, self.config = ray, config
        options = RunnerOptions(workers=workers, executor="ray", ray_address=ray_address)
        try:
            self.started = _ray_init(ray, options)
        except RunnerError as error:  # says how to start or join a cluster
            raise ExperimentError(str(error)) from None
        # Games are deterministic, so a task whose worker died is simply played again.
        self.remote = ray.remote(num_cpus=1, max_retries=2)(play_task)

    def play(self, model: FloatModel, first: int, count: int) -> list[Trajectory]:
        """Games first .. first + count - 1 with the model's current weights, in game order."""
        params = self.ray.put([np.asarray(p) for p in model.params()])
        refs = [self.remote.remote(self.config, params, g) for g in range(first, first + count)]
        return list(self.ray.get(refs))

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
