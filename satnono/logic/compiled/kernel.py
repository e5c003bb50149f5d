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
contradiction). Beside it, each line of up to 63 cells is also kept as two machine words
(which cells may be empty, which may be filled), so the bit-parallel line solver reads a
line in two loads rather than gathering its cells, and looks its answer up first in a
cache keyed by the line and its two words (probing meets the same line states again and
again: 70–85 % of line solves on tournament puzzles are answered from it). A longer line
is gathered from the grid into several words and solved by the same method on all of them
(:func:`narrow_wide`), with a cache of its own. Clues are one flat array with each line's start
and length, rows first, then columns.

Probing skips what it knows: a probe's outcome depends only on the lines its propagation
solved, so a cell whose probes solved no line that has changed since is not probed again
(nonosolve's rule), and each level of the search keeps what its probes were for when the
search comes back to it. The search is the same node for node; a quarter to a third fewer
line solves.

The search is resumable: its whole state (the stack of grids, each level's branch cell and
the value still to try) lives in arrays the caller keeps, and :func:`search` returns after
each solution and after a slice of work, so the caller looks at the clock and at Ctrl-C
between slices, and a budget can hand the puzzle over to a SAT solver.

The functions the search runs millions of times are compiled without Numba's reference
counting (:func:`hot`): they allocate nothing, and every array they see belongs to
the caller for the whole call, so the count on each array handed down or sliced was pure
cost — an atomic add and subtract, more than half the search's time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit, uint64

F = TypeVar("F", bound=Callable[..., Any])


def hot(fn: F) -> F:
    """Compile a function a search runs millions of times: cached, without the interpreter's
    lock, and without Numba's reference counting (``_nrt=False``, the switch behind its
    ``nrt`` option). Such a function may not allocate an array or copy one by slice
    assignment (a loop does); every array it sees is its caller's for the whole call.
    Otherwise each array handed to a call or sliced costs an atomic increment and
    decrement: on tcga2015's slowest puzzles that was 60 % of the search's time (136
    against 55 ns a line solve)."""
    return cast(F, njit(cache=True, nogil=True, _nrt=False)(fn))  # type: ignore[call-overload]


EMPTY = 1
FILLED = 2
OPEN = 3

#: what :func:`search` returns
FOUND = 1  # a solution is in ``solution``; call again for the next
DONE = 2  # the tree is exhausted: every solution has been returned
SLICE = 3  # the slice's work is spent; call again to go on
GROW = 4  # the stack is full: give it more levels and call again

# the counters in ``work``: line solves so far, search nodes, deepest level, how the root
# ended (0 not yet probed, 1 consistent, 2 a contradiction), and the work done, which is
# what slices and budgets count: a line of n cells costs n, and n × (words + 1) past 63
# cells (:func:`narrow_wide`), near enough the same time per unit
LINES, NODES, DEPTH, ROOT, COST = 0, 1, 2, 3, 4
#: entries of the cache of line solves (a power of two; 2.6 MB): every fifth tcga2015
#: puzzle, search alone, 9.8 s against 10.8 s with 2**14 entries, 12.5 s with 2**18 and
#: 13.3 s without a cache
CACHE = 1 << 16
#: entries of the cache of line solves past 63 cells (each holds the line's words in and
#: out: 2 MB for lines of 65-127 cells, 8 MB at 510)
CACHE_WIDE = 1 << 14
# the search's ``state``, by name: the level; its phase (1 a new node, to be propagated
# and probed; 2 its probing under way; 0 neither); where probing is (the next cell, and
# how many cells in a row changed nothing: :func:`probe`'s ``at``); restart after
# RESTART × Luby(run) nodes (0: never), the run, its nodes so far, the random generator's
# state
LEVEL, PHASE, PROBE_CELL, PROBE_QUIET, RESTART, RUN, RUN_NODES, SEED = range(8)
# what probing remembers (``memo``), by name: when each cell was last probed, the lines its
# probes solved (bits), when each line last changed, and the clock those times are read on;
# ``saved[...][d]`` keeps level d's first three, and its scores (SAVED_SCORE)
PROBED_AT, PROBE_LINES, LINE_CHANGED, CLOCK = range(4)
SAVED_SCORE = 3
# the scratch arrays of :func:`scratch` that are used by name: the trail of cells fixed by
# the last propagation and its length, the lines it solved (bits), and the line words
TRAIL, TRAIL_LEN, TOUCHED, WORDS = 5, 6, 7, 8
# ... and the cells and values each of a probe's two propagations fixed, and the values
# the first gave, by cell (left all 0 between probes)
PROBED, SEEN = slice(14, 18), 18
#: from the third run on each branching score is multiplied by 1 + NOISE × a random number
#: in [0, 1) (nonosolve's choice)
NOISE = 0.5


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


@hot
def _forward(clue: Any, c0: int, k: int, step: int, n: int, can_empty: Any, can_fill: Any,
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
        b = clue[c0 + jj] if step > 0 else clue[c0 + k - 1 - jj]
        s = ready & _windows(can_fill, b)
        if s == 0:
            return False
        starts[jj] = s
        ends = s << uint64(b)
        free[jj + 1] = ((blockers - (ends & can_empty)) ^ blockers) | ends
        seeds = (ends & can_empty) << one
        ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    return bool((free[k] >> uint64(n)) & one != 0)


@hot
def narrow64(clue: Any, c0: int, k: int, n: int, can_empty: Any, can_fill: Any, fs: Any,
             ff: Any, bs: Any, bf: Any) -> tuple[bool, Any, Any]:
    """The bit-parallel line solver for lines of up to 63 cells:
    :func:`satnono.logic.line.narrow` on machine words (bit i is
    cell i; a subtraction's borrow runs over each stretch of may-be-empty cells)."""
    if not _forward(clue, c0, k, 1, n, can_empty, can_fill, fs, ff):
        return False, uint64(0), uint64(0)
    if not _forward(clue, c0, k, -1, n, _reverse(can_empty, n), _reverse(can_fill, n), bs,
                    bf):
        return False, uint64(0), uint64(0)
    one = uint64(1)
    full = (one << uint64(n)) - one
    may_fill = uint64(0)
    for j in range(k):
        b = clue[c0 + j]
        s = fs[j] & (_reverse(bs[k - 1 - j], n) >> uint64(b - 1))
        may_fill |= _smear(s, b)
    may_empty = uint64(0)
    for j in range(k + 1):
        may_empty |= ff[j] & _reverse(bf[k - j] & full, n)
    return True, may_empty & can_empty, may_fill


# ---------------------------------------------------------------- lines past 63 cells
# The same bit-parallel solver on several machine words a line (word 0 holds cells 0-63):
# a line of n cells and its end marker (bit n) take n // 64 + 1 words. Each operation
# below works on the first ``nw`` words of its arrays.


@njit(cache=True, nogil=True, inline="always")
def _shr(src: Any, s: int, dst: Any, nw: int) -> None:
    """``dst = src >> s`` (``dst`` not ``src``)."""
    q = s >> 6
    r = s & 63
    for i in range(nw):
        j = i + q
        v = uint64(0)
        if j < nw:
            v = src[j] >> uint64(r)
            if r and j + 1 < nw:
                v |= src[j + 1] << uint64(64 - r)
        dst[i] = v


@njit(cache=True, nogil=True, inline="always")
def _shl(src: Any, s: int, dst: Any, nw: int) -> None:
    """``dst = src << s`` (``dst`` not ``src``)."""
    q = s >> 6
    r = s & 63
    for i in range(nw):
        j = i - q
        v = uint64(0)
        if j >= 0:
            v = src[j] << uint64(r)
            if r and j >= 1:
                v |= src[j - 1] >> uint64(64 - r)
        dst[i] = v


@njit(cache=True, nogil=True, inline="always")
def _low(n: int, i: int) -> Any:
    """Word i of the mask of bits 0..n-1."""
    if (i + 1) * 64 <= n:
        return ~uint64(0)
    if i * 64 >= n:
        return uint64(0)
    return (uint64(1) << uint64(n - i * 64)) - uint64(1)


@njit(cache=True, nogil=True, inline="always")
def _runs(blockers: Any, x: Any, dst: Any, nw: int) -> None:
    """``dst = ((blockers - x) ^ blockers) | x``: from each bit of ``x``, the stretch up to
    the next bit of ``blockers`` (the borrow runs across words)."""
    borrow = uint64(0)
    for i in range(nw):
        a = blockers[i]
        b = x[i]
        d = a - b
        out = uint64(1) if a < b else uint64(0)
        if d < borrow:
            out = uint64(1)
        d -= borrow
        borrow = out
        dst[i] = (d ^ a) | b


@njit(cache=True, nogil=True, inline="always")
def _windows_w(ok: Any, b: int, r: Any, t: Any, nw: int) -> None:
    """``r``: bit p set iff bits p..p+b-1 of ``ok`` are all set (:func:`_windows`)."""
    for i in range(nw):
        r[i] = ok[i]
    span = 1
    while span * 2 <= b:
        _shr(r, span, t, nw)
        for i in range(nw):
            r[i] &= t[i]
        span *= 2
    if span < b:
        _shr(r, b - span, t, nw)
        for i in range(nw):
            r[i] &= t[i]


@njit(cache=True, nogil=True, inline="always")
def _smear_w(x: Any, b: int, r: Any, t: Any, nw: int) -> None:
    """``r``: bits p..p+b-1 for every bit p of ``x`` (:func:`_smear`)."""
    for i in range(nw):
        r[i] = x[i]
    span = 1
    while span * 2 <= b:
        _shl(r, span, t, nw)
        for i in range(nw):
            r[i] |= t[i]
        span *= 2
    if span < b:
        _shl(r, b - span, t, nw)
        for i in range(nw):
            r[i] |= t[i]


@njit(cache=True, nogil=True, inline="always")
def _reverse_w(x: Any, n: int, dst: Any, t: Any, nw: int) -> None:
    """``dst``: the n low bits of ``x`` in reverse order (every word reversed, the words
    in reverse order, then shifted down to n bits)."""
    for i in range(nw):
        t[nw - 1 - i] = _reverse(x[i], 64)
    _shr(t, nw * 64 - n, dst, nw)


@njit(cache=True, nogil=True)
def _forward_w(clue: Any, k: int, step: int, n: int, nw: int, can_empty: Any,
               can_fill: Any, starts: Any, free: Any, wt: Any) -> bool:
    """:func:`_forward` on ``nw`` words a line (``wt``: scratch rows)."""
    blockers, ready, win, ends, t = wt[4], wt[5], wt[6], wt[7], wt[8]
    for i in range(nw):
        blockers[i] = ~can_empty[i] & _low(n, i)
        t[i] = uint64(0)
    blockers[n >> 6] |= uint64(1) << uint64(n & 63)
    t[0] = can_empty[0] & uint64(1)
    _runs(blockers, t, ready, nw)
    ready[0] |= uint64(1)
    for i in range(nw):
        free[0, i] = ready[i]
    for jj in range(k):
        b = clue[jj] if step > 0 else clue[k - 1 - jj]
        _windows_w(can_fill, b, win, t, nw)
        any_start = uint64(0)
        for i in range(nw):
            s = ready[i] & win[i]
            starts[jj, i] = s
            any_start |= s
        if any_start == 0:
            return False
        _shl(starts[jj], b, ends, nw)
        for i in range(nw):
            t[i] = ends[i] & can_empty[i]
        _runs(blockers, t, free[jj + 1], nw)
        for i in range(nw):
            free[jj + 1, i] |= ends[i]
        _shl(t, 1, win, nw)  # the seeds: a gap after each end
        for i in range(nw):
            t[i] = win[i] & can_empty[i]
        _runs(blockers, t, ready, nw)
        for i in range(nw):
            ready[i] |= win[i]
    return bool((free[k, n >> 6] >> uint64(n & 63)) & uint64(1) != 0)


@hot
def narrow_wide(clue: Any, k: int, n: int, can_empty: Any, can_fill: Any, sweep: Any,
                wt: Any) -> bool:
    """The bit-parallel line solver for a line of any length, the same answer as
    :func:`narrow64`: ``can_empty``/``can_fill`` hold the line in
    ``n // 64 + 1`` words; the cells that may be empty and filled after solving go to
    ``wt[2]`` and ``wt[3]``; False on a contradiction. ``sweep`` is 4 × (k + 2) × words
    (each way's block starts and reachable positions), ``wt`` at least 12 rows of words."""
    nw = n // 64 + 1
    fs, ff, bs, bf = sweep[0], sweep[1], sweep[2], sweep[3]
    if not _forward_w(clue, k, 1, n, nw, can_empty, can_fill, fs, ff, wt):
        return False
    rev_empty, rev_fill, t1, t2, t3 = wt[9], wt[10], wt[11], wt[6], wt[7]
    _reverse_w(can_empty, n, rev_empty, t1, nw)
    _reverse_w(can_fill, n, rev_fill, t1, nw)
    if not _forward_w(clue, k, -1, n, nw, rev_empty, rev_fill, bs, bf, wt):
        return False
    may_empty, may_fill = wt[2], wt[3]
    for i in range(nw):
        may_fill[i] = uint64(0)
        may_empty[i] = uint64(0)
    for j in range(k):
        b = clue[j]
        _reverse_w(bs[k - 1 - j], n, t1, t2, nw)
        _shr(t1, b - 1, t2, nw)
        for i in range(nw):
            t2[i] &= fs[j, i]
        _smear_w(t2, b, t1, t3, nw)
        for i in range(nw):
            may_fill[i] |= t1[i]
    for j in range(k + 1):
        for i in range(nw):
            t3[i] = bf[k - j, i] & _low(n, i)
        _reverse_w(t3, n, t1, t2, nw)
        for i in range(nw):
            may_empty[i] |= ff[j, i] & t1[i]
    for i in range(nw):
        may_empty[i] &= can_empty[i]
    return True


@njit(cache=True, nogil=True)
def scratch(height: int, width: int, counts: Any) -> Any:
    """The work arrays :func:`propagate` needs, made once per search: a line's cells and
    the bit-parallel solver's words, the trail and its length, the lines solved (bits),
    the line words (:func:`_put`), the cache of line solves (each slot's line × 2 +
    whether it was consistent, and its two words in and out), and :func:`narrow_wide`'s
    arrays for lines past 63 cells."""
    size = max(height, width)
    nw = size // 64 + 1
    kmax = 1
    for line in range(height + width):
        kmax = max(kmax, counts[line])
    return (np.empty(size, np.uint8), np.empty(kmax + 1, np.uint64),
            np.empty(kmax + 2, np.uint64), np.empty(kmax + 1, np.uint64),
            np.empty(kmax + 2, np.uint64), np.empty(height * width + 1, np.int64),
            np.zeros(1, np.int64), np.zeros((height + width + 63) // 64, np.uint64),
            np.zeros((2, height + width), np.uint64), np.full(CACHE, -1, np.int64),
            np.zeros((CACHE, 4), np.uint64),
            np.zeros((4, kmax + 2, nw), np.uint64), np.zeros((12, nw), np.uint64),
            np.zeros((CACHE_WIDE if size > 63 else 1, 1 + 4 * nw), np.uint64),
            np.empty(height * width + 1, np.int64), np.empty(height * width + 1, np.uint8),
            np.empty(height * width + 1, np.int64), np.empty(height * width + 1, np.uint8),
            np.zeros(height * width, np.uint8))


@njit(cache=True, nogil=True, inline="always")
def _copy(dst: Any, src: Any) -> None:
    """``dst[:] = src`` for arrays known not to overlap, as a loop: the slice assignment
    needs the reference-counted runtime (for a copy in case they overlap), which the hot
    functions here go without."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, nogil=True, inline="always")
def _copy2(dst: Any, src: Any) -> None:
    """:func:`_copy` for two-dimensional arrays."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


_DEBRUIJN = np.array([0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59,
                      36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60,
                      41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31,
                      10, 25, 14, 19, 9, 13, 8, 7, 6], np.int64)


@njit(cache=True, nogil=True, inline="always")
def _lowest(x: Any) -> Any:
    """The index of the lowest set bit of ``x`` (not 0): a de Bruijn multiplication."""
    low = x & (~x + uint64(1))
    return _DEBRUIJN[(low * uint64(0x03F79D71B4CB0A89)) >> uint64(58)]


@njit(cache=True, nogil=True, inline="always")
def _put(g: Any, may: Any, height: int, width: int, r: int, c: int, value: int) -> None:
    """Cell (r, c) takes ``value``, in the grid and in its lines' words (``may[0]`` the
    cells that may be empty, ``may[1]`` those that may be filled, one word a line, kept for
    lines of up to 63 cells): the bit-parallel line solver reads a line in two loads."""
    g[r * width + c] = value
    one = uint64(1)
    if width <= 63:
        bit = one << uint64(c)
        may[0, r] = (may[0, r] & ~bit) | (bit if value & EMPTY else uint64(0))
        may[1, r] = (may[1, r] & ~bit) | (bit if value & FILLED else uint64(0))
    if height <= 63:
        bit = one << uint64(r)
        line = height + c
        may[0, line] = (may[0, line] & ~bit) | (bit if value & EMPTY else uint64(0))
        may[1, line] = (may[1, line] & ~bit) | (bit if value & FILLED else uint64(0))


@hot
def _load(g: Any, may: Any, height: int, width: int) -> None:
    """Every line's words from the grid (:func:`_put`)."""
    may[:, :] = 0
    one = uint64(1)
    for r in range(height):
        for c in range(width):
            v = g[r * width + c]
            if v & EMPTY:
                may[0, r] |= one << uint64(c % 64)
                may[0, height + c] |= one << uint64(r % 64)
            if v & FILLED:
                may[1, r] |= one << uint64(c % 64)
                may[1, height + c] |= one << uint64(r % 64)


@njit(cache=True, nogil=True, inline="always")
def _change(g: Any, may: Any, height: int, width: int, r: int, c: int, value: int,
            trail: Any, top: Any, queue: Any, queued: Any, cross: int, tail: int,
            lines: int) -> tuple[int, int]:
    """Cell (r, c) narrows to ``value``: on the trail, and its crossing line queued unless
    it is already; returns the queue's new tail and how many lines were queued (0 or 1)."""
    _put(g, may, height, width, r, c, value)
    trail[top[0]] = r * width + c
    top[0] += 1
    if queued[cross]:
        return tail, 0
    queued[cross] = True
    queue[tail] = cross
    return (tail + 1) % lines, 1


@hot
def propagate(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
              queue: Any, queued: Any, work: Any, tmp: Any) -> bool:
    """Solve the queued lines (``queued[line]`` set; rows are lines 0..height-1, columns
    after them) until none changes; False on a contradiction. ``queue`` holds the queued
    lines' numbers (room for every line); the queue is empty again when this returns.
    ``tmp`` is :func:`scratch`'s: the cells changed go on its trail, the lines solved into
    its ``touched`` bits (added to, not cleared), and the line words (:func:`_put`) must
    match ``g``."""
    cells, fs, ff, bs, bf, trail, top, touched, may, cline, centry, sweep, wt, wcache = tmp[:14]
    mask = uint64(CACHE - 1)
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
        touched[line >> 6] |= one << uint64(line & 63)
        if line < height:
            n, base, step = width, line * width, 1
        else:
            n, base, step = height, line - height, width
        work[LINES] += 1
        c0 = starts[line]
        k = counts[line]
        if n <= 63:
            work[COST] += n
            can_empty = may[0, line]
            can_fill = may[1, line]
            h = (uint64(line + 1) * uint64(0x9E3779B97F4A7C15)
                 ^ can_empty * uint64(0xBF58476D1CE4E5B9) ^ can_fill * uint64(0x94D049BB133111EB))
            slot = np.int64((h ^ (h >> uint64(29))) & mask)
            if (cline[slot] >> 1 == line and centry[slot, 0] == can_empty
                    and centry[slot, 1] == can_fill):
                good = cline[slot] & 1 == 1
                may_empty = centry[slot, 2]
                may_fill = centry[slot, 3]
            else:
                good, may_empty, may_fill = narrow64(clues, c0, k, n, can_empty, can_fill,
                                                     fs, ff, bs, bf)
                cline[slot] = 2 * line + (1 if good else 0)
                centry[slot, 0] = can_empty
                centry[slot, 1] = can_fill
                centry[slot, 2] = may_empty
                centry[slot, 3] = may_fill
            if not good:
                ok = False
                continue
            changed = (can_empty ^ may_empty) | (can_fill ^ may_fill)
            while changed:
                i = _lowest(changed)
                changed &= changed - one
                v = ((may_empty >> uint64(i)) & one) | (((may_fill >> uint64(i)) & one) << one)
                if line < height:
                    tail, added = _change(g, may, height, width, line, i, v, trail, top,
                                          queue, queued, height + i, tail, lines)
                else:
                    tail, added = _change(g, may, height, width, i, line - height, v, trail,
                                          top, queue, queued, i, tail, lines)
                pending += added
            continue
        # past 63 cells: the same solver on several words a line, the line gathered from
        # the grid (no words are kept for it); counted as its cells times one more than
        # its words, which keeps a unit of work near the same time as on one word
        # (Gettys's root: 5.3 ns a unit, against 5 ns on 25×25 puzzles)
        nw = n // 64 + 1
        work[COST] += n * (nw + 1)
        wide_empty, wide_fill = wt[0], wt[1]
        for i in range(nw):
            wide_empty[i] = uint64(0)
            wide_fill[i] = uint64(0)
        for i in range(n):
            v = g[base + i * step]
            cells[i] = v
            bit = one << uint64(i & 63)
            if v & EMPTY:
                wide_empty[i >> 6] |= bit
            if v & FILLED:
                wide_fill[i >> 6] |= bit
        may_empty_w, may_fill_w = wt[2], wt[3]
        h = uint64(line + 1) * uint64(0x9E3779B97F4A7C15)
        for i in range(nw):
            h = ((h ^ wide_empty[i]) * uint64(0xBF58476D1CE4E5B9)
                 ^ wide_fill[i] * uint64(0x94D049BB133111EB))
        # an entry: (line + 1) × 2 + whether it was consistent (0: empty), then the words
        # in (may be empty, may be filled) and out
        slot = np.int64((h ^ (h >> uint64(29))) & uint64(wcache.shape[0] - 1))
        went = wcache[slot]
        hit = went[0] >> uint64(1) == uint64(line + 1)
        if hit:
            for i in range(nw):
                if went[1 + i] != wide_empty[i] or went[1 + nw + i] != wide_fill[i]:
                    hit = False
                    break
        if hit:
            good = went[0] & uint64(1) == uint64(1)
            for i in range(nw):
                may_empty_w[i] = went[1 + 2 * nw + i]
                may_fill_w[i] = went[1 + 3 * nw + i]
        else:
            good = narrow_wide(clues[c0:], k, n, wide_empty, wide_fill, sweep, wt)
            went[0] = uint64(2 * (line + 1) + (1 if good else 0))
            for i in range(nw):
                went[1 + i] = wide_empty[i]
                went[1 + nw + i] = wide_fill[i]
                went[1 + 2 * nw + i] = may_empty_w[i]
                went[1 + 3 * nw + i] = may_fill_w[i]
        if not good:
            ok = False
            continue
        for i in range(n):
            v = (((may_empty_w[i >> 6] >> uint64(i & 63)) & one)
                 | (((may_fill_w[i >> 6] >> uint64(i & 63)) & one) << one))
            if v != cells[i]:
                if line < height:
                    tail, added = _change(g, may, height, width, line, i, v, trail, top,
                                          queue, queued, height + i, tail, lines)
                else:
                    tail, added = _change(g, may, height, width, i, line - height, v,
                                          trail, top, queue, queued, i, tail, lines)
                pending += added
    return ok


@njit(cache=True, nogil=True, inline="always")
def _queue_cell(queued: Any, height: int, width: int, cell: int) -> None:
    """Queue the row and the column of ``cell``."""
    queued[cell // width] = True
    queued[height + cell % width] = True


@njit(cache=True, nogil=True, inline="always")
def _mark(memo: Any, height: int, width: int, cell: int) -> None:
    """``cell`` is about to be fixed for good: its row and column change at the next
    stamp (:func:`_stamp`)."""
    lstamp, clock = memo[LINE_CHANGED], memo[CLOCK]
    lstamp[cell // width] = clock[0] + 1
    lstamp[height + cell % width] = clock[0] + 1


@hot
def _stamp(memo: Any, tmp: Any, height: int, width: int) -> None:
    """A new stamp for the lines the last propagation changed (and those marked since the
    last stamp): every probe that solved one of them must run again."""
    lstamp, clock = memo[LINE_CHANGED], memo[CLOCK]
    clock[0] += 1
    now = clock[0]
    trail, top = tmp[TRAIL], tmp[TRAIL_LEN]
    for i in range(top[0]):
        t = trail[i]
        lstamp[t // width] = now
        lstamp[height + t % width] = now


@njit(cache=True, nogil=True, inline="always")
def _still_valid(memo: Any, c: int) -> bool:
    """Whether cell ``c``'s last probes would give the same again: they ran (``pstamp``),
    and none of the lines they solved has changed since (a probe's propagation depends on
    nothing else), so it can be skipped (nonosolve's rule)."""
    when = memo[PROBED_AT][c]
    return when != 0 and unchanged_since(memo[PROBE_LINES][c], memo[LINE_CHANGED], when)


@njit(cache=True, nogil=True, inline="always")
def unchanged_since(lines: Any, changed: Any, when: int) -> bool:
    """Whether none of the lines in the bit set ``lines`` changed after ``when`` (``changed``:
    when each line last changed): a probe's memory is still good (this search's and the
    colour one's)."""
    for w in range(lines.shape[0]):
        x = lines[w]
        while x:
            if changed[w * 64 + _lowest(x)] > when:
                return False
            x &= x - uint64(1)
    return True


@hot
def _settle(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
            queue: Any, queued: Any, work: Any, tmp: Any, memo: Any, cell: int,
            value: int) -> bool:
    """Cell ``cell`` takes ``value`` for good; propagate from its row and column."""
    _put(g, tmp[WORDS], height, width, cell // width, cell % width, value)
    _queue_cell(queued, height, width, cell)
    _mark(memo, height, width, cell)
    ok = propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)
    _stamp(memo, tmp, height, width)
    return ok


@hot
def _probe_one(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
               queue: Any, queued: Any, work: Any, tmp: Any, c: int, value: int,
               cells_out: Any, values_out: Any) -> int:
    """Cell ``c`` set to ``value`` and propagated, then undone: the cells that changed and
    their values go to ``cells_out``/``values_out``; returns how many (``c`` among them),
    or -1 on a contradiction. Only open cells ever change, so undoing is setting the
    trail's cells open again: no copy of the grid."""
    trail, top = tmp[TRAIL], tmp[TRAIL_LEN]
    # set and queued here rather than through _settle: that extra call made the whole
    # search a quarter slower (every tenth tcga2015 puzzle, 5.2 s against 4.1 s)
    may = tmp[WORDS]
    _put(g, may, height, width, c // width, c % width, value)
    _queue_cell(queued, height, width, c)
    ok = propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)
    n = top[0]
    cells_out[0] = c
    values_out[0] = value
    for i in range(n):
        t = trail[i]
        cells_out[i + 1] = t
        values_out[i + 1] = g[t]
        _put(g, may, height, width, t // width, t % width, OPEN)
    _put(g, may, height, width, c // width, c % width, OPEN)
    return n + 1 if ok else -1


@hot
def probe(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
          queue: Any, queued: Any, work: Any, tmp: Any, memo: Any, score: Any, stop: int,
          at: Any) -> int:
    """Probe the open cells both ways, round and round, until a whole round changes
    nothing: 1, or 0 on a contradiction, or 2 when ``work[COST]`` passed ``stop`` first
    (what was fixed so far holds, and ``at`` — the next cell and how many cells in a row
    changed nothing — says where to go on). A value whose propagation contradicts is ruled
    out, and what both values' propagations agree on is fixed (the fixpoint is the same
    whatever the order). ``score[cell]`` is left at (1 + cells fixed by filling) × (1 +
    cells fixed by emptying) for each cell still open, from the last round, in which
    nothing changed: what the search branches on. A cell whose probes would give the same
    again (:func:`_still_valid`) is not probed again: ``memo`` is when each cell was probed
    and the lines its probes solved, and when each line last changed."""
    pstamp, ptouched, clock = memo[PROBED_AT], memo[PROBE_LINES], memo[CLOCK]
    touched = tmp[TOUCHED]
    cells = height * width
    c1, v1, c0, v0 = tmp[PROBED]
    seen = tmp[SEEN]  # the value the filling probe gave, 0 for none (left all 0)
    while at[1] < cells:
        c = at[0]
        if g[c] != OPEN:
            score[c] = 0
            at[0] = (c + 1) % cells
            at[1] += 1
            continue
        if _still_valid(memo, c):
            at[0] = (c + 1) % cells
            at[1] += 1
            continue
        if work[COST] >= stop:
            return 2
        at[0] = (c + 1) % cells
        at[1] += 1
        touched[:] = 0
        n1 = _probe_one(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                        c, FILLED, c1, v1)
        n0 = _probe_one(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                        c, EMPTY, c0, v0)
        if n1 < 0 and n0 < 0:
            return 0
        if n1 < 0 or n0 < 0:
            if not _settle(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                           memo, c, EMPTY if n1 < 0 else FILLED):
                return 0
            at[1] = 0
            score[c] = 0
            continue
        pstamp[c] = clock[0]
        _copy(ptouched[c], touched)
        # what both agree on: a cell changed by both probes to the same value
        for i in range(n1):
            seen[c1[i]] = v1[i]
        agreed = False
        for i in range(n0):
            t = c0[i]
            if seen[t] == v0[i]:
                _put(g, tmp[WORDS], height, width, t // width, t % width, v0[i])
                _queue_cell(queued, height, width, t)
                _mark(memo, height, width, t)
                agreed = True
        for i in range(n1):
            seen[c1[i]] = 0
        if agreed:
            at[1] = 0
            ok = propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)
            _stamp(memo, tmp, height, width)
            if not ok:
                return 0
            if g[c] != OPEN:
                score[c] = 0
                continue
        score[c] = (1 + n1) * (1 + n0)
    return 1


@njit(cache=True, nogil=True)
def implications(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
                 queue: Any, queued: Any, work: Any, tmp: Any, out: Any) -> int:
    """What each probe of ``g``'s open cells implies: for every open cell and value, the
    cells its propagation fixes, as rows ``(a, b)`` of ``out`` meaning "a implies b", each
    literal ``2 × cell + 1`` for filled and ``2 × cell`` for empty, and ``b`` = -1 when
    ``a`` contradicts. Returns how many rows (at most ``len(out)``: the rest are left out).
    ``g`` is left as it was; its line words are loaded here, and ``queued`` must be clear.
    nonosolve gives the same binary clauses to its SAT solver ("probe clauses")."""
    _load(g, tmp[WORDS], height, width)
    cells = height * width
    fixed = np.empty(cells + 1, np.int64)
    values = np.empty(cells + 1, np.uint8)
    n = 0
    room = len(out)
    for c in range(cells):
        if g[c] != OPEN:
            continue
        for value in (FILLED, EMPTY):
            k = _probe_one(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                           c, value, fixed, values)
            a = 2 * c + (1 if value == FILLED else 0)
            if k < 0:
                if n < room:
                    out[n, 0] = a
                    out[n, 1] = -1
                    n += 1
                continue
            for i in range(1, k):  # fixed[0] is c itself
                if n == room:
                    return n
                out[n, 0] = a
                out[n, 1] = 2 * fixed[i] + (1 if values[i] == FILLED else 0)
                n += 1
    return n


@hot
def settle_lines(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
                 queue: Any, queued: Any, work: Any, tmp: Any) -> bool:
    """Line logic alone on the queued lines of ``g`` (no probing); False on a
    contradiction."""
    _load(g, tmp[WORDS], height, width)
    return propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp)


@hot
def search(stack: Any, branch: Any, other: Any, state: Any, height: int, width: int,
           clues: Any, starts: Any, counts: Any, queue: Any, queued: Any, work: Any,
           score: Any, solution: Any, budget: int, memo: Any, saved: Any, tmp: Any) -> int:
    """Depth-first search with probing at every node, resumed from ``state`` (its entries
    by name: :data:`LEVEL`, :data:`PHASE`, where probing is): ``stack[d]``
    is level d's grid, ``branch[d]`` its branch cell and ``other[d]`` the value still to
    try there (0 when both were). Runs until a solution (:data:`FOUND`, the grid in
    ``solution``), the end of the tree (:data:`DONE`) or ``work[COST]`` passing
    ``budget`` (:data:`SLICE`). Level 0 starts as the given grid (all its lines queued) and
    stays the root's probed fixpoint. ``memo`` is what probing remembers (:func:`probe`);
    ``saved[...][d]`` is level d's, kept when it branches and given back when its other
    value is tried, with its scores. With ``state[RESTART]`` set the search starts again
    from the root now and then (:data:`satnono.logic.compiled.RESTARTS`), and a solution may
    come again in a later run: the caller drops repeats. A run that ends the tree has
    given every solution."""
    cells = height * width
    if state[LEVEL] >= 0 and state[PHASE] != 1:  # a new node loads its own below
        _load(stack[state[LEVEL]], tmp[WORDS], height, width)
    while True:
        d = state[LEVEL]
        if state[PHASE]:
            if d + 1 >= stack.shape[0]:
                return GROW
            if state[PHASE] == 1 and d > 0 and state[RESTART] > 0:
                state[RUN_NODES] += 1
                if state[RUN_NODES] > state[RESTART] * _luby(state[RUN]):
                    # a restart: the root again as it was probed (its probes skipped, its
                    # scores back), the next run's node budget, noise and value order
                    for line in range(height + width):
                        queued[line] = False
                    _recall(memo, score, saved, 0)
                    state[RUN] += 1
                    state[RUN_NODES] = 0
                    state[LEVEL] = 0
                    state[PHASE] = 2
                    state[PROBE_CELL] = 0
                    state[PROBE_QUIET] = 0
                    _load(stack[0], tmp[WORDS], height, width)
                    continue
            g = stack[d]
            ok = True
            if state[PHASE] == 1:  # a new node: propagate, then probe from its first cell
                _load(g, tmp[WORDS], height, width)
                ok = propagate(g, height, width, clues, starts, counts, queue, queued, work,
                               tmp)
                _stamp(memo, tmp, height, width)
                state[PROBE_CELL] = 0
                state[PROBE_QUIET] = 0
            state[PHASE] = 0
            if ok:
                probed = probe(g, height, width, clues, starts, counts, queue, queued, work,
                               tmp, memo, score, budget, state[PROBE_CELL:])
                if probed == 2:  # this node again, probing on from where it stopped
                    state[PHASE] = 2
                    return SLICE
                ok = probed == 1
            work[NODES] += 1
            if d == 0:
                work[ROOT] = 1 if ok else 2
            if d > work[DEPTH]:
                work[DEPTH] = d
            if ok:
                best = -1
                top = 0.0
                noisy = state[RUN] >= 2
                for c in range(cells):
                    if g[c] == OPEN and score[c] > 0:
                        sc = float(score[c])
                        if noisy:
                            sc *= 1.0 + NOISE * _random(state)
                        if sc > top:
                            top = sc
                            best = c
                if best < 0:
                    for c in range(cells):
                        if g[c] == OPEN:
                            best = c
                            break
                if best < 0:  # solved
                    _copy(solution, g)
                    if not _backtrack(stack, branch, other, state, height, width, queued,
                                      memo, score, saved):
                        state[LEVEL] = -1
                    return FOUND
                first = FILLED if state[RUN] % 2 == 0 else EMPTY
                branch[d] = best
                other[d] = FILLED + EMPTY - first
                _keep(memo, score, saved, d)
                _copy(stack[d + 1], g)
                stack[d + 1, best] = first
                _queue_cell(queued, height, width, best)
                _mark(memo, height, width, best)
                state[LEVEL] = d + 1
                state[PHASE] = 1
            elif not _backtrack(stack, branch, other, state, height, width, queued, memo,
                                score, saved):
                state[LEVEL] = -1
                return DONE
        elif d < 0:
            return DONE
        if work[COST] >= budget:
            return SLICE


@hot
def _luby(i: int) -> int:
    """The i-th term (from 0) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 …"""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


@njit(cache=True, nogil=True, inline="always")
def _random(state: Any) -> float:
    """A number in [0, 1) from the xorshift generator in ``state[SEED]``."""
    x = uint64(state[SEED])
    x ^= x << uint64(13)
    x ^= x >> uint64(7)
    x ^= x << uint64(17)
    state[SEED] = np.int64(x)
    return float(x >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def _keep(memo: Any, score: Any, saved: Any, d: int) -> None:
    """Level d is about to branch: keep what its probes were, with its scores, for when
    the search comes back to it (if there is room for that level)."""
    if d < saved[PROBED_AT].shape[0]:
        _copy(saved[PROBED_AT][d], memo[PROBED_AT])
        _copy2(saved[PROBE_LINES][d], memo[PROBE_LINES])
        _copy(saved[LINE_CHANGED][d], memo[LINE_CHANGED])
        _copy(saved[SAVED_SCORE][d], score)


@njit(cache=True, nogil=True, inline="always")
def _recall(memo: Any, score: Any, saved: Any, d: int) -> None:
    """Back at level d (its other value, or the root after a restart): what :func:`_keep`
    kept; without room for that level, every cell is probed again."""
    if d < saved[PROBED_AT].shape[0]:
        _copy(memo[PROBED_AT], saved[PROBED_AT][d])
        _copy2(memo[PROBE_LINES], saved[PROBE_LINES][d])
        _copy(memo[LINE_CHANGED], saved[LINE_CHANGED][d])
        _copy(score, saved[SAVED_SCORE][d])
    else:
        memo[PROBED_AT][:] = 0


@hot
def _backtrack(stack: Any, branch: Any, other: Any, state: Any, height: int, width: int,
               queued: Any, memo: Any, score: Any, saved: Any) -> bool:
    """Go up to the deepest level with a value still to try and set up its child, with
    what probing remembered at that level; False when there is none (the tree is done)."""
    d = state[LEVEL] - 1
    while d >= 0:
        v = other[d]
        if v:
            other[d] = 0
            c = branch[d]
            _copy(stack[d + 1], stack[d])
            stack[d + 1, c] = v
            _queue_cell(queued, height, width, c)
            _recall(memo, score, saved, d)
            _mark(memo, height, width, c)
            state[LEVEL] = d + 1
            state[PHASE] = 1
            return True
        d -= 1
    return False
