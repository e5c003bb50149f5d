"""Compiled line logic and search for colour puzzles: the colour line solver, propagation,
probing to a fixpoint and a depth-first search that probes at every node, in machine code
through Numba — :mod:`.kernel`'s method with a cell's colours for its two values.

A grid is an ``int64`` array of ``height × width`` cells, row by row, each the set of
colours it may still take: bit 0 the background, bit c block colour c (so up to 62 block
colours; a cell of one bit is decided, 0 is a contradiction). Clues are two flat arrays
(block lengths, block colours) with each line's start and length, rows first, then columns.

The line solver is the Python colour solver's (:func:`satnono.logic.line.narrow_colour`)
on machine words, one word per colour for a line of up to 63 cells and several past that
(a subtraction's borrow runs over each stretch of cells that may be background, as in black
and white, across words with :mod:`.kernel`'s word operations). Two blocks of the same colour need a
background cell between them, blocks of different colours may touch; each cell keeps the
colours some placement consistent with the line gives it. Probing tries each colour a cell
may take, rules out those whose propagation contradicts, and narrows every cell that all
surviving branches changed to what they left it (the union of their colours there), as the
Python probe does.

The search is resumable as :func:`.kernel.search` is: its stack of grids, each level's
branch cell and the colours tried there live in arrays the caller keeps, and
:func:`search` returns after each solution and after a slice of work.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

# the search's answers and the counters in ``work`` are the black-and-white search's
from .kernel import COST as COST
from .kernel import DEPTH as DEPTH
from .kernel import DONE as DONE
from .kernel import FOUND as FOUND
from .kernel import GROW as GROW
from .kernel import LINES as LINES
from .kernel import NODES as NODES
from .kernel import ROOT as ROOT
from .kernel import SLICE as SLICE
from .kernel import (
    _copy,
    _low,
    _reverse,
    _reverse_w,
    _runs,
    _shl,
    _shr,
    _smear,
    _smear_w,
    _windows,
    _windows_w,
    hot,
    unchanged_since,
)

# the search's ``state``, by name: the level; its phase (NEW a node to propagate, PROBING
# its probing under way, BRANCH the next colour of its branch cell to try, BACK back to
# the level above); where probing is (the next cell, and how many cells in a row changed
# nothing); the stamp probing marks cells with
LEVEL, PHASE, PROBE_CELL, PROBE_QUIET, TICK = range(5)
NEW, PROBING, BRANCH, BACK = 1, 2, 3, 4
# the scratch arrays of :func:`scratch`, by name
(SWEEP, WIDE_MASKS, WIDE_TMP, OUT, QUEUE, QUEUED, QSTATE, TRAIL_CELL, TRAIL_OLD, TRAIL_LEN,
 COUNT, UNION, STAMP, SEEN, WORDS, MASKS, PROBE_BITS) = range(17)
# what probing remembers (:func:`memory`; nonosolve's rule, as :func:`.kernel.probe` has
# it): when each cell's probes last ran and changed nothing, in which node (its id and
# level) and which lines they solved (bits); when each line last changed; each level's node
# id on the current path; the clocks (changes, nodes). Kept apart from the scratch arrays,
# which every line solve is handed: a larger tuple there costs every call
PROBED_AT, PROBED_NODE, PROBED_LEVEL, PROBE_LINES, LINE_CHANGED, PATH, CLOCKS = range(7)


def scratch(height: int, width: int, counts: Any, colours: int) -> tuple[Any, ...]:
    """The work arrays of a search (allocated once per puzzle)."""
    n = max(height, width)
    k = int(counts.max()) if len(counts) else 0
    nw = n // 64 + 1  # words a line and its end marker take past 63 cells
    cells = height * width
    lines = height + width
    return (np.zeros((4, k + 2, nw), np.uint64), np.zeros((3, colours + 1, nw), np.uint64),
            np.zeros((12, nw), np.uint64), np.zeros(n + 1, np.int64),
            np.zeros(lines, np.int64), np.zeros(lines, np.bool_),
            np.zeros(2, np.int64), np.zeros(cells * (colours + 2), np.int64),
            np.zeros(cells * (colours + 2), np.int64), np.zeros(1, np.int64),
            np.zeros(cells, np.int64), np.zeros(cells, np.int64), np.zeros(cells, np.int64),
            np.zeros(cells, np.int64), np.zeros((4, k + 2), np.uint64),
            np.zeros((3, colours + 1), np.uint64), np.zeros((lines + 63) // 64, np.uint64))


def memory(height: int, width: int) -> tuple[Any, ...]:
    """What probing remembers between probes (:data:`PROBED_AT` …), made once per search."""
    cells = height * width
    lines = height + width
    return (np.zeros(cells, np.int64), np.zeros(cells, np.int64), np.zeros(cells, np.int64),
            np.zeros((cells, (lines + 63) // 64), np.uint64), np.zeros(lines, np.int64),
            np.zeros(cells + 2, np.int64), np.ones(2, np.int64))


@hot
def _forward64(sizes: Any, cols: Any, s0: int, k: int, step: int, n: int, may: Any,
               starts: Any, free: Any) -> bool:
    """:func:`satnono.logic.line._forward_colour` on a machine word (lines of up to 63
    cells): left to right (``step`` 1) or right to left over the blocks, ``may[c]`` the
    cells that may take colour c in the direction of travel."""
    one = uint64(1)
    can_empty = may[0]
    blockers = ((~can_empty) & ((one << uint64(n)) - one)) | (one << uint64(n))
    ready = ((blockers - (one & can_empty)) ^ blockers) | one
    free[0] = ready
    for jj in range(k):
        j = jj if step > 0 else k - 1 - jj
        b = sizes[s0 + j]
        colour = cols[s0 + j]
        s = ready & _windows(may[colour], b)
        if s == 0:
            return False
        starts[jj] = s
        ends = s << uint64(b)
        after = ((blockers - (ends & can_empty)) ^ blockers) | ends
        free[jj + 1] = after
        if jj + 1 < k and cols[s0 + j + step] != colour:
            ready = after  # the next block may touch this one
        else:
            seeds = (ends & can_empty) << one
            ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    return bool((free[k] >> uint64(n)) & one != 0)


@hot
def _line64(g: Any, base: int, step: int, n: int, sizes: Any, cols: Any, s0: int, k: int,
            colours: int, tmp: Any) -> int:
    """:func:`satnono.logic.line.narrow_colour` on machine words for a line of up to 63
    cells: its cells gathered into a word per colour, both directions run, the answer
    scattered back into ``tmp[OUT]``; the line's length, or -1."""
    words, masks = tmp[WORDS], tmp[MASKS]
    may, rev, out = masks[0], masks[1], masks[2]
    one = uint64(1)
    for c in range(colours + 1):
        m = uint64(0)
        for p in range(n):
            if g[base + p * step] >> c & 1:
                m |= one << uint64(p)
        may[c] = m
        rev[c] = _reverse(m, n)
    if not _forward64(sizes, cols, s0, k, 1, n, may, words[0], words[1]):
        return -1
    if not _forward64(sizes, cols, s0, k, -1, n, rev, words[2], words[3]):
        return -1
    full = (one << uint64(n)) - one
    for c in range(colours + 1):
        out[c] = 0
    for j in range(k):
        b = sizes[s0 + j]
        s = words[0, j] & (_reverse(words[2, k - 1 - j], n) >> uint64(b - 1))
        out[cols[s0 + j]] |= _smear(s, b)
    background = uint64(0)
    for j in range(k + 1):
        background |= words[1, j] & _reverse(words[3, k - j] & full, n)
    out[0] = background & may[0]
    cells = tmp[OUT]
    for p in range(n):
        v = 0
        for c in range(colours + 1):
            if (out[c] >> uint64(p)) & one:
                v |= 1 << c
        cells[p] = v
    return n


@njit(cache=True, nogil=True)
def _forward_w(sizes: Any, cols: Any, s0: int, k: int, step: int, n: int, nw: int, may: Any,
               starts: Any, free: Any, wt: Any) -> bool:
    """:func:`_forward64` on ``nw`` words a line (lines past 63 cells; ``wt``: scratch
    rows), with :mod:`.kernel`'s word operations."""
    blockers, ready, win, ends, t = wt[0], wt[1], wt[2], wt[3], wt[4]
    can_empty = may[0]
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
        j = jj if step > 0 else k - 1 - jj
        b = sizes[s0 + j]
        colour = cols[s0 + j]
        _windows_w(may[colour], b, win, t, nw)
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
        if jj + 1 < k and cols[s0 + j + step] != colour:
            for i in range(nw):  # the next block may touch this one
                ready[i] = free[jj + 1, i]
        else:
            _shl(t, 1, win, nw)  # the seeds: a gap after each end
            for i in range(nw):
                t[i] = win[i] & can_empty[i]
            _runs(blockers, t, ready, nw)
            for i in range(nw):
                ready[i] |= win[i]
    return bool((free[k, n >> 6] >> uint64(n & 63)) & uint64(1) != 0)


@hot
def _line_wide(g: Any, base: int, step: int, n: int, sizes: Any, cols: Any, s0: int, k: int,
               colours: int, tmp: Any) -> int:
    """:func:`_line64` on ``n // 64 + 1`` words a colour (lines of any length): the same
    answer in ``tmp[OUT]``, the line's length, or -1."""
    nw = n // 64 + 1
    masks, wt, sweep = tmp[WIDE_MASKS], tmp[WIDE_TMP], tmp[SWEEP]
    may, rev, out = masks[0], masks[1], masks[2]
    one = uint64(1)
    for c in range(colours + 1):
        row = may[c]
        for i in range(nw):
            row[i] = uint64(0)
        for p in range(n):
            if g[base + p * step] >> c & 1:
                row[p >> 6] |= one << uint64(p & 63)
        _reverse_w(row, n, rev[c], wt[6], nw)
    fs, ff, bs, bf = sweep[0], sweep[1], sweep[2], sweep[3]
    if not _forward_w(sizes, cols, s0, k, 1, n, nw, may, fs, ff, wt):
        return -1
    if not _forward_w(sizes, cols, s0, k, -1, n, nw, rev, bs, bf, wt):
        return -1
    t1, t2, t3, background = wt[7], wt[8], wt[9], wt[10]
    for c in range(colours + 1):
        for i in range(nw):
            out[c, i] = uint64(0)
    for j in range(k):
        b = sizes[s0 + j]
        _reverse_w(bs[k - 1 - j], n, t1, t2, nw)
        _shr(t1, b - 1, t2, nw)
        for i in range(nw):
            t2[i] &= fs[j, i]
        _smear_w(t2, b, t1, t3, nw)
        colour = cols[s0 + j]
        for i in range(nw):
            out[colour, i] |= t1[i]
    for i in range(nw):
        background[i] = uint64(0)
    for j in range(k + 1):
        for i in range(nw):
            t3[i] = bf[k - j, i] & _low(n, i)
        _reverse_w(t3, n, t1, t2, nw)
        for i in range(nw):
            background[i] |= ff[j, i] & t1[i]
    for i in range(nw):
        out[0, i] = background[i] & may[0, i]
    cells = tmp[OUT]
    for p in range(n):
        v = 0
        w, bit = p >> 6, uint64(p & 63)
        for c in range(colours + 1):
            if (out[c, w] >> bit) & one:
                v |= 1 << c
        cells[p] = v
    return n


@hot
def _line(g: Any, line: int, height: int, width: int, sizes: Any, cols: Any, starts: Any,
          counts: Any, colours: int, tmp: Any) -> int:
    """Narrow ``line``'s cells into ``tmp[OUT]``; returns the line's length, or -1 when no
    placement of its blocks fits what its cells may take."""
    if line < height:
        n, base, step = width, line * width, 1
    else:
        n, base, step = height, line - height, width
    if n <= 63:
        return _line64(g, base, step, n, sizes, cols, starts[line], counts[line], colours,
                       tmp)
    return _line_wide(g, base, step, n, sizes, cols, starts[line], counts[line], colours, tmp)


@njit(cache=True, nogil=True)
def narrow(g: Any, line: int, height: int, width: int, sizes: Any, cols: Any, starts: Any,
           counts: Any, colours: int, tmp: Any, wide: bool = False) -> Any:
    """One line solved on its own (for tests): its cells' new colour sets, or an empty
    array for a contradiction. ``wide`` runs the solver on several words a colour
    (:func:`_line_wide`) on a line of any length, so brute force can check it on short
    lines."""
    if wide:
        if line < height:
            n, base, step = width, line * width, 1
        else:
            n, base, step = height, line - height, width
        n = _line_wide(g, base, step, n, sizes, cols, starts[line], counts[line], colours, tmp)
    else:
        n = _line(g, line, height, width, sizes, cols, starts, counts, colours, tmp)
    if n < 0:
        return np.zeros(0, np.int64)
    return tmp[OUT][:n].copy()


@njit(cache=True, nogil=True, inline="always")
def _push(line: int, tmp: Any) -> None:
    queue, queued, qs = tmp[QUEUE], tmp[QUEUED], tmp[QSTATE]
    if not queued[line]:
        queued[line] = True
        lines = queue.shape[0]
        queue[(qs[0] + qs[1]) % lines] = line
        qs[1] += 1


@njit(cache=True, nogil=True, inline="always")
def _push_cell(cell: int, height: int, width: int, tmp: Any) -> None:
    _push(cell // width, tmp)
    _push(height + cell % width, tmp)


@hot
def _clear(tmp: Any) -> None:
    queue, queued, qs = tmp[QUEUE], tmp[QUEUED], tmp[QSTATE]
    lines = queue.shape[0]
    while qs[1] > 0:
        queued[queue[qs[0]]] = False
        qs[0] = (qs[0] + 1) % lines
        qs[1] -= 1


@hot
def propagate(g: Any, height: int, width: int, sizes: Any, cols: Any, starts: Any,
              counts: Any, colours: int, work: Any, tmp: Any) -> bool:
    """Solve the queued lines until none is left (False: a contradiction, the queue
    emptied); every cell changed goes on the trail with what it was."""
    queue, queued, qs, out = tmp[QUEUE], tmp[QUEUED], tmp[QSTATE], tmp[OUT]
    tc, to, tl = tmp[TRAIL_CELL], tmp[TRAIL_OLD], tmp[TRAIL_LEN]
    lines = queue.shape[0]
    while qs[1] > 0:
        line = queue[qs[0]]
        qs[0] = (qs[0] + 1) % lines
        qs[1] -= 1
        queued[line] = False
        n = _line(g, line, height, width, sizes, cols, starts, counts, colours, tmp)
        work[LINES] += 1
        k = counts[line]
        if n < 0:
            work[COST] += (height if line >= height else width) * (k + 1)
            _clear(tmp)
            return False
        work[COST] += n * (k + 1)
        if line < height:
            base, step = line * width, 1
        else:
            base, step = line - height, width
        for p in range(n):
            cell = base + p * step
            if out[p] != g[cell]:
                tc[tl[0]] = cell
                to[tl[0]] = g[cell]
                tl[0] += 1
                g[cell] = out[p]
                if line < height:
                    _push(height + p, tmp)
                else:
                    _push(p, tmp)
    return True


@hot
def settle_lines(g: Any, height: int, width: int, sizes: Any, cols: Any, starts: Any,
                 counts: Any, colours: int, work: Any, tmp: Any) -> bool:
    """Line logic over every line to a fixpoint."""
    for line in range(height + width):
        _push(line, tmp)
    tmp[TRAIL_LEN][0] = 0
    return propagate(g, height, width, sizes, cols, starts, counts, colours, work, tmp)


@njit(cache=True, nogil=True, inline="always")
def _changed(cell: int, height: int, width: int, memo: Any) -> None:
    """``cell`` changed for good: its row and column carry the change clock's time."""
    at = memo[CLOCKS][0]
    memo[LINE_CHANGED][cell // width] = at
    memo[LINE_CHANGED][height + cell % width] = at


@hot
def _trail_changed(height: int, width: int, tmp: Any, memo: Any) -> None:
    """The cells on the trail changed for good (a node's propagation, or probing's)."""
    tc, tl = tmp[TRAIL_CELL], tmp[TRAIL_LEN]
    for i in range(tl[0]):
        _changed(tc[i], height, width, memo)


@njit(cache=True, nogil=True, inline="always")
def _touch(cell: int, height: int, width: int, lines: Any) -> None:
    """Add ``cell``'s row and column to the bit set ``lines``."""
    row = cell // width
    col = height + cell % width
    lines[row >> 6] |= uint64(1) << uint64(row & 63)
    lines[col >> 6] |= uint64(1) << uint64(col & 63)


@hot
def _still_valid(c: int, level: int, memo: Any) -> bool:
    """Whether cell ``c``'s last probes would give the same again: they ran in this node or
    one above it on the current path, and none of the lines they solved has changed since
    (a probe's propagation depends on nothing else)."""
    when = memo[PROBED_AT][c]
    at = memo[PROBED_LEVEL][c]
    if when == 0 or at > level or memo[PATH][at] != memo[PROBED_NODE][c]:
        return False
    return unchanged_since(memo[PROBE_LINES][c], memo[LINE_CHANGED], when)


@hot
def probe(g: Any, height: int, width: int, sizes: Any, cols: Any, starts: Any, counts: Any,
          colours: int, work: Any, tmp: Any, state: Any, score: Any, end: int,
          memo: Any) -> int:
    """Probe the open cells of ``g`` (a fixpoint of line logic) in turn until a whole round
    of them changes nothing: 1 then, 0 for a contradiction, 2 when ``end`` work is reached
    first (``state`` says where to go on from). ``score[c]`` is the product over the
    colours of cell c of one more than the cells their branch decided. A cell whose probes
    would give the same again (:func:`_still_valid`) is not probed again."""
    cells = height * width
    tc, to, tl = tmp[TRAIL_CELL], tmp[TRAIL_OLD], tmp[TRAIL_LEN]
    count, union, stamp, seen = tmp[COUNT], tmp[UNION], tmp[STAMP], tmp[SEEN]
    level = state[LEVEL]
    probe_lines = memo[PROBE_LINES]
    lines = tmp[PROBE_BITS]  # the lines the cell's probes solved
    while state[PROBE_QUIET] < cells:
        if work[COST] >= end:
            return 2
        c = state[PROBE_CELL]
        state[PROBE_CELL] = c + 1 if c + 1 < cells else 0
        m = g[c]
        if m & (m - 1) == 0 or _still_valid(c, level, memo):
            state[PROBE_QUIET] += 1
            continue
        lines[:] = 0
        branches = 0
        touched = 0
        product = 1.0
        bits = m
        while bits:
            b = bits & -bits
            bits ^= b
            tl[0] = 0
            tc[0] = c
            to[0] = m
            tl[0] = 1
            g[c] = b
            _push_cell(c, height, width, tmp)
            ok = propagate(g, height, width, sizes, cols, starts, counts, colours, work, tmp)
            state[TICK] += 1
            tick = state[TICK]
            for i in range(tl[0]):
                _touch(tc[i], height, width, lines)
            if ok:
                branches += 1
                gain = 0
                for i in range(tl[0]):
                    cell = tc[i]
                    if stamp[cell] == tick:
                        continue
                    stamp[cell] = tick
                    v = g[cell]
                    if v & (v - 1) == 0:
                        gain += 1
                    if branches == 1:
                        count[cell] = 1
                        union[cell] = v
                        seen[touched] = cell
                        touched += 1
                    elif count[cell] == branches - 1:
                        count[cell] = branches
                        union[cell] |= v
                product *= 1.0 + gain
            for i in range(tl[0] - 1, -1, -1):  # undo, last change first
                g[tc[i]] = to[i]
            tl[0] = 0
        if branches == 0:
            return 0
        changed = False
        for i in range(touched):
            cell = seen[i]
            if count[cell] == branches and union[cell] != g[cell]:
                if not changed:
                    memo[CLOCKS][0] += 1
                g[cell] = union[cell]
                _changed(cell, height, width, memo)
                _push_cell(cell, height, width, tmp)
                changed = True
            count[cell] = 0
        if changed:
            tl[0] = 0
            ok = propagate(g, height, width, sizes, cols, starts, counts, colours, work, tmp)
            _trail_changed(height, width, tmp, memo)
            if not ok:
                return 0
            state[PROBE_QUIET] = 0
        else:
            score[c] = product
            state[PROBE_QUIET] += 1
            memo[PROBED_AT][c] = memo[CLOCKS][0]
            memo[PROBED_NODE][c] = memo[PATH][level]
            memo[PROBED_LEVEL][c] = level
            _copy(probe_lines[c], lines)
    return 1


@njit(cache=True, nogil=True, inline="always")
def _failed(level: int, state: Any, work: Any) -> bool:
    """A node contradicted: back to the level above; True at the root (the clues
    contradict), whose end ends a slice."""
    state[PHASE] = BACK
    if level == 0:
        work[ROOT] = 2
        return True
    return False


@hot
def search(stack: Any, branch: Any, tried: Any, state: Any, height: int, width: int,
           sizes: Any, cols: Any, starts: Any, counts: Any, colours: int, work: Any,
           tmp: Any, score: Any, solution: Any, end: int, memo: Any) -> int:
    """Go on with the search until a solution (FOUND, in ``solution``), the end of the tree
    (DONE), ``end`` work (SLICE) or a full stack (GROW). Every node is propagated and
    probed to a fixpoint and branches on its best-scored open cell, a block colour before
    the background. The root's settling ends a slice of its own, so that the caller can
    stop there (``work[ROOT]``: 1 consistent, 2 a contradiction)."""
    cells = height * width
    while True:
        level = state[LEVEL]
        phase = state[PHASE]
        if level < 0:
            return DONE
        if phase == NEW:
            g = stack[level]
            tmp[TRAIL_LEN][0] = 0
            if level == 0:
                for line in range(height + width):
                    _push(line, tmp)
            else:
                _push_cell(branch[level - 1], height, width, tmp)
            work[NODES] += 1
            if level > work[DEPTH]:
                work[DEPTH] = level
            memo[CLOCKS][1] += 1  # this node's id, on the path at its level
            memo[PATH][level] = memo[CLOCKS][1]
            memo[CLOCKS][0] += 1  # the branch cell and what propagation changes: new lines
            if level > 0:
                _changed(branch[level - 1], height, width, memo)
            ok = propagate(g, height, width, sizes, cols, starts, counts, colours, work, tmp)
            _trail_changed(height, width, tmp, memo)
            if ok:
                state[PHASE] = PROBING
                state[PROBE_CELL] = 0
                state[PROBE_QUIET] = 0
            elif _failed(level, state, work):
                return SLICE
            continue
        if phase == PROBING:
            g = stack[level]
            r = probe(g, height, width, sizes, cols, starts, counts, colours, work, tmp,
                      state, score, end, memo)
            if r == 2:
                return SLICE
            if r == 0:
                if _failed(level, state, work):
                    return SLICE
                continue
            best = -1
            top = -1.0
            for c in range(cells):
                m = g[c]
                if m & (m - 1) != 0 and score[c] > top:
                    top = score[c]
                    best = c
            if best < 0:
                _copy(solution, g)
                state[PHASE] = BACK
                if level == 0:
                    work[ROOT] = 1
                return FOUND
            branch[level] = best
            tried[level] = 0
            state[PHASE] = BRANCH
            if level == 0:
                work[ROOT] = 1
                return SLICE
            continue
        if phase == BACK:
            if level == 0:
                state[LEVEL] = -1
                return DONE
            state[LEVEL] = level - 1
            state[PHASE] = BRANCH
            continue
        # BRANCH: the next colour of the branch cell
        if work[COST] >= end:
            return SLICE
        c = branch[level]
        left = stack[level][c] & ~tried[level]
        if left == 0:
            state[PHASE] = BACK
            continue
        b = np.int64(1)  # the highest colour first
        while b * 2 <= left:
            b *= 2
        tried[level] |= b
        if level + 1 >= stack.shape[0]:
            tried[level] ^= b
            return GROW
        _copy(stack[level + 1], stack[level])
        stack[level + 1][c] = b
        state[LEVEL] = level + 1
        state[PHASE] = NEW
