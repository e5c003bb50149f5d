# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's colour line solver, compiled ahead of time: the Python colour solver's
(:func:`satnono.logic.line.narrow_colour`) on machine words, one word per colour for a line
of up to 63 cells and several past that. A subtraction's borrow runs over each stretch of
cells that may be background, as in black and white (:mod:`.line`); two blocks of the same
colour need a background cell between them, blocks of different colours may touch. Its
state is one :c:type:`ColourLine`, which the general search (:mod:`.colour`) holds.
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free

from .memory cimport _alloc

from .words cimport (_low, _lowest, _reverse, _reverse_w, _runs, _shl, _shr, _smear,
                     _smear_w, _windows, _windows_w)

cdef uint64_t ONE = 1


cdef int colour_line_start(ColourLine* s, int colours, int kmax, int longest,
                           const int64_t* sizes, const int64_t* cols) except -1:
    """``s`` ready for lines of up to ``longest`` cells and ``kmax`` blocks of ``colours``
    block colours, the blocks in ``sizes`` and ``cols``."""
    cdef int k2 = kmax + 2, c1 = colours + 1
    s.colours, s.kmax, s.nw = colours, kmax, longest // 64 + 1
    s.sizes, s.cols = sizes, cols
    s.line_words = <uint64_t*>_alloc(4 * k2, 8)
    s.line_masks = <uint64_t*>_alloc(3 * c1, 8)
    s.sweep = <uint64_t*>_alloc(4 * k2 * s.nw, 8)
    s.wide_masks = <uint64_t*>_alloc(3 * c1 * s.nw, 8)
    s.wt = <uint64_t*>_alloc(12 * s.nw, 8)
    s.out = <int64_t*>_alloc(longest + 1, 8)
    return 0


cdef void colour_line_free(ColourLine* s) noexcept nogil:
    free(s.line_words)
    free(s.line_masks)
    free(s.sweep)
    free(s.wide_masks)
    free(s.wt)
    free(s.out)


cdef int narrow_colour_line(ColourLine* s, const uint64_t* line, int n, int64_t s0, int k,
                            bint wide) noexcept nogil:
    """Narrow the line of ``n`` cells (their colour sets in ``line``), its ``k`` blocks
    from ``s0``, into ``s.out``: the line's length, or -1 when no placement of its blocks
    fits what its cells may take. ``wide``: on several words a colour whatever the length
    (the solver of lines past 63 cells)."""
    if n <= 63 and not wide:
        return _line64(s, line, n, s0, k)
    return _line_wide(s, line, n, s0, k)


cdef bint _forward64(ColourLine* s, int64_t s0, int k, int step, int n, const uint64_t* may,
                     uint64_t* starts, uint64_t* free_) noexcept nogil:
    """Left to right (``step`` 1) or right to left over the blocks, ``may[c]`` the
    cells that may take colour c in the direction of travel."""
    cdef uint64_t can_empty = may[0]
    cdef uint64_t blockers = ((~can_empty) & ((ONE << n) - ONE)) | (ONE << n)
    cdef uint64_t ready = ((blockers - (ONE & can_empty)) ^ blockers) | ONE
    cdef uint64_t w, ends, after, seeds
    cdef int jj, j, b
    cdef int64_t colour
    free_[0] = ready
    for jj in range(k):
        j = jj if step > 0 else k - 1 - jj
        b = <int>s.sizes[s0 + j]
        colour = s.cols[s0 + j]
        w = ready & _windows(may[colour], b)
        if w == 0:
            return False
        starts[jj] = w
        ends = w << b
        after = ((blockers - (ends & can_empty)) ^ blockers) | ends
        free_[jj + 1] = after
        if jj + 1 < k and s.cols[s0 + j + step] != colour:
            ready = after  # the next block may touch this one
        else:
            seeds = (ends & can_empty) << 1
            ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    return ((free_[k] >> n) & ONE) != 0

cdef int _line64(ColourLine* s, const uint64_t* line, int n, int64_t s0, int k) noexcept nogil:
    """The colour line solver on machine words for a line of up to 63 cells: its
    answer by cell in ``out``; the line's length, or -1."""
    cdef int colours = s.colours, c, p, j, b, k2 = s.kmax + 2
    cdef uint64_t* may = s.line_masks
    cdef uint64_t* rev = s.line_masks + (colours + 1)
    cdef uint64_t* out = s.line_masks + 2 * (colours + 1)
    cdef uint64_t* w0 = s.line_words
    cdef uint64_t* w1 = s.line_words + k2
    cdef uint64_t* w2 = s.line_words + 2 * k2
    cdef uint64_t* w3 = s.line_words + 3 * k2
    cdef uint64_t m, w, background, full, bits
    cdef int64_t v
    for c in range(colours + 1):
        may[c] = 0
    for p in range(n):  # each cell's colours into the colours' words
        bits = line[p]
        while bits:
            may[_lowest(bits)] |= ONE << p
            bits &= bits - ONE
    for c in range(colours + 1):
        rev[c] = _reverse(may[c], n)
    if not _forward64(s, s0, k, 1, n, may, w0, w1):
        return -1
    if not _forward64(s, s0, k, -1, n, rev, w2, w3):
        return -1
    full = (ONE << n) - ONE
    for c in range(colours + 1):
        out[c] = 0
    for j in range(k):
        b = <int>s.sizes[s0 + j]
        w = w0[j] & (_reverse(w2[k - 1 - j], n) >> (b - 1))
        out[s.cols[s0 + j]] |= _smear(w, b)
    background = 0
    for j in range(k + 1):
        background |= w1[j] & _reverse(w3[k - j] & full, n)
    out[0] = background & may[0]
    for p in range(n):
        v = 0
        for c in range(colours + 1):
            if (out[c] >> p) & ONE:
                v |= (<int64_t>1) << c
        s.out[p] = v
    return n

cdef bint _forward_w(ColourLine* s, int64_t s0, int k, int step, int n, int nw,
                     const uint64_t* may, uint64_t* starts, uint64_t* free_) noexcept nogil:
    """:func:`_forward64` on ``nw`` words a line (rows of ``s.nw`` words)."""
    cdef int stride = s.nw
    cdef uint64_t* blockers = s.wt
    cdef uint64_t* ready = s.wt + stride
    cdef uint64_t* win = s.wt + 2 * stride
    cdef uint64_t* ends = s.wt + 3 * stride
    cdef uint64_t* t = s.wt + 4 * stride
    cdef const uint64_t* can_empty = may
    cdef uint64_t any_start, w
    cdef int i, jj, j, b
    cdef int64_t colour
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
        j = jj if step > 0 else k - 1 - jj
        b = <int>s.sizes[s0 + j]
        colour = s.cols[s0 + j]
        _windows_w(may + colour * stride, b, win, t, nw)
        any_start = 0
        for i in range(nw):
            w = ready[i] & win[i]
            starts[jj * stride + i] = w
            any_start |= w
        if any_start == 0:
            return False
        _shl(starts + jj * stride, b, ends, nw)
        for i in range(nw):
            t[i] = ends[i] & can_empty[i]
        _runs(blockers, t, free_ + (jj + 1) * stride, nw)
        for i in range(nw):
            free_[(jj + 1) * stride + i] |= ends[i]
        if jj + 1 < k and s.cols[s0 + j + step] != colour:
            for i in range(nw):  # the next block may touch this one
                ready[i] = free_[(jj + 1) * stride + i]
        else:
            _shl(t, 1, win, nw)  # the seeds: a gap after each end
            for i in range(nw):
                t[i] = win[i] & can_empty[i]
            _runs(blockers, t, ready, nw)
            for i in range(nw):
                ready[i] |= win[i]
    return ((free_[k * stride + (n >> 6)] >> (n & 63)) & ONE) != 0

cdef int _line_wide(ColourLine* s, const uint64_t* line, int n, int64_t s0,
                    int k) noexcept nogil:
    """:func:`_line64` on ``n // 64 + 1`` words a colour (lines of any length)."""
    cdef int nw = n // 64 + 1, stride = s.nw, colours = s.colours, c, i, p, j, b, w
    cdef int table = (s.kmax + 2) * stride
    cdef uint64_t* may = s.wide_masks
    cdef uint64_t* rev = s.wide_masks + (colours + 1) * stride
    cdef uint64_t* out = s.wide_masks + 2 * (colours + 1) * stride
    cdef uint64_t* row
    cdef uint64_t* fs = s.sweep
    cdef uint64_t* ff = s.sweep + table
    cdef uint64_t* bs = s.sweep + 2 * table
    cdef uint64_t* bf = s.sweep + 3 * table
    cdef uint64_t* t1 = s.wt + 7 * stride
    cdef uint64_t* t2 = s.wt + 8 * stride
    cdef uint64_t* t3 = s.wt + 9 * stride
    cdef uint64_t* background = s.wt + 10 * stride
    cdef int64_t v, colour
    cdef int bit
    cdef uint64_t bits
    for c in range(colours + 1):
        row = may + c * stride
        for i in range(nw):
            row[i] = 0
    for p in range(n):  # each cell's colours into the colours' words
        bits = line[p]
        while bits:
            may[_lowest(bits) * stride + (p >> 6)] |= ONE << (p & 63)
            bits &= bits - ONE
    for c in range(colours + 1):
        _reverse_w(may + c * stride, n, rev + c * stride, s.wt + 6 * stride, nw)
    if not _forward_w(s, s0, k, 1, n, nw, may, fs, ff):
        return -1
    if not _forward_w(s, s0, k, -1, n, nw, rev, bs, bf):
        return -1
    for c in range(colours + 1):
        for i in range(nw):
            out[c * stride + i] = 0
    for j in range(k):
        b = <int>s.sizes[s0 + j]
        _reverse_w(bs + (k - 1 - j) * stride, n, t1, t2, nw)
        _shr(t1, b - 1, t2, nw)
        for i in range(nw):
            t2[i] &= fs[j * stride + i]
        _smear_w(t2, b, t1, t3, nw)
        colour = s.cols[s0 + j]
        for i in range(nw):
            out[colour * stride + i] |= t1[i]
    for i in range(nw):
        background[i] = 0
    for j in range(k + 1):
        for i in range(nw):
            t3[i] = bf[(k - j) * stride + i] & _low(n, i)
        _reverse_w(t3, n, t1, t2, nw)
        for i in range(nw):
            background[i] |= ff[j * stride + i] & t1[i]
    for i in range(nw):
        out[i] = background[i] & may[i]
    for p in range(n):
        v = 0
        w = p >> 6
        bit = p & 63
        for c in range(colours + 1):
            if (out[c * stride + w] >> bit) & ONE:
                v |= (<int64_t>1) << c
        s.out[p] = v
    return n
