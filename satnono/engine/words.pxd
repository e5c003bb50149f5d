# The engine's operations on machine words, shared by its line solvers (black and white and
# colour): a line's cells are bits, bit i cell i; past 63 cells a line takes several words
# (word 0 holds cells 0-63) and each operation works on the first ``nw`` of its arrays.
from libc.stdint cimport int64_t, uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

cdef inline int _lowest(uint64_t x) noexcept nogil:
    """The index of the lowest set bit of ``x`` (not 0)."""
    return __builtin_ctzll(x)


cdef inline uint64_t _windows(uint64_t ok, int b) noexcept nogil:
    """Bit p set iff bits p..p+b-1 of ``ok`` are all set."""
    cdef uint64_t r = ok
    cdef int span = 1
    while span * 2 <= b:
        r &= r >> span
        span *= 2
    if span < b:
        r &= r >> (b - span)
    return r


cdef inline uint64_t _smear(uint64_t x, int b) noexcept nogil:
    """Bits p..p+b-1 for every bit p of ``x``: the cells a block covers from its starts."""
    cdef uint64_t r = x
    cdef int span = 1
    while span * 2 <= b:
        r |= r << span
        span *= 2
    if span < b:
        r |= r << (b - span)
    return r


cdef inline uint64_t _reverse(uint64_t x, int n) noexcept nogil:
    """The n low bits of ``x`` in reverse order (n from 1 to 64)."""
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1)
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2)
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4)
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8)
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16)
    x = (x >> 32) | (x << 32)
    return x >> (64 - n)


cdef inline void _shr(const uint64_t* src, int s, uint64_t* dst, int nw) noexcept nogil:
    """``dst = src >> s`` (``dst`` not ``src``)."""
    cdef int q = s >> 6, r = s & 63, i, j
    cdef uint64_t v
    for i in range(nw):
        j = i + q
        v = 0
        if j < nw:
            v = src[j] >> r
            if r and j + 1 < nw:
                v |= src[j + 1] << (64 - r)
        dst[i] = v


cdef inline void _shl(const uint64_t* src, int s, uint64_t* dst, int nw) noexcept nogil:
    """``dst = src << s`` (``dst`` not ``src``)."""
    cdef int q = s >> 6, r = s & 63, i, j
    cdef uint64_t v
    for i in range(nw):
        j = i - q
        v = 0
        if j >= 0:
            v = src[j] << r
            if r and j >= 1:
                v |= src[j - 1] >> (64 - r)
        dst[i] = v


cdef inline uint64_t _low(int n, int i) noexcept nogil:
    """Word i of the mask of bits 0..n-1."""
    if (i + 1) * 64 <= n:
        return ~(<uint64_t>0)
    if i * 64 >= n:
        return 0
    return ((<uint64_t>1) << (n - i * 64)) - (<uint64_t>1)


cdef inline void _runs(const uint64_t* blockers, const uint64_t* x, uint64_t* dst,
                       int nw) noexcept nogil:
    """``dst = ((blockers - x) ^ blockers) | x``: from each bit of ``x``, the stretch up to
    the next bit of ``blockers`` (the borrow runs across words)."""
    cdef uint64_t borrow = 0, a, b, d, out
    cdef int i
    for i in range(nw):
        a = blockers[i]
        b = x[i]
        d = a - b
        out = 1 if a < b else 0
        if d < borrow:
            out = 1
        d -= borrow
        borrow = out
        dst[i] = (d ^ a) | b


cdef inline void _windows_w(const uint64_t* ok, int b, uint64_t* r, uint64_t* t,
                            int nw) noexcept nogil:
    cdef int i, span = 1
    for i in range(nw):
        r[i] = ok[i]
    while span * 2 <= b:
        _shr(r, span, t, nw)
        for i in range(nw):
            r[i] &= t[i]
        span *= 2
    if span < b:
        _shr(r, b - span, t, nw)
        for i in range(nw):
            r[i] &= t[i]


cdef inline void _smear_w(const uint64_t* x, int b, uint64_t* r, uint64_t* t,
                          int nw) noexcept nogil:
    cdef int i, span = 1
    for i in range(nw):
        r[i] = x[i]
    while span * 2 <= b:
        _shl(r, span, t, nw)
        for i in range(nw):
            r[i] |= t[i]
        span *= 2
    if span < b:
        _shl(r, b - span, t, nw)
        for i in range(nw):
            r[i] |= t[i]


cdef inline void _reverse_w(const uint64_t* x, int n, uint64_t* dst, uint64_t* t,
                            int nw) noexcept nogil:
    """``dst``: the n low bits of ``x`` in reverse order."""
    cdef int i
    for i in range(nw):
        t[nw - 1 - i] = _reverse(x[i], 64)
    _shr(t, nw * 64 - n, dst, nw)
