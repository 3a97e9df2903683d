"""`python -m bots.compile`: the search engine as a C extension, built by mypyc.

What is left of a node's cost in pig and Dice is mostly the interpreter running the
engine's own bookkeeping (docs/benchmark.md). mypyc compiles ``bots/search.py``,
unchanged, into an extension that Python imports in its place, so every search
returns the same values, moves and node counts (tests/test_compiled_engine.py) at
less CPU per node. Optional: it needs mypy and a C compiler
(``pip install -e '.[compile]'``); without it the same code runs as plain Python.

The extension sits beside the source in ``bots/``, where an editable install
imports it, with a stamp of the source it was built from. Loading the engine
(``bots.search``, which ``make_bot`` imports) refuses an extension whose source has
changed since, which would run the old engine; ``python -m bots.compile --clean``
removes it. This module imports nothing of the engine, so it works when that happens.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
COMPILED_MODULES = ("search",)
STAMP_NAME = "_compiled.json"
_EXTENSION_SUFFIXES = (".so", ".pyd")


def compiled_files(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The extension files a build left in the package (the module and mypyc's runtime)."""
    found = []
    for name in COMPILED_MODULES:
        for path in package_dir.glob(f"{name}*"):
            if path.suffix in _EXTENSION_SUFFIXES and path.name.split(".")[0] in (
                name,
                f"{name}__mypyc",
            ):
                found.append(path)
    return sorted(found)


def source_digests(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    return {
        name: hashlib.sha256((package_dir / f"{name}.py").read_bytes()).hexdigest()
        for name in COMPILED_MODULES
    }


def check_compiled_engine(package_dir: Path = PACKAGE_DIR) -> None:
    """Raises ImportError if an extension in the package was built from other source."""
    if not compiled_files(package_dir):
        return
    stamp = package_dir / STAMP_NAME
    try:
        built_from = json.loads(stamp.read_text())
    except (OSError, ValueError):
        built_from = None
    if built_from != source_digests(package_dir):
        raise ImportError(
            f"the compiled search engine in {package_dir} was built from another version of "
            "bots/search.py and would run that old code; rebuild it with "
            "`python -m bots.compile` or remove it with `python -m bots.compile --clean`"
        )


def clean(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    removed = compiled_files(package_dir)
    for path in removed:
        path.unlink()
    stamp = package_dir / STAMP_NAME
    if stamp.exists():
        stamp.unlink()
    return removed


def build(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Compiles the engine into ``package_dir``; returns the extension files written.

    mypyc runs on a copy of the package in a scratch directory, so its build
    files and the project's packaging metadata stay out of the way.
    """
    try:
        import mypyc  # noqa: F401
    except ImportError as error:
        raise RuntimeError(
            "compiling the engine needs mypy (with mypyc) and a C compiler: "
            "pip install -e '.[compile]'"
        ) from error
    with tempfile.TemporaryDirectory(prefix="starspiel-mypyc-") as scratch:
        root = Path(scratch)
        shutil.copytree(
            package_dir,
            root / "bots",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", STAMP_NAME),
        )
        (root / "mypy.ini").write_text("[mypy]\nignore_missing_imports = True\n")
        targets = [f"bots/{name}.py" for name in COMPILED_MODULES]
        # mypy fails without a word when PYTHONPATH holds another copy of the package.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        run = subprocess.run(
            [sys.executable, "-m", "mypyc", *targets],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise RuntimeError(
                f"mypyc failed (exit {run.returncode}):\n{run.stdout[-4000:]}{run.stderr[-4000:]}"
            )
        built = compiled_files(root / "bots")
        if not built:
            raise RuntimeError(f"mypyc wrote no extension for {targets}:\n{run.stdout[-4000:]}")
        clean(package_dir)
        written = []
        for path in built:
            shutil.copy2(path, package_dir / path.name)
            written.append(package_dir / path.name)
    (package_dir / STAMP_NAME).write_text(json.dumps(source_digests(package_dir), indent=1))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--clean"]):
        print("usage: python -m bots.compile [--clean]", file=sys.stderr)
        return 2
    if args == ["--clean"]:
        removed = clean()
        print(f"removed {len(removed)} compiled file(s); the engine runs as plain Python")
        return 0
    try:
        written = build()
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print("the search engine now runs compiled; `python -m bots.compile --clean` undoes it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
