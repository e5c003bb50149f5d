"""The engine, compiled ahead of time by ``pip install .`` from Cython (typed Python that
compiles to C; nothing is compiled at run time): the parts of the search that run millions
of times. Where no C compiler was there at install, the modules are missing and satnono
runs on its Python logic.

* :mod:`.colour`: the general search, any palette (black and white a palette of one
  colour): propagation, probing, the depth-first search; :mod:`.colour_line` its line
  solver.
* :mod:`.search` and :mod:`.line`: the fast path for black and white, chosen once per
  puzzle: the same method on two bits a cell, and its line solver, one machine word a line
  up to 63 cells, several past that.
* :mod:`.counter`: exact counting in independent parts, one code over both.
* ``clock.pxd``, ``memory.pxd``, ``words.pxd``: the time limit and signals, memory, and
  operations on machine words, shared by all of them.
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
