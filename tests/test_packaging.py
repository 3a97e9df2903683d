"""What an installed starspiel promises beyond its searches: the test session refuses a
missing or stale native engine, importing it changes nothing process-wide, and calibrations a user makes never go into the package.

The wheel itself (built, installed without a compiler, run from outside the tree) is
checked by .ci/run, which also times nothing: build times are in the report of issue 70.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pyspiel
import pytest
from helpers.engines import skip_unless_runs

from bots import calibration, native_engine
from bots.calibration import user_calibration_dir as real_user_calibration_dir
from games import native_games

ROOT = Path(__file__).resolve().parent.parent


def _load_setup():
    spec = importlib.util.spec_from_file_location("starspiel_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _env(**changes: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _copy_tree(tmp_path: Path) -> Path:
    """The package, its engine build and the test setup, copied to run pytest there."""
    copy = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("bots", "games"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=ignore)
    shutil.copytree(ROOT / "tests" / "helpers", copy / "tests" / "helpers", ignore=ignore)
    shutil.copy(ROOT / "tests" / "conftest.py", copy / "tests" / "conftest.py")
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "tests" / "test_one.py").write_text("def test_one():\n    assert True\n")
    return copy


def _pytest(tree: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_one.py"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_a_stale_engine_stops_the_test_session_and_the_opt_out_runs_it(tmp_path):
    skip_unless_runs("native")
    tree = _copy_tree(tmp_path)
    edited = tree / "bots" / "native" / "search.cc"
    edited.write_text(edited.read_text() + "// edited after the build\n")
    stopped = _pytest(tree, _env(STARSPIEL_ENGINE=None))
    assert stopped.returncode == 3, stopped.stdout + stopped.stderr
    output = stopped.stdout + stopped.stderr
    assert "the native engine is stale" in output and "pip install -e ." in output, output
    assert "STARSPIEL_ENGINE=python" in output
    opted_out = _pytest(tree, _env(STARSPIEL_ENGINE="python"))
    assert opted_out.returncode == 0, opted_out.stdout + opted_out.stderr
    assert "1 passed" in opted_out.stdout


def test_the_session_check_passes_a_loaded_engine_and_names_a_missing_one(monkeypatch):
    import conftest

    skip_unless_runs("native")
    assert conftest.engine_verdict() is None
    monkeypatch.setattr(native_engine, "problem", lambda: "the native engine is not built")
    verdict = conftest.engine_verdict()
    assert verdict is not None and "\n" not in verdict
    assert "not built" in verdict and "STARSPIEL_ENGINE=python" in verdict
    monkeypatch.setenv("STARSPIEL_ENGINE", "python")
    assert conftest.engine_verdict() is None


def test_importing_bots_promotes_no_symbols_and_searches_beside_numpy_and_scipy():
    skip_unless_runs("native")
    script = textwrap.dedent(
        """
        import ctypes
        import importlib.util
        import bots
        import numpy
        import pyspiel
        from bots import native_engine

        assert native_engine.native() is not None, native_engine.problem()
        # dlopen(NULL) sees the global namespace: pyspiel's symbols must not be in it.
        assert not hasattr(ctypes.CDLL(None), "PyInit_pyspiel")
        maps = open("/proc/self/maps").read()
        assert sum(line.endswith("/pyspiel.so") for line in maps.splitlines()) >= 1
        # One pyspiel: every mapping of it is the same file.
        assert len({line.split()[-1] for line in maps.splitlines()
                    if line.endswith("pyspiel.so")}) == 1
        # One copy of the C++ games: the engine reuses the extension `import games` loaded.
        assert not hasattr(ctypes.CDLL(None), "PyInit__native_games")
        assert len({line.split()[-1] for line in maps.splitlines()
                    if "_native_games" in line}) == 1
        numpy.linalg.inv(numpy.eye(3) + 1)
        if importlib.util.find_spec("scipy") is not None:  # installed here, not by [test]
            import scipy.linalg
            scipy.linalg.inv(scipy.linalg.hilbert(3))
        game = pyspiel.load_game("pig")
        bot = bots.make_bot("star2(max_depth=3)", game, 0, engine="native")
        state = game.new_initial_state()
        assert bot.step(state) in state.legal_actions()
        assert bot.last_search["engine"] == "native"
        print("ok", bot.last_search["nodes"])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=_env(PYTHONPATH=str(ROOT), STARSPIEL_ENGINE=None),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stdout + done.stderr


def test_setup_and_the_loader_digest_the_same_sources(tmp_path):
    setup = _load_setup()
    assert setup.source_digest() == native_engine.source_digest()
    # A copy with one file edited digests differently (the loader's stale check).
    for folder in setup.NATIVE_DIRS:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    assert native_engine.source_digest(tmp_path) == setup.source_digest()
    edited = tmp_path / "games" / "native" / "dice.cc"
    edited.write_text(edited.read_text() + "\n")
    assert native_engine.source_digest(tmp_path) != setup.source_digest()


def test_the_user_calibration_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert real_user_calibration_dir() == str(tmp_path / "starspiel" / "calibrations")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert real_user_calibration_dir() == str(
        tmp_path / "home" / ".cache" / "starspiel" / "calibrations"
    )


def test_calibrate_install_writes_the_user_folder_which_wins_over_the_committed_file(
    monkeypatch, tmp_path
):
    from experiments.probcut.calibrate import run

    user = tmp_path / "user"
    monkeypatch.setattr(calibration, "user_calibration_dir", lambda: str(user))
    game = pyspiel.load_game("pig")
    committed = os.path.join(calibration.CALIBRATION_DIR, calibration.calibration_filename(game))
    assert calibration.default_calibration_path(game) == committed
    before = Path(committed).read_bytes()
    data = run(
        "pig",
        depths=[2],
        reductions=[1],
        positions=2,
        seed=1,
        out=str(tmp_path / "run"),
        install=True,
        plots=False,
        verbose=False,
        max_outcomes=2,
    )
    installed = user / calibration.calibration_filename(game)
    assert installed.is_file() and Path(committed).read_bytes() == before
    # The user's file wins over the committed one; a file the bot is given wins over both.
    assert calibration.default_calibration_path(game) == str(installed)
    assert calibration.load_calibration(game)["models"] == data["models"]
    named = calibration.probcut_settings(game, 2, 1.5, committed)
    assert set(named.models) != {2}  # the committed pig calibration has depths 2..7
    assert set(calibration.probcut_settings(game, 1, 1.5).models) == {2}


def test_an_extension_whose_rpath_finds_another_pyspiel_is_named(tmp_path):
    # The loader takes the first pyspiel.so on the rpath, $ORIGIN being the file's folder.
    other, ours = tmp_path / "other_env", tmp_path / "pkg" / "bots"
    other.mkdir()
    ours.mkdir(parents=True)
    (other / "pyspiel.so").write_bytes(b"")
    extension = ours / "_native.so"
    extension.write_bytes(b"\x7fELF\0pyspiel.so\0$ORIGIN/..:" + str(other).encode() + b"\0tail")
    assert native_games.linked_pyspiel(str(extension)) == str(other / "pyspiel.so")
    (tmp_path / "pkg" / "pyspiel.so").write_bytes(b"")  # beside bots/, as in a wheel install
    assert native_games.linked_pyspiel(str(extension)) == str(tmp_path / "pkg" / "pyspiel.so")
    extension.write_bytes(b"\x7fELF\0no rpath of ours\0")
    assert native_games.linked_pyspiel(str(extension)) is None


def test_the_sdist_carries_every_native_source(tmp_path):
    """pip builds a wheel from the sdist when it has no wheel to take: every .cc and .h
    the build digests must be in it (MANIFEST.in), and the license and changelog."""
    setup = _load_setup()
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    (archive,) = tmp_path.glob("starspiel-*.tar.gz")
    with tarfile.open(archive) as tar:
        members = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    sources = {path.relative_to(ROOT).as_posix() for path in setup.native_sources()}
    assert sources and sources - members == set()
    assert {"LICENSE", "CHANGELOG.md", "setup.py", "pyproject.toml"} <= members
