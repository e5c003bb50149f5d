"""The line solver as the theory of the conflict-driven search: cells are its variables.

Plain depth-first search re-discovers the same dead end under every branch: a puzzle such
as 9-Dom needs millions of nodes. The :mod:`.cdcl` search learns a clause from each dead
end instead, and this theory is what derives everything else, with the complete line
solver alone:

* a cell the line solver fixes is explained, lazily and only when a conflict needs it, by
  a minimal subset of the line's cells that were known when it was fixed (cells are
  dropped one at a time while the line solver still derives the same cell);
* a line that contradicts is explained by a minimal contradicting subset the same way.

Variable ``r * width + c`` is cell (r, c), value 1 filled: the black-and-white theory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from ...logic.board import Board
from ...logic.context import Context
from ...logic.events import Branch, Contradiction, LineSolved
from ...logic.line import remember
from ...logic.propagate import CLOCK_EVERY
from ...model.grid import COLUMN, ROW
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from .cdcl import BUSY, CDCL, IDLE

if TYPE_CHECKING:
    Feasible = Callable[[tuple[int, ...], int, tuple[int, int]], bool]


def _masks(known: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(filled, empty) bit masks of (index, value) pairs."""
    f = e = 0
    for i, v in known:
        if v:
            f |= 1 << i
        else:
            e |= 1 << i
    return f, e


def explain(feasible: Feasible, clue: tuple[int, ...], n: int,
            known: Sequence[tuple[int, int]], target: tuple[int, int] | None
            ) -> tuple[int, int]:
    """A subset of the known cells of a line that still forces ``target`` (cell index,
    value) — or, when None, still contradicts — as (filled, empty) masks.

    A cell is forced exactly when the line with the opposite value there has no
    placement, so both questions are feasibility checks (half a line solve; ``feasible``
    takes the line as its may-masks, the cells that may be empty and may be filled: the
    puzzle's :class:`~satnono.logic.line.LineLogic`). ``known`` lists (index, value)
    in the order cells should be tried for dropping; each is dropped when the rest still
    forces the target. As forcing only grows with knowledge, no single cell of the result
    can be dropped afterwards (a minimal explanation, not a minimum one).

    >>> from satnono.logic.line import LineCache
    >>> # cell 0 filled forces cell 1
    >>> explain(LineCache().feasible_layers, (2,), 4, [(3, 0), (0, 1)], (1, 1))
    (1, 0)
    """
    full = (1 << n) - 1
    f, e = _masks(known)
    # the negated target is kept throughout and taken out of the answer at the end
    tf = te = 0
    if target is not None:
        ti, tv = target
        if tv:
            te = 1 << ti
        else:
            tf = 1 << ti
    for i, v in known:
        bit = 1 << i
        if v:
            if not feasible(clue, n, (full & ~((f & ~bit) | tf), full & ~(e | te))):
                f &= ~bit
        elif not feasible(clue, n, (full & ~(f | tf), full & ~((e & ~bit) | te))):
            e &= ~bit
    return f, e


class LineTheory:
    """The board, the lines waiting to be solved, and the explanations of what they fixed.

    Lines are numbered here, rows first, only so that reasons fit in the search's ints.
    """

    def __init__(self, ctx: Context, board: Board, deadline: Deadline = NO_DEADLINE):
        puzzle = ctx.puzzle
        self.ctx = ctx
        self.board = board
        self.deadline = deadline
        self.clock = CLOCK_EVERY if deadline.limited else -1  # the step count to look at it
        self.h, self.w = h, w = puzzle.height, puzzle.width
        self.lines = [*ctx.lines[ROW], *ctx.lines[COLUMN]]
        self.clues = [ctx.clues[line.axis][line.index] for line in self.lines]
        #: the variables of each line, in line order
        self.line_vars = ([[r * w + c for c in range(w)] for r in range(h)]
                          + [[r * w + c for r in range(h)] for c in range(w)])
        self.before = [0] * (h * w)  # trail length when the line that fixed a var was solved
        self.dirty: list[int] = []
        self.queued = bytearray(h + w)
        self.explained: dict[tuple[object, ...], tuple[int, int]] = {}
        self.search: CDCL[Solution] | None = None

    # -- what the search tells ---------------------------------------------------------

    def assigned(self, var: int, value: int) -> None:
        r, c = divmod(var, self.w)
        rows, cols = self.board.may
        layer = 0 if value else 1  # the value the cell can no longer take
        rows[layer][r] &= ~(1 << c)
        cols[layer][c] &= ~(1 << r)
        queued = self.queued
        if not queued[r]:
            queued[r] = 1
            self.dirty.append(r)
        k = self.h + c
        if not queued[k]:
            queued[k] = 1
            self.dirty.append(k)

    def unassigned(self, var: int) -> None:
        r, c = divmod(var, self.w)
        rows, cols = self.board.may
        rb, cb = 1 << c, 1 << r
        rows[0][r] |= rb
        rows[1][r] |= rb
        cols[0][c] |= cb
        cols[1][c] |= cb

    def forget_queue(self) -> None:
        for k in self.dirty:
            self.queued[k] = 0
        self.dirty.clear()

    def queue_all(self) -> None:
        self.dirty = list(range(self.h + self.w))
        self.queued = bytearray(b"\x01") * (self.h + self.w)

    # -- propagation ------------------------------------------------------------------

    def step(self, search: CDCL[Solution]) -> int:
        if not self.dirty:
            return IDLE
        k = self.dirty.pop()
        self.queued[k] = 0
        axis, i = line = self.lines[k]
        may = self.board.may[axis]
        e, f = may[0][i], may[1][i]
        ctx = self.ctx
        ctx.stats.line_solves += 1
        if ctx.stats.line_solves >= self.clock >= 0:
            self.clock = ctx.stats.line_solves + CLOCK_EVERY
            self.deadline.check()
        res = ctx.logic.narrow(self.clues[k], self.w if axis is ROW else self.h, (e, f))
        if res is None:
            if ctx.observer is not None:
                ctx.observer(Contradiction(line), self.board)
            return k
        filled, emptied = e & ~res[0], f & ~res[1]
        if filled or emptied:
            before = len(search.trail)
            variables = self.line_vars[k]
            for x, value in ((filled, 1), (emptied, 0)):
                while x:
                    low = x & -x
                    x ^= low
                    var = variables[low.bit_length() - 1]
                    self.before[var] = before
                    search.imply(var, value, k)
            if ctx.observer is not None:
                ctx.observer(LineSolved(line, filled.bit_count(), emptied.bit_count()),
                             self.board)
        return BUSY

    # -- explanations -----------------------------------------------------------------

    def reason(self, var: int, token: int) -> list[int]:
        return self._line_reason(token, self.before[var], var)

    def conflict_reason(self, token: int) -> list[int]:
        assert self.search is not None
        return self._line_reason(token, len(self.search.trail), None)

    def _line_reason(self, k: int, before: int, target: int | None) -> list[int]:
        """The variables of line ``k`` known before trail position ``before`` that still
        force ``target`` (a variable of the line; None: that still contradict), made
        minimal by dropping cells while the line still forces it."""
        assert self.search is not None
        variables = self.line_vars[k]
        val, pos = self.search.val, self.search.pos
        known = [(i, val[v]) for i, v in enumerate(variables)
                 if v != target and val[v] >= 0 and pos[v] < before]
        f, e = _masks(known)
        clue, n = self.clues[k], len(variables)
        if target is None:
            ti, tv = -1, 0
        else:
            ti, tv = variables.index(target), val[target]
        key = (clue, n, f, e, ti, tv)
        hit = self.explained.get(key)
        if hit is None:
            # drop the most recently fixed cells first: the explanation then leans on
            # earlier levels, so the learnt clause jumps back further
            known.sort(key=lambda iv: -pos[variables[iv[0]]])
            hit = explain(self.ctx.logic.feasible, clue, n, known,
                          None if ti < 0 else (ti, tv))
            remember(self.explained, key, hit, self.ctx.cache.max_entries)
        f, e = hit
        x = f | e
        out = []
        while x:
            low = x & -x
            x ^= low
            out.append(variables[low.bit_length() - 1])
        return out

    # -- results ----------------------------------------------------------------------

    def solution(self) -> Solution:
        return self.board.to_solution()

    def branch(self, var: int, value: int, depth: int) -> Branch:
        """A variable is a cell, its value the cell's: filled or empty."""
        return Branch(divmod(var, self.w), value, depth)


def search_learning(ctx: Context, board: Board | None = None, *,
                    deadline: Deadline) -> Iterator[Solution]:
    """Every solution below ``board`` (the empty board when None), each once, lazily."""
    puzzle = ctx.puzzle
    start = board.copy() if board is not None else ctx.board()
    theory = LineTheory(ctx, start, deadline)
    observer = ctx.observer
    trace = None if observer is None else (lambda event: observer(event, start))
    search: CDCL[Solution] = CDCL(puzzle.width * puzzle.height, theory, ctx.stats, trace)
    theory.search = search
    w = puzzle.width
    for r in range(puzzle.height):
        for c in range(w):
            v = start.get(r, c)
            if v is not None:
                search.imply(r * w + c, v, None)
    # every line is solved once first: the root board may come unpropagated
    theory.queue_all()
    yield from search.run(deadline)
