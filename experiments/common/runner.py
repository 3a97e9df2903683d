"""One task runner for every experiment program: in-process, a local process pool, or Ray.

A task is a picklable payload with a stable id; a module-level task function
turns the payload into a JSON-able record. Every task carries its own seeds, so
the records are the same whatever the backend and the number of workers; only
the order in which they finish varies.

Faults cost one task, never the run:
- a worker process that dies (kill -9, a crash in C++, the out-of-memory
  killer) has its task retried on a fresh worker `retries` times, then the
  task is recorded with an error;
- a task past `task_timeout` seconds is stopped: a TaskTimeout is raised
  inside it (the task function may catch it and record what it was doing),
  and a task stuck outside Python code is killed with its worker a little
  later (in a worker process or on Ray; in-process only the first works).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from experiments.common.progress import Progress

EXECUTORS = ("local", "ray")
RAY_MISSING = (
    "--executor=ray needs the Ray package, which is not installed: pip install 'starspiel[ray]'"
)

TaskFunction = Callable[[Any], dict]
ErrorRecord = Callable[["Task", str], dict]

_READY = "ready"  # a worker's first message: it started, so later deaths are the task's
UNGUARDED_MAIN = (
    "Most often this is a script that calls the runner (or an experiment's run()) at its "
    "top level: every worker process imports the main script again (multiprocessing's "
    "forkserver and spawn start methods) and so runs the experiment a second time. Put the "
    'script\'s code under `if __name__ == "__main__":`, or use one worker.'
)


def check_not_bootstrapping() -> None:
    """Refuses to start a run inside a worker process that is still importing the main script."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise RunnerError(
            "a run was started while a worker process was starting up, before it ran any "
            "task. " + UNGUARDED_MAIN
        )


class RunnerError(RuntimeError):
    """The runner itself cannot run (a bad option, Ray missing or unreachable)."""


class TaskTimeout(Exception):
    """Raised inside a task that has run past its wall-time limit."""

    def __init__(self, limit: float):
        super().__init__(f"task exceeded its wall-time limit of {limit:g} s")
        self.limit = limit


@dataclasses.dataclass(frozen=True)
class Task:
    """One unit of work: `payload` goes to the task function; `id` names its record."""

    id: str
    payload: Any


@dataclasses.dataclass(frozen=True)
class RunnerOptions:
    """How to run: see the flags in experiments.common.flags.define_runner_flags."""

    workers: int = 1
    executor: str = "local"
    ray_address: str | None = None
    retries: int = 2
    task_timeout: float | None = None
    progress: bool = True
    rerun_errors: bool = False  # resume also reruns tasks recorded with an error
    preload: tuple[str, ...] = ()  # modules a forkserver imports once for all workers

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise RunnerError(
                f"unknown executor {self.executor!r}; accepted: {', '.join(EXECUTORS)}"
            )
        if self.workers < 1:
            raise RunnerError(f"workers must be >= 1, got {self.workers}")
        if self.retries < 0:
            raise RunnerError(f"retries must be >= 0, got {self.retries}")
        if self.task_timeout is not None and self.task_timeout <= 0:
            raise RunnerError(f"the task timeout must be > 0 seconds, got {self.task_timeout}")


@dataclasses.dataclass
class RunReport:
    total: int  # tasks of the run
    done_before: int  # already in the results folder when the run started
    ran: int  # run now
    errors: int  # of those, recorded with an error
    seconds: float


def hard_limit(timeout: float) -> float:
    """When a task that ignored its TaskTimeout (stuck in C++) is killed with its worker."""
    return timeout + 2.0 + 0.1 * timeout


# ---- inside a worker ---------------------------------------------------------------------


@contextlib.contextmanager
def soft_deadline(timeout: float | None) -> Iterator[None]:
    """Raises TaskTimeout in this thread after `timeout` seconds (main thread only)."""
    usable = (
        timeout is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert timeout is not None

    def expire(signum: int, frame: Any) -> None:
        raise TaskTimeout(timeout)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def call_task(
    fn: TaskFunction, task_id: str, payload: Any, timeout: float | None
) -> tuple[bool, Any]:
    """(True, record) or (False, error message); never raises for the task's faults."""
    try:
        with soft_deadline(timeout):
            record = fn(payload)
    except TaskTimeout as error:
        return False, str(error)
    except Exception as error:
        return False, "".join(traceback.format_exception(type(error), error, error.__traceback__))
    if not isinstance(record, dict):
        return False, f"the task function returned {type(record).__name__}, not a dict record"
    if record.get("id", task_id) != task_id:
        return False, f"the task function returned a record with id {record['id']!r}"
    record = {"id": task_id, **record}
    try:
        json.dumps(record, allow_nan=True)
    except (TypeError, ValueError) as error:
        return False, f"the record is not JSON-serialisable: {error}"
    return True, record


def _worker_main(conn: multiprocessing.connection.Connection, fn: TaskFunction) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    conn.send(_READY)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task_id, payload, timeout = message
        result = call_task(fn, task_id, payload, timeout)
        try:
            conn.send(result)
        except Exception as error:  # an unpicklable record
            conn.send((False, f"the record cannot be sent back from the worker: {error}"))


# ---- the parent --------------------------------------------------------------------------


class _Outcome:
    """Turns worker results into records and decides on retries."""

    def __init__(
        self,
        options: RunnerOptions,
        on_record: Callable[[dict], None],
        error_record: ErrorRecord | None,
    ):
        self.options = options
        self.on_record = on_record
        self.error_record = error_record
        self.deaths: collections.Counter[str] = collections.Counter()
        self.workers_started = 0  # worker processes that reached the task loop

    def finished(self, task: Task, result: tuple[bool, Any]) -> None:
        ok, value = result
        self.on_record(value if ok else self.failed(task, value))

    def failed(self, task: Task, message: str) -> dict:
        extra = self.error_record(task, message) if self.error_record else {}
        return {"id": task.id, **extra, "error": message}

    def died(self, task: Task, how: str) -> bool:
        """Records the death; True when the task is to be retried."""
        self.deaths[task.id] += 1
        attempts = self.deaths[task.id]
        if attempts <= self.options.retries:
            print(
                f"\nworker died running task {task.id} ({how}); retrying it on a fresh "
                f"worker ({attempts} of {self.options.retries} retries)",
                file=sys.stderr,
            )
            return True
        self.on_record(
            self.failed(
                task,
                f"worker process died ({how}) in each of {attempts} attempts; "
                "the task is recorded as failed and the run goes on",
            )
        )
        return False

    def stopped(self, task: Task) -> None:
        limit = self.options.task_timeout
        self.on_record(
            self.failed(
                task,
                f"task exceeded its wall-time limit of {limit:g} s and did not stop "
                f"(stuck outside Python code); its worker was killed after "
                f"{hard_limit(limit or 0):.1f} s",
            )
        )


def execute(
    fn: TaskFunction,
    tasks: Sequence[Task],
    options: RunnerOptions,
    on_record: Callable[[dict], None],
    error_record: ErrorRecord | None = None,
) -> None:
    """Runs every task; calls on_record(record) in this process as each one finishes.

    `error_record(task, message)` adds fields (e.g. the task's parameters) to
    the record of a task that failed; the runner sets "id" and "error".
    """
    check_not_bootstrapping()
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise RunnerError(f"task ids must be unique; {dup!r} appears more than once")
    if not tasks:
        return
    outcome = _Outcome(options, on_record, error_record)
    if options.executor == "ray":
        _run_ray(fn, tasks, options, outcome)
    elif options.workers == 1:
        for task in tasks:
            outcome.finished(task, call_task(fn, task.id, task.payload, options.task_timeout))
    else:
        _run_pool(fn, tasks, options, outcome)


def _mp_context(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """forkserver where available (cheap workers, no forked pyspiel state), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        if preload:
            ctx.set_forkserver_preload(list(preload))
        return ctx
    return multiprocessing.get_context("spawn")


class _Worker:
    def __init__(self, ctx: Any, fn: TaskFunction):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, fn), daemon=True)
        self.process.start()
        child.close()
        self.task: Task | None = None
        self.started = 0.0
        self.ready = False

    def give(self, task: Task, timeout: float | None) -> None:
        self.task, self.started = task, time.monotonic()
        self.conn.send((task.id, task.payload, timeout))

    def death(self) -> str:
        self.process.join(timeout=5)
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass


def _run_pool(
    fn: TaskFunction, tasks: Sequence[Task], options: RunnerOptions, outcome: _Outcome
) -> None:
    ctx = _mp_context(options.preload)
    pending = collections.deque(tasks)
    size = min(options.workers, len(tasks))
    workers: list[_Worker] = []
    timeout = options.task_timeout
    try:
        while pending or any(w.task for w in workers):
            for worker in workers:
                if worker.task is None and not worker.process.is_alive():
                    worker.kill()
            workers = [w for w in workers if w.process.is_alive() or w.task is not None]
            while len(workers) < size:
                workers.append(_Worker(ctx, fn))
            for worker in workers:
                if worker.task is None and pending:
                    worker.give(pending.popleft(), timeout)
            busy = [w for w in workers if w.task is not None]
            wait_for = None
            if timeout is not None:
                now = time.monotonic()
                wait_for = max(0.0, min(w.started + hard_limit(timeout) - now for w in busy))
            handles = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            multiprocessing.connection.wait(handles, timeout=wait_for)
            for worker in busy:
                _collect(worker, outcome, pending, timeout)
    finally:
        for worker in workers:
            if worker.task is None:
                worker.stop()
        for worker in workers:
            if worker.task is None:
                worker.process.join(timeout=2)
            worker.kill()


def _collect(
    worker: _Worker, outcome: _Outcome, pending: collections.deque, timeout: float | None
) -> None:
    task = worker.task
    assert task is not None
    result = None
    try:
        while result is None and worker.conn.poll():
            message = worker.conn.recv()
            if message == _READY:
                worker.ready = True
                outcome.workers_started += 1
            else:
                result = message
    except (EOFError, OSError):
        result = None
    if result is not None:
        worker.task = None
        outcome.finished(task, result)
    elif not worker.process.is_alive():
        worker.task = None
        how = worker.death()
        worker.kill()
        if not worker.ready and not outcome.workers_started:
            # Nothing has run, and a fresh worker would die the same way: stop here.
            raise RunnerError(
                f"worker processes die while starting up ({how}), before running any task, "
                f"so the run stops; the worker's own error is printed above. " + UNGUARDED_MAIN
            )
        if outcome.died(task, how):
            pending.appendleft(task)
    elif timeout is not None and time.monotonic() - worker.started > hard_limit(timeout):
        worker.task = None
        worker.kill()
        outcome.stopped(task)


# ---- Ray ---------------------------------------------------------------------------------


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _ray_init(ray: Any, options: RunnerOptions) -> bool:
    """Starts or joins Ray; True when this call started it (and must shut it down)."""
    if ray.is_initialized():
        return False
    # Workers import this project and the driver's modules from the same paths.
    paths = [p for p in sys.path if p and os.path.isdir(p)]
    env = {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}
    kwargs: dict[str, Any] = (
        {"address": options.ray_address} if options.ray_address else {"num_cpus": options.workers}
    )
    try:
        ray.init(
            runtime_env={"env_vars": env},
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
            **kwargs,
        )
    except Exception as error:
        where = options.ray_address or "a local Ray"
        text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RunnerError(
            f"cannot start or join Ray ({where}): {text}. For a cluster, run "
            "`ray start --head` on the head node and pass --ray_address=auto there"
        ) from error
    return True


def _run_ray(
    fn: TaskFunction, tasks: Sequence[Task], options: RunnerOptions, outcome: _Outcome
) -> None:
    try:
        import ray
    except ImportError:
        raise RunnerError(RAY_MISSING) from None
    started = _ray_init(ray, options)
    in_flight: dict[Any, tuple[Task, float]] = {}
    timeout = options.task_timeout
    try:
        limit = max(options.workers, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1, max_retries=0)(call_task)
        pending = collections.deque(tasks)
        while pending or in_flight:
            while pending and len(in_flight) < limit:
                task = pending.popleft()
                ref = remote.remote(fn, task.id, task.payload, timeout)
                in_flight[ref] = (task, time.monotonic())
            wait_for = None
            if timeout is not None:
                now = time.monotonic()
                wait_for = max(
                    0.0, min(t0 + hard_limit(timeout) - now for _, t0 in in_flight.values())
                )
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=wait_for)
            for ref in ready:
                task, _ = in_flight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as error:  # the worker died; call_task never raises
                    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
                    if outcome.died(task, f"{type(error).__name__}: {text}"):
                        pending.appendleft(task)
                    continue
                outcome.finished(task, result)
            if timeout is not None:
                now = time.monotonic()
                for ref, (task, t0) in list(in_flight.items()):
                    if now - t0 > hard_limit(timeout):
                        del in_flight[ref]
                        ray.cancel(ref, force=True)
                        outcome.stopped(task)
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


# ---- with a results folder ---------------------------------------------------------------


def run_missing(
    fn: TaskFunction,
    tasks: Sequence[Task],
    folder: Any,
    options: RunnerOptions,
    *,
    error_record: ErrorRecord | None = None,
    unit: str = "tasks",
) -> RunReport:
    """Runs the tasks whose ids are not yet in `folder` (a ResultsFolder), appending each record.

    With options.rerun_errors, tasks recorded with an error run again too.
    A write that fails (ResultsError) stops the run; everything written stays.
    """
    existing = folder.existing
    todo = [
        t
        for t in tasks
        if t.id not in existing
        or (options.rerun_errors and existing[t.id].get("error") is not None)
    ]
    done_before = len(tasks) - len(todo)
    bar = Progress(len(tasks), done_before, unit=unit) if options.progress and todo else None
    errors = 0

    def on_record(record: dict) -> None:
        nonlocal errors
        folder.append(record)
        failed = record.get("error") is not None
        errors += int(failed)
        if bar:
            bar.update(error=failed)

    t0 = time.monotonic()
    try:
        execute(fn, todo, options, on_record, error_record)
    finally:
        if bar:
            bar.close()
    return RunReport(len(tasks), done_before, len(todo), errors, time.monotonic() - t0)
