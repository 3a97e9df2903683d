"""The results folder of one experiment run: configuration, JSONL records, lock, summaries.

A folder holds ``config.json`` (the configuration that decides the results,
plus the provenance of every run that wrote to it: time, command line,
library versions, git revision), a JSONL records file appended one line per
finished task and flushed at once, and summaries written atomically.
Re-running the same configuration on the same folder resumes it: finished
records are kept and never duplicated, a truncated last line (left by a
killed run) is cut off, and a folder of another configuration is refused.

Misuse is refused with a message instead of mixing results:
- a folder in use by a live run is locked (``.lock``, an OS file lock that
  dies with its process, so a lock left by a killed run is simply taken over);
- a corrupted line in the middle of the records file is reported by its line
  number and moved aside to ``<records>.corrupt``; every valid record is kept
  and the task of the bad line runs again;
- a write that fails (full disk, unwritable folder) stops the run with
  a ResultsError; every record written before stays.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from experiments.common.errors import ExperimentError
from experiments.common.runner import check_not_bootstrapping

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CONFIG_FILE = "config.json"
LOCK_FILE = ".lock"
VERSIONED = ("starspiel", "open_spiel", "numpy", "absl-py", "scipy", "matplotlib", "ray")


class ResultsError(ExperimentError):
    """The results folder cannot be used; the message says why and what to do."""


def json_roundtrip(value: Any) -> Any:
    """Tuples to lists etc., so a configuration compares equal to its reloaded self."""
    return json.loads(json.dumps(value, sort_keys=True))


def git_revision(path: str | None = None) -> dict[str, Any]:
    """Commit and dirty flag of the repository holding `path` (default: this package)."""
    path = path or os.path.dirname(os.path.abspath(__file__))
    info: dict[str, Any] = {"commit": None, "dirty": None}
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=path, capture_output=True, text=True, timeout=10
        )
        if commit.returncode == 0:
            info["commit"] = commit.stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=path,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if status.returncode == 0:
            info["dirty"] = bool(status.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def library_versions() -> dict[str, str | None]:
    """Installed versions of the libraries that can change results (None: not installed)."""
    versions: dict[str, str | None] = {}
    for dist in VERSIONED:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return versions


def run_metadata() -> dict[str, Any]:
    """Provenance of this process: time, command line, Python, platform, versions, git."""
    return {
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "argv": list(sys.argv),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "hostname": platform.node(),
        "pid": os.getpid(),
        "cpu_count": os.cpu_count(),
        "versions": library_versions(),
        "git": git_revision(),
        "search_engine": search_engine(),
    }


def search_engine() -> str:
    """Which engines could run: bots with engine=auto run native where it is built
    (each record's ``engine``, where a program writes one, says which ran)."""
    from bots import native_engine

    problem = native_engine.problem()
    return (
        "native (C++) where the game and evaluator allow, else Python"
        if problem is None
        else (f"Python only ({problem})")
    )


def write_atomic(path: str, text: str) -> None:
    """Writes a whole file so that readers see the old or the new one, never a half."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        _remove_quietly(tmp)
        raise ResultsError(f"cannot write {path}: {error.strerror or error}") from error


def write_json_atomic(path: str, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


class CorruptLine:
    """A line of a records file that is not a JSON record (1-based line number)."""

    def __init__(self, lineno: int, text: bytes, reason: str):
        self.lineno, self.text, self.reason = lineno, text, reason


def scan_records(path: str, key: str = "id") -> tuple[dict[str, dict], list[CorruptLine], int, int]:
    """(records by key; corrupt middle lines; end of the last good line; size).

    Of several records with one key the first is kept, unless it holds an
    error: then a later one (a rerun with --rerun_errors) replaces it.

    A last line without a newline or not valid JSON is what a killed writer
    leaves: it is neither a record nor reported as corrupt.
    """
    if not os.path.exists(path):
        return {}, [], 0, 0
    with open(path, "rb") as handle:
        data = handle.read()
    records: dict[str, dict] = {}
    corrupt: list[CorruptLine] = []
    good_end = pos = 0
    lineno = 0
    while pos < len(data):
        lineno += 1
        newline = data.find(b"\n", pos)
        end = len(data) if newline < 0 else newline + 1
        line = data[pos:end]
        try:
            if newline < 0:
                raise ValueError("no newline")
            text = line.decode("utf-8").strip()
            record = json.loads(text) if text else None
            if record is not None and not isinstance(record, dict):
                raise ValueError("not a JSON object")
            if record is not None and key not in record:
                raise ValueError(f"no {key!r} field")
        except ValueError as error:
            if end >= len(data):
                break  # torn last line
            corrupt.append(CorruptLine(lineno, line, str(error).splitlines()[0]))
        else:
            if record is not None:
                known = records.get(str(record[key]))
                if known is None or known.get("error") is not None:
                    records[str(record[key])] = record  # a rerun supersedes an error
        good_end = end
        pos = end
    return records, corrupt, good_end, len(data)


def read_records(path: str, key: str = "id") -> dict[str, dict]:
    """Records of a JSONL file keyed by `record[key]`; a corrupt middle line raises."""
    records, corrupt, _, _ = scan_records(path, key)
    if corrupt:
        bad = corrupt[0]
        raise ResultsError(
            f"{path}: line {bad.lineno} is not a valid JSON record ({bad.reason}); "
            "rerun the program on this folder to move it aside, or fix it by hand"
        )
    return records


class FolderLock:
    """An exclusive OS lock on <folder>/.lock, released when its process ends, however."""

    def __init__(self, folder: str):
        self.path = os.path.join(folder, LOCK_FILE)
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise ResultsError(f"cannot create {self.path}: {error.strerror or error}") from error
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_holder(fd)
                os.close(fd)
                raise ResultsError(
                    f"results folder {os.path.dirname(self.path)!r} is in use by a live run "
                    f"({holder}); wait for it to finish or stop it, or use another --out"
                ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()} on {platform.node()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def _read_holder(fd: int) -> str:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return os.read(fd, 200).decode("utf-8", "replace").strip() or "process unknown"
    except OSError:
        return "process unknown"


class ResultsFolder:
    """An open results folder: locked, configuration checked, finished records loaded.

    Use as a context manager (or call close()) so the lock is released.
    `config` holds only what decides the results (compared on resume); `extra`
    holds run details that do not (workers, backend), logged per run.
    """

    def __init__(
        self,
        out: str,
        config: dict,
        *,
        records_file: str = "records.jsonl",
        key: str = "id",
        extra: dict | None = None,
        lock: bool = True,
    ):
        check_not_bootstrapping()  # before the lock, which the parent run holds
        self.out = out
        self.key = key
        self.config = json_roundtrip(config)
        self.records_path = os.path.join(out, records_file)
        self.config_path = os.path.join(out, CONFIG_FILE)
        self._lock = FolderLock(out) if lock else None
        self._handle: Any = None
        _make_folder(out)
        if self._lock:
            self._lock.acquire()
        try:
            runs = self._check_config()
            self.existing = self._load_records()
            runs.append(
                {
                    "metadata": run_metadata(),
                    "extra": json_roundtrip(extra or {}),
                    "records_before": len(self.existing),
                }
            )
            write_json_atomic(self.config_path, {"config": self.config, "runs": runs})
            try:
                self._handle = open(self.records_path, "ab")
            except OSError as error:
                raise ResultsError(
                    f"cannot write {self.records_path}: {error.strerror or error}"
                ) from error
        except BaseException:
            self.close()
            raise
        self.written = 0

    def __enter__(self) -> ResultsFolder:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._handle is not None:
            try:
                self._handle.close()
            except OSError:
                pass
            self._handle = None
        if self._lock:
            self._lock.release()

    def append(self, record: dict) -> None:
        """Appends one record as one line, flushed before returning.

        A failed write is cut back so the file ends on a whole record, and
        raises ResultsError; the records already written stay.
        """
        if self._handle is None:
            raise ResultsError(f"results folder {self.out!r} is closed")
        line = (json.dumps(record, allow_nan=True) + "\n").encode("utf-8")
        start = self._handle.tell()
        try:
            self._handle.write(line)
            self._handle.flush()
        except OSError as error:
            self._cut_back(start)
            kept = len(self.existing) + self.written
            raise ResultsError(
                f"cannot write to {self.records_path}: {error.strerror or error}. "
                f"The {kept} records written so far are kept; free space or fix the "
                "folder's permissions, then rerun the same command to resume"
            ) from error
        self.written += 1

    def records(self) -> list[dict]:
        """Every record in the file now, in file order (first of each key)."""
        return list(read_records(self.records_path, self.key).values())

    def write_text(self, name: str, text: str) -> str:
        """Writes a summary file atomically; returns its path."""
        path = os.path.join(self.out, name)
        write_atomic(path, text)
        return path

    def _cut_back(self, size: int) -> None:
        try:
            self._handle.close()
        except OSError:
            pass
        self._handle = None
        try:
            with open(self.records_path, "r+b") as handle:
                handle.truncate(size)
            self._handle = open(self.records_path, "ab")
        except OSError:
            pass

    def _check_config(self) -> list:
        if not os.path.exists(self.config_path):
            if os.path.exists(self.records_path) and os.path.getsize(self.records_path):
                raise ResultsError(
                    f"{self.records_path} exists but {self.config_path} does not: "
                    "refusing to mix with records of unknown origin; use another --out"
                )
            return []
        try:
            with open(self.config_path, encoding="utf-8") as handle:
                stored = json.load(handle)
            old = stored["config"]
            runs = list(stored.get("runs", []))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ResultsError(
                f"{self.config_path} is unreadable ({error}); use another --out"
            ) from error
        if old != self.config:
            keys = sorted(set(old) | set(self.config))
            diff = [k for k in keys if old.get(k) != self.config.get(k)]
            details = "; ".join(
                f"{k}: folder has {old.get(k)!r}, now {self.config.get(k)!r}" for k in diff
            )
            raise ResultsError(
                f"output folder {self.out!r} holds results of a different configuration "
                f"({details}). Use another --out, or rerun with the folder's configuration "
                "to resume it."
            )
        return runs

    def _load_records(self) -> dict[str, dict]:
        records, corrupt, good_end, size = scan_records(self.records_path, self.key)
        if corrupt:
            self._set_aside(corrupt, records)
        elif good_end < size:
            print(
                f"note: {self.records_path}: dropping a truncated last line "
                f"({size - good_end} bytes) left by an interrupted run",
                file=sys.stderr,
            )
            try:
                with open(self.records_path, "r+b") as handle:
                    handle.truncate(good_end)
            except OSError as error:
                raise ResultsError(
                    f"cannot repair {self.records_path}: {error.strerror or error}"
                ) from error
        return records

    def _set_aside(self, corrupt: list[CorruptLine], records: dict[str, dict]) -> None:
        """Moves corrupt lines to <records>.corrupt and rewrites the file with the valid ones."""
        aside = self.records_path + ".corrupt"
        numbers = ", ".join(str(c.lineno) for c in corrupt[:10])
        more = f" and {len(corrupt) - 10} more" if len(corrupt) > 10 else ""
        print(
            f"warning: {self.records_path}: line(s) {numbers}{more} are not valid JSON records "
            f"({corrupt[0].reason}); they are moved to {aside} and their tasks run again. "
            f"The {len(records)} valid records are kept.",
            file=sys.stderr,
        )
        try:
            with open(aside, "ab") as handle:
                for c in corrupt:
                    text = c.text if c.text.endswith(b"\n") else c.text + b"\n"
                    handle.write(f"# line {c.lineno}: ".encode() + text)
        except OSError as error:
            raise ResultsError(f"cannot write {aside}: {error.strerror or error}") from error
        write_atomic(
            self.records_path,
            "".join(json.dumps(r, allow_nan=True) + "\n" for r in records.values()),
        )


def _make_folder(out: str) -> None:
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as error:
        raise ResultsError(
            f"cannot create output folder {out!r}: {error.strerror or error}"
        ) from error
    if not os.path.isdir(out):
        raise ResultsError(f"output folder {out!r} is not a folder")
    if not os.access(out, os.W_OK | os.X_OK):
        raise ResultsError(f"output folder {out!r} is not writable; use another --out")


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


# ---- without holding the folder open (the benchmark appends records itself) ------------------


def prepare_output_dir(
    out: str,
    config: dict,
    records_file: str = "records.jsonl",
    key: str = "id",
    extra: dict | None = None,
) -> dict[str, dict]:
    """Creates or reopens `out` for `config` without holding a lock; returns finished records."""
    folder = ResultsFolder(out, config, records_file=records_file, key=key, extra=extra, lock=False)
    folder.close()
    return folder.existing


def append_record(path: str, record: dict) -> None:
    """Appends one record as a single line and flushes it before returning."""
    line = json.dumps(record, allow_nan=True) + "\n"
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
    except OSError as error:
        raise ResultsError(
            f"cannot write to {path}: {error.strerror or error}; the records written "
            "so far are kept: fix the folder, then rerun the same command to resume"
        ) from error


def source_digests(packages: Sequence[str] = ("bots", "games")) -> dict[str, str]:
    """sha1 (12 hex digits) of each package's Python sources, subpackages included.

    Node counts and timings depend on the exact engine, uncommitted edits too, which
    the git revision in config.json does not show.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    digests = {}
    for package in packages:
        sha = hashlib.sha1()
        base = os.path.join(root, package)
        for folder, subfolders, names in sorted(os.walk(base)):
            subfolders.sort()
            for name in sorted(names):
                if name.endswith(".py"):
                    relative = os.path.relpath(os.path.join(folder, name), base)
                    with open(os.path.join(folder, name), "rb") as handle:
                        sha.update(relative.encode() + b"\0" + handle.read())
        digests[package] = sha.hexdigest()[:12]
    return digests
