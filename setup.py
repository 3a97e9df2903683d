"""Builds the optional native engine, ``bots._native``, beside the Python engine.

The extension is compiled against the headers shipped in the open_spiel wheel and
resolves OpenSpiel's and abseil's symbols from the already loaded ``pyspiel.so`` at
import time (bots/native_engine.py promotes them), so there is one game registry and
no second copy of either library. Without a working C++ compiler the install still
succeeds and the Python engine runs (one line says so).
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import metadata
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE_DIRS = ("bots/native", "games/native")


def native_sources() -> list[Path]:
    """Every C++ file of the engine, in a fixed order (the digest depends on it)."""
    files: list[Path] = []
    for folder in NATIVE_DIRS:
        files += sorted((ROOT / folder).rglob("*.cc")) + sorted((ROOT / folder).rglob("*.h"))
    return sorted(files, key=lambda p: p.relative_to(ROOT).as_posix())


def source_digest() -> str:
    """sha256 over the engine's sources; bots/native_engine.py recomputes it to spot a stale build."""
    digest = hashlib.sha256()
    for path in native_sources():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _include_dirs() -> list[str]:
    import pybind11  # a build requirement, imported only when building

    site = Path(metadata.distribution("open_spiel").locate_file(""))
    return [
        str(ROOT),
        str(site),
        str(site / "open_spiel" / "abseil-cpp"),
        str(site / "open_spiel" / "json" / "include"),
        pybind11.get_include(),
    ]


class OptionalBuildExt(build_ext):
    """Compiles in parallel; a failure leaves the Python engine and says so in one line."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = max(1, os.cpu_count() or 1)

    def run(self) -> None:
        try:
            for ext in self.extensions:
                ext.include_dirs = _include_dirs() + list(ext.include_dirs)
                version = metadata.version("open_spiel")
                ext.define_macros += [
                    ("STARSPIEL_SOURCE_DIGEST", f'"{source_digest()}"'),
                    ("STARSPIEL_OPEN_SPIEL_VERSION", f'"{version}"'),
                ]
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure means "no native engine"
            print(
                f"starspiel: native engine not built ({type(error).__name__}: {error}); "
                "the Python engine will run",
                file=sys.stderr,
            )


NATIVE = Extension(
    "bots._native",
    sources=[p.relative_to(ROOT).as_posix() for p in native_sources() if p.suffix == ".cc"],
    language="c++",
    extra_compile_args=[
        "-std=c++20",
        "-O2",
        "-g0",  # no debug information: a third of the build time
        "-ffp-contract=off",  # the same floating-point results as the Python engine
        "-fvisibility=hidden",
        "-D_GLIBCXX_USE_CXX11_ABI=1",
        "-Wall",
        "-Wextra",
        "-Wno-unused-parameter",
        "-Wno-sign-compare",
        "-Wno-missing-field-initializers",
        "-Wno-psabi",  # pyrandom.cc's AVX lambdas: an ABI note for calls no other code makes
    ],
    optional=True,
)

setup(ext_modules=[NATIVE], cmdclass={"build_ext": OptionalBuildExt})
