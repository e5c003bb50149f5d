"""Conflict-driven search with the line solver as the only propagator (no SAT library).

Plain depth-first search re-discovers the same dead end under every branch: a puzzle
such as 9-Dom needs millions of nodes. Here each dead end is turned into a clause over
cells and never visited again, the way a CDCL SAT solver does, but every inference still
comes from the complete line solver:

* a cell the line solver fixes is explained, lazily and only when a conflict needs it, by
  a minimal subset of the line's cells that were known when it was fixed (cells are
  dropped one at a time while the line solver still derives the same cell);
* a line that contradicts is explained by a minimal contradicting subset the same way;
* conflict analysis resolves those explanations back to the first unique implication
  point, learns the clause, and jumps back to the level where it becomes unit.

Decisions follow cell activity (cells in recent conflicts first) with saved phases, and
the search restarts on the Luby sequence. Every solution is blocked by the negation of its
decisions — sound, because the decisions and propagation fix every cell — so enumeration
is complete and yields each solution once.

Literals are ``2*cell + value`` (cell = r*width + c, value 1 = filled).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator

from ...errors import SearchTimeout
from ...logic.board import Board
from ...logic.line import remember
from ...logic.propagate import Context
from ...model.puzzle import Solution, is_solution

_RESTART_BASE = 64  # conflicts per Luby unit


def _luby(i: int) -> int:
    """The i-th (1-based) term of the Luby sequence 1 1 2 1 1 2 4 …"""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _masks(known: list[tuple[int, int]]) -> tuple[int, int]:
    """(filled, empty) bit masks of (index, value) pairs."""
    f = e = 0
    for i, v in known:
        if v:
            f |= 1 << i
        else:
            e |= 1 << i
    return f, e


def explain(feasible: Callable[[tuple[int, ...], int, int, int], bool],
            clue: tuple[int, ...], n: int, known: list[tuple[int, int]],
            target: tuple[int, int] | None) -> tuple[int, int]:
    """A subset of the known cells of a line that still forces ``target`` (cell index,
    value) — or, when None, still contradicts — as (filled, empty) masks.

    A cell is forced exactly when the line with the opposite value there has no
    placement, so both questions are feasibility checks (half a line solve). ``known``
    lists (index, value) in the order cells should be tried for dropping; each is dropped
    when the rest still forces the target. As forcing only grows with knowledge, no single
    cell of the result can be dropped afterwards.
    """
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
            if not feasible(clue, n, (f & ~bit) | tf, e | te):
                f &= ~bit
        elif not feasible(clue, n, f | tf, (e & ~bit) | te):
            e &= ~bit
    return f, e


class _Search:
    """One puzzle's search state; the board is changed in place and undone on backjumps."""

    def __init__(self, ctx: Context, board: Board):
        p = ctx.puzzle
        self.ctx = ctx
        self.board = board
        self.h, self.w = h, w = p.height, p.width
        self.clues = list(p.rows) + list(p.columns)
        #: the cells of each line, in line order (rows, then columns)
        self.line_cells = ([[r * w + c for c in range(w)] for r in range(h)]
                           + [[r * w + c for r in range(h)] for c in range(w)])
        n = h * w
        self.val = [-1] * n
        self.lvl = [0] * n
        self.pos = [0] * n
        self.rsn: list[int | None] = [None] * n  # line id ≥ 0, or -(clause index + 1)
        self.bef = [0] * n  # trail length when the line that fixed the cell was solved
        self.trail: list[int] = []
        self.lims: list[int] = []  # trail length at each decision
        self.qhead = 0
        self.clauses: list[list[int]] = []
        self.watches: list[list[int]] = [[] for _ in range(2 * n)]
        self.dirty: list[int] = []
        self.queued = bytearray(h + w)
        self.act = [0.0] * n
        self.inc = 1.0
        self.phase = [1] * n
        self.heap = [(0.0, c) for c in range(n)]
        self.explained: dict[tuple, tuple[int, int]] = {}
        self.conflicts = 0
        for r in range(h):
            for c in range(w):
                v = board.get(r, c)
                if v is not None:
                    self._assign(r * w + c, v, None, 0)
        # every line is solved once first: the root board may come unpropagated
        self.dirty = list(range(h + w))
        self.queued = bytearray(b"\x01") * (h + w)

    # -- assignment -------------------------------------------------------------------

    def _assign(self, cell: int, value: int, reason: int | None, before: int) -> None:
        self.val[cell] = value
        self.lvl[cell] = len(self.lims)
        self.pos[cell] = len(self.trail)
        self.rsn[cell] = reason
        self.bef[cell] = before
        self.trail.append(cell)
        r, c = divmod(cell, self.w)
        self.board.set(r, c, value)
        for lid in (r, self.h + c):
            if not self.queued[lid]:
                self.queued[lid] = 1
                self.dirty.append(lid)

    def _backjump(self, level: int) -> None:
        if len(self.lims) <= level:
            return
        stop = self.lims[level]
        b, w, val, act, heap = self.board, self.w, self.val, self.act, self.heap
        for cell in self.trail[stop:]:
            b.unset(*divmod(cell, w))
            self.phase[cell] = val[cell]
            val[cell] = -1
            heapq.heappush(heap, (-act[cell], cell))
        del self.trail[stop:]
        del self.lims[level:]
        self.qhead = stop
        for lid in self.dirty:
            self.queued[lid] = 0
        self.dirty.clear()

    # -- propagation ------------------------------------------------------------------

    def _propagate(self) -> tuple[int, list[int]] | None:
        """Clauses, then lines, to a fixed point; a conflict is (kind, cells) with kind 0
        for a clause (cells: its cells) and 1 for a line (cells: [line id])."""
        val, trail, watches, clauses = self.val, self.trail, self.watches, self.clauses
        solve = self.ctx.cache.solve
        b, h = self.board, self.h
        solves = 0
        while True:
            while self.qhead < len(trail):
                cell = trail[self.qhead]
                self.qhead += 1
                false_lit = 2 * cell + 1 - val[cell]
                ws = watches[false_lit]
                if not ws:
                    continue
                keep: list[int] = []
                for k, ci in enumerate(ws):
                    cl = clauses[ci]
                    if cl[0] == false_lit:
                        cl[0], cl[1] = cl[1], false_lit
                    first = cl[0]
                    v = val[first >> 1]
                    if v == first & 1:
                        keep.append(ci)
                        continue
                    for j in range(2, len(cl)):
                        lit = cl[j]
                        lv = val[lit >> 1]
                        if lv < 0 or lv == lit & 1:
                            cl[1], cl[j] = lit, false_lit
                            watches[lit].append(ci)
                            break
                    else:
                        keep.append(ci)
                        if v >= 0:  # every literal false
                            keep.extend(ws[k + 1:])
                            watches[false_lit] = keep
                            self.ctx.stats.line_solves += solves
                            return 0, [lit >> 1 for lit in cl]
                        self._assign(first >> 1, first & 1, -(ci + 1), 0)
                watches[false_lit] = keep
            if not self.dirty:
                self.ctx.stats.line_solves += solves
                return None
            lid = self.dirty.pop()
            self.queued[lid] = 0
            if lid < h:
                clue, n, f, e = self.clues[lid], self.w, b.rf[lid], b.re[lid]
            else:
                clue, n, f, e = self.clues[lid], h, b.cf[lid - h], b.ce[lid - h]
            solves += 1
            res = solve(clue, n, f, e)
            if res is None:
                self.ctx.stats.line_solves += solves
                if self.ctx.trace is not None:
                    self.ctx.trace("contradiction", b, lid)
                return 1, [lid]
            nf, ne = res.filled & ~f, res.empty & ~e
            if nf or ne:
                before = len(trail)
                cells = self.line_cells[lid]
                for x, value in ((nf, 1), (ne, 0)):
                    while x:
                        low = x & -x
                        x ^= low
                        self._assign(cells[low.bit_length() - 1], value, lid, before)
                if self.ctx.trace is not None:
                    self.ctx.trace("line", b, lid, nf.bit_count(), ne.bit_count())

    # -- explanations -----------------------------------------------------------------

    def _line_reason(self, lid: int, before: int, target: int | None) -> list[int]:
        """The cells of line ``lid`` known before trail position ``before`` that still
        force ``target`` (a cell of the line; None: that still contradict), made minimal
        by dropping cells while the line still forces it."""
        cells = self.line_cells[lid]
        val, pos = self.val, self.pos
        known = [(i, val[cell]) for i, cell in enumerate(cells)
                 if cell != target and val[cell] >= 0 and pos[cell] < before]
        f, e = _masks(known)
        clue, n = self.clues[lid], len(cells)
        if target is None:
            ti, tv = -1, 0
        else:
            ti, tv = cells.index(target), val[target]
        key = (clue, n, f, e, ti, tv)
        hit = self.explained.get(key)
        if hit is None:
            # drop the most recently fixed cells first: the explanation then leans on
            # earlier levels, so the learnt clause jumps back further
            known.sort(key=lambda iv: -pos[cells[iv[0]]])
            hit = explain(self.ctx.cache.feasible, clue, n, known,
                          None if ti < 0 else (ti, tv))
            remember(self.explained, key, hit, self.ctx.cache.max_entries)
        f, e = hit
        x = f | e
        out = []
        while x:
            low = x & -x
            x ^= low
            out.append(cells[low.bit_length() - 1])
        return out

    def _reason(self, cell: int) -> list[int]:
        """The other cells of the clause that forced ``cell``."""
        r = self.rsn[cell]
        assert r is not None
        if r >= 0:
            return self._line_reason(r, self.bef[cell], cell)
        return [lit >> 1 for lit in self.clauses[-r - 1] if lit >> 1 != cell]

    # -- learning ---------------------------------------------------------------------

    def _bump(self, cell: int) -> None:
        a = self.act[cell] + self.inc
        self.act[cell] = a
        if a > 1e100:
            self.act = [x * 1e-100 for x in self.act]
            self.inc *= 1e-100
            self.heap = [(-self.act[c], c) for c in range(len(self.act)) if self.val[c] < 0]
            heapq.heapify(self.heap)
        elif self.val[cell] < 0:
            heapq.heappush(self.heap, (-a, cell))

    def _analyze(self, conflict: tuple[int, list[int]]) -> tuple[list[int], int]:
        """First-UIP clause (literals, asserting one first) and the level to jump to."""
        kind, cells = conflict
        if kind == 1:
            cells = self._line_reason(cells[0], len(self.trail), None)
        level = len(self.lims)
        lvl, trail, val = self.lvl, self.trail, self.val
        seen = set()
        rest: list[int] = []
        count = 0
        i = len(trail) - 1
        while True:
            for y in cells:
                if y not in seen and lvl[y] > 0:
                    seen.add(y)
                    self._bump(y)
                    if lvl[y] == level:
                        count += 1
                    else:
                        rest.append(y)
            while trail[i] not in seen:
                i -= 1
            p = trail[i]
            i -= 1
            count -= 1
            if count == 0:
                break
            cells = self._reason(p)
        self.inc /= 0.95
        learnt = [2 * p + 1 - val[p]] + [2 * y + 1 - val[y] for y in rest]
        back = 0
        if rest:
            j = max(range(len(rest)), key=lambda k: lvl[rest[k]])
            back = lvl[rest[j]]
            learnt[1], learnt[j + 1] = learnt[j + 1], learnt[1]  # watch the latest one
        return learnt, back

    def _add(self, clause: list[int], back: int) -> None:
        """Jump back to ``back`` and assert ``clause[0]`` (the other literals are false)."""
        self._backjump(back)
        first = clause[0]
        if len(clause) == 1:
            self._assign(first >> 1, first & 1, None, 0)
            return
        ci = len(self.clauses)
        self.clauses.append(clause)
        self.watches[clause[0]].append(ci)
        self.watches[clause[1]].append(ci)
        self._assign(first >> 1, first & 1, -(ci + 1), 0)

    def _decide(self) -> bool:
        """Assign the most active unknown cell its saved phase; False if none is left."""
        heap, val = self.heap, self.val
        while heap:
            _, cell = heapq.heappop(heap)
            if val[cell] < 0:
                self.lims.append(len(self.trail))
                self._assign(cell, self.phase[cell], None, 0)
                return True
        return False

    # -- the loop ---------------------------------------------------------------------

    def run(self, deadline: float | None) -> Iterator[Solution]:
        puzzle, stats, trace = self.ctx.puzzle, self.ctx.stats, self.ctx.trace
        restart_at, luby_i = _RESTART_BASE, 1
        since_restart = 0
        while True:
            conflict = self._propagate()
            if conflict is not None:
                self.conflicts += 1
                since_restart += 1
                if not self.lims:
                    return  # a conflict with no decision: nothing (more) to find
                # each conflict costs line solves, milliseconds on large puzzles: a clock
                # read per conflict (and per decision) keeps the time limit to the letter
                if deadline is not None and time.monotonic() > deadline:
                    raise SearchTimeout(stats.solutions, 0)
                learnt, back = self._analyze(conflict)
                depth = len(self.lims)
                self._add(learnt, back)
                if trace is not None:
                    trace("learnt", self.board, depth, len(learnt), back)
                continue
            if len(self.trail) == len(self.val):
                sol = self.board.to_solution()
                if not is_solution(puzzle, sol):  # pragma: no cover - a solver bug
                    raise AssertionError(f"learning search produced a non-solution for "
                                         f"{puzzle.title}")
                stats.solutions += 1
                if trace is not None:
                    trace("solution", self.board, stats.solutions)
                yield sol
                if not self.lims:
                    return
                # block this solution: not all of its decisions again
                decisions = [self.trail[k] for k in self.lims]
                block = [2 * d + 1 - self.val[d] for d in reversed(decisions)]
                self._add(block, len(self.lims) - 1)
                if trace is not None:
                    trace("blocked", self.board, stats.solutions, len(block), len(self.lims))
                continue
            if since_restart >= restart_at:
                luby_i += 1
                restart_at = _RESTART_BASE * _luby(luby_i)
                since_restart = 0
                self._backjump(0)
                continue
            if deadline is not None and time.monotonic() > deadline:
                raise SearchTimeout(stats.solutions, 0)
            stats.nodes += 1
            self._decide()
            stats.max_depth = max(stats.max_depth, len(self.lims))
            if trace is not None:
                cell = self.trail[-1]
                trace("branch", self.board, cell // self.w, cell % self.w, self.val[cell],
                      len(self.lims))


def search_learning(ctx: Context, board: Board | None = None, *,
                    deadline: float | None = None) -> Iterator[Solution]:
    """Every solution below ``board`` (the empty board when None), each once, lazily."""
    puzzle = ctx.puzzle
    start = board.copy() if board is not None else Board(puzzle.width, puzzle.height)
    yield from _Search(ctx, start).run(deadline)
