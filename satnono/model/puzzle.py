"""The puzzle model: clues in, validated; solutions out, verified against the clues."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import InvalidPuzzle

Clue = tuple[int, ...]

#: Sizes beyond this are refused: they are typos or hostile files, not puzzles.
MAX_SIDE = 10_000


@dataclass(frozen=True)
class Puzzle:
    """Row clues (top to bottom) and column clues (left to right), plus optional metadata.

    ``goal`` is the author's picture when a file carries one (row strings of ``#``/``.``).
    ``row_lines``/``col_lines`` are the file lines the clues came from, so validation errors
    can point at them; they do not take part in equality.
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    source: str | None = None
    goal: tuple[str, ...] | None = field(default=None, compare=False)
    row_lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    col_lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a puzzle; ``line`` is the file line when known."""

    message: str
    line: int | None = None


def clue_text(clue: Sequence[int]) -> str:
    return " ".join(map(str, clue)) if clue else "0"


def problems(puzzle: Puzzle) -> list[Problem]:
    """Everything that makes the clues impossible before any solving (seed 002's checks)."""
    out: list[Problem] = []
    if puzzle.height < 1 or puzzle.width < 1:
        out.append(Problem(f"the puzzle needs at least one row and one column, "
                           f"got {puzzle.height} rows and {puzzle.width} columns"))
        return out
    for kind, clues, length, lines in (
        ("row", puzzle.rows, puzzle.width, puzzle.row_lines),
        ("column", puzzle.columns, puzzle.height, puzzle.col_lines),
    ):
        if length > MAX_SIDE:
            out.append(Problem(f"{length} {kind} cells is more than the {MAX_SIDE} supported"))
            continue
        for i, clue in enumerate(clues):
            line = lines[i] if lines else None
            if any(b < 1 for b in clue):
                out.append(Problem(f"{kind} {i + 1}: clue {clue_text(clue)} has a block "
                                   f"shorter than 1", line))
                continue
            need = sum(clue) + len(clue) - 1 if clue else 0
            if need > length:
                out.append(Problem(f"{kind} {i + 1}: clue {clue_text(clue)} needs {need} cells, "
                                   f"the {kind} has {length}", line))
    rsum = sum(map(sum, puzzle.rows))
    csum = sum(map(sum, puzzle.columns))
    if not out and rsum != csum:
        out.append(Problem(f"the row clues fill {rsum} cells but the column clues fill {csum}"))
    return out


def validate(puzzle: Puzzle) -> Puzzle:
    """Return the puzzle unchanged, or raise :class:`InvalidPuzzle` naming every problem."""
    found = problems(puzzle)
    if found:
        raise InvalidPuzzle("; ".join(p.message for p in found))
    return puzzle


@dataclass(frozen=True)
class Solution:
    """A filled grid: bit ``c`` of ``rows[r]`` is set when cell (r, c) is filled."""

    width: int
    rows: tuple[int, ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    def filled(self, r: int, c: int) -> bool:
        return bool(self.rows[r] >> c & 1)

    def strings(self, fill: str = "#", blank: str = ".") -> list[str]:
        return ["".join(fill if m >> c & 1 else blank for c in range(self.width))
                for m in self.rows]

    @classmethod
    def from_strings(cls, lines: Sequence[str], fill: str = "#*1X") -> Solution:
        width = len(lines[0]) if lines else 0
        return cls(width, tuple(sum(1 << c for c, ch in enumerate(s) if ch in fill)
                                for s in lines))

    def columns(self) -> list[int]:
        """The grid transposed: bit ``r`` of ``columns()[c]`` is cell (r, c)."""
        return [sum(1 << r for r, m in enumerate(self.rows) if m >> c & 1)
                for c in range(self.width)]


def line_clue(mask: int, length: int) -> Clue:
    """The clue of one line given as a bit mask (bit i = cell i)."""
    out = []
    run = 0
    for i in range(length):
        if mask >> i & 1:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return tuple(out)


def clues_of(grid: Iterable[Sequence[bool]] | Solution
             ) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a picture: the maker's step from drawing to puzzle."""
    sol = grid if isinstance(grid, Solution) else _solution_from_cells(grid)
    rows = tuple(line_clue(m, sol.width) for m in sol.rows)
    cols = tuple(line_clue(m, sol.height) for m in sol.columns())
    return rows, cols


def _solution_from_cells(grid: Iterable[Sequence[bool]]) -> Solution:
    cells = [list(r) for r in grid]
    width = len(cells[0]) if cells else 0
    if any(len(r) != width for r in cells):
        raise InvalidPuzzle("picture rows differ in length")
    return Solution(width, tuple(sum(1 << c for c, v in enumerate(r) if v) for r in cells))


def puzzle_from_picture(grid: Iterable[Sequence[bool]] | Solution, title: str | None = None
                        ) -> Puzzle:
    sol = grid if isinstance(grid, Solution) else _solution_from_cells(grid)
    rows, cols = clues_of(sol)
    return Puzzle(rows, cols, title=title, goal=tuple(sol.strings()))


def is_solution(puzzle: Puzzle, sol: Solution) -> bool:
    """Whether the grid has exactly the puzzle's clues: the check every reported answer passes."""
    if sol.width != puzzle.width or sol.height != puzzle.height:
        return False
    if any(m >> sol.width for m in sol.rows):
        return False
    rows, cols = clues_of(sol)
    return rows == puzzle.rows and cols == puzzle.columns
