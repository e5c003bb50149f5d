"""The model every stage shares: puzzles (clues of coloured blocks, a palette), solved
grids, the lines of a grid, and the words results are given in."""

from .grid import COLUMN, ROW, Axis, Cell, Line
from .puzzle import (
    BLACK_AND_WHITE,
    Block,
    Clue,
    Colour,
    Palette,
    Problem,
    Puzzle,
    clues_of,
    is_solution,
    problems,
    puzzle_from_colours,
    puzzle_from_picture,
    validate,
)
from .solution import Solution, canonical_order, line_clue
from .verdict import CountMethod, Ending, Level, Verdict

__all__ = ["BLACK_AND_WHITE", "COLUMN", "ROW", "Axis", "Block", "Cell", "Clue", "Colour",
           "CountMethod", "Ending", "Level", "Line", "Palette", "Problem", "Puzzle",
           "Solution", "Verdict", "canonical_order", "clues_of", "is_solution", "line_clue",
           "problems", "puzzle_from_colours", "puzzle_from_picture",
           "validate"]
