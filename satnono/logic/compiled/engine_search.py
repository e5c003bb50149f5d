"""The black-and-white search on the engine compiled ahead of time (:mod:`satnono.engine`,
Cython): the same search as :class:`~satnono.logic.compiled.Search` on the Numba kernel, node
for node and line solve for line solve, behind the same interface, with nothing to compile
or load at run time (a fresh process imports it in milliseconds).

>>> from satnono.model.puzzle import Puzzle
>>> s = EngineSearch(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> [sol.strings() for sol in s.solutions(limit=None)], s.done
([['#.', '.#'], ['.#', '#.']], True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from ..board import Board
from ..context import Stats
from .shared import stream

if TYPE_CHECKING:
    from . import Counted

#: the engine's values of a cell, and what its search returns
EMPTY, FILLED, OPEN = 1, 2, 3
FOUND, DONE, SLICE_ENDED = 1, 2, 3


def built() -> bool:
    """Whether the engine's search was built at install (a C compiler was there)."""
    from ...engine import part

    return part("search") is not None and part("colour") is not None


class EngineSearch:
    """One puzzle's search on the engine: the root is the given board (or an open one),
    propagated and probed to a fixpoint when the search starts."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        from ...engine.search import Engine
        from . import LEVELS, MEMORY

        self.height, self.width = puzzle.height, puzzle.width
        lines = [tuple(b.length for b in clue) for clue in puzzle.rows + puzzle.columns]
        counts = [len(c) for c in lines]
        starts = [0] * len(lines)
        for i in range(1, len(lines)):
            starts[i] = starts[i - 1] + counts[i - 1]
        clues = [x for c in lines for x in c] or [0]
        self._puzzle_arrays = (clues, starts, counts)
        cells = self.height * self.width
        self.engine = Engine(self.height, self.width, clues, starts, counts,
                             min(cells + 1, LEVELS), MEMORY)
        if board is not None:
            self.engine.set_root(grid_of(board))
        self.done = False
        self.given = 0
        self.pending: Solution | None = None
        self.seen: set[bytes] = set()

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.engine.lines)

    @property
    def cost(self) -> int:
        """Work so far, in cells of the lines solved (times one more than their machine
        words past 63 cells): the unit of slices and budgets."""
        return int(self.engine.cost)

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, up to ``limit`` in all, as :meth:`.Search.solutions`."""
        from . import RESTARTS, SLICE

        self.engine.restart = RESTARTS if limit is not None and limit <= 2 else 0
        return stream(self, limit, budget, deadline, SLICE)

    def levels(self) -> int:
        """How many levels the stack has room for now."""
        return int(self.engine.levels)

    def lines_only(self) -> None:
        """Line logic at the root, before any probing; a contradiction ends the search."""
        e = self.engine
        if e.level != 0 or e.phase != 1 or e.root:
            return
        if not e.settle_lines():
            e.root = 2
            self.done = True

    def root_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Propagate and probe the root, in slices with the clock looked at between them."""
        from . import SLICE

        while not self.engine.root and not self.done and self.pending is None:
            deadline.check()
            self._step(self.cost + SLICE)

    def _step(self, end: int) -> None:
        e = self.engine
        status = e.search(end)
        if status == FOUND:
            key = e.solution_grid
            if key not in self.seen:  # a run after a restart may meet it again
                self.seen.add(key)
                self.pending = solution_of(key, self.width)
            if e.level < 0:
                self.done = True
        elif status == DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.engine.root == 2:
            return None
        return board_of(self.engine.root_grid, self.width, self.height)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        return self.cells_open_in(self.engine.root_grid)

    @staticmethod
    def cells_open_in(grid: bytes) -> int:
        return len(grid) - grid.count(OPEN)

    def count_into(self, stats: Stats) -> None:
        e = self.engine
        stats.line_solves += int(e.lines)
        stats.nodes += int(e.nodes)
        stats.max_depth = max(stats.max_depth, int(e.depth))

    def implications(self, board: Board, limit: int | None = None) -> Any:
        """What probing ``board``'s open cells implies, as :meth:`.Search.implications`."""
        import numpy as np

        from ...engine.search import Engine
        from . import IMPLICATIONS

        fresh = Engine(self.height, self.width, *self._puzzle_arrays, 1, 0)
        pairs = fresh.implications(grid_of(board), IMPLICATIONS if limit is None else limit)
        return np.frombuffer(pairs, np.int64).reshape(-1, 2)


#: a grid's bytes as text digits: a cell filled in some solution ("may be filled": 2, 3)
_FILLABLE = bytes.maketrans(b"\x00\x01\x02\x03", b"0011")
_EMPTIABLE = bytes.maketrans(b"\x00\x01\x02\x03", b"0101")
_FILLED = bytes.maketrans(b"\x00\x01\x02\x03", b"0010")


def grid_of(board: Board) -> bytes:
    """The engine's grid of ``board``: a byte a cell, row by row, 1 "may be empty" + 2
    "may be filled"."""
    from ...model.grid import ROW

    may = board.may[ROW]
    w = board.width
    out = bytearray()
    for r in range(board.height):
        e = format(may[0][r], f"0{w}b")[::-1] if w else ""
        f = format(may[1][r], f"0{w}b")[::-1] if w else ""
        out += bytes(int(a) + 2 * int(b) for a, b in zip(e, f))
    return bytes(out)


def _rows(grid: bytes, width: int, table: bytes) -> list[int]:
    """Each row of ``grid`` as a mask of the cells ``table`` marks '1'."""
    text = grid.translate(table)
    return [int(text[i:i + width][::-1], 2) for i in range(0, len(text), width)]


def solution_of(grid: bytes, width: int) -> Solution:
    """The solution a solved grid is."""
    return Solution(width, tuple(_rows(grid, width, _FILLED)))


def board_of(grid: bytes, width: int, height: int) -> Board | None:
    """The board of a grid (None where a cell can be neither: a contradiction)."""
    from ...model.grid import ROW
    from ...model.solution import transpose

    if 0 in grid:
        return None
    b = Board(width, height)
    for value, table in ((0, _EMPTIABLE), (1, _FILLABLE)):
        rows = _rows(grid, width, table)
        b.may[ROW][value][:] = rows
        b.may[ROW.other][value][:] = transpose(rows, width)
    return b


def engine_count(puzzle: Puzzle, board: Board | None, cache: int, probe_parts: int
                 ) -> Counted:
    """The number of solutions of a black-and-white ``puzzle`` from ``board`` by the
    engine's counter (:mod:`satnono.engine.counter`), as :func:`.count_solutions` gives it."""
    from ...engine.counter import count
    from ...engine.search import Engine
    from . import Counted as Counted_

    s = EngineSearch(puzzle, board)
    fresh = Engine(s.height, s.width, *s._puzzle_arrays, 1, 0)
    if board is not None:
        fresh.set_root(grid_of(board))
    n, hits = count(fresh, cache, probe_parts)
    return Counted_(int(n) if n >= 0 else None, int(fresh.nodes), int(hits))


class EngineColourSearch:
    """One colour puzzle's search on the engine (:mod:`satnono.engine.colour`): the same
    search as :class:`.colour.ColourSearch` on the Numba kernel, behind its interface."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        from ...engine.colour import ColourEngine
        from .colour import LEVELS

        palette = puzzle.palette
        self.colours = len(palette.colours) - 1
        self.height, self.width = puzzle.height, puzzle.width
        blocks = [[(b.length, palette.index(b.colour)) for b in clue]
                  for clue in puzzle.rows + puzzle.columns]
        counts = [len(c) for c in blocks]
        starts = [0] * len(blocks)
        for i in range(1, len(blocks)):
            starts[i] = starts[i - 1] + counts[i - 1]
        flat = [b for c in blocks for b in c] or [(0, 1)]
        cells = self.height * self.width
        self.engine = ColourEngine(self.height, self.width, self.colours,
                                   [b[0] for b in flat], [b[1] for b in flat], starts, counts,
                                   min(cells + 1, LEVELS))
        if board is not None:
            self.engine.set_root(colour_grid_of(board))
        self.done = False
        self.given = 0
        self.pending: Solution | None = None

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.engine.lines)

    @property
    def cost(self) -> int:
        """Work so far, in cells of the lines solved times one more than their blocks."""
        return int(self.engine.cost)

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, as :meth:`.colour.ColourSearch.solutions`."""
        from .colour import SLICE

        return stream(self, limit, budget, deadline, SLICE)

    def _step(self, end: int) -> None:
        status = self.engine.search(end)
        if status == FOUND:
            self.pending = colour_solution_of(self.engine.solution_grid, self.width,
                                              self.colours)
        elif status == DONE:
            self.done = True

    def levels(self) -> int:
        """How many levels the stack has room for now."""
        return int(self.engine.levels)

    def lines_only(self) -> None:
        """Line logic at the root, before any probing; a contradiction ends the search."""
        e = self.engine
        if e.level != 0 or e.phase != 1 or e.root:
            return
        if not e.settle_lines():
            e.root = 2
            self.done = True

    def root_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Propagate and probe the root, in slices with the clock looked at between them."""
        from .colour import SLICE

        while not self.engine.root and not self.done and self.pending is None:
            deadline.check()
            self._step(self.cost + SLICE)

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.engine.root == 2:
            return None
        return colour_board_of(self.engine.root_grid, self.width, self.height, self.colours)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        return sum(1 for m in self.engine.root_grid if m & (m - 1) == 0)

    def count_into(self, stats: Stats) -> None:
        e = self.engine
        stats.line_solves += int(e.lines)
        stats.nodes += int(e.nodes)
        stats.max_depth = max(stats.max_depth, int(e.depth))


def colour_grid_of(board: Board) -> list[int]:
    """The engine's colour grid of ``board``: a cell's colours as bits, row by row."""
    from ...model.grid import ROW

    w = board.width
    g = [0] * (board.height * w)
    for colour, layer in enumerate(board.may[ROW]):
        bit = 1 << colour
        for r, mask in enumerate(layer):
            while mask:
                low = mask & -mask
                g[r * w + low.bit_length() - 1] |= bit
                mask ^= low
    return g


def colour_board_of(grid: list[int], width: int, height: int, colours: int) -> Board | None:
    """The board of a colour grid (None where a cell can take no colour)."""
    from ...model.grid import ROW
    from ...model.solution import transpose

    if 0 in grid:
        return None
    b = Board(width, height, colours)
    for colour in range(colours + 1):
        rows = _layer(grid, width, 1 << colour)
        b.may[ROW][colour][:] = rows
        b.may[ROW.other][colour][:] = transpose(rows, width)
    return b


def _layer(grid: list[int], width: int, bit: int) -> list[int]:
    """Each row's mask of the cells whose colours include ``bit``."""
    out = []
    for start in range(0, len(grid), width):
        mask = 0
        for c, m in enumerate(grid[start:start + width]):
            if m & bit:
                mask |= 1 << c
        out.append(mask)
    return out


def colour_solution_of(grid: list[int], width: int, colours: int) -> Solution:
    """The solution a solved colour grid is: a layer per block colour."""
    layers = []
    for colour in range(1, colours + 1):
        bit = 1 << colour
        layers.append(tuple(sum(1 << c for c, m in enumerate(grid[s:s + width]) if m == bit)
                            for s in range(0, len(grid), width)))
    return Solution(width, layers[0], tuple(layers[1:]))
