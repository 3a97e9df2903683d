"""Runs game tasks in-process, on a local process pool, or on Ray, reporting each record.

Records reach `on_record` in completion order (which varies); the results do
not, because every task carries its own seeds.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence

from experiments.tournament_play import GameTask, play_game

EXECUTORS = ("local", "ray")
RAY_MISSING = (
    "--executor=ray needs the Ray package, which is not installed: pip install 'starspiel[ray]'"
)


class WorkerDied(RuntimeError):
    """A worker process died (e.g. a C++ abort inside a bot); finished games are saved."""


class Progress:
    """A one-line progress bar with ETA on stderr (redrawn on a terminal, logged otherwise)."""

    def __init__(self, total: int, done: int = 0, stream=None, width: int = 30):
        self.total, self.done, self.width = total, done, width
        self.start_done = done
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.monotonic()
        self.last_log = 0.0

    def line(self) -> str:
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * self.width) + "." * (self.width - int(frac * self.width))
        elapsed = time.monotonic() - self.t0
        new = self.done - self.start_done
        eta = elapsed / new * (self.total - self.done) if new else float("nan")
        eta_s = "?" if eta != eta else _hms(eta)
        return f"[{bar}] {self.done}/{self.total} games  elapsed {_hms(elapsed)}  eta {eta_s}"

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.line())
            self.stream.flush()
        elif now - self.last_log >= 10 or self.done == self.total:
            self.last_log = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _hms(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _mp_context() -> multiprocessing.context.BaseContext:
    """forkserver where available (cheap workers, no forked pyspiel state), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["experiments.tournament_play"])
        return ctx
    return multiprocessing.get_context("spawn")


def run_tasks(
    tasks: Sequence[GameTask],
    on_record: Callable[[dict], None],
    *,
    executor: str = "local",
    workers: int = 1,
    ray_address: str | None = None,
) -> None:
    """Plays every task and calls on_record(record) in the calling process as each finishes."""
    if not tasks:
        return
    if executor == "ray":
        _run_ray(tasks, on_record, workers, ray_address)
    elif executor != "local":
        raise ValueError(f"unknown executor {executor!r}; accepted: {', '.join(EXECUTORS)}")
    elif workers <= 1:
        for task in tasks:
            on_record(play_game(task))
    else:
        with cf.ProcessPoolExecutor(
            max_workers=min(workers, len(tasks)), mp_context=_mp_context()
        ) as pool:
            futures = [pool.submit(play_game, t) for t in tasks]
            try:
                for fut in cf.as_completed(futures):
                    on_record(fut.result())
            except cf.process.BrokenProcessPool as e:
                raise WorkerDied(f"a worker process died abruptly ({e})") from e
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_ray(
    tasks: Sequence[GameTask],
    on_record: Callable[[dict], None],
    workers: int,
    ray_address: str | None,
) -> None:
    try:
        import ray
    except ImportError as e:
        raise RuntimeError(RAY_MISSING) from e
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    # Workers import this project from the source tree when it is not installed.
    runtime_env = {"env_vars": {"PYTHONPATH": path}}
    started = not ray.is_initialized()
    if started:
        kwargs = {"address": ray_address} if ray_address else {"num_cpus": workers}
        ray.init(
            runtime_env=runtime_env,
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
            **kwargs,
        )
    pending: list = []
    try:
        remote_play = ray.remote(num_cpus=1, max_retries=0)(play_game)
        pending = [remote_play.remote(t) for t in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    record = ray.get(ref)
                except ray.exceptions.RayError as e:  # play_game itself never raises
                    raise WorkerDied(f"a Ray task failed: {str(e).strip().splitlines()[0]}") from e
                on_record(record)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
