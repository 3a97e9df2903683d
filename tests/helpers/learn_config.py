"""A small experiments.learn configuration the trainer tests share (pig to 12 points)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

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


def learn_command(out: Path, *extra: str) -> list[str]:
    """The command line of learn_config's run (engine, workers and games in `extra`)."""
    return [
        sys.executable,
        "-m",
        "experiments.learn",
        f"--game={PIG}",
        "--model=mlp(hidden=8)",
        "--seed=3",
        "--alpha=0.05",
        "--epsilon=0.05",
        "--max_moves=300",
        "--eval_every=0",
        "--progress=false",
        f"--out={out}",
        *extra,
    ]


def games_done(out: Path) -> int:
    with np.load(out / "checkpoint.npz") as data:
        return int(data["games"])


def kill_9_after(args: list[str], out: Path, cwd: Path, games: int = 50) -> int:
    """Starts the command, kills it with SIGKILL once its checkpoint holds `games` games
    (or after 60 s), and returns the games its last checkpoint holds."""
    process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if games_done(out) >= games:
                break
        except (OSError, KeyError, ValueError):
            pass  # not written yet, or being replaced
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    return games_done(out)
