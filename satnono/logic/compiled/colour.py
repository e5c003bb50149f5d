"""The compiled colour logic (:mod:`.colour_kernel`) for a puzzle: what :class:`.Search` is
for black and white — a board in and out, the root's line logic and probing, and the search
as a stream of solutions that stops at a budget of work — for puzzles in colour.

>>> from satnono.model.puzzle import Colour, Palette, Puzzle
>>> palette = Palette((Colour("white", ".", "ffffff"), Colour("black", "#", "000000"),
...                    Colour("red", "r", "e01010")))
>>> p = Puzzle(rows=[[(1, "black"), (1, "red")]], columns=[[(1, "black")], [(1, "red")]],
...            palette=palette)
>>> s = ColourSearch(p)
>>> [sol.strings(chars=palette.chars) for sol in s.solutions(limit=None)], s.done
([['#r']], True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.grid import ROW
from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from ..board import Board
from ..context import Stats
from .shared import count_work, masks, stream

#: block colours the compiled colour logic takes (a cell's colours are one machine word)
MAX_COLOURS = 62
#: work between two looks at the clock, in cells of the lines solved times one more than
#: their blocks (the unit the colour budget was chosen in): a few milliseconds
SLICE = 250_000
#: levels the search stack starts with; it doubles when the search goes deeper
LEVELS = 64


def fits(puzzle: Puzzle) -> bool:
    """Whether the compiled colour logic takes ``puzzle``: colour, up to :data:`MAX_COLOURS`
    block colours."""
    return 2 < len(puzzle.palette.colours) <= MAX_COLOURS + 1


class ColourSearch:
    """One colour puzzle's compiled search: the root is the given board (or an open one),
    propagated and probed to a fixpoint when the search starts."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        import numpy as np

        from . import colour_kernel

        self.kernel = colour_kernel
        palette = puzzle.palette
        self.colours = len(palette.colours) - 1
        self.height, self.width = puzzle.height, puzzle.width
        blocks = [[(b.length, palette.index(b.colour)) for b in clue]
                  for clue in puzzle.rows + puzzle.columns]
        self.counts = np.array([len(c) for c in blocks], np.int64)
        self.starts = np.zeros(len(blocks), np.int64)
        self.starts[1:] = np.cumsum(self.counts)[:-1]
        flat = [b for c in blocks for b in c] or [(0, 1)]
        self.sizes = np.array([b[0] for b in flat], np.int64)
        self.cols = np.array([b[1] for b in flat], np.int64)
        cells = self.height * self.width
        self.work = np.zeros(5, np.int64)
        self.score = np.zeros(cells, np.float64)
        self.solution = np.zeros(cells, np.int64)
        levels = min(cells + 1, LEVELS)
        self.stack = np.full((levels, cells), (1 << (self.colours + 1)) - 1, np.int64)
        self.branch = np.zeros(levels, np.int64)
        self.tried = np.zeros(levels, np.int64)
        self.state = np.zeros(5, np.int64)
        self.state[colour_kernel.PHASE] = colour_kernel.NEW
        self.tmp = colour_kernel.scratch(self.height, self.width, self.counts, self.colours)
        self.memo = colour_kernel.memory(self.height, self.width)
        if board is not None:
            self.stack[0] = _grid(board)
        self.done = False
        self.given = 0
        self.pending: Solution | None = None

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.work[self.kernel.LINES])

    @property
    def cost(self) -> int:
        """Work so far, in cells of the lines solved times one more than their blocks."""
        return int(self.work[self.kernel.COST])

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, up to ``limit`` in all; stops early (``done`` False) when
        ``budget`` work (:attr:`cost`) has been spent. The clock is looked at between
        slices."""
        return stream(self, limit, budget, deadline, SLICE)

    def _step(self, end: int) -> None:
        import numpy as np

        k = self.kernel
        while True:
            status = k.search(self.stack, self.branch, self.tried, self.state, self.height,
                              self.width, self.sizes, self.cols, self.starts, self.counts,
                              self.colours, self.work, self.tmp, self.score, self.solution,
                              end, self.memo)
            if status != k.GROW:
                break
            self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])
            self.branch = np.concatenate([self.branch, np.zeros_like(self.branch)])
            self.tried = np.concatenate([self.tried, np.zeros_like(self.tried)])
        if status == k.FOUND:
            self.pending = _solution(self.solution, self.width, self.height, self.colours)
        elif status == k.DONE:
            self.done = True

    def levels(self) -> int:
        """How many levels the stack has room for now."""
        return len(self.stack)

    def lines_only(self) -> None:
        """Line logic at the root, before any probing; a contradiction ends the search."""
        k = self.kernel
        if self.state[k.LEVEL] != 0 or self.state[k.PHASE] != k.NEW or self.work[k.ROOT]:
            return
        if not k.settle_lines(self.stack[0], self.height, self.width, self.sizes, self.cols,
                              self.starts, self.counts, self.colours, self.work, self.tmp):
            self.work[k.ROOT] = 2
            self.done = True

    def root_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Propagate and probe the root, in slices with the clock looked at between them
        (a root that is a solution is kept for :meth:`solutions`)."""
        while not self.work[self.kernel.ROOT] and not self.done and self.pending is None:
            deadline.check()
            self._step(self.cost + SLICE)

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.work[self.kernel.ROOT] == 2:
            return None
        return _board(self.stack[0], self.width, self.height, self.colours)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.work[self.kernel.ROOT] == 2:
            return 0
        g = self.stack[0]
        return int(((g & (g - 1)) == 0).sum())

    def count_into(self, stats: Stats) -> None:
        count_work(self.work, stats)


def _grid(board: Board) -> Any:
    import numpy as np

    g = np.zeros(board.height * board.width, np.int64)
    w = board.width
    for colour, layer in enumerate(board.may[ROW]):
        for r, mask in enumerate(layer):
            while mask:
                low = mask & -mask
                g[r * w + low.bit_length() - 1] |= 1 << colour
                mask ^= low
    return g


def _board(g: Any, width: int, height: int, colours: int) -> Board | None:
    import numpy as np

    if not g.all():
        return None
    b = Board(width, height, colours)
    grid = g.reshape(height, width)
    for colour in range(colours + 1):
        layer = (grid >> colour) & 1 != 0
        b.may[ROW][colour][:] = masks(layer)
        b.may[ROW.other][colour][:] = masks(np.ascontiguousarray(layer.T))
    return b


def _solution(g: Any, width: int, height: int, colours: int) -> Solution:
    grid = g.reshape(height, width)
    layers = [tuple(masks(grid == 1 << colour)) for colour in range(1, colours + 1)]
    return Solution(width, layers[0], tuple(layers[1:]))
