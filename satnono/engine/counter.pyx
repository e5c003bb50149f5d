# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's exact counting of a grid's solutions, black and white or colour: the search
of :mod:`.search` (line logic and probing at every node) counting its leaves instead of
listing them, and counting independent parts of the grid apart and multiplying. One
counter for every palette: the grid's cell is a fused type, so black and white and colour
each get their own compiled copy of the same code.

Independent parts (component decomposition: Bayardo & Pehoushek, "Counting Models Using
Connected Components", AAAI 2000, as #SAT counters do) come from the lines. A line whose
known cells pin down which of its blocks lie left of a cell and which right — no block can
reach over that cell (its leftmost and rightmost placements say so) — falls into stretches
that are filled independently of each other; open cells that share a stretch of a row or a
column belong together, and the parts this makes have no constraint in common, so the
count is the product of theirs. Parts met again are counted once (a cache keyed by what a
part's count depends on).

A cell is the set of values it may take (bit 0 the background, bit c block colour c), so
the extents, the parts and the keys are written once. Memory follows what is open: the
counter's marks are by the engine's slots of open cells, and a branch changes the one
grid and undoes its changes (:meth:`.search.Engine.enter`, ``leave``).
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from .clock cimport watch_heard
from .memory cimport _alloc
from .search cimport Engine, cell_t

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil

#: a cell's bit for the background (black and white: empty)
cdef uint64_t BACKGROUND = 1

#: what :func:`count` returns instead of a count: the count passed 2^63 - 1
OVERFLOW = -1
cdef int64_t MAX = 0x7FFFFFFFFFFFFFFF
# the same inside, and memory that could not be had
cdef int64_t OVER = -1
cdef int64_t NOMEM = -2


cdef inline bint _open(cell_t v) noexcept nogil:
    """Whether a cell of value ``v`` may still take more than one value."""
    return v & (v - 1) != 0


cdef inline uint64_t _bit(Engine e, int64_t block) noexcept nogil:
    """The cell bit of ``block``'s colour."""
    return (<uint64_t>1) << e.cols[block]


cdef inline bint _probe(Engine e, cell_t* g) noexcept nogil:
    """Probe ``g`` to a fixpoint from its first slot (False: a contradiction)."""
    e.probe_pos = 0
    e.probe_quiet = 0
    return e.probe(g, MAX) != 0


# ---------------------------------------------------------------- the counter's scratch

cdef class _Scratch:
    """The counter's memory beside the engine it counts with: each line's reachability
    tables and its blocks' extreme starts, the marks and sizes of parts (by the engine's
    slots of open cells), and the cache of parts already counted."""

    cdef int64_t size, cols
    # reachability over (blocks placed, cells used): forward, the last cell used is
    # background (fb) or ends a block (fe); backward, the first cell is background (bb) or
    # starts a block (bs)
    cdef uint8_t* fb
    cdef uint8_t* fe
    cdef uint8_t* bb
    cdef uint8_t* bs
    # each block's leftmost and rightmost start; cells before p that may not be background
    # (nb) and that may not take a block's colour (nc); how many blocks reach each cell
    cdef int64_t* lo
    cdef int64_t* hi
    cdef int64_t* nb
    cdef int64_t* nc
    cdef int64_t* reach
    # lines to look at; by slot: in the part at hand, part sizes, the union-find; where
    # each part starts in the order
    cdef uint8_t* mark
    cdef uint8_t* inside
    cdef int64_t* sizes
    cdef int64_t* parent
    cdef int64_t* begin
    # the cache of parts counted: two 64-bit keys and a count a slot
    cdef uint64_t* keys
    cdef int64_t* values
    cdef int64_t cache
    cdef int probe_min
    cdef public int64_t hits

    def __dealloc__(self):
        free(self.fb)
        free(self.fe)
        free(self.bb)
        free(self.bs)
        free(self.lo)
        free(self.hi)
        free(self.nb)
        free(self.nc)
        free(self.reach)
        free(self.mark)
        free(self.inside)
        free(self.sizes)
        free(self.parent)
        free(self.begin)
        free(self.keys)
        free(self.values)

    def __init__(self, int64_t size, int64_t kmax, int64_t slots, int64_t nlines,
                 int64_t cache, int probe_min):
        cdef int64_t table = (kmax + 1) * (size + 1)
        self.size, self.cols = size, size + 1
        self.fb = <uint8_t*>_alloc(table, 1)
        self.fe = <uint8_t*>_alloc(table, 1)
        self.bb = <uint8_t*>_alloc(table, 1)
        self.bs = <uint8_t*>_alloc(table, 1)
        self.lo = <int64_t*>_alloc(kmax + 1, 8)
        self.hi = <int64_t*>_alloc(kmax + 1, 8)
        self.nb = <int64_t*>_alloc(size + 2, 8)
        self.nc = <int64_t*>_alloc(size + 2, 8)
        self.reach = <int64_t*>_alloc(size + 2, 8)
        self.mark = <uint8_t*>_alloc(nlines, 1)
        self.inside = <uint8_t*>_alloc(slots + 1, 1)
        self.sizes = <int64_t*>_alloc(slots + 1, 8)
        self.parent = <int64_t*>_alloc(slots + 1, 8)
        self.begin = <int64_t*>_alloc(slots + 2, 8)
        self.keys = <uint64_t*>_alloc(2 * cache, 8)
        self.values = <int64_t*>_alloc(cache, 8)
        self.cache = cache
        self.probe_min = probe_min
        self.hits = 0


# ---------------------------------------------------------------- where a line splits

cdef void _colour_misses(_Scratch s, const cell_t* g, int64_t base, int64_t step,
                         int64_t n, uint64_t bit) noexcept nogil:
    """``nc[p]``: how many of the line's first p cells may not take ``bit``."""
    cdef int64_t p
    s.nc[0] = 0
    for p in range(n):
        s.nc[p + 1] = s.nc[p] + (0 if g[base + p * step] & bit else 1)


cdef void _extents(Engine e, _Scratch s, const cell_t* g, int64_t base, int64_t step,
                   int64_t n, int64_t first, int64_t k) noexcept nogil:
    """Leftmost and rightmost start of each block of the line (``lo``, ``hi``) among the
    line's solutions that fit its known cells; the line is consistent. Forward and backward
    reachability over (blocks placed, cells used), O(n·k), in two states — the last cell
    background or a block's end — since two blocks of one colour need background between
    them and two of different colours need not."""
    cdef int64_t cols = s.cols, p, j, size, st, en
    cdef uint8_t* fb = s.fb
    cdef uint8_t* fe = s.fe
    cdef uint8_t* bb = s.bb
    cdef uint8_t* bs = s.bs
    cdef int64_t* nb = s.nb
    cdef int64_t* nc = s.nc
    cdef uint64_t bit, counted = 0  # the colour nc counts (0: none yet)
    cdef bint ok, apart
    nb[0] = 0
    for p in range(n):
        nb[p + 1] = nb[p] + (0 if g[base + p * step] & BACKGROUND else 1)
    for p in range(n + 1):  # no block placed: background so far / from here on
        fb[p] = nb[p] == 0
        fe[p] = 0
        bb[k * cols + p] = nb[n] - nb[p] == 0
        bs[k * cols + p] = 0
    for j in range(1, k + 1):  # blocks 0..j-1 in cells [0, p)
        size = e.sizes[first + j - 1]
        bit = _bit(e, first + j - 1)
        apart = j >= 2 and _bit(e, first + j - 2) == bit  # background between them
        if bit != counted:  # black and white: once a line
            _colour_misses(s, g, base, step, n, bit)
            counted = bit
        for p in range(n + 1):  # block j-1 ends at p
            ok = False
            if p >= size and nc[p] - nc[p - size] == 0:
                st = p - size
                ok = fb[(j - 1) * cols + st] or (not apart and fe[(j - 1) * cols + st])
            fe[j * cols + p] = ok
        fb[j * cols] = 0
        for p in range(1, n + 1):  # cell p-1 background
            fb[j * cols + p] = (nb[p] == nb[p - 1]  # cell p-1 may be background
                                and (fb[j * cols + p - 1] or fe[j * cols + p - 1]))
    for j in range(k - 1, -1, -1):  # blocks j..k-1 in cells [p, n)
        size = e.sizes[first + j]
        bit = _bit(e, first + j)
        apart = j + 1 < k and _bit(e, first + j + 1) == bit
        if bit != counted:
            _colour_misses(s, g, base, step, n, bit)
            counted = bit
        for p in range(n + 1):  # block j starts at p
            ok = False
            en = p + size
            if en <= n and nc[en] - nc[p] == 0:
                ok = bb[(j + 1) * cols + en] or (not apart and bs[(j + 1) * cols + en])
            bs[j * cols + p] = ok
        bb[j * cols + n] = 0
        for p in range(n - 1, -1, -1):  # cell p background
            bb[j * cols + p] = (nb[p + 1] == nb[p]
                                and (bb[j * cols + p + 1] or bs[j * cols + p + 1]))
    for j in range(k):  # block j at [st, en): reached from the left and to the right
        size = e.sizes[first + j]
        apart = j + 1 < k and _bit(e, first + j + 1) == _bit(e, first + j)
        s.lo[j] = n
        s.hi[j] = -1
        for st in range(n - size + 1):
            en = st + size
            if not fe[(j + 1) * cols + en]:
                continue
            if bb[(j + 1) * cols + en] or (not apart and bs[(j + 1) * cols + en]):
                if st < s.lo[j]:
                    s.lo[j] = st
                s.hi[j] = st


cdef void _reach(Engine e, _Scratch s, const cell_t* g, int64_t line, int64_t* n,
                 int64_t* base, int64_t* step) noexcept nogil:
    """How many of ``line``'s blocks can reach each of its cells (``reach[p]``; 0: the
    line splits there); the line's length, first cell and step in the grid."""
    cdef int64_t k, p, j, first
    if line < e.height:
        n[0], base[0], step[0] = e.width, line * e.width, 1
    else:
        n[0], base[0], step[0] = e.height, line - e.height, e.width
    k = e.counts[line]
    first = e.starts[line]
    _extents(e, s, g, base[0], step[0], n[0], first, k)
    for p in range(n[0] + 1):
        s.reach[p] = 0
    for j in range(k):
        s.reach[s.lo[j]] += 1
        s.reach[s.hi[j] + e.sizes[first + j]] -= 1
    for p in range(1, n[0] + 1):
        s.reach[p] += s.reach[p - 1]


cdef inline int64_t _find(_Scratch s, int64_t c) noexcept nogil:
    while s.parent[c] != c:
        s.parent[c] = s.parent[s.parent[c]]
        c = s.parent[c]
    return c


cdef int64_t _parts(Engine e, _Scratch s, const cell_t* g, const int64_t* opens, int64_t m,
                    int64_t* order) noexcept nogil:
    """Split the open slots ``opens`` into independent parts: ``order`` gets them part by
    part, and the return is how many parts; ``begin[i]`` is where part i starts in
    ``order`` (``begin[parts]`` the end)."""
    cdef int64_t i, line, n, base, step, p, parts, at, c, first, a, b, r, slot, t
    for i in range(m):
        t = opens[i]
        s.parent[t] = t
        s.inside[t] = 1
        c = e.opens[t]
        s.mark[c // e.width] = 1
        s.mark[e.height + c % e.width] = 1
    for line in range(e.nlines):
        if not s.mark[line]:
            continue
        s.mark[line] = 0
        _reach(e, s, g, line, &n, &base, &step)
        first = -1
        for p in range(n):
            if s.reach[p] == 0:  # no block reaches over p: the line splits here
                first = -1
                continue
            c = base + p * step
            t = e.slot_of[c]
            if _open(g[c]) and s.inside[t]:
                if first < 0:
                    first = t
                else:
                    a = _find(s, first)
                    b = _find(s, t)
                    if a != b:
                        s.parent[b] = a
    for i in range(m):
        s.sizes[_find(s, opens[i])] = 0
    for i in range(m):
        s.sizes[_find(s, opens[i])] += 1
    parts = 0
    at = 0
    for i in range(m):  # each root, in the order of its first slot, gets its slice
        r = _find(s, opens[i])
        if s.sizes[r] > 0:
            s.begin[parts] = at
            at += s.sizes[r]
            s.sizes[r] = -s.begin[parts] - 1  # where its next slot goes, negated
            parts += 1
    for i in range(m):
        t = opens[i]
        r = _find(s, t)
        slot = -s.sizes[r] - 1
        order[slot] = t
        s.sizes[r] -= 1
        s.inside[t] = 0
    s.begin[parts] = m
    return parts


# ---------------------------------------------------------------- the cache of parts

cdef void _key(Engine e, _Scratch s, const cell_t* g, const int64_t* part, int64_t m,
               uint64_t* ka, uint64_t* kb) noexcept nogil:
    """Two 64-bit hashes of what a part's count depends on and nothing else: each stretch
    of a line that holds its open cells (where it lies, which blocks it holds, its
    cells)."""
    cdef uint64_t a = 0x9E3779B97F4A7C15ULL, b = 0xC2B2AE3D27D4EB4FULL, w
    cdef int64_t i, line, n, base, step, k, left, p, start, held, q, c, first
    cdef bint mine
    for i in range(m):
        c = e.opens[part[i]]
        if _open(g[c]):
            s.inside[part[i]] = 1
            s.mark[c // e.width] = 1
            s.mark[e.height + c % e.width] = 1
    for line in range(e.nlines):
        if not s.mark[line]:
            continue
        s.mark[line] = 0
        _reach(e, s, g, line, &n, &base, &step)
        k = e.counts[line]
        first = e.starts[line]
        left = 0  # blocks wholly left of the stretch
        p = 0
        while p < n:
            if s.reach[p] == 0:
                p += 1
                continue
            start = p  # a stretch: up to the next cell no block reaches
            mine = False
            while p < n and s.reach[p] > 0:
                c = base + p * step
                if e.slot_of[c] != <uint32_t>0xFFFFFFFF and s.inside[e.slot_of[c]]:
                    mine = True
                p += 1
            if mine:
                while left < k and s.hi[left] + e.sizes[first + left] <= start:
                    left += 1
                held = left  # and those that start before its end: the blocks it holds
                while held < k and s.lo[held] < p:
                    held += 1
                _mix(&a, &b, (<uint64_t>line) << 40 | (<uint64_t>start) << 20
                     | <uint64_t>p)
                _mix(&a, &b, (<uint64_t>left) << 32 | <uint64_t>held)
                if cell_t is uint8_t:  # 2 bits a cell, 32 cells a word
                    w = 0
                    for q in range(start, p):
                        w = (w << 2) | g[base + q * step]
                        if (q - start) % 32 == 31:
                            _mix(&a, &b, w)
                            w = 0
                    _mix(&a, &b, w)
                else:
                    for q in range(start, p):
                        _mix(&a, &b, g[base + q * step])
    for i in range(m):
        s.inside[part[i]] = 0
    ka[0] = a
    kb[0] = b


cdef inline int64_t _keep(_Scratch s, int64_t slot, uint64_t a, uint64_t b,
                          int64_t n) noexcept nogil:
    s.keys[2 * slot] = a
    s.keys[2 * slot + 1] = b
    s.values[slot] = n
    return n


cdef inline void _mix(uint64_t* a, uint64_t* b, uint64_t x) noexcept nogil:
    a[0] = (a[0] ^ x) * 0xBF58476D1CE4E5B9ULL
    a[0] ^= a[0] >> 29
    b[0] = (b[0] + x) * 0x94D049BB133111EBULL
    b[0] ^= b[0] >> 32


# ---------------------------------------------------------------- counting

cdef int64_t _open_in(Engine e, const cell_t* g, const int64_t* part, int64_t m) noexcept nogil:
    """How many of ``part``'s slots are still open."""
    cdef int64_t i, n = 0
    for i in range(m):
        if _open(g[e.opens[part[i]]]):
            n += 1
    return n


cdef int64_t _count(Engine e, _Scratch s, cell_t* g, const int64_t* part,
                    int64_t m_part) noexcept nogil:
    """The solutions of ``part`` (slots of open cells of ``g``, a fixpoint of line logic,
    whose other open cells are independent of these): probe, split into parts and
    multiply their counts, or branch on the best-scored cell and add, a block colour before
    the background."""
    cdef uint64_t a, b, left, value
    cdef int64_t slot, total, sub, best, m, i, parts
    cdef double top
    cdef bint probing
    cdef int64_t* opens
    cdef int64_t* order
    cdef int64_t* begin
    _key(e, s, g, part, m_part, &a, &b)
    slot = <int64_t>(a & <uint64_t>(s.cache - 1))
    if s.keys[2 * slot] == a and s.keys[2 * slot + 1] == b:
        s.hits += 1
        return s.values[slot]
    e.nodes += 1
    m = _open_in(e, g, part, m_part)
    if m == 0:
        return _keep(s, slot, a, b, 1)
    probing = m >= s.probe_min
    if probing and not _probe(e, g):
        return NOMEM if e.nomem else _keep(s, slot, a, b, 0)
    m = _open_in(e, g, part, m_part)
    if m == 0:
        return _keep(s, slot, a, b, 1)
    opens = <int64_t*>calloc(2 * m + 1, 8)
    if opens == NULL:
        return NOMEM
    order = opens + m
    try:
        m = 0
        for i in range(m_part):
            if _open(g[e.opens[part[i]]]):
                opens[m] = part[i]
                m += 1
        parts = _parts(e, s, g, opens, m, order)
        if parts > 1:
            begin = <int64_t*>calloc(parts + 1, 8)
            if begin == NULL:
                return NOMEM
            try:
                memcpy(begin, s.begin, (parts + 1) * 8)
                total = 1
                for i in range(parts):
                    sub = _below(e, s, g, &order[begin[i]], begin[i + 1] - begin[i], -1, 0)
                    if sub <= 0:
                        return sub
                    if total > MAX // sub:
                        return OVER
                    total *= sub
                return _keep(s, slot, a, b, total)
            finally:
                free(begin)
        best = opens[0]
        top = -1.0
        for i in range(m):
            if probing and e.score[opens[i]] > top:
                top = e.score[opens[i]]
                best = opens[i]
        total = 0
        best = e.opens[best]
        left = g[best]
        while left:  # the highest bit first
            value = (<uint64_t>1) << (63 - __builtin_clzll(left))
            left ^= value
            sub = _below(e, s, g, opens, m, best, value)
            if sub < 0:
                return sub
            if total > MAX - sub:
                return OVER
            total += sub
        return _keep(s, slot, a, b, total)
    finally:
        free(opens)


cdef int64_t _below(Engine e, _Scratch s, cell_t* g, const int64_t* part, int64_t m,
                    int64_t cell, uint64_t value) noexcept nogil:
    """A child's count, one level down: a part counted apart (``cell`` -1), or a branch,
    ``cell`` settled to ``value`` first (0 when that contradicts). What the child changes
    in the grid and in what probing remembers is undone after."""
    cdef int64_t level = e.level, n
    if not e.enter():
        return NOMEM
    if cell < 0:
        n = _count(e, s, g, part, m)
    elif not e.assign(g, cell, value):
        n = NOMEM if e.nomem else 0
    else:
        n = _count(e, s, g, part, m)
    e.leave(g, level)
    return n


def count(Engine e, int64_t cache, int probe_min):
    """The number of solutions of ``e``'s root grid (propagated here first, on a fresh
    engine), or :data:`OVERFLOW` past 2^63 - 1, and how many parts came from the cache of
    ``cache`` entries (a power of two). Parts of fewer than ``probe_min`` open cells are
    not probed."""
    cdef int64_t n
    cdef int r
    r = e.line_logic()
    if r == 0:
        return 0, 0
    if e.bw:
        ok = e._find_opens(<uint8_t*>e.grid)
    else:
        ok = e._find_opens(<uint64_t*>e.grid)
    if not ok:
        raise MemoryError(f"the counter could not have memory for the {e.open_now():,} "
                          f"open cells of a {e.height}×{e.width} puzzle")
    cdef _Scratch s = _Scratch(e.longest, e.kmax, e.nopen, e.nlines, cache, probe_min)
    cdef int64_t* part = <int64_t*>_alloc(e.nopen, 8)
    cdef int64_t i
    try:
        for i in range(e.nopen):
            part[i] = i
        if e.bw:
            n = _count(e, s, <uint8_t*>e.grid, part, e.nopen)
        else:
            n = _count(e, s, <uint64_t*>e.grid, part, e.nopen)
        watch_heard(&e.watch)  # a signal in line logic made the count meaningless
        if n == NOMEM:
            raise MemoryError(f"the counter ran out of memory on a {e.height}×{e.width} "
                              f"puzzle with {e.nopen:,} cells open after line logic")
        return n, s.hits
    finally:
        free(part)


def extents(Engine e, int64_t line):
    """The leftmost and rightmost start of each block of ``line`` of ``e``'s grid among the
    line's placements that fit its known cells (the line a fixpoint of line logic): two
    lists, for tests."""
    cdef _Scratch s = _Scratch(e.longest, e.kmax, 1, e.nlines, 1, 0)
    cdef int64_t n, base, step, j, k = e.counts[line]
    if e.bw:
        _reach(e, s, <uint8_t*>e.grid, line, &n, &base, &step)
    else:
        _reach(e, s, <uint64_t*>e.grid, line, &n, &base, &step)
    return [s.lo[j] for j in range(k)], [s.hi[j] for j in range(k)]
