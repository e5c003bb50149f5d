"""The engine, compiled ahead of time by ``pip install .`` from Cython (typed Python that
compiles to C; nothing is compiled at run time): the parts of the search that run millions
of times. Where no C compiler was there at install, the modules are missing and satnono
runs on its Python logic.

* :mod:`.line`: the black-and-white line solver, one machine word a line up to 63 cells,
  several past that.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def part(name: str) -> ModuleType | None:
    """The engine's module ``name`` (``"line"``), or None where it was not built."""
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        return None
