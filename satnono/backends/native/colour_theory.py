"""The colour line solver as the theory of the conflict-driven search.

The variables are (cell, colour) pairs: ``cell * (colours + 1) + colour`` is "the cell has
that colour", 0 the background. A cell takes exactly one colour, which this theory keeps:
a colour given to a cell rules out the others (explained by that colour), and a cell left
with one colour takes it (explained by the others being ruled out). Everything else comes
from the colour line solver, explained as in :mod:`.line_theory`: by a minimal subset of
what the line knew — each fact a variable, "cell i is colour k" or "cell i is not colour
k" — that still forces the conclusion, found by dropping facts while it does.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...logic.board import Board
from ...logic.context import Context
from ...logic.events import Branch, Contradiction, LineSolved
from ...logic.line import remember
from ...logic.propagate import CLOCK_EVERY
from ...model.grid import COLUMN, ROW
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from .cdcl import BUSY, CDCL, IDLE


class ColourTheory:
    """The board, the lines waiting to be solved, the cell rules waiting to be applied."""

    def __init__(self, ctx: Context, board: Board, deadline: Deadline = NO_DEADLINE):
        puzzle = ctx.puzzle
        self.ctx = ctx
        self.board = board
        self.deadline = deadline
        self.clock = CLOCK_EVERY if deadline.limited else -1
        self.h, self.w = h, w = puzzle.height, puzzle.width
        self.k = k = board.colours + 1  # colours, the background included
        self.lines = [*ctx.lines[ROW], *ctx.lines[COLUMN]]
        self.clues = [ctx.clues[line.axis][line.index] for line in self.lines]
        #: the cells of each line, in line order
        self.line_cells = ([[r * w + c for c in range(w)] for r in range(h)]
                           + [[r * w + c for r in range(h)] for c in range(w)])
        self.cell_token = h + w  # tokens from here on are cells: token - h - w
        self.before = [0] * (h * w * k)
        self.dirty: list[int] = []
        self.queued = bytearray(h + w)
        self.rules: list[tuple[int, int, int]] = []  # (var, value, cell token) to apply
        self.explained: dict[tuple[object, ...], list[tuple[int, int, int]]] = {}
        self.search: CDCL[Solution] | None = None

    # -- what the search tells ---------------------------------------------------------

    def _queue(self, cell: int) -> None:
        r, c = divmod(cell, self.w)
        for lid in (r, self.h + c):
            if not self.queued[lid]:
                self.queued[lid] = 1
                self.dirty.append(lid)

    def assigned(self, var: int, value: int) -> None:
        cell, colour = divmod(var, self.k)
        token = self.cell_token + cell
        if value:  # the cell has this colour: not any other
            for other in range(cell * self.k, cell * self.k + self.k):
                if other != var:
                    self.rules.append((other, 0, token))
            return
        r, c = divmod(cell, self.w)
        rows, cols = self.board.may
        rows[colour][r] &= ~(1 << c)
        cols[colour][c] &= ~(1 << r)
        self._queue(cell)
        left = [k for k in range(self.k) if rows[k][r] >> c & 1]
        if len(left) == 1:  # one colour left: the cell has it
            self.rules.append((cell * self.k + left[0], 1, token))
        elif not left:
            self.rules.append((var, 1, token))  # a clash: no colour left

    def unassigned(self, var: int) -> None:
        assert self.search is not None
        if self.search.val[var] == 0:  # the colour is possible again
            cell, colour = divmod(var, self.k)
            r, c = divmod(cell, self.w)
            rows, cols = self.board.may
            rows[colour][r] |= 1 << c
            cols[colour][c] |= 1 << r

    def forget_queue(self) -> None:
        for lid in self.dirty:
            self.queued[lid] = 0
        self.dirty.clear()
        self.rules.clear()

    def queue_all(self) -> None:
        self.dirty = list(range(self.h + self.w))
        self.queued = bytearray(b"\x01") * (self.h + self.w)

    # -- propagation ------------------------------------------------------------------

    def step(self, search: CDCL[Solution]) -> int:
        val = search.val
        while self.rules:
            var, value, token = self.rules.pop()
            if val[var] < 0:
                search.imply(var, value, token)
                return BUSY
            if val[var] != value:  # the cell would take no colour, or two
                return token
        if not self.dirty:
            return IDLE
        lid = self.dirty.pop()
        self.queued[lid] = 0
        axis, i = line = self.lines[lid]
        layers = self.board.may[axis]
        old = tuple(layer[i] for layer in layers)
        ctx = self.ctx
        ctx.stats.line_solves += 1
        if ctx.stats.line_solves >= self.clock >= 0:
            self.clock = ctx.stats.line_solves + CLOCK_EVERY
            self.deadline.check()
        n = self.w if axis is ROW else self.h
        new = ctx.logic.narrow(self.clues[lid], n, old)
        if new is None:
            if ctx.observer is not None:
                ctx.observer(Contradiction(line), self.board)
            return lid
        if new != old:
            before = len(search.trail)
            cells = self.line_cells[lid]
            removed_any = 0
            for colour, (was, now) in enumerate(zip(old, new)):
                gone = was & ~now
                removed_any |= gone
                while gone:
                    low = gone & -gone
                    gone ^= low
                    var = cells[low.bit_length() - 1] * self.k + colour
                    if val[var] < 0:
                        self.before[var] = before
                        search.imply(var, 0, lid)
            if ctx.observer is not None:
                ctx.observer(LineSolved.of(line, removed_any, new), self.board)
        return BUSY

    # -- explanations -----------------------------------------------------------------

    def reason(self, var: int, token: int) -> list[int]:
        if token >= self.cell_token:
            return self._cell_reason(var, token - self.cell_token)
        return self._line_reason(token, self.before[var], var)

    def conflict_reason(self, token: int) -> list[int]:
        assert self.search is not None
        if token >= self.cell_token:  # every assigned variable of the cell
            cell = token - self.cell_token
            return [v for v in range(cell * self.k, cell * self.k + self.k)
                    if self.search.val[v] >= 0]
        return self._line_reason(token, len(self.search.trail), None)

    def _cell_reason(self, var: int, cell: int) -> list[int]:
        """Why the cell rule gave ``var`` its value: the colour the cell has, or the colours
        ruled out."""
        assert self.search is not None
        val = self.search.val
        others = [v for v in range(cell * self.k, cell * self.k + self.k) if v != var]
        if val[var] == 0:
            return [v for v in others if val[v] == 1][:1]
        return [v for v in others if val[v] == 0]

    def _line_reason(self, lid: int, before: int, target: int | None) -> list[int]:
        """The facts of line ``lid`` set before trail position ``before`` that still force
        ``target`` (a variable of the line set to 0; None: that still contradict)."""
        assert self.search is not None
        val, pos, k = self.search.val, self.search.pos, self.k
        cells = self.line_cells[lid]
        facts = [(i, colour, val[cell * k + colour]) for i, cell in enumerate(cells)
                 for colour in range(k)
                 if val[cell * k + colour] >= 0 and pos[cell * k + colour] < before
                 and cell * k + colour != target]
        n = len(cells)
        clue = self.clues[lid]
        aim = None if target is None else (cells.index(target // k), target % k)
        key = (clue, n, tuple(facts), aim)
        hit = self.explained.get(key)
        if hit is None:
            facts.sort(key=lambda f: -pos[cells[f[0]] * k + f[1]])
            hit = _explain(self.ctx, clue, n, k, facts, aim)
            remember(self.explained, key, hit, self.ctx.cache.max_entries)
        return [cells[i] * k + colour for i, colour, _ in hit]

    # -- results ----------------------------------------------------------------------

    def solution(self) -> Solution:
        return self.board.to_solution()

    def branch(self, var: int, value: int, depth: int) -> Branch:
        """A variable is a cell and a colour: true, the cell takes it; false, it does
        not."""
        cell, colour = divmod(var, self.k)
        return Branch(divmod(cell, self.w), colour, depth, ruled_out=not value)


def _may(n: int, k: int, facts: list[tuple[int, int, int]], aim: tuple[int, int] | None
         ) -> list[int]:
    """The line's masks given the facts (and, with ``aim``, that cell i has colour c)."""
    full = (1 << n) - 1
    may = [full] * k
    for i, colour, value in facts:
        if value:
            for other in range(k):
                if other != colour:
                    may[other] &= ~(1 << i)
        else:
            may[colour] &= ~(1 << i)
    if aim is not None:
        i, colour = aim
        for other in range(k):
            if other != colour:
                may[other] &= ~(1 << i)
    return may


def _explain(ctx: Context, clue: tuple[tuple[int, int], ...], n: int, k: int,
             facts: list[tuple[int, int, int]], aim: tuple[int, int] | None
             ) -> list[tuple[int, int, int]]:
    """A subset of ``facts`` with which the line (and, with ``aim``, cell i having colour
    c) has no placement; each fact is dropped, in order, when the rest still have none."""
    feasible = ctx.logic.feasible
    kept = list(facts)
    for fact in facts:
        rest = [f for f in kept if f is not fact]
        if not feasible(clue, n, _may(n, k, rest, aim)):
            kept = rest
    return kept


def search_colour(ctx: Context, board: Board | None = None, *,
                  deadline: Deadline) -> Iterator[Solution]:
    """Every solution of a colour puzzle below ``board``, each once, lazily."""
    puzzle = ctx.puzzle
    start = board.copy() if board is not None else ctx.board()
    theory = ColourTheory(ctx, start, deadline)
    observer = ctx.observer
    trace = None if observer is None else (lambda event: observer(event, start))
    k = theory.k
    search: CDCL[Solution] = CDCL(puzzle.width * puzzle.height * k, theory, ctx.stats,
                                  trace)
    theory.search = search
    rows = start.may[ROW]
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            cell = r * puzzle.width + c
            for colour in range(k):
                if not rows[colour][r] >> c & 1:
                    search.imply(cell * k + colour, 0, None)
    # every line is solved once first, and the cell rules of the root are applied
    theory.queue_all()
    yield from search.run(deadline)
