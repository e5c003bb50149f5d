"""Compiled exact counting of a black-and-white grid's solutions: the depth-first search of
:mod:`.kernel` (line logic and probing at every node) counting its leaves instead of
listing them, and counting independent parts of the grid apart and multiplying.

Independent parts (component decomposition: Bayardo & Pehoushek, "Counting Models Using
Connected Components", AAAI 2000, as #SAT counters do) come from the lines. A line whose
known cells pin down which of its blocks lie left of a cell and which right — no block can
reach over that cell (its leftmost and rightmost placements say so) — falls into stretches
that are filled independently of each other; open cells that share a stretch of a row or a
column belong together, and the parts this makes have no constraint in common, so the
count is the product of theirs. Puzzles with many solutions are mostly many such parts
late in the search (a 2×2 switch here, a sliding block there): counted apart, 2^30
solutions cost thirty small counts, not 2^30 leaves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

from .kernel import EMPTY, FILLED, NODES, OPEN, WORDS, _load, _settle, hot, probe, propagate

#: what :func:`count` returns instead of a count: the count passed 2^63 - 1
OVERFLOW = -1
_MAX = np.int64(0x7FFFFFFFFFFFFFFF)
#: where ``work`` (:data:`.kernel.COST` and before) counts the parts found in the cache
HITS = 5


@hot
def _extents(g: Any, base: int, step: int, n: int, clue: Any, k: int, ext: Any) -> None:
    """Leftmost and rightmost start of each block of the line (``ext[2]``, ``ext[3]``)
    among the line's solutions that fit its known cells; the line is consistent (a fixpoint
    of line logic). Forward and backward reachability over (blocks placed, cells used),
    O(n·k)."""
    fw, bw, lo, hi, nf, ne = ext[0], ext[1], ext[2], ext[3], ext[4], ext[5]
    nf[0] = 0
    ne[0] = 0
    for p in range(n):
        v = g[base + p * step]
        nf[p + 1] = nf[p] + (0 if v & FILLED else 1)
        ne[p + 1] = ne[p] + (0 if v & EMPTY else 1)
    for p in range(n + 1):
        fw[0, p] = ne[p] == 0
        bw[k, p] = ne[n] - ne[p] == 0
    for j in range(1, k + 1):  # fw[j, p]: blocks 0..j-1 fit in cells [0, p)
        size = clue[j - 1]
        fw[j, 0] = False
        for p in range(1, n + 1):
            ok = fw[j, p - 1] and g[base + (p - 1) * step] & EMPTY != 0
            if not ok and p >= size and nf[p] - nf[p - size] == 0:
                s = p - size
                if j == 1:
                    ok = fw[0, s]
                else:
                    ok = s >= 1 and g[base + (s - 1) * step] & EMPTY != 0 and fw[j - 1, s - 1]
            fw[j, p] = ok
    for j in range(k - 1, -1, -1):  # bw[j, p]: blocks j..k-1 fit in cells [p, n)
        size = clue[j]
        bw[j, n] = False
        for p in range(n - 1, -1, -1):
            ok = bw[j, p + 1] and g[base + p * step] & EMPTY != 0
            if not ok and p + size <= n and nf[p + size] - nf[p] == 0:
                e = p + size
                if j == k - 1:
                    ok = bw[k, e]
                else:
                    ok = e < n and g[base + e * step] & EMPTY != 0 and bw[j + 1, e + 1]
            bw[j, p] = ok
    for j in range(k):
        size = clue[j]
        lo[j] = n
        hi[j] = -1
        for s in range(n - size + 1):
            if nf[s + size] - nf[s] != 0:
                continue
            if j == 0:
                left = fw[0, s]
            else:
                left = s >= 1 and g[base + (s - 1) * step] & EMPTY != 0 and fw[j, s - 1]
            if not left:
                continue
            e = s + size
            if j == k - 1:
                right = bw[k, e]
            else:
                right = e < n and g[base + e * step] & EMPTY != 0 and bw[j + 1, e + 1]
            if right:
                if s < lo[j]:
                    lo[j] = s
                hi[j] = s


@njit(cache=True, nogil=True, inline="always")
def _find(parent: Any, c: int) -> int:
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


@hot
def _reach(g: Any, line: int, height: int, width: int, clues: Any, starts: Any,
           counts: Any, ext: Any) -> tuple[int, int, int]:
    """How many of ``line``'s blocks can reach each of its cells (``ext[9][p]``; 0: the
    line splits there) from their leftmost and rightmost starts (:func:`_extents`); returns
    the line's length, first cell and step in the grid."""
    if line < height:
        n, base, step = width, line * width, 1
    else:
        n, base, step = height, line - height, width
    k = counts[line]
    clue = clues[starts[line]:]
    _extents(g, base, step, n, clue, k, ext)
    lo, hi, reach = ext[2], ext[3], ext[9]
    for p in range(n + 1):
        reach[p] = 0
    for j in range(k):
        reach[lo[j]] += 1
        reach[hi[j] + clue[j]] -= 1
    for p in range(1, n + 1):
        reach[p] += reach[p - 1]
    return n, base, step


@hot
def _parts(g: Any, opens: Any, height: int, width: int, clues: Any, starts: Any,
           counts: Any, ext: Any, parent: Any, order: Any) -> int:
    """Split the open cells ``opens`` into independent parts: ``order`` gets them part by
    part, and the return is how many parts; ``ext[6][i]`` is where part i starts in
    ``order`` (``ext[6][parts]`` the end)."""
    m = opens.shape[0]
    inside = ext[7]
    for c in opens:
        parent[c] = c
        inside[c] = 1
    lines = height + width
    mark = ext[8]
    for c in opens:
        mark[c // width] = 1
        mark[height + c % width] = 1
    reach = ext[9]
    for line in range(lines):
        if not mark[line]:
            continue
        mark[line] = 0
        n, base, step = _reach(g, line, height, width, clues, starts, counts, ext)
        first = -1
        for p in range(n):
            if reach[p] == 0:  # no block reaches over p: the line splits here
                first = -1
                continue
            c = base + p * step
            if g[c] == OPEN and inside[c]:
                if first < 0:
                    first = c
                else:
                    a, b = _find(parent, first), _find(parent, c)
                    if a != b:
                        parent[b] = a
    # the parts, each in cell order
    size = ext[10]
    for c in opens:
        size[_find(parent, c)] = 0
    for c in opens:
        size[_find(parent, c)] += 1
    begin = ext[6]
    parts = 0
    at = 0
    for c in opens:  # each root, in the order of its first cell, gets its slice of order
        r = _find(parent, c)
        if size[r] > 0:
            begin[parts] = at
            at += size[r]
            size[r] = -begin[parts] - 1  # where its next cell goes, negated, from -1
            parts += 1
    for c in opens:
        r = _find(parent, c)
        slot = -size[r] - 1
        order[slot] = c
        size[r] -= 1
        inside[c] = 0
    begin[parts] = m
    return parts


@njit(cache=True, nogil=True, inline="always")
def _mix(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    a = (a ^ x) * uint64(0xBF58476D1CE4E5B9)
    a ^= a >> uint64(29)
    b = (b + x) * uint64(0x94D049BB133111EB)
    b ^= b >> uint64(32)
    return a, b


@hot
def _key(g: Any, part: Any, height: int, width: int, clues: Any, starts: Any,
         counts: Any, ext: Any) -> tuple[Any, Any]:
    """Two 64-bit hashes of what a part's count depends on and nothing else: each
    stretch of a line that holds its open cells (where it lies, which blocks it holds,
    its cells). The same part met again elsewhere in the search, with whatever around it,
    has the same key."""
    inside, mark, reach, lo, hi = ext[7], ext[8], ext[9], ext[2], ext[3]
    a = uint64(0x9E3779B97F4A7C15)
    b = uint64(0xC2B2AE3D27D4EB4F)
    for c in part:
        if g[c] == OPEN:
            inside[c] = 1
            mark[c // width] = 1
            mark[height + c % width] = 1
    for line in range(height + width):
        if not mark[line]:
            continue
        mark[line] = 0
        n, base, step = _reach(g, line, height, width, clues, starts, counts, ext)
        k = counts[line]
        clue = clues[starts[line]:]
        left = 0  # blocks wholly left of the stretch
        p = 0
        while p < n:
            if reach[p] == 0:
                p += 1
                continue
            start = p  # a stretch: up to the next cell no block reaches
            mine = False
            while p < n and reach[p] > 0:
                if inside[base + p * step]:
                    mine = True
                p += 1
            if mine:
                while left < k and hi[left] + clue[left] <= start:
                    left += 1
                held = left  # and those that start before its end: the blocks it holds
                while held < k and lo[held] < p:
                    held += 1
                a, b = _mix(a, b, uint64(line) << uint64(40) | uint64(start) << uint64(20)
                            | uint64(p))
                a, b = _mix(a, b, uint64(left) << uint64(32) | uint64(held))
                w = uint64(0)
                for q in range(start, p):
                    w = (w << uint64(2)) | uint64(g[base + q * step])
                    if (q - start) % 32 == 31:
                        a, b = _mix(a, b, w)
                        w = uint64(0)
                a, b = _mix(a, b, w)
    for c in part:
        inside[c] = 0
    return a, b


@njit(cache=True, nogil=True, inline="always")
def _keep(keys: Any, values: Any, slot: int, a: Any, b: Any, n: int) -> int:
    """Remember part ``(a, b)``'s count ``n`` (the slot's last entry is lost)."""
    keys[slot, 0] = a
    keys[slot, 1] = b
    values[slot] = n
    return n


@njit(cache=True, nogil=True, inline="always")
def _open_in(g: Any, part: Any) -> int:
    """How many of ``part``'s cells are still open."""
    m = 0
    for c in part:
        if g[c] == OPEN:
            m += 1
    return m


@njit(cache=True, nogil=True)
def _copied(pm: Any, score: Any) -> tuple[Any, Any]:
    """A child's own copy of what probing remembers, and of the scores."""
    return (pm[0].copy(), pm[1].copy(), pm[2].copy(), pm[3]), score.copy()


@njit(cache=True, nogil=True)
def _count(g: Any, part: Any, height: int, width: int, clues: Any, starts: Any,
           counts: Any, queue: Any, queued: Any, work: Any, tmp: Any, ext: Any,
           pm: Any, score: Any, memo: Any, probe_min: int) -> int:
    """The solutions of ``part`` (cells of ``g``, a fixpoint of line logic, whose other
    open cells are independent of these): probe, split into parts and multiply their
    counts, or branch on the best-scored cell and add. ``g`` may be narrowed in ``part``'s
    cells; ``pm`` is what probing remembers (:func:`.kernel.probe`), and ``score`` its
    scores, both this node's own."""
    keys, values = memo
    a, b = _key(g, part, height, width, clues, starts, counts, ext)
    slot = np.int64(a & uint64(keys.shape[0] - 1))
    if keys[slot, 0] == a and keys[slot, 1] == b:
        work[HITS] += 1
        return int(values[slot])
    work[NODES] += 1
    m = _open_in(g, part)
    if m == 0:
        return _keep(keys, values, slot, a, b, 1)
    _load(g, tmp[WORDS], height, width)
    at = np.zeros(2, np.int64)
    probing = m >= probe_min
    if probing and probe(g, height, width, clues, starts, counts, queue, queued, work, tmp,
                         pm, score, _MAX, at) == 0:
        return _keep(keys, values, slot, a, b, 0)
    m = _open_in(g, part)
    if m == 0:
        return _keep(keys, values, slot, a, b, 1)
    opens = np.empty(m, np.int64)
    m = 0
    for c in part:
        if g[c] == OPEN:
            opens[m] = c
            m += 1
    order = np.empty(m, np.int64)
    parts = _parts(g, opens, height, width, clues, starts, counts, ext, ext[11], order)
    if parts > 1:
        begin = ext[6][:parts + 1].copy()
        total = np.int64(1)
        for i in range(parts):
            sub_pm, sub_score = _copied(pm, score)
            sub = _count(g, order[begin[i]:begin[i + 1]], height, width, clues, starts,
                         counts, queue, queued, work, tmp, ext, sub_pm, sub_score, memo,
                         probe_min)
            if sub <= 0:
                return sub
            if total > _MAX // sub:
                return OVERFLOW
            total *= sub
        return _keep(keys, values, slot, a, b, total)
    best = opens[0]
    top = -1
    for c in opens:
        if probing and score[c] > top:
            top = score[c]
            best = c
    total = np.int64(0)
    for value in (FILLED, EMPTY):
        h = g.copy()
        sub_pm, sub_score = _copied(pm, score)
        _load(h, tmp[WORDS], height, width)
        if not _settle(h, height, width, clues, starts, counts, queue, queued, work, tmp,
                       sub_pm, best, value):
            continue
        sub = _count(h, opens, height, width, clues, starts, counts, queue, queued, work,
                     tmp, ext, sub_pm, sub_score, memo, probe_min)
        if sub < 0:
            return sub
        if total > _MAX - sub:
            return OVERFLOW
        total += sub
    return _keep(keys, values, slot, a, b, total)


@njit(cache=True, nogil=True)
def count(g: Any, height: int, width: int, clues: Any, starts: Any, counts: Any,
          work: Any, tmp: Any, cache: int, probe_min: int) -> int:
    """The number of solutions of grid ``g`` (propagated here first), or :data:`OVERFLOW`
    past 2^63 - 1; ``cache`` entries (a power of two) remember parts already counted."""
    lines = height + width
    cells = height * width
    queue = np.zeros(lines, np.int64)
    queued = np.ones(lines, np.bool_)
    _load(g, tmp[WORDS], height, width)
    if not propagate(g, height, width, clues, starts, counts, queue, queued, work, tmp):
        return 0
    size = max(height, width)
    kmax = 1
    for line in range(lines):
        kmax = max(kmax, counts[line])
    flags = np.zeros((2, kmax + 1, size + 1), np.bool_)
    ints = np.zeros((9, max(size, cells, lines) + 2), np.int64)
    # fw, bw, lo, hi, nf, ne, part starts, inside, line marks, reach, sizes, parents
    ext = (flags[0], flags[1], ints[0], ints[1], ints[2], ints[3], ints[4], ints[5],
           ints[6], ints[7], ints[8], np.zeros(cells, np.int64))
    words = (lines + 63) // 64
    pm = (np.zeros(cells, np.int64), np.zeros((cells, words), np.uint64),
          np.zeros(lines, np.int64), np.ones(1, np.int64))
    part = np.arange(cells)
    memo = (np.zeros((cache, 2), np.uint64), np.zeros(cache, np.int64))
    return _count(g, part, height, width, clues, starts, counts, queue, queued, work, tmp,
                  ext, pm, np.zeros(cells, np.int64), memo, probe_min)
