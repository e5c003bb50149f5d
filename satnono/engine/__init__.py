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
import os
from pathlib import Path
from types import ModuleType

#: set (to anything but empty or 0) to run the Python logic instead of the engine, as where
#: it was not built: slower, the same answers
DISABLE = "SATNONO_NO_COMPILED"
#: the engine's modules; they come as a whole or not at all
PARTS = ("line", "colour_line", "search", "counter", "marginals")


#: why a module of the engine did not import, by name (the first failure says it all)
FAILED: dict[str, str] = {}


def part(name: str) -> ModuleType | None:
    """The engine's module ``name`` (``"line"``), or None where it was not built (or does
    not load here: :data:`FAILED` keeps why)."""
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ImportError as exc:
        FAILED.setdefault(name, str(exc).splitlines()[0][:200] if str(exc) else name)
        return None


def built() -> bool:
    """Whether every module of the engine is here."""
    return all(part(name) is not None for name in PARTS)


def turned_off() -> bool:
    return os.environ.get(DISABLE, "") not in ("", "0")


def build_record() -> str | None:
    """What the install's build left (setup.py): ``portable: …`` or ``native: …`` where it
    built the engine, the reason where it did not; None where there is no record (a source
    tree built some other way)."""
    here = Path(__file__).parent
    for name in ("NOT-BUILT", "BUILT"):
        try:
            return (here / name).read_text().strip() or None
        except OSError:
            continue
    return None


def describe() -> str:
    """The engine's state in one line, for ``satnono --version``."""
    record = build_record()
    if built():
        off = (f"; turned off ({DISABLE} is set): the Python logic runs"
               if turned_off() else "")
        return f"engine: compiled ({record or 'built in place'}){off}"
    return f"engine: {why_not()}; the Python logic runs (slower, the same answers)"


def why_not() -> str:
    """Why the engine is not here, from the build's own record: not built at install (and
    the build's reason), built but not loading on this machine, or a source tree whose
    engine was not built in place."""
    here = Path(__file__).parent
    record = build_record()
    if record and (here / "NOT-BUILT").exists():
        return f"not built at install ({record})"
    if record:
        failed = next(iter(FAILED.values()), "a module is missing")
        return f"built at install but it does not load here ({failed})"
    if (here / "search.pyx").exists():
        return (f"not built in this source tree ({here.parent.parent}: 'pip install -e .' "
                "builds it there, or run from another folder)")
    return "not built at install"
