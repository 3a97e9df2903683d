"""Results folders: configuration, resume, locks, corrupted lines, failed writes."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys

import pytest

from experiments.common import results
from experiments.common.results import ResultsError, ResultsFolder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = {"program": "test", "n": 1}


def ids(path) -> list[str]:
    return [json.loads(line)["id"] for line in open(path).read().splitlines()]


def test_config_versions_and_runs_are_recorded(tmp_path):
    with ResultsFolder(str(tmp_path), CONFIG, extra={"workers": 2}) as folder:
        folder.append({"id": "a", "v": 1})
        folder.write_text("summary.md", "# done\n")
    stored = json.loads((tmp_path / "config.json").read_text())
    assert stored["config"] == CONFIG
    run = stored["runs"][0]
    assert run["extra"] == {"workers": 2} and "open_spiel" in run["metadata"]["versions"]
    assert "commit" in run["metadata"]["git"]
    assert (tmp_path / "summary.md").read_text() == "# done\n"


def test_resume_keeps_records_and_cuts_a_torn_last_line(tmp_path, capsys):
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        for i in range(3):
            folder.append({"id": f"a{i}"})
    with open(tmp_path / "records.jsonl", "a") as handle:
        handle.write('{"id": "a3", "v"')  # what a SIGKILL during a write leaves
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        assert sorted(folder.existing) == ["a0", "a1", "a2"]
        folder.append({"id": "a3"})
    assert "truncated last line" in capsys.readouterr().err
    assert ids(tmp_path / "records.jsonl") == ["a0", "a1", "a2", "a3"]
    assert len(json.loads((tmp_path / "config.json").read_text())["runs"]) == 2


def test_a_corrupt_middle_line_is_reported_by_number_and_no_valid_record_is_lost(tmp_path, capsys):
    with ResultsFolder(str(tmp_path), CONFIG):
        pass
    path = tmp_path / "records.jsonl"
    path.write_text('{"id": "a"}\nnot json\n{"id": "b"}\n{"no_id": 1}\n{"id": "c"}\n')
    with pytest.raises(ResultsError, match="line 2"):
        results.read_records(str(path))
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        assert sorted(folder.existing) == ["a", "b", "c"]
    err = capsys.readouterr().err
    assert "line(s) 2, 4" in err and "3 valid records are kept" in err
    assert ids(path) == ["a", "b", "c"]
    aside = (tmp_path / "records.jsonl.corrupt").read_text()
    assert "# line 2: not json" in aside and '# line 4: {"no_id": 1}' in aside


def test_a_different_configuration_is_refused(tmp_path):
    with ResultsFolder(str(tmp_path), {"game": "pig", "seed": 1}):
        pass
    with pytest.raises(ResultsError, match="different configuration.*seed: folder has 1, now 2"):
        ResultsFolder(str(tmp_path), {"game": "pig", "seed": 2})


def test_records_without_a_config_are_not_adopted(tmp_path):
    (tmp_path / "records.jsonl").write_text('{"id": "a"}\n')
    with pytest.raises(ResultsError, match="unknown origin"):
        ResultsFolder(str(tmp_path), CONFIG)


def test_a_folder_in_use_is_locked_until_its_run_closes_it(tmp_path):
    with ResultsFolder(str(tmp_path), CONFIG):
        with pytest.raises(ResultsError, match=f"in use by a live run \\(pid {os.getpid()}"):
            ResultsFolder(str(tmp_path), CONFIG)
    with ResultsFolder(str(tmp_path), CONFIG):  # released
        pass


def _hold_lock(out: str) -> subprocess.Popen:
    code = (
        "import sys, time; from experiments.common.results import ResultsFolder; "
        f"f = ResultsFolder({out!r}, {CONFIG!r}); print('locked', flush=True); time.sleep(60)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=ROOT),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_a_live_run_in_another_process_locks_the_folder_and_its_stale_lock_is_taken_over(
    tmp_path,
):
    proc = _hold_lock(str(tmp_path))
    try:
        with pytest.raises(ResultsError, match=f"pid {proc.pid}"):
            ResultsFolder(str(tmp_path), CONFIG)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert (tmp_path / ".lock").exists()  # left behind by the killed run
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        folder.append({"id": "a"})


def test_a_full_disk_stops_the_run_and_keeps_what_was_written(tmp_path, monkeypatch):
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        folder.append({"id": "a"})
        handle = folder._handle

        class FullDisk:
            def __init__(self, inner):
                self.inner = inner

            def write(self, data):
                self.inner.write(data[:5])  # a partial line reaches the file
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            def __getattr__(self, name):
                return getattr(self.inner, name)

        folder._handle = FullDisk(handle)
        with pytest.raises(ResultsError, match="No space left on device.*1 records written"):
            folder.append({"id": "b"})
    assert ids(tmp_path / "records.jsonl") == ["a"]
    with ResultsFolder(str(tmp_path), CONFIG) as folder:
        assert sorted(folder.existing) == ["a"]


def test_an_unwritable_or_impossible_folder_is_refused_with_a_message(tmp_path, monkeypatch):
    with pytest.raises(ResultsError, match="cannot create output folder"):
        ResultsFolder("/dev/null/sub", CONFIG)
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, m: False if str(p) == str(tmp_path) else real_access(p, m)
    )
    with pytest.raises(ResultsError, match="not writable"):
        ResultsFolder(str(tmp_path), CONFIG)


def test_the_function_interface_checks_the_configuration(tmp_path):
    from experiments.common import results

    assert results.prepare_output_dir(str(tmp_path), CONFIG, records_file="r.jsonl") == {}
    results.append_record(str(tmp_path / "r.jsonl"), {"id": "a"})
    assert list(results.read_records(str(tmp_path / "r.jsonl"))) == ["a"]
    with pytest.raises(ValueError, match="different configuration"):
        results.prepare_output_dir(str(tmp_path), {"n": 2}, records_file="r.jsonl")
