"""satnono: black-and-white nonograms solved, enumerated and counted exactly.

>>> import satnono
>>> p = satnono.Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> len(list(satnono.solve(p)))
2
"""

from .errors import InvalidPuzzle, ParseError, SatnonoError, SearchTimeout
from .formats import load, read_file
from .puzzle import Puzzle, Solution, clues_of, is_solution, puzzle_from_picture, validate
from .solver import solve

__all__ = ["InvalidPuzzle", "ParseError", "Puzzle", "SatnonoError", "SearchTimeout", "Solution",
           "clues_of", "is_solution", "load", "puzzle_from_picture", "read_file", "solve",
           "validate"]
