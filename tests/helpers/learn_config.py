"""A small experiments.learn configuration the trainer tests share (pig to 12 points)."""

from __future__ import annotations

from typing import Any

from experiments.learn.train import TrainConfig, resolve

PIG = "pig(winscore=12)"


def learn_config(game: str = PIG, **changes: Any) -> TrainConfig:
    settings: dict[str, Any] = dict(
        game_string=game,
        model="mlp(hidden=8)",
        policy="greedy",
        seed=3,
        workers=1,
        alpha=0.05,
        td_lambda=None,
        epsilon=0.05,
        eval_every=10,
        eval_games=4,
        max_moves=300,
    )
    settings.update(changes)
    return resolve(**settings)
