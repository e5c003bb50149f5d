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

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms)
if TYPE_CHECKING:  # the names below load on first use (PEP 562): ``satnono --help`` and a
    # Ctrl-C at any moment of a command's start find nothing heavy imported yet
    from .analyze.count import CountResult, count
    from .analyze.difficulty import Rating, rate
    from .analyze.split import count_split
    from .analyze.uniqueness import Uniqueness, uniqueness
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
    from .plan import Plan
    from .tuning import Tuning

__all__ = ["BLACK_AND_WHITE", "Block", "Colour", "CountMethod", "CountResult", "Ending",
           "InvalidPuzzle", "Level", "Palette", "ParseError", "Plan", "Puzzle", "Rating", "Run",
           "SatnonoError", "SearchTimeout", "Solution", "SolverFailed", "Tuning", "Uniqueness",
           "UnknownBackend", "UnknownOption", "UsageError", "Verdict", "WrongSolution",
           "clues_of", "count", "count_split", "is_solution", "load",
           "puzzle_from_colours", "puzzle_from_picture", "rate", "read_file", "save", "solve",
           "uniqueness", "validate"]

#: where each public name lives
_LAZY = {
    **{name: "errors" for name in ("InvalidPuzzle", "ParseError", "SatnonoError",
                                   "SearchTimeout", "SolverFailed", "UnknownBackend",
                                   "UnknownOption", "UsageError", "WrongSolution")},
    **{name: "io.formats" for name in ("load", "read_file", "save")},
    **{name: "model" for name in ("BLACK_AND_WHITE", "Block", "Colour", "CountMethod",
                                  "Ending", "Level", "Palette", "Puzzle", "Solution",
                                  "Verdict", "clues_of", "is_solution", "puzzle_from_colours",
                                  "puzzle_from_picture", "validate")},
    "Run": "pipeline", "solve": "pipeline", "Plan": "plan", "Tuning": "tuning",
    "count": "analyze.count", "CountResult": "analyze.count",
    "count_split": "analyze.split",
    "uniqueness": "analyze.uniqueness", "Uniqueness": "analyze.uniqueness",
    "rate": "analyze.difficulty", "Rating": "analyze.difficulty",
}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("satnono")
    except PackageNotFoundError:  # run from a source tree, not installed
        return "0+unknown"


def __getattr__(name: str) -> object:
    if name == "__version__":
        value: object = _version()
    elif name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'satnono' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"__version__"})
