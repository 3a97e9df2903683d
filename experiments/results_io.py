"""Output-folder utilities shared by the experiment programs.

One folder per experiment run holds `config.json` (the configuration that
decides the results, plus provenance of every run that wrote to the folder)
and a JSONL file of records, one JSON object per line, appended and flushed as
soon as each record is finished. Re-running the same configuration on the same
folder resumes: records already present are returned so the caller can skip
them, a truncated last line (left by a killed run) is cut off, and a folder
made with a different configuration is refused instead of being mixed.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from typing import Any

CONFIG_FILE = "config.json"

# Distributions whose versions are recorded when installed.
_VERSIONED = ("starspiel", "open_spiel", "numpy", "absl-py", "scipy", "matplotlib", "ray")


class OutputDirError(ValueError):
    """The output folder cannot be used: unwritable, foreign or made by another configuration."""


def _json_roundtrip(value: Any) -> Any:
    """Normalises tuples to lists etc., so a config compares equal to its reloaded self."""
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
    for dist in _VERSIONED:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return versions


def run_metadata() -> dict[str, Any]:
    """Provenance of this process: time, command line, Python, platform, versions, git revision."""
    return {
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "argv": list(sys.argv),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "hostname": platform.node(),
        "cpu_count": os.cpu_count(),
        "versions": library_versions(),
        "git": git_revision(),
    }


def _write_json_atomic(path: str, data: Any) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_records(path: str, key: str = "id", repair: bool = True) -> dict[str, dict]:
    """Records of a JSONL file keyed by `record[key]`, first occurrence kept.

    A last line that is incomplete (no newline) or not valid JSON is what a
    killed writer leaves behind: with `repair` the file is truncated to its
    last good line. A bad line anywhere else is real corruption and raises.
    """
    if not os.path.exists(path):
        return {}
    with open(path, "rb") as f:
        data = f.read()
    records: dict[str, dict] = {}
    good_end = 0
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line = data[pos:end]
        is_last = end >= len(data)
        try:
            if nl < 0:
                raise ValueError("no newline")
            text = line.decode("utf-8").strip()
            record = json.loads(text) if text else None
            if record is not None and not isinstance(record, dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            if not is_last:
                lineno = data.count(b"\n", 0, pos) + 1
                raise OutputDirError(
                    f"{path}: line {lineno} is not a valid JSON record ({e}); "
                    "fix or remove that line by hand"
                ) from e
            break
        if record is not None:
            if key not in record:
                lineno = data.count(b"\n", 0, pos) + 1
                raise OutputDirError(f"{path}: line {lineno} has no {key!r} field")
            records.setdefault(str(record[key]), record)
        good_end = end
        pos = end
    if good_end < len(data):
        if repair:
            print(
                f"note: {path}: dropping a truncated last line ({len(data) - good_end} bytes) "
                "left by an interrupted run",
                file=sys.stderr,
            )
            with open(path, "r+b") as f:
                f.truncate(good_end)
        # Without repair the partial line is simply ignored.
    return records


def append_record(path: str, record: dict) -> None:
    """Appends one record as a single line and flushes it to disk before returning."""
    line = json.dumps(record, allow_nan=True) + "\n"
    with open(path, "a", encoding="utf-8") as f:
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


def prepare_output_dir(
    out: str,
    config: dict,
    records_file: str = "records.jsonl",
    key: str = "id",
    extra: dict | None = None,
) -> dict[str, dict]:
    """Creates or reopens the folder `out` for `config`; returns the records already there.

    `config` holds only what decides the results (compared on resume); `extra`
    holds run details that do not (worker count, backend) and is logged with
    run_metadata() under "runs" in config.json, one entry per run.
    Raises OutputDirError with a user-facing message when the folder cannot be used.
    """
    config = _json_roundtrip(config)
    config_path = os.path.join(out, CONFIG_FILE)
    records_path = os.path.join(out, records_file)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise OutputDirError(f"cannot create output folder {out!r}: {e.strerror or e}") from e
    if not os.path.isdir(out):
        raise OutputDirError(f"output folder {out!r} is not a folder")
    if not os.access(out, os.W_OK | os.X_OK):
        raise OutputDirError(f"output folder {out!r} is not writable")
    runs: list = []
    if os.path.exists(config_path):
        try:
            with open(config_path, encoding="utf-8") as f:
                stored = json.load(f)
            old = stored["config"]
            runs = list(stored.get("runs", []))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise OutputDirError(f"{config_path} is unreadable ({e}); use another --out") from e
        if old != config:
            diff = sorted(k for k in set(old) | set(config) if old.get(k) != config.get(k))
            details = "; ".join(
                f"{k}: folder has {old.get(k)!r}, now {config.get(k)!r}" for k in diff
            )
            raise OutputDirError(
                f"output folder {out!r} holds results of a different configuration ({details}). "
                "Use another --out, or rerun with the folder's configuration to resume it."
            )
    elif os.path.exists(records_path):
        raise OutputDirError(
            f"{records_path} exists but {config_path} does not: "
            "refusing to mix with records of unknown origin; use another --out"
        )
    existing = read_records(records_path, key=key, repair=True)
    runs.append(
        {
            "metadata": run_metadata(),
            "extra": _json_roundtrip(extra or {}),
            "records_before": len(existing),
        }
    )
    try:
        _write_json_atomic(config_path, {"config": config, "runs": runs})
        with open(records_path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise OutputDirError(f"cannot write in output folder {out!r}: {e.strerror or e}") from e
    return existing
