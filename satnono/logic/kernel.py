"""Compiled line logic and search for black and white: propagation, probing to a fixpoint and
a depth-first search that probes at every node, in machine code through Numba.

The Python logic (:mod:`.line`, :mod:`.propagate`, :mod:`.probe`) explains what it does,
cell by cell, for traces, ratings and the native backend; this module only answers, about a
hundred times faster. It is what settles most tournament puzzles before any SAT solver
starts: the approach of the tournament solvers (Wu, Sun, Chen et al., "An Efficient
Approach to Solving Nonograms", IEEE TCIAIG 2013: probing every open cell to a fixpoint at
every node, branching on the cell whose two probes fix the most), and what nonosolve and
LalaFrogKK do in C.

A grid is a ``uint8`` array of ``height × width`` cells, row by row, each the set of values
it may still take: bit 0 "may be empty", bit 1 "may be filled" (so 3 is open, 0 a
contradiction). Clues are one flat array with each line's start and length, rows first,
then columns.

The search is resumable: its whole state (the stack of grids, each level's branch cell and
the value still to try) lives in arrays the caller keeps, and :func:`search` returns after
each solution and after a slice of work, so the caller looks at the clock and at Ctrl-C
between slices, and a budget can hand the puzzle over to a SAT solver.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

EMPTY = 1
FILLED = 2
OPEN = 3

#: what :func:`search` returns
FOUND = 1  # a solution is in ``solution``; call again for the next
DONE = 2  # the tree is exhausted: every solution has been returned
SLICE = 3  # the slice's work is spent; call again to go on
GROW = 4  # the stack is full: give it more levels and call again

# the counters in ``work``: line solves so far, search nodes, deepest level, how the root
# ended (0 not yet probed, 1 consistent, 2 a contradiction), and the work done: the cells
# of every line solved, which is what slices and budgets count (a line costs about its
# length)
LINES, NODES, DEPTH, ROOT, COST = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def solve_line(cells: Any, n: int, clue: Any, k: int, out: Any, fw: Any, bw: Any,
               fill: Any) -> bool:
    """The complete line solver, the O(n·k) dynamic programme (Batenburg & Kosters,
    "Solving nonograms by combining relaxations", 2009): ``out[i]`` gets the values cell i
    takes in at least one placement of the ``k`` blocks consistent with ``cells``; False
    when there is none. ``fw``, ``bw`` ((n+2)·(k+2) each) and ``fill`` (n+1) are scratch.

    ``fw[i, j]``: the first i cells can hold the first j blocks; ``bw[i, j]``: cells i..n-1
    can hold blocks j..k-1; "can be filled" runs are tested in O(1) by prefix counts of the
    cells that may not be filled (kept in ``fill``)."""
    # fill[i]: how many of the cells 0..i-1 may not be filled
    fill[0] = 0
    for i in range(n):
        fill[i + 1] = fill[i] + (1 if cells[i] & FILLED == 0 else 0)
    for i in range(n + 1):
        for j in range(k + 1):
            fw[i, j] = False
            bw[i, j] = False
    fw[0, 0] = True
    for i in range(1, n + 1):
        white = cells[i - 1] & EMPTY != 0
        for j in range(k + 1):
            v = white and fw[i - 1, j]
            if not v and j >= 1:
                p = i - clue[j - 1]
                if p >= 0 and fill[i] == fill[p]:
                    if p == 0:
                        v = j == 1
                    else:
                        v = cells[p - 1] & EMPTY != 0 and fw[p - 1, j - 1]
            fw[i, j] = v
    if not fw[n, k]:
        return False
    bw[n, k] = True
    for i in range(n - 1, -1, -1):
        white = cells[i] & EMPTY != 0
        for j in range(k, -1, -1):
            v = white and bw[i + 1, j]
            if not v and j < k:
                e = i + clue[j]
                if e <= n and fill[e] == fill[i]:
                    if e == n:
                        v = j + 1 == k
                    else:
                        v = cells[e] & EMPTY != 0 and bw[e + 1, j + 1]
            bw[i, j] = v
    # which values each cell takes: empty where a gap fits, filled where a block fits
    for i in range(n):
        out[i] = 0
        fill[i] = 0  # from here on: the difference array of the blocks' covers
    fill[n] = 0
    for i in range(n):
        if cells[i] & EMPTY:
            for j in range(k + 1):
                if fw[i, j] and bw[i + 1, j]:
                    out[i] = EMPTY
                    break
    for j in range(k):
        length = clue[j]
        for p in range(n - length + 1):
            if p == 0:
                left = j == 0
            else:
                left = cells[p - 1] & EMPTY != 0 and fw[p - 1, j]
            if not left:
                continue
            e = p + length
            if e == n:
                right = j == k - 1
            else:
                right = cells[e] & EMPTY != 0 and bw[e + 1, j + 1]
            if not right:
                continue
            ok = True
            for q in range(p, e):
                if cells[q] & FILLED == 0:
                    ok = False
                    break
            if ok:
                fill[p] += 1
                fill[e] -= 1
    run = 0
    for i in range(n):
        run += fill[i]
        if run > 0:
            out[i] |= FILLED
    return True


@njit(cache=True, nogil=True, inline="always")
def _windows(ok: Any, b: int) -> Any:
    """Bit p set iff bits p..p+b-1 of ``ok`` are all set."""
    r = ok
    span = 1
    while span * 2 <= b:
        r &= r >> uint64(span)
        span *= 2
    if span < b:
        r &= r >> uint64(b - span)
    return r


@njit(cache=True, nogil=True, inline="always")
def _smear(x: Any, b: int) -> Any:
    """Bits p..p+b-1 for every bit p of ``x``: the cells a block covers from its starts."""
    r = x
    span = 1
    while span * 2 <= b:
        r |= r << uint64(span)
        span *= 2
    if span < b:
        r |= r << uint64(b - span)
    return r


#: the masks of the bit reversal's swaps (1, 2, 4, ... 16 bits at a time)
_SWAPS = (0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x00FF00FF00FF00FF,
          0x0000FFFF0000FFFF)


@njit(cache=True, nogil=True, inline="always")
def _reverse(x: Any, n: int) -> Any:
    """The n low bits of ``x`` in reverse order (n from 1 to 64)."""
    span = 1
    for m in _SWAPS:
        mask = uint64(m)
        x = ((x >> uint64(span)) & mask) | ((x & mask) << uint64(span))
        span *= 2
    x = (x >> uint64(32)) | (x << uint64(32))
    return x >> uint64(64 - n)


@njit(cache=True, nogil=True)
def _forward(clue: Any, k: int, step: int, n: int, can_empty: Any, can_fill: Any,
             starts: Any, free: Any) -> bool:
    """Left to right (``step`` 1) or right to left over the clue: ``starts[j]`` the
    positions where block j may start after blocks 0..j-1, ``free[j]`` the positions
    reachable with j blocks placed; False when the line cannot be completed (as
    :func:`satnono.logic.line._forward`)."""
    one = uint64(1)
    blockers = ((~can_empty) & ((one << uint64(n)) - one)) | (one << uint64(n))
    ready = ((blockers - (one & can_empty)) ^ blockers) | one
    free[0] = ready
    for jj in range(k):
        b = clue[jj] if step > 0 else clue[k - 1 - jj]
        s = ready & _windows(can_fill, b)
        if s == 0:
            return False
        starts[jj] = s
        ends = s << uint64(b)
        free[jj + 1] = ((blockers - (ends & can_empty)) ^ blockers) | ends
        seeds = (ends & can_empty) << one
        ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    return bool((free[k] >> uint64(n)) & one != 0)


@njit(cache=True, nogil=True)
def narrow64(clue: Any, k: int, n: int, can_empty: Any, can_fill: Any, fs: Any, ff: Any,
             bs: Any, bf: Any) -> tuple[bool, Any, Any]:
    """The bit-parallel line solver for lines of up to 63 cells, the same answer as
    :func:`solve_line`: :func:`satnono.logic.line.narrow` on machine words (bit i is
    cell i; a subtraction's borrow runs over each stretch of may-be-empty cells)."""
    if not _forward(clue, k, 1, n, can_empty, can_fill, fs, ff):
        return False, uint64(0), uint64(0)
    if not _forward(clue, k, -1, n, _reverse(can_empty, n), _reverse(can_fill, n), bs, bf):
        return False, uint64(0), uint64(0)
    one = uint64(1)
    full = (one << uint64(n)) - one
    may_fill = uint64(0)
    for j in range(k):
        b = clue[j]
        s = fs[j] & (_reverse(bs[k - 1 - j], n) >> uint64(b - 1))
        may_fill |= _smear(s, b)
    may_empty = uint64(0)
    for j in range(k + 1):
        may_empty |= ff[j] & _reverse(bf[k - j] & full, n)
    return True, may_empty & can_empty, may_fill


@njit(cache=True, nogil=True)
def scratch(height: int, width: int, counts: Any) -> Any:
    """The work arrays :func:`propagate` needs, made once per search."""
    size = max(height, width)
    kmax = 1
    for line in range(height + width):
        kmax = max(kmax, counts[line])
    return (np.empty(size, np.uint8), np.empty(size, np.uint8),
            np.empty((size + 2, kmax + 2), np.bool_), np.empty((size + 2, kmax + 2), np.bool_),
            np.empty(size + 2, np.int32), np.empty(kmax + 1, np.uint64),
            np.empty(kmax + 2, np.uint64), np.empty(kmax + 1, np.uint64),
            np.empty(kmax + 2, np.uint64), np.empty(height * width + 1, np.int64),
            np.zeros(1, np.int64))


@njit(cache=True, nogil=True, inline="always")
def _change(g: Any, at: int, value: int, trail: Any, top: Any, queue: Any, queued: Any,
            cross: int, tail: int, lines: int) -> tuple[int, int]:
    """Cell ``at`` narrows to ``value``: on the trail, and its crossing line queued unless
    it is already; returns the queue's new tail and how many lines were queued (0 or 1)."""
    g[at] = value
    trail[top[0]] = at
    top[0] += 1
    if queued[cross]:
        return tail, 0
    queued[cross] = True
    queue[tail] = cross
    return (tail + 1) % lines, 1


@njit(cache=True, nogil=True)
def propagate(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
              queue: Any, queued: Any, work: Any, tmp: Any) -> bool:
    """Solve the queued lines (``queued[line]`` set; rows are lines 0..height-1, columns
    after them) until none changes; False on a contradiction. ``queue`` holds the queued
    lines' numbers (room for every line); the queue is empty again when this returns.
    ``tmp`` is :func:`scratch`'s."""
    cells, out, fw, bw, fill, fs, ff, bs, bf, trail, top = tmp
    top[0] = 0  # the trail: each cell this call changes, once (only open cells change)
    lines = height + width
    head = 0
    tail = 0
    pending = 0
    for line in range(lines):
        if queued[line]:
            queue[tail] = line
            tail = (tail + 1) % lines
            pending += 1
    ok = True
    one = uint64(1)
    while pending:
        line = queue[head]
        head = (head + 1) % lines
        pending -= 1
        queued[line] = False
        if not ok:
            continue  # drain the queue
        if line < height:
            n, base, step = width, line * width, 1
        else:
            n, base, step = height, line - height, width
        work[LINES] += 1
        work[COST] += n
        clue = clues[starts[line]:]
        k = counts[line]
        if n <= 63:
            can_empty = uint64(0)
            can_fill = uint64(0)
            for i in range(n):
                v = g[base + i * step]
                if v & EMPTY:
                    can_empty |= one << uint64(i)
                if v & FILLED:
                    can_fill |= one << uint64(i)
            good, may_empty, may_fill = narrow64(clue, k, n, can_empty, can_fill,
                                                 fs, ff, bs, bf)
            if not good:
                ok = False
                continue
            changed = (can_empty ^ may_empty) | (can_fill ^ may_fill)
            while changed:
                i = 0
                low = changed & (~changed + one)
                while (low >> uint64(i)) != one:
                    i += 1
                changed ^= low
                v = ((may_empty >> uint64(i)) & one) | (((may_fill >> uint64(i)) & one) << one)
                tail, added = _change(g, base + i * step, v, trail, top, queue, queued,
                                      height + i if line < height else i, tail, lines)
                pending += added
            continue
        for i in range(n):
            cells[i] = g[base + i * step]
        if not solve_line(cells, n, clue, k, out, fw, bw, fill):
            ok = False
            continue
        for i in range(n):
            if out[i] != cells[i]:
                tail, added = _change(g, base + i * step, out[i], trail, top, queue, queued,
                                      height + i if line < height else i, tail, lines)
                pending += added
    return ok


@njit(cache=True, nogil=True, inline="always")
def _queue_cell(queued: Any, height: int, width: int, cell: int) -> None:
    """Queue the row and the column of ``cell``."""
    queued[cell // width] = True
    queued[height + cell % width] = True


@njit(cache=True, nogil=True)
def _settle(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
            queue: Any, queued: Any, work: Any, tmp: Any, cell: int, value: int) -> bool:
    """Cell ``cell`` takes ``value``; propagate from its row and column."""
    g[cell] = value
    _queue_cell(queued, height, width, cell)
    return propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)


@njit(cache=True, nogil=True)
def _probe_one(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
               queue: Any, queued: Any, work: Any, tmp: Any, c: int, value: int,
               cells_out: Any, values_out: Any) -> int:
    """Cell ``c`` set to ``value`` and propagated, then undone: the cells that changed and
    their values go to ``cells_out``/``values_out``; returns how many (``c`` among them),
    or -1 on a contradiction. Only open cells ever change, so undoing is setting the
    trail's cells open again: no copy of the grid."""
    trail, top = tmp[9], tmp[10]
    # set and queued here rather than through _settle: that extra call made the whole
    # search a quarter slower (every tenth tcga2015 puzzle, 5.2 s against 4.1 s)
    g[c] = value
    _queue_cell(queued, height, width, c)
    ok = propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)
    n = top[0]
    cells_out[0] = c
    values_out[0] = value
    for i in range(n):
        t = trail[i]
        cells_out[i + 1] = t
        values_out[i + 1] = g[t]
        g[t] = OPEN
    g[c] = OPEN
    return n + 1 if ok else -1


@njit(cache=True, nogil=True)
def probe(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
          queue: Any, queued: Any, work: Any, tmp: Any, score: Any, stop: int,
          at: Any) -> int:
    """Probe the open cells both ways, round and round, until a whole round changes
    nothing: 1, or 0 on a contradiction, or 2 when ``work[COST]`` passed ``stop`` first
    (what was fixed so far holds, and ``at`` — the next cell and how many cells in a row
    changed nothing — says where to go on). A value whose propagation contradicts is ruled
    out, and what both values' propagations agree on is fixed (the fixpoint is the same
    whatever the order). ``score[cell]`` is left at (1 + cells fixed by filling) × (1 +
    cells fixed by emptying) for each cell still open, from the last round, in which
    nothing changed: what the search branches on."""
    cells = height * width
    c1 = np.empty(cells + 1, np.int64)
    v1 = np.empty(cells + 1, np.uint8)
    c0 = np.empty(cells + 1, np.int64)
    v0 = np.empty(cells + 1, np.uint8)
    seen = np.zeros(cells, np.uint8)  # the value the filling probe gave, 0 for none
    while at[1] < cells:
        c = at[0]
        if g[c] != OPEN:
            score[c] = 0
            at[0] = (c + 1) % cells
            at[1] += 1
            continue
        if work[COST] >= stop:
            return 2
        at[0] = (c + 1) % cells
        at[1] += 1
        n1 = _probe_one(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                        c, FILLED, c1, v1)
        n0 = _probe_one(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                        c, EMPTY, c0, v0)
        if n1 < 0 and n0 < 0:
            return 0
        if n1 < 0 or n0 < 0:
            if not _settle(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                           c, EMPTY if n1 < 0 else FILLED):
                return 0
            at[1] = 0
            score[c] = 0
            continue
        # what both agree on: a cell changed by both probes to the same value
        for i in range(n1):
            seen[c1[i]] = v1[i]
        agreed = False
        for i in range(n0):
            t = c0[i]
            if seen[t] == v0[i]:
                g[t] = v0[i]
                _queue_cell(queued, height, width, t)
                agreed = True
        for i in range(n1):
            seen[c1[i]] = 0
        if agreed:
            at[1] = 0
            if not propagate(g, height, width, clues, starts, counts, queue, queued,
                             work, tmp):
                return 0
            if g[c] != OPEN:
                score[c] = 0
                continue
        score[c] = (1 + n1) * (1 + n0)
    return 1


@njit(cache=True, nogil=True)
def search(stack: Any, branch: Any, other: Any, state: Any, height: int, width: int,
           clues: Any, starts: Any, counts: Any, queue: Any, queued: Any, work: Any,
           score: Any, solution: Any, budget: int) -> int:
    """Depth-first search with probing at every node, resumed from ``state`` (``state[0]``
    the level; ``state[1]`` 1 while that level's grid is still to be propagated and
    probed, 2 while its probing is under way, ``state[2:4]`` where it is): ``stack[d]``
    is level d's grid, ``branch[d]`` its branch cell and ``other[d]`` the value still to
    try there (0 when both were). Runs until a solution (:data:`FOUND`, the grid in
    ``solution``), the end of the tree (:data:`DONE`) or ``work[COST]`` passing
    ``budget`` (:data:`SLICE`). Level 0 starts as the given grid (all its lines queued) and
    stays the root's probed fixpoint."""
    cells = height * width
    tmp = scratch(height, width, counts)
    while True:
        d = state[0]
        if state[1]:
            if d + 1 >= stack.shape[0]:
                return GROW
            g = stack[d]
            ok = True
            if state[1] == 1:  # a new node: propagate, then probe from its first cell
                ok = propagate(g, height, width, clues, starts, counts, queue, queued, work,
                               tmp)
                state[2] = 0
                state[3] = 0
            state[1] = 0
            if ok:
                probed = probe(g, height, width, clues, starts, counts, queue, queued, work,
                               tmp, score, budget, state[2:])
                if probed == 2:  # this node again, probing on from where it stopped
                    state[1] = 2
                    return SLICE
                ok = probed == 1
            work[NODES] += 1
            if d == 0:
                work[ROOT] = 1 if ok else 2
            if d > work[DEPTH]:
                work[DEPTH] = d
            if ok:
                best = -1
                top = 0
                for c in range(cells):
                    if g[c] == OPEN and score[c] > top:
                        top = score[c]
                        best = c
                if best < 0:
                    for c in range(cells):
                        if g[c] == OPEN:
                            best = c
                            break
                if best < 0:  # solved
                    solution[:] = g
                    if not _backtrack(stack, branch, other, state, height, width, queued):
                        state[0] = -1
                    return FOUND
                branch[d] = best
                other[d] = EMPTY
                stack[d + 1, :] = g
                stack[d + 1, best] = FILLED
                _queue_cell(queued, height, width, best)
                state[0] = d + 1
                state[1] = 1
            elif not _backtrack(stack, branch, other, state, height, width, queued):
                state[0] = -1
                return DONE
        elif d < 0:
            return DONE
        if work[COST] >= budget:
            return SLICE


@njit(cache=True, nogil=True)
def _backtrack(stack: Any, branch: Any, other: Any, state: Any, height: int, width: int,
               queued: Any) -> bool:
    """Go up to the deepest level with a value still to try and set up its child; False
    when there is none (the tree is done)."""
    d = state[0] - 1
    while d >= 0:
        v = other[d]
        if v:
            other[d] = 0
            c = branch[d]
            stack[d + 1, :] = stack[d]
            stack[d + 1, c] = v
            _queue_cell(queued, height, width, c)
            state[0] = d + 1
            state[1] = 1
            return True
        d -= 1
    return False
