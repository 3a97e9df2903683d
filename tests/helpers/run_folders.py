"""What tests of the experiment programs read back from a results folder, and how they
interrupt a run part way: written once for the tournament tests of any player count and
the task runner's tests."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import time
from typing import Any

import pyspiel

from experiments import tournament
from experiments.common import results

# Wall-clock fields of a game record: never reproducible, so left out where records compare.
TIMING_KEYS = ("seconds", "seconds_by_seat", "cpu_seconds")


def records(out: Any) -> dict[str, dict]:
    """A tournament folder's game records, keyed by id."""
    return results.read_records(os.path.join(str(out), tournament.RECORDS_FILE))


def without_timing(recs: dict[str, dict]) -> dict[str, dict]:
    """The records with their wall-clock fields removed, the searched moves' included."""
    clean = {}
    for key, r in recs.items():
        r = {k: v for k, v in r.items() if k not in TIMING_KEYS}
        r["search"] = [{k: v for k, v in mv.items() if k != "seconds"} for mv in r["search"]]
        clean[key] = r
    return clean


def chance_outcomes(record: dict) -> list[int]:
    """The chance outcomes of a recorded game, in the order they were drawn."""
    state = pyspiel.load_game(record["game"]).new_initial_state()
    chance = []
    for action in record["history"]:
        if state.is_chance_node():
            chance.append(action)
        state.apply_action(action)
    return chance


def kill_when_written(
    command: list[str], path: pathlib.Path, lines: int, seconds: float, **popen: Any
) -> None:
    """Runs ``command`` and kills it with SIGKILL once ``path`` holds ``lines`` lines (or
    after ``seconds``): a run that dies part way, for the resume tests."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= lines:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
