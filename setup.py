"""The engine's extension modules (satnono/engine/*.pyx), built by ``pip install .``.

Everything else is in pyproject.toml. The engine is optional: where Cython or a C
compiler is missing, or the build fails, the install still succeeds with one line saying
so, and satnono runs on its Python logic. The machine code is for this machine's processor
(``-march=native``, as a just-in-time compiler would do); ``SATNONO_PORTABLE=1`` builds
for any processor of the architecture (for a wheel to be installed elsewhere).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

NOTICE = ("satnono: the compiled engine was not built ({why}); satnono will run on its "
          "Python logic (slower, the same answers)")


class OptionalBuildExt(build_ext):
    """Build the engine when it can be; never fail the install over it (and say so once:
    its modules come as a whole or not at all)."""

    failed = False

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            flags = ["-O3"] + ([] if os.environ.get("SATNONO_PORTABLE") else
                               ["-march=native"])
            for ext in self.extensions:
                ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, or no Python headers
            self._failed(exc)

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        if self.failed:
            return
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        if not self.failed:
            print(NOTICE.format(why=_why(exc)), file=sys.stderr)
        self.failed = True


def _why(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[-1][:160]


def _extensions() -> list:  # type: ignore[type-arg]
    try:
        from Cython.Build import cythonize
    except ImportError:
        print(NOTICE.format(why="Cython is not installed"), file=sys.stderr)
        return []
    try:
        return cythonize(["satnono/engine/*.pyx"], language_level=3, quiet=True)
    except Exception as exc:  # the engine's Cython did not compile: say so, install the rest
        print(NOTICE.format(why=f"Cython: {_why(exc)}"), file=sys.stderr)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
