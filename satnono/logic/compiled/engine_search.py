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
from typing import Any

from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from ..board import Board
from ..context import Stats
from .shared import stream

#: the engine's values of a cell, and what its search returns
EMPTY, FILLED, OPEN = 1, 2, 3
FOUND, DONE, SLICE_ENDED = 1, 2, 3


def built() -> bool:
    """Whether the engine's search was built at install (a C compiler was there)."""
    from ...engine import part

    return part("search") is not None


class EngineSearch:
    """One puzzle's search on the engine: the root is the given board (or an open one),
    propagated and probed to a fixpoint when the search starts."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        import numpy as np

        from ...engine.search import Engine
        from . import LEVELS, MEMORY, _grid

        self.height, self.width = puzzle.height, puzzle.width
        lines = [tuple(b.length for b in clue) for clue in puzzle.rows + puzzle.columns]
        counts = np.array([len(c) for c in lines], np.int64)
        starts = np.zeros(len(lines), np.int64)
        starts[1:] = np.cumsum(counts)[:-1]
        clues = np.array([x for c in lines for x in c] or [0], np.int64)
        self._puzzle_arrays = (clues, starts, counts)
        cells = self.height * self.width
        self.engine = Engine(self.height, self.width, clues, starts, counts,
                             min(cells + 1, LEVELS), MEMORY)
        if board is not None:
            self.engine.stack[0] = _grid(board)
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
        return int(self.engine.stack.shape[0])

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
            key = e.solution.tobytes()
            if key not in self.seen:  # a run after a restart may meet it again
                self.seen.add(key)
                from . import _solution

                self.pending = _solution(e.solution, self.width, self.height)
            if e.level < 0:
                self.done = True
        elif status == DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        from . import _board

        if self.engine.root == 2:
            return None
        return _board(self.engine.stack[0], self.width, self.height)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        g = self.engine.stack[0]
        return int(((g == EMPTY) | (g == FILLED)).sum())

    def count_into(self, stats: Stats) -> None:
        e = self.engine
        stats.line_solves += int(e.lines)
        stats.nodes += int(e.nodes)
        stats.max_depth = max(stats.max_depth, int(e.depth))

    def implications(self, board: Board, limit: int | None = None) -> Any:
        """What probing ``board``'s open cells implies, as :meth:`.Search.implications`."""
        import numpy as np

        from ...engine.search import Engine
        from . import IMPLICATIONS, _grid

        out = np.empty((IMPLICATIONS if limit is None else limit, 2), np.int64)
        fresh = Engine(self.height, self.width, *self._puzzle_arrays, 1, 0)
        n = fresh.implications(_grid(board), out)
        return out[:n]
