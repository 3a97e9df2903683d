"""The compiled engine (`python -m bots.compile`) is the same engine.

Built in a copy of the project, so this checkout keeps running plain Python: the
copy's searches must reproduce the golden statistics (values, moves and every
counter of 45 searches) and pass the exactness tests, and an extension whose
source changed afterwards must refuse to load until it is rebuilt or removed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypyc", reason="compiling the engine needs mypy: pip install -e '.[compile]'")
if not (shutil.which("cc") or shutil.which("gcc")):
    pytest.skip("compiling the engine needs a C compiler", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(cwd))
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def _engine(cwd: Path) -> str:
    run = _run(["-c", "import bots.search as s; print(s.COMPILED, s.__file__)"], cwd)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("compiled")
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_compiled.json")
    for package in ("bots", "games", "experiments", "tests"):
        shutil.copytree(ROOT / package, copy / package, ignore=skip)
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")
    build = _run(["-m", "bots.compile"], copy)
    assert build.returncode == 0, build.stdout + build.stderr
    return copy


def test_the_copy_runs_the_compiled_engine(compiled_copy: Path) -> None:
    compiled, path = _engine(compiled_copy).split(" ", 1)
    assert compiled == "True"
    assert path.startswith(str(compiled_copy / "bots" / "search.")) and not path.endswith(".py")


_ENGINE_IN_METADATA = (
    "from experiments.common.results import run_metadata; print(run_metadata()['search_engine'])"
)


def test_results_folders_record_which_engine_ran(compiled_copy: Path) -> None:
    assert _run(["-c", _ENGINE_IN_METADATA], compiled_copy).stdout.strip() == "compiled (mypyc)"


def test_compiled_searches_match_the_golden_statistics_and_stay_exact(
    compiled_copy: Path,
) -> None:
    tests = [
        "tests/test_search_golden_stats.py",
        "tests/test_exactness.py",
        "tests/test_mcms.py",
        "tests/test_star25.py",
    ]
    run = _run(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests], compiled_copy)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout.splitlines()[-1]


def test_a_stale_extension_refuses_to_load_until_rebuilt_or_removed(
    compiled_copy: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "stale"
    shutil.copytree(compiled_copy, copy)
    with open(copy / "bots" / "search.py", "a") as source:
        source.write("\n# an edit made after compiling\n")
    run = _run(["-c", "import bots, games, pyspiel; bots.make_bot"], copy)
    assert run.returncode != 0
    assert "python -m bots.compile" in run.stderr and "old code" in run.stderr
    clean = _run(["-m", "bots.compile", "--clean"], copy)
    assert clean.returncode == 0, clean.stderr
    assert not list((copy / "bots").glob("search*.so"))
    assert _engine(copy).startswith("False")
    assert _run(["-c", _ENGINE_IN_METADATA], copy).stdout.strip() == "plain Python"


def test_the_tool_refuses_unknown_arguments(compiled_copy: Path) -> None:
    run = _run(["-m", "bots.compile", "--fast"], compiled_copy)
    assert run.returncode == 2 and "usage: python -m bots.compile" in run.stderr
