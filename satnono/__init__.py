"""satnono: black-and-white nonograms solved, enumerated and counted exactly.

>>> import satnono
>>> p = satnono.Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> len(list(satnono.solve(p)))
2
>>> satnono.count(p).count, satnono.uniqueness(p).verdict, satnono.rate(p).level
(2, 'multiple', 'search')
"""

from .analyze.count import count
from .errors import InvalidPuzzle, ParseError, SatnonoError, SearchTimeout
from .io.formats import load, read_file
from .model.puzzle import Puzzle, Solution, clues_of, is_solution, puzzle_from_picture, validate
from .pipeline import solve

__all__ = ["InvalidPuzzle", "ParseError", "Puzzle", "SatnonoError", "SearchTimeout", "Solution",
           "clues_of", "count", "is_solution", "load", "puzzle_from_picture", "rate",
           "read_file", "solve", "uniqueness", "validate"]


def __getattr__(name: str):
    # the puzzle maker's calls pull in pysat; importing satnono (and so ``satnono --help``)
    # should not, so they load on first use
    if name == "uniqueness":
        from .analyze.uniqueness import uniqueness

        return uniqueness
    if name == "rate":
        from .analyze.difficulty import rate

        return rate
    raise AttributeError(f"module 'satnono' has no attribute {name!r}")
