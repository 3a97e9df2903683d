"""The shared task runner: identical records on every backend, resume, dead and hung workers."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import runner_tasks
from helpers.run_folders import kill_when_written

from experiments.common import results, runner
from experiments.common.runner import RunnerOptions, Task

pytestmark = pytest.mark.slow  # worker processes, Ray, signals: the whole suite, not the fast tier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tasks(n: int = 6, **extra) -> list[Task]:
    return [Task(f"t{i}", {"x": i, "seed": 100 + i, **extra}) for i in range(n)]


def collect(fn, task_list, **options) -> dict[str, dict]:
    options.setdefault("progress", False)
    got: list[dict] = []
    runner.execute(fn, task_list, RunnerOptions(**options), got.append)
    assert len(got) == len(task_list)
    return {r["id"]: r for r in got}


def test_records_are_identical_in_process_and_on_a_pool():
    serial = collect(runner_tasks.square, tasks(), workers=1)
    assert serial["t3"] == {"id": "t3", "x": 3, "square": 9, "draw": serial["t3"]["draw"]}
    assert collect(runner_tasks.square, tasks(), workers=2) == serial


@pytest.fixture(scope="module")
def ray_session():
    """One local Ray for the Ray tests (the runner joins it instead of starting its own)."""
    if not runner.ray_available():
        pytest.skip("ray is not installed (pip install 'starspiel[ray]')")
    import ray

    started = runner._ray_init(ray, RunnerOptions(workers=2, executor="ray"))
    yield
    if started:
        ray.shutdown()


def test_records_are_identical_on_ray(ray_session):
    serial = collect(runner_tasks.square, tasks(), workers=1)
    assert collect(runner_tasks.square, tasks(), workers=2, executor="ray") == serial


def test_a_failing_task_is_recorded_with_its_traceback(tmp_path):
    got = collect(runner_tasks.fail, tasks(2), workers=2, retries=0)  # a raise is not a dead worker
    assert "ValueError: bad payload 1" in got["t1"]["error"]
    assert "Traceback" in got["t1"]["error"]


def test_a_killed_worker_costs_one_retry_and_the_run_goes_on(tmp_path, capsys):
    task_list = [
        Task(f"t{i}", {"x": i, "seed": i, "marker": str(tmp_path / f"m{i}")}) for i in range(4)
    ]
    got = collect(runner_tasks.die_once, task_list, workers=2, retries=1)
    assert all(r.get("error") is None for r in got.values())
    assert got == collect(runner_tasks.square, task_list, workers=1)
    assert "killed by signal SIGKILL" in capsys.readouterr().err


def test_a_worker_that_always_dies_is_recorded_as_failed_after_the_retries():
    got = collect(runner_tasks.always_die, tasks(1), workers=2, retries=2)
    error = got["t0"]["error"]
    assert "died (killed by signal SIGKILL) in each of 3 attempts" in error


def test_dead_workers_and_hung_tasks_on_ray_cost_one_task(tmp_path, ray_session):
    once = [Task("a", {"x": 1, "seed": 1, "marker": str(tmp_path / "m")})]
    got = collect(runner_tasks.die_once, once, workers=1, executor="ray", retries=1)
    assert got["a"]["square"] == 1 and got["a"].get("error") is None
    got = collect(runner_tasks.always_die, tasks(1), workers=1, executor="ray", retries=1)
    assert "in each of 2 attempts" in got["t0"]["error"]
    got = collect(runner_tasks.hang_in_python, tasks(1), executor="ray", task_timeout=0.3)
    assert "wall-time limit of 0.3 s" in got["t0"]["error"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_task_hung_in_python_is_stopped_by_its_timeout(workers):
    start = time.monotonic()
    got = collect(runner_tasks.hang_in_python, tasks(2), workers=workers, task_timeout=0.3)
    assert all("wall-time limit of 0.3 s" in r["error"] for r in got.values())
    assert time.monotonic() - start < 30  # a generous guard against a hang, not a timing test


def test_a_task_stuck_outside_python_is_killed_with_its_worker():
    got = collect(runner_tasks.hang_outside_python, tasks(1), workers=2, task_timeout=0.2)
    assert "did not stop" in got["t0"]["error"] and "worker was killed" in got["t0"]["error"]


def test_error_records_carry_the_fields_the_program_adds():
    got: list[dict] = []
    runner.execute(
        runner_tasks.fail,
        tasks(1),
        RunnerOptions(progress=False),
        got.append,
        error_record=lambda task, message: {"x": task.payload["x"], "error": "overwritten"},
    )
    assert got[0]["x"] == 0 and "bad payload" in got[0]["error"]


def test_bad_options_and_duplicate_ids_are_refused():
    with pytest.raises(runner.RunnerError, match="accepted: local, ray"):
        RunnerOptions(executor="slurm")
    with pytest.raises(runner.RunnerError, match="unique"):
        runner.execute(runner_tasks.square, [Task("a", {}), Task("a", {})], RunnerOptions(), print)


def test_run_missing_runs_only_what_the_folder_lacks(tmp_path):
    options = RunnerOptions(workers=1, progress=False)
    with results.ResultsFolder(str(tmp_path), {"n": 6}) as folder:
        first = runner.run_missing(runner_tasks.square, tasks(3), folder, options)
    with results.ResultsFolder(str(tmp_path), {"n": 6}) as folder:
        second = runner.run_missing(runner_tasks.square, tasks(6), folder, options)
        assert sorted(r["id"] for r in folder.records()) == [f"t{i}" for i in range(6)]
    assert (first.ran, second.done_before, second.ran, second.errors) == (3, 3, 3, 0)


def test_a_run_killed_with_sigkill_resumes_running_only_what_is_missing(tmp_path):
    out = tmp_path / "run"
    command = [
        sys.executable,
        os.path.join(ROOT, "tests", "helpers", "runner_tasks.py"),
        str(out),
        "40",
        "2",
    ]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "tests")]))
    path = out / "records.jsonl"
    kill_when_written(command, path, 5, 60, env=env)
    before = path.read_text().count("\n")
    assert 5 <= before < 40
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"ran {40 - before} of 40; {before} done before" in done.stdout
    ids = [json.loads(line)["id"] for line in path.read_text().splitlines()]
    assert sorted(ids) == [f"t{i:03d}" for i in range(40)]


def test_rerun_errors_replaces_error_records_and_keeps_the_rest(tmp_path):
    options = RunnerOptions(workers=1, progress=False)
    with results.ResultsFolder(str(tmp_path), {"n": 2}) as folder:
        runner.run_missing(runner_tasks.fail, tasks(2), folder, options)
    with results.ResultsFolder(str(tmp_path), {"n": 2}) as folder:
        plain = runner.run_missing(runner_tasks.square, tasks(2), folder, options)
    rerun = dataclasses.replace(options, rerun_errors=True)
    with results.ResultsFolder(str(tmp_path), {"n": 2}) as folder:
        again = runner.run_missing(runner_tasks.square, tasks(2), folder, rerun)
        assert all(r.get("error") is None for r in folder.records())
    with results.ResultsFolder(str(tmp_path), {"n": 2}) as folder:
        assert runner.run_missing(runner_tasks.square, tasks(2), folder, rerun).ran == 0
    assert (plain.ran, again.ran) == (0, 2)


UNGUARDED_SCRIPT = """
import sys
from helpers import runner_tasks
from experiments.common import results, runner
from experiments.common.runner import RunnerOptions, Task

tasks = [Task(f"t{i}", {"x": i, "seed": i}) for i in range(6)]
with results.ResultsFolder(sys.argv[1], {"n": 6}) as folder:
    runner.run_missing(runner_tasks.square, tasks, folder, RunnerOptions(workers=2, progress=False))
print("finished")
"""


def test_a_script_without_a_main_guard_stops_with_an_error_that_says_so(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "tests")]))
    command = [sys.executable, str(script), str(tmp_path / "out")]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "finished" not in done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert "worker processes die while starting up" in last
    assert 'under `if __name__ == "__main__":`' in last
    # The workers name the cause too, instead of tripping over the parent's folder lock,
    # and no task is retried: a fresh worker would die the same way.
    assert "a run was started while a worker process was starting up" in done.stderr
    assert "is in use by a live run" not in done.stderr and "retrying" not in done.stderr
    assert (tmp_path / "out" / "records.jsonl").read_text() == ""


def test_a_run_is_refused_inside_a_starting_worker(monkeypatch):
    monkeypatch.setattr(multiprocessing.current_process(), "_inheriting", True, raising=False)
    with pytest.raises(runner.RunnerError, match="while a worker process was starting up"):
        collect(runner_tasks.square, tasks(2))
    with pytest.raises(runner.RunnerError, match="__main__"):
        results.ResultsFolder("unused", {})


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job of a script starts


def _ballard_command(out, workers: int) -> list[str]:
    """A node-reduction run long enough to be stopped halfway (400 trees)."""
    return [
        sys.executable,
        "-m",
        "experiments.node_reduction",
        "--preset=ballard_table6",
        "--sizes=10",
        "--levels=5",
        "--trials=400",
        f"--workers={workers}",
        "--noplots",
        f"--out={out}",
    ]


def _start_and_wait_for_records(command, path, records: int, **popen_args):
    """Starts the run and returns once it has written `records` lines (or ended)."""
    proc = subprocess.Popen(
        command,
        env=dict(os.environ, PYTHONPATH=ROOT),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **popen_args,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= records:
            break
        time.sleep(0.01)
    return proc


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_killed_or_backgrounded_run_stops_as_ctrl_c_does(tmp_path, stop):
    # `kill` (SIGTERM), and Ctrl-C sent to a job that began with SIGINT ignored, take the
    # command's Ctrl-C path: it says how to resume, keeps every finished record, and the
    # same command then runs only the rest.
    out = tmp_path / "ballard"
    command = _ballard_command(out, workers=1)
    path = out / "results.jsonl"
    proc = _start_and_wait_for_records(command, path, 30, preexec_fn=_ignore_sigint)
    proc.send_signal(stop)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted; finished records are saved" in stderr
    lines = path.read_text().splitlines()
    assert 30 <= len(lines) < 3 * 401
    for line in lines:
        json.loads(line)
    done = subprocess.run(
        [*command, "--max_seconds=1"],
        env=dict(os.environ, PYTHONPATH=ROOT),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "resuming" in done.stdout + done.stderr, done.stderr


def test_a_second_signal_during_shutdown_does_not_print_a_traceback(tmp_path):
    # An impatient user presses Ctrl-C twice, or `kill` reaches a `timeout` wrapper that
    # forwards it: the first signal stops the run, and the rest must not turn its clean
    # "interrupted" message into a KeyboardInterrupt traceback from the workers' shutdown.
    out = tmp_path / "ballard"
    path = out / "results.jsonl"
    proc = _start_and_wait_for_records(_ballard_command(out, workers=2), path, 10)
    for _ in range(20):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.01)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted; finished records are saved" in stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
