"""The engine's extension modules (satnono/engine/*.pyx), built by ``pip install .``.

Everything else is in pyproject.toml. The engine is optional: where Cython or a C
compiler is missing, or the build fails, the install still succeeds with one line saying
so, and satnono runs on its Python logic. What happened is kept beside the engine's
sources, ``satnono/engine/BUILT`` or ``satnono/engine/NOT-BUILT`` (with the reason), for
``satnono --version`` to say later: an install's log scrolls away, the slowness stays.

The machine code is portable by default, the architecture's baseline, so that a wheel
built once (pip caches what it builds from an sdist; a cluster's image copies it) runs on
every machine of its platform tag. ``SATNONO_NATIVE=1`` builds for this machine's
processor (``-march=native``) instead, for a user who builds for their own machine only.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

NOTICE = ("satnono: the compiled engine was not built ({why}); satnono will run on its "
          "Python logic (slower, the same answers)")
ENGINE = Path("satnono") / "engine"
BUILT, NOT_BUILT = "BUILT", "NOT-BUILT"


def native() -> bool:
    return os.environ.get("SATNONO_NATIVE", "") not in ("", "0")


def record(why: str | None, *roots: Path) -> None:
    """Leave in each root's engine folder what was built, or why nothing was."""
    keep, drop = (NOT_BUILT, BUILT) if why else (BUILT, NOT_BUILT)
    text = why or ("native: for the processor of the machine that built it"
                   if native() else "portable: the architecture's baseline")
    for root in roots:
        folder = root / ENGINE
        if folder.is_dir():
            (folder / keep).write_text(text + "\n")
            (folder / drop).unlink(missing_ok=True)


def not_built(why: str) -> list:  # type: ignore[type-arg]
    print(NOTICE.format(why=why), file=sys.stderr)
    record(why, Path("."))  # packaged with the rest (package-data), no build_ext runs
    return []


class OptionalBuildExt(build_ext):
    """Build the engine when it can be; never fail the install over it (and say so once,
    with the reason: its modules come as a whole or not at all)."""

    why: str | None = None

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            flags = ["-O3"] + (["-march=native"] if native() else [])
            for ext in self.extensions:
                ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()

    def run(self) -> None:
        headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
        if self.extensions and not headers.exists():
            self.why = (f"no Python headers ({headers} is missing: install python3-dev "
                        "or its like)")
        try:
            super().run()
        except Exception as exc:  # no compiler, or no Python headers
            self._failed(exc)
        if self.why:
            print(NOTICE.format(why=self.why), file=sys.stderr)
        record(self.why, Path("."), *([] if self.inplace else [Path(self.build_lib)]))

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        if self.why:
            return
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        self.why = self.why or _why(exc)


def _why(exc: Exception) -> str:
    """The failure in words: a compiler that could not be started is none at all (the
    message ends "No such file or directory"); anything else is a compile error."""
    text = str(exc).strip()
    last = (text.splitlines() or [type(exc).__name__])[-1][:160]
    if "no such file or directory" in last.lower() or "unable to execute" in last.lower():
        return f"no C compiler (install gcc or its like): {last}"
    return f"a compile error: {last}"


def _extensions() -> list:  # type: ignore[type-arg]
    sources = sorted(str(p) for p in ENGINE.glob("*.pyx"))
    if not sources:
        return not_built("no engine sources (satnono/engine/*.pyx) in this package")
    try:
        from Cython.Build import cythonize
    except ImportError:
        return not_built("Cython is not installed")
    try:
        return cythonize(sources, language_level=3, quiet=True)
    except Exception as exc:  # the engine's Cython did not compile: say so, install the rest
        return not_built(f"Cython: {_why(exc)}")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
