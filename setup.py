"""Builds the optional native code in two extensions, one per floor.

``games._native_games`` holds the C++ custom games (games/native/), which register
themselves with OpenSpiel when ``import games`` loads it; ``bots._native`` holds the
native engine (bots/native/) and links against it, as it links against pyspiel.so,
so the floors point down in C++ as in Python. Both are compiled against the headers
shipped in the open_spiel wheel and linked against that wheel's ``pyspiel.so`` (no
second copy of OpenSpiel or abseil), found at run time through an rpath: ``$ORIGIN/..``
(an installed wheel, where ``bots/`` and ``games/`` sit beside ``pyspiel.so`` in
site-packages) and, for an editable or in-place build, the environment's
site-packages; the engine finds the games' extension through ``$ORIGIN/../games``.
The loader then reuses the ``pyspiel.so`` and the games' extension Python already
loaded, so there is one game registry and nothing is promoted to the global symbol
namespace. The games' extension keeps default symbol visibility: the engine's
evaluators and keys use its classes.

Compiled units are kept in a per-user cache (``$XDG_CACHE_HOME/starspiel/native``,
default ``~/.cache/...``; ``STARSPIEL_BUILD_CACHE=0`` turns it off) under a key of
everything they depend on (the sources' digest, open_spiel, the Python ABI, the
compiler and its flags), so reinstalling unchanged sources, editable or as a wheel,
only links (a second or two) instead of compiling. (No unity build: the evaluators'
files each define the same names in anonymous namespaces.)
Without a working C++ compiler the install still succeeds and the Python engine
runs (one line says so).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE_DIRS = ("bots/native", "games/native")
GAMES_EXTENSION = "games._native_games"
# Bump when the build's logic changes in a way the key below does not see.
CACHE_FORMAT = 2


def native_sources(folders: tuple[str, ...] = NATIVE_DIRS) -> list[Path]:
    """Every C++ file under ``folders``, in a fixed order (the digest depends on it)."""
    files: list[Path] = []
    for folder in folders:
        files += sorted((ROOT / folder).rglob("*.cc")) + sorted((ROOT / folder).rglob("*.h"))
    return sorted(files, key=lambda p: p.relative_to(ROOT).as_posix())


def source_digest() -> str:
    """sha256 over the engine's sources; bots/native_engine.py recomputes it to spot a stale build."""
    digest = hashlib.sha256()
    for path in native_sources():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _open_spiel_site() -> Path:
    return Path(metadata.distribution("open_spiel").locate_file(""))


def _include_dirs() -> list[str]:
    import pybind11  # a build requirement, imported only when building

    site = _open_spiel_site()
    return [
        str(ROOT),
        str(site),
        str(site / "open_spiel" / "abseil-cpp"),
        str(site / "open_spiel" / "json" / "include"),
        pybind11.get_include(),
    ]


def _runtime_dirs(in_tree: bool) -> list[str]:
    """Where the loader looks for pyspiel.so: beside ``bots/`` in an installed wheel; for a
    build that stays in the source tree, also the environment's site-packages (never pip's
    temporary build environment, which is gone by then)."""
    dirs = ["$ORIGIN/.."]
    if in_tree:
        paths = sysconfig.get_paths()
        for candidate in (paths["platlib"], paths["purelib"], str(_open_spiel_site())):
            if "pip-build-env" not in candidate and candidate not in dirs:
                dirs.append(candidate)
    return dirs


def _compile_cost(source: str) -> int:
    """A rough compile time, to start the longest first: files that include pybind11 take
    about 10-19 s of CPU here, the others 4-10 s, growing with their size."""
    text = Path(source).read_bytes()
    return len(text) + (40_000 if b"pybind11" in text or b"bindings.h" in text else 0)


def _cache_root() -> Path | None:
    if os.environ.get("STARSPIEL_BUILD_CACHE") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "starspiel" / "native"


class OptionalBuildExt(build_ext):
    """Compiles in parallel, reuses a cached identical build; a failure leaves the Python
    engine and says so in one line."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = max(1, os.cpu_count() or 1)

    def run(self) -> None:
        try:
            for ext in self.extensions:
                ext.include_dirs = _include_dirs() + list(ext.include_dirs)
                ext.define_macros += [
                    ("STARSPIEL_SOURCE_DIGEST", f'"{source_digest()}"'),
                    ("STARSPIEL_OPEN_SPIEL_VERSION", f'"{metadata.version("open_spiel")}"'),
                ]
                in_tree = bool(self.inplace or getattr(self, "editable_mode", False))
                ext.library_dirs = [str(_open_spiel_site())]
                ext.extra_link_args = [
                    "-l:pyspiel.so",
                    *(f"-Wl,-rpath,{folder}" for folder in _runtime_dirs(in_tree)),
                ]
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure means "no native engine"
            print(
                f"starspiel: native engine not built ({type(error).__name__}: {error}); "
                "the Python engine will run",
                file=sys.stderr,
            )

    def _cache_key(self, ext: Extension) -> str:
        """Everything a compiled file depends on: the sources' digest (a macro), which
        files there are, open_spiel, the Python ABI, the compiler and its flags."""
        facts: dict[str, Any] = {
            "format": CACHE_FORMAT,
            "sources": ext.sources,
            "macros": ext.define_macros,
            # pip's build environments have random names: the open_spiel (a macro) and
            # pybind11 versions stand for theirs; the source root itself does not matter.
            "includes": [d if "pip-build-env" not in d else "" for d in ext.include_dirs[1:]],
            "compile": ext.extra_compile_args,
            "python": [sys.implementation.cache_tag, sysconfig.get_config_var("EXT_SUFFIX")],
            "pybind11": metadata.version("pybind11"),
            "compiler": getattr(self.compiler, "compiler_so", None),
            "environment": [os.environ.get(name) for name in ("CC", "CXX", "CFLAGS", "CPPFLAGS")],
        }
        blob = json.dumps(facts, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:24]

    def build_extensions(self) -> None:
        """One extension after the other (``parallel`` runs the compiles of each, in
        ``_parallel_compile``): the engine links against the games' extension."""
        self.check_extensions_list(self.extensions)
        self._build_extensions_serial()

    def build_extension(self, ext: Extension) -> None:
        if ext.name != GAMES_EXTENSION:
            # The engine needs the games' classes: link against their extension, built just
            # before (it comes first) in the build folder (setuptools copies both into the
            # tree after building, for an in-place build), found beside bots/ at run time.
            games_built = Path(self.get_ext_fullpath(GAMES_EXTENSION))
            ext.library_dirs = [*ext.library_dirs, str(games_built.parent)]
            ext.extra_link_args = [
                *ext.extra_link_args,
                f"-l:{games_built.name}",
                "-Wl,-rpath,$ORIGIN/../games",
            ]
        cache = _cache_root()
        self._objects = cache / self._cache_key(ext) if cache else None
        self._reused = 0
        compile_one_by_one = self.compiler.compile
        self.compiler.compile = self._parallel_compile()
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one_by_one
        if self._reused:
            print(
                f"starspiel: native engine unchanged, {self._reused} compiled files reused "
                f"from {self._objects}",
                file=sys.stderr,
            )

    def _compile_or_reuse(self, obj: str, compile_it: Any) -> None:
        """Copies ``obj`` from the cache, or compiles it and caches it (best effort: an
        unwritable cache only costs the next build)."""
        relative = Path(obj).relative_to(self.build_temp).as_posix().replace("/", "_")
        cached = self._objects / relative if self._objects else None
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, obj)
            self._reused += 1
            return
        compile_it()
        if cached is None:
            return
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=cached.parent, delete=False) as handle:
                with open(obj, "rb") as built:
                    shutil.copyfileobj(built, handle)
            os.replace(handle.name, cached)
        except OSError:
            pass

    def _parallel_compile(self) -> Any:
        """distutils compiles one extension's sources one at a time: run them on
        ``self.parallel`` threads, the costliest first, each through the cache."""
        compiler = self.compiler
        jobs = int(self.parallel or 1)

        def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=False,
                    extra_preargs=None, extra_postargs=None, depends=None):  # fmt: skip
            macros, objects, extra, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs
            )
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def one(obj: str) -> None:
                source, suffix = build[obj]
                self._compile_or_reuse(
                    obj, lambda: compiler._compile(obj, source, suffix, cc_args, extra, pp_opts)
                )

            by_cost = sorted(objects, key=lambda obj: _compile_cost(build[obj][0]))
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(one, reversed(by_cost)))
            return objects

        return compile


COMPILE_ARGS = [
    "-std=c++20",
    "-O2",
    "-g0",  # no debug information: a third of the build time
    "-ffp-contract=off",  # the same floating-point results as the Python engine
    "-D_GLIBCXX_USE_CXX11_ABI=1",
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Wno-sign-compare",
    "-Wno-missing-field-initializers",
]


def _extension(name: str, folder: str, compile_args: list[str]) -> Extension:
    files = native_sources((folder,))
    return Extension(
        name,
        sources=[p.relative_to(ROOT).as_posix() for p in files if p.suffix == ".cc"],
        # The headers too, so that `setup.py build_ext --inplace` rebuilds after a .h changes.
        depends=[p.relative_to(ROOT).as_posix() for p in native_sources() if p.suffix == ".h"],
        language="c++",
        extra_compile_args=list(compile_args),
        optional=True,
    )


# The games first: the engine links against them. Their symbols stay visible (the engine
# uses their classes); the engine's are hidden.
GAMES_NATIVE = _extension(GAMES_EXTENSION, "games/native", COMPILE_ARGS)
NATIVE = _extension("bots._native", "bots/native", [*COMPILE_ARGS, "-fvisibility=hidden"])

if __name__ == "__main__":  # pip and `python setup.py` run it so; tests import the helpers
    setup(ext_modules=[GAMES_NATIVE, NATIVE], cmdclass={"build_ext": OptionalBuildExt})
