# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, cpow=True
"""The engine's black-and-white line solver, compiled ahead of time: the bit-parallel
solver of :func:`satnono.logic.line.narrow` on machine words, one word for a line of up to
63 cells and several past that.

A line's cells are bits (bit i is cell i): which may be empty, which may be filled. Left to
right over the clue, a subtraction's borrow runs over each stretch of may-be-empty cells
and gives at once every position a block may start after the blocks before it; the same
right to left on the reversed line, and the starts both ways agree on are the placements
(the bit-parallel form of the left-right overlap of Wu et al., "An Efficient Approach to
Solving Nonograms", IEEE TCIAIG 2013, as nonosolve does it). The same method, the same
answers and the same cost as the Numba kernel's ``narrow64`` and ``narrow_wide`` it
replaced.
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc

from .words cimport (_low, _reverse, _reverse_w, _runs, _shl, _shr, _smear, _smear_w,
                     _windows, _windows_w)

cdef uint64_t ONE = 1

cdef inline bint _forward(const int64_t* clue, int k, int step, int n, uint64_t can_empty,
                          uint64_t can_fill, uint64_t* starts, uint64_t* free_) noexcept nogil:
    """Left to right (``step`` 1) or right to left over the clue: ``starts[j]`` the
    positions where block j may start after blocks 0..j-1, ``free_[j]`` the positions
    reachable with j blocks placed; False when the line cannot be completed."""
    cdef uint64_t blockers = ((~can_empty) & ((ONE << n) - ONE)) | (ONE << n)
    cdef uint64_t ready = ((blockers - (ONE & can_empty)) ^ blockers) | ONE
    cdef uint64_t s, ends, seeds
    cdef int jj, b
    free_[0] = ready
    for jj in range(k):
        b = <int>(clue[jj] if step > 0 else clue[k - 1 - jj])
        s = ready & _windows(can_fill, b)
        if s == 0:
            return False
        starts[jj] = s
        ends = s << b
        free_[jj + 1] = ((blockers - (ends & can_empty)) ^ blockers) | ends
        seeds = (ends & can_empty) << 1
        ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    return ((free_[k] >> n) & ONE) != 0


cdef bint narrow64(const int64_t* clue, int k, int n, uint64_t can_empty,
                   uint64_t can_fill, uint64_t* fs, uint64_t* ff, uint64_t* bs,
                   uint64_t* bf, uint64_t* may_empty, uint64_t* may_fill) noexcept nogil:
    """The solver for a line of 1 to 63 cells: False on a contradiction, else the cells
    that may still be empty and filled in ``may_empty`` and ``may_fill``. ``fs``, ``bs``
    hold k + 1 words, ``ff``, ``bf`` k + 2."""
    if not _forward(clue, k, 1, n, can_empty, can_fill, fs, ff):
        return False
    if not _forward(clue, k, -1, n, _reverse(can_empty, n), _reverse(can_fill, n), bs, bf):
        return False
    cdef uint64_t full = (ONE << n) - ONE
    cdef uint64_t fill = 0, empty = 0, s
    cdef int j, b
    for j in range(k):
        b = <int>clue[j]
        s = fs[j] & (_reverse(bs[k - 1 - j], n) >> (b - 1))
        fill |= _smear(s, b)
    for j in range(k + 1):
        empty |= ff[j] & _reverse(bf[k - j] & full, n)
    may_empty[0] = empty & can_empty
    may_fill[0] = fill
    return True


# ---------------------------------------------------------------- lines past 63 cells
# The same solver on several words a line (word 0 holds cells 0-63): a line of n cells and
# its end marker (bit n) take n // 64 + 1 words; each operation works on the first ``nw``
# (satnono/engine/words.pxd).

cdef bint _forward_w(const int64_t* clue, int k, int step, int n, int nw,
                     const uint64_t* can_empty, const uint64_t* can_fill, uint64_t* starts,
                     uint64_t* free_, int stride, uint64_t* wt) noexcept nogil:
    """:func:`_forward` on ``nw`` words a line; ``starts`` and ``free_`` are tables of rows
    of ``stride`` words, ``wt`` scratch rows of ``stride`` words."""
    cdef uint64_t* blockers = wt + 4 * stride
    cdef uint64_t* ready = wt + 5 * stride
    cdef uint64_t* win = wt + 6 * stride
    cdef uint64_t* ends = wt + 7 * stride
    cdef uint64_t* t = wt + 8 * stride
    cdef uint64_t any_start, s
    cdef int i, jj, b
    for i in range(nw):
        blockers[i] = ~can_empty[i] & _low(n, i)
        t[i] = 0
    blockers[n >> 6] |= ONE << (n & 63)
    t[0] = can_empty[0] & ONE
    _runs(blockers, t, ready, nw)
    ready[0] |= ONE
    for i in range(nw):
        free_[i] = ready[i]
    for jj in range(k):
        b = <int>(clue[jj] if step > 0 else clue[k - 1 - jj])
        _windows_w(can_fill, b, win, t, nw)
        any_start = 0
        for i in range(nw):
            s = ready[i] & win[i]
            starts[jj * stride + i] = s
            any_start |= s
        if any_start == 0:
            return False
        _shl(starts + jj * stride, b, ends, nw)
        for i in range(nw):
            t[i] = ends[i] & can_empty[i]
        _runs(blockers, t, free_ + (jj + 1) * stride, nw)
        for i in range(nw):
            free_[(jj + 1) * stride + i] |= ends[i]
        _shl(t, 1, win, nw)  # the seeds: a gap after each end
        for i in range(nw):
            t[i] = win[i] & can_empty[i]
        _runs(blockers, t, ready, nw)
        for i in range(nw):
            ready[i] |= win[i]
    return ((free_[k * stride + (n >> 6)] >> (n & 63)) & ONE) != 0


cdef bint narrow_wide(const int64_t* clue, int k, int n, const uint64_t* can_empty,
                      const uint64_t* can_fill, uint64_t* sweep, int stride,
                      uint64_t* wt, uint64_t* may_empty,
                      uint64_t* may_fill) noexcept nogil:
    """The solver for a line of any length, the same answer as :func:`narrow64`:
    ``can_empty``/``can_fill`` hold the line in ``n // 64 + 1`` words, and so do the
    answers. ``sweep`` holds four tables (each way's block starts and reachable positions)
    of k + 2 rows of ``stride`` words; ``wt`` 12 rows of ``stride`` words."""
    cdef int nw = n // 64 + 1
    cdef int table = (k + 2) * stride
    cdef uint64_t* fs = sweep
    cdef uint64_t* ff = sweep + table
    cdef uint64_t* bs = sweep + 2 * table
    cdef uint64_t* bf = sweep + 3 * table
    if not _forward_w(clue, k, 1, n, nw, can_empty, can_fill, fs, ff, stride, wt):
        return False
    cdef uint64_t* rev_empty = wt + 9 * stride
    cdef uint64_t* rev_fill = wt + 10 * stride
    cdef uint64_t* t1 = wt + 11 * stride
    cdef uint64_t* t2 = wt + 6 * stride
    cdef uint64_t* t3 = wt + 7 * stride
    _reverse_w(can_empty, n, rev_empty, t1, nw)
    _reverse_w(can_fill, n, rev_fill, t1, nw)
    if not _forward_w(clue, k, -1, n, nw, rev_empty, rev_fill, bs, bf, stride, wt):
        return False
    cdef int i, j, b
    for i in range(nw):
        may_fill[i] = 0
        may_empty[i] = 0
    for j in range(k):
        b = <int>clue[j]
        _reverse_w(bs + (k - 1 - j) * stride, n, t1, t2, nw)
        _shr(t1, b - 1, t2, nw)
        for i in range(nw):
            t2[i] &= fs[j * stride + i]
        _smear_w(t2, b, t1, t3, nw)
        for i in range(nw):
            may_fill[i] |= t1[i]
    for j in range(k + 1):
        for i in range(nw):
            t3[i] = bf[(k - j) * stride + i] & _low(n, i)
        _reverse_w(t3, n, t1, t2, nw)
        for i in range(nw):
            may_empty[i] |= ff[j * stride + i] & t1[i]
    for i in range(nw):
        may_empty[i] &= can_empty[i]
    return True


# ---------------------------------------------------------------- from Python

def narrow(clue, int n, may_empty, may_fill, bint wide=False):
    """:func:`satnono.logic.line.narrow` in the engine: ``(may_empty, may_fill)`` narrowed
    to the cells that take each value in some placement, or None for a contradiction.
    Lines of up to 63 cells take the one-word solver unless ``wide``.

    >>> narrow((2,), 3, 0b111, 0b111)
    (5, 7)
    """
    if n < 1:
        raise ValueError(f"a line has at least one cell, not {n}")
    cdef int k = len(clue), nw = n // 64 + 1, i
    cdef int stride = nw
    cdef uint64_t mask = 0xFFFFFFFFFFFFFFFFULL
    cdef int64_t* c = <int64_t*>malloc((k + 1) * sizeof(int64_t))
    cdef uint64_t* words = <uint64_t*>malloc(
        (4 * (k + 2) * stride + 12 * stride + 4 * nw) * sizeof(uint64_t))
    if c == NULL or words == NULL:
        free(c)
        free(words)
        raise MemoryError()
    cdef uint64_t* can_e = words + 4 * (k + 2) * stride + 12 * stride
    cdef uint64_t* can_f = can_e + nw
    cdef uint64_t* out_e = can_f + nw
    cdef uint64_t* out_f = out_e + nw
    cdef bint ok
    try:
        for i in range(k):
            c[i] = clue[i]
        for i in range(nw):
            can_e[i] = (may_empty >> (64 * i)) & mask
            can_f[i] = (may_fill >> (64 * i)) & mask
        if n <= 63 and not wide:
            ok = narrow64(c, k, n, can_e[0], can_f[0], words, words + (k + 2),
                          words + 2 * (k + 2), words + 3 * (k + 2), out_e, out_f)
            nw = 1
        else:
            ok = narrow_wide(c, k, n, can_e, can_f, words, stride,
                             words + 4 * (k + 2) * stride, out_e, out_f)
        if not ok:
            return None
        e = 0
        f = 0
        for i in range(nw):
            e |= int(out_e[i]) << (64 * i)
            f |= int(out_f[i]) << (64 * i)
        return e, f
    finally:
        free(c)
        free(words)

