"""Task functions for the runner tests: module-level so that worker processes and Ray can
import them. Run as a script, it is a tiny experiment program for the kill -9 resume test."""

from __future__ import annotations

import os
import random
import signal
import sys
import time


def square(payload: dict) -> dict:
    rng = random.Random(payload["seed"])
    return {"x": payload["x"], "square": payload["x"] ** 2, "draw": rng.random()}


def die_once(payload: dict) -> dict:
    """SIGKILLs its own worker on the first attempt (marker file absent), then succeeds."""
    marker = payload["marker"]
    if not os.path.exists(marker):
        with open(marker, "w") as handle:
            handle.write(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return square(payload)


def always_die(payload: dict) -> dict:
    os.kill(os.getpid(), signal.SIGKILL)
    return {}


def hang_in_python(payload: dict) -> dict:
    while True:
        time.sleep(0.01)


def hang_outside_python(payload: dict) -> dict:
    """Ignores the TaskTimeout, as a bot stuck in C++ would (SIGALRM blocked)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(600)
    return {}


def fail(payload: dict) -> dict:
    raise ValueError(f"bad payload {payload['x']}")


def slow_square(payload: dict) -> dict:
    time.sleep(payload["sleep"])
    return square(payload)


def main(out: str, count: int, workers: int) -> None:
    from experiments.common import results, runner

    tasks = [runner.Task(f"t{i:03d}", {"x": i, "seed": i, "sleep": 0.05}) for i in range(count)]
    options = runner.RunnerOptions(workers=workers, progress=False)
    with results.ResultsFolder(out, {"count": count}) as folder:
        report = runner.run_missing(slow_square, tasks, folder, options)
    print(f"ran {report.ran} of {report.total}; {report.done_before} done before")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
