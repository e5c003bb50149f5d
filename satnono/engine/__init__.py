"""The engine, compiled ahead of time by ``pip install .`` from Cython (typed Python that
compiles to C; nothing is compiled at run time): the parts of the search that run millions
of times. Where no C compiler was there at install, the modules are missing and satnono
runs on its Python logic.

* :mod:`.search`: the search, any palette (black and white a palette of one colour):
  propagation, probing to a fixpoint with its memory, a depth-first search with restarts,
  what probing implies; each method compiled for black and white's one-byte cell and
  colour's 64-bit one.
* :mod:`.line` and :mod:`.colour_line`: the line solvers of those cells, black and white
  on two machine words a line (several past 63 cells), colour on a word a colour.
* :mod:`.counter`: exact counting in independent parts, over the same engine.
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
