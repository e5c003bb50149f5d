"""The partial grid: which colours each cell may still take, kept for rows and columns alike.

``may[axis][colour][i]`` is a bit mask over the cells of line ``(axis, i)``: bit p is set
when that cell may still take ``colour`` (0 is the background). Rows and columns describe
the same cells, so every change is made in both views; a cell is known when one colour is
left. For black and white there are two colours: a cell that may no longer be background is
filled, one that may no longer be black is empty.

Solving only ever narrows a board (the search that undoes assignments widens a cell back
to every colour with :meth:`Board.unset`), and copying it is a few list copies, which is
what makes search and probing cheap.
"""

from __future__ import annotations

from operator import and_

from ..model.grid import ROW, Cell, Line
from ..model.solution import Solution


class Board:
    """A partial grid of ``width`` × ``height`` cells over ``colours`` block colours.

    >>> from satnono.model.grid import COLUMN
    >>> b = Board(3, 2)
    >>> b.set(0, 1, 1); b.set(1, 2, 0)
    >>> b.strings(), b.known(), b.line(Line(COLUMN, 1))
    (['?#?', '??.'], 2, (2, 3))
    """

    __slots__ = ("width", "height", "colours", "may")

    def __init__(self, width: int, height: int, colours: int = 1):
        self.width = width
        self.height = height
        self.colours = colours
        row_full, col_full = (1 << width) - 1, (1 << height) - 1
        self.may: tuple[list[list[int]], list[list[int]]] = (
            [[row_full] * height for _ in range(colours + 1)],
            [[col_full] * width for _ in range(colours + 1)])

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.width = self.width
        b.height = self.height
        b.colours = self.colours
        b.may = ([m[:] for m in self.may[0]], [m[:] for m in self.may[1]])
        return b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.may == other.may

    __hash__ = None  # type: ignore[assignment]  # a board changes

    # -- one line ----------------------------------------------------------------------

    def line(self, line: Line) -> tuple[int, ...]:
        """Per colour, the cells of ``line`` that may still take it."""
        i = line.index
        return tuple(layer[i] for layer in self.may[line.axis])

    def length(self, line: Line) -> int:
        return self.width if line.axis is ROW else self.height

    def fix(self, line: Line, masks: tuple[int, ...] | list[int]) -> int:
        """Narrow ``line`` to ``masks`` (per colour, the cells that may take it; what is
        already ruled out stays out) and the crossing lines with it. Returns the cells of
        the line that changed, as a mask over its positions."""
        axis, i = line
        own, cross = self.may[axis], self.may[axis.other]
        bit = 1 << i
        changed = 0
        for colour, new in enumerate(masks):
            old = own[colour][i]
            removed = old & ~new
            if removed:
                own[colour][i] = old & new
                changed |= removed
                layer = cross[colour]
                while removed:
                    low = removed & -removed
                    layer[low.bit_length() - 1] &= ~bit
                    removed ^= low
        return changed

    # -- one cell ----------------------------------------------------------------------

    def get(self, r: int, c: int) -> int | None:
        """The colour of cell (r, c) when known (for black and white: 1 filled, 0 empty),
        None while it may still take more than one."""
        found = None
        for colour, layer in enumerate(self.may[ROW]):
            if layer[r] >> c & 1:
                if found is not None:
                    return None
                found = colour
        return found

    def set(self, r: int, c: int, colour: int) -> None:
        """Cell (r, c) takes ``colour``: every other colour is ruled out, in both views."""
        rows, cols = self.may
        rm, cm = ~(1 << c), ~(1 << r)
        for k in range(self.colours + 1):
            if k != colour:
                rows[k][r] &= rm
                cols[k][c] &= cm

    def unset(self, r: int, c: int) -> None:
        """Cell (r, c) may take every colour again (for a search that undoes assignments
        instead of copying the board)."""
        rows, cols = self.may
        rb, cb = 1 << c, 1 << r
        for k in range(self.colours + 1):
            rows[k][r] |= rb
            cols[k][c] |= cb

    # -- the whole board ---------------------------------------------------------------

    def _open_rows(self) -> list[int]:
        """Per row, the cells that may still take more than one colour."""
        layers = self.may[ROW]
        if self.colours == 1:  # map over C functions: probing asks this for every probe
            return list(map(and_, layers[0], layers[1]))
        out = []
        for r in range(self.height):
            seen = multi = 0
            for layer in layers:
                multi |= seen & layer[r]
                seen |= layer[r]
            out.append(multi)
        return out

    def unknown(self) -> int:
        return sum(map(int.bit_count, self._open_rows()))

    def known(self) -> int:
        return self.width * self.height - self.unknown()

    def solved(self) -> bool:
        return not any(self._open_rows())

    def unknown_cells(self) -> list[Cell]:
        """The cells still open, row by row."""
        out = []
        for r, u in enumerate(self._open_rows()):
            while u:
                low = u & -u
                out.append((r, low.bit_length() - 1))
                u ^= low
        return out

    def filled_rows(self) -> list[int]:
        """Black and white: per row, the cells known to be filled."""
        full = (1 << self.width) - 1
        return [full & ~m for m in self.may[ROW][0]]

    def to_solution(self) -> Solution:
        """The grid of a solved board."""
        rows = self.may[ROW]
        if self.colours == 1:
            return Solution(self.width, tuple(rows[1]))
        return Solution(self.width, tuple(rows[1]), tuple(tuple(layer) for layer in rows[2:]))

    @classmethod
    def from_solution(cls, sol: Solution) -> Board:
        """The fully known board of a grid."""
        b = cls(sol.width, sol.height, 1 + len(sol.layers))
        for r in range(sol.height):
            for c in range(sol.width):
                b.set(r, c, sol.colour(r, c))
        return b

    def strings(self, chars: str = ".#", unknown: str = "?") -> list[str]:
        """Each row as text: a known cell as its colour's character, an open one as
        ``unknown``."""
        out = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                v = self.get(r, c)
                row.append(unknown if v is None else chars[v])
            out.append("".join(row))
        return out
