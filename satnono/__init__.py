"""satnono: nonograms solved, enumerated and counted exactly.

>>> import satnono
>>> p = satnono.Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> len(list(satnono.solve(p)))
2
>>> satnono.count(p).count, satnono.uniqueness(p).verdict.value, satnono.rate(p).level.value
(2, 'multiple', 'search')

The stages, one package each, in the order a puzzle flows through them: ``io.formats``
(parse) → ``model`` (validate) → ``logic`` (propagate, probe) → ``encode`` (the residual
CNF) → ``backends`` (search) → ``pipeline`` (verify) → ``analyze`` (count, uniqueness,
difficulty) and ``io`` (render, draw).
"""

from .errors import (
    InvalidPuzzle,
    ParseError,
    SatnonoError,
    SearchTimeout,
    SolverFailed,
    UnknownBackend,
    UnknownOption,
    UsageError,
    WrongSolution,
)
from .io.formats import load, read_file, save
from .model import (
    BLACK_AND_WHITE,
    Block,
    Colour,
    CountMethod,
    Ending,
    Level,
    Palette,
    Puzzle,
    Solution,
    Verdict,
    clues_of,
    is_solution,
    puzzle_from_colours,
    puzzle_from_picture,
    validate,
)
from .pipeline import Run, solve

__all__ = ["BLACK_AND_WHITE", "Block", "Colour", "CountMethod", "CountResult", "Ending",
           "InvalidPuzzle", "Level", "Palette", "ParseError", "Puzzle", "Rating", "Run",
           "SatnonoError", "SearchTimeout", "Solution", "SolverFailed", "Uniqueness",
           "UnknownBackend", "UnknownOption", "UsageError", "Verdict", "WrongSolution",
           "clues_of", "count", "count_split", "is_solution", "load", "puzzle_from_colours",
           "puzzle_from_picture", "rate",
           "read_file", "save", "solve", "uniqueness", "validate"]

# the analysis calls pull in pysat; importing satnono (and so ``satnono --help``) should
# not, so they load on first use
_LAZY = {"count": ("analyze.count", "count"), "CountResult": ("analyze.count", "CountResult"),
         "count_split": ("analyze.split", "count_split"),
         "uniqueness": ("analyze.uniqueness", "uniqueness"),
         "Uniqueness": ("analyze.uniqueness", "Uniqueness"),
         "rate": ("analyze.difficulty", "rate"), "Rating": ("analyze.difficulty", "Rating")}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f".{module}", __name__), attr)
    raise AttributeError(f"module 'satnono' has no attribute {name!r}")
