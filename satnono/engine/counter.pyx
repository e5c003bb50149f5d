# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's exact counting of a black-and-white grid's solutions: the search of
:mod:`.search` (line logic and probing at every node) counting its leaves instead of
listing them, and counting independent parts of the grid apart and multiplying.

Independent parts (component decomposition: Bayardo & Pehoushek, "Counting Models Using
Connected Components", AAAI 2000, as #SAT counters do) come from the lines. A line whose
known cells pin down which of its blocks lie left of a cell and which right — no block can
reach over that cell (its leftmost and rightmost placements say so) — falls into stretches
that are filled independently of each other; open cells that share a stretch of a row or a
column belong together, and the parts this makes have no constraint in common, so the
count is the product of theirs. Parts met again are counted once (a cache keyed by what a
part's count depends on). The same nodes and counts as the Numba counter it replaced.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from .clock cimport watch_heard
from .memory cimport _alloc

from .search cimport Engine

cdef enum:
    EMPTY = 1
    FILLED = 2
    OPEN = 3

#: what :func:`count` returns instead of a count: the count passed 2^63 - 1
OVERFLOW = -1
cdef int64_t MAX = 0x7FFFFFFFFFFFFFFF
# the same inside, and memory that could not be had
cdef int64_t OVER = -1
cdef int64_t NOMEM = -2


cdef class _Counter:
    """The counter's scratch beside the engine it counts with: each line's reachability
    tables and its blocks' extreme starts, the marks and sizes of parts, and the cache of
    parts already counted."""

    cdef Engine e
    cdef int size, kmax, wide
    cdef uint8_t* fw
    cdef uint8_t* bw
    cdef int64_t* lo
    cdef int64_t* hi
    cdef int64_t* nf
    cdef int64_t* ne
    cdef int64_t* begin
    cdef int64_t* inside
    cdef int64_t* mark
    cdef int64_t* reach
    cdef int64_t* sizes
    cdef int64_t* parent
    cdef uint64_t* keys
    cdef int64_t* values
    cdef int64_t cache
    cdef int probe_min
    cdef public int64_t hits

    def __dealloc__(self):
        free(self.fw)
        free(self.bw)
        free(self.lo)
        free(self.hi)
        free(self.nf)
        free(self.ne)
        free(self.begin)
        free(self.inside)
        free(self.mark)
        free(self.reach)
        free(self.sizes)
        free(self.parent)
        free(self.keys)
        free(self.values)

    def __init__(self, Engine e, int64_t cache, int probe_min):
        cdef int line
        self.e = e
        self.size = max(e.height, e.width)
        self.kmax = 1
        for line in range(e.nlines):
            self.kmax = max(self.kmax, <int>e.counts[line])
        self.wide = max(self.size, e.cells, e.nlines) + 2
        self.fw = <uint8_t*>_alloc((self.kmax + 1) * (self.size + 1), 1)
        self.bw = <uint8_t*>_alloc((self.kmax + 1) * (self.size + 1), 1)
        self.lo = <int64_t*>_alloc(self.wide, 8)
        self.hi = <int64_t*>_alloc(self.wide, 8)
        self.nf = <int64_t*>_alloc(self.wide, 8)
        self.ne = <int64_t*>_alloc(self.wide, 8)
        self.begin = <int64_t*>_alloc(self.wide, 8)
        self.inside = <int64_t*>_alloc(self.wide, 8)
        self.mark = <int64_t*>_alloc(self.wide, 8)
        self.reach = <int64_t*>_alloc(self.wide, 8)
        self.sizes = <int64_t*>_alloc(self.wide, 8)
        self.parent = <int64_t*>_alloc(e.cells, 8)
        self.keys = <uint64_t*>_alloc(2 * cache, 8)
        self.values = <int64_t*>_alloc(cache, 8)
        self.cache = cache
        self.probe_min = probe_min
        self.hits = 0

    # ------------------------------------------------------------ where a line splits

    cdef void _extents(self, const uint8_t* g, int base, int step, int n, const int64_t* clue,
                       int k) noexcept nogil:
        """Leftmost and rightmost start of each block of the line (``lo``, ``hi``) among
        the line's solutions that fit its known cells; the line is consistent. Forward and
        backward reachability over (blocks placed, cells used), O(n·k)."""
        cdef int cols = self.size + 1, p, j, size, s, e
        cdef uint8_t* fw = self.fw
        cdef uint8_t* bw = self.bw
        cdef int64_t* nf = self.nf
        cdef int64_t* ne = self.ne
        cdef bint ok, left, right
        cdef int v
        nf[0] = 0
        ne[0] = 0
        for p in range(n):
            v = g[base + p * step]
            nf[p + 1] = nf[p] + (0 if v & FILLED else 1)
            ne[p + 1] = ne[p] + (0 if v & EMPTY else 1)
        for p in range(n + 1):
            fw[p] = ne[p] == 0
            bw[k * cols + p] = ne[n] - ne[p] == 0
        for j in range(1, k + 1):  # fw[j, p]: blocks 0..j-1 fit in cells [0, p)
            size = <int>clue[j - 1]
            fw[j * cols] = False
            for p in range(1, n + 1):
                ok = fw[j * cols + p - 1] and (g[base + (p - 1) * step] & EMPTY) != 0
                if not ok and p >= size and nf[p] - nf[p - size] == 0:
                    s = p - size
                    if j == 1:
                        ok = fw[s]
                    else:
                        ok = (s >= 1 and (g[base + (s - 1) * step] & EMPTY) != 0
                              and fw[(j - 1) * cols + s - 1])
                fw[j * cols + p] = ok
        for j in range(k - 1, -1, -1):  # bw[j, p]: blocks j..k-1 fit in cells [p, n)
            size = <int>clue[j]
            bw[j * cols + n] = False
            for p in range(n - 1, -1, -1):
                ok = bw[j * cols + p + 1] and (g[base + p * step] & EMPTY) != 0
                if not ok and p + size <= n and nf[p + size] - nf[p] == 0:
                    e = p + size
                    if j == k - 1:
                        ok = bw[k * cols + e]
                    else:
                        ok = (e < n and (g[base + e * step] & EMPTY) != 0
                              and bw[(j + 1) * cols + e + 1])
                bw[j * cols + p] = ok
        for j in range(k):
            size = <int>clue[j]
            self.lo[j] = n
            self.hi[j] = -1
            for s in range(n - size + 1):
                if nf[s + size] - nf[s] != 0:
                    continue
                if j == 0:
                    left = fw[s]
                else:
                    left = (s >= 1 and (g[base + (s - 1) * step] & EMPTY) != 0
                            and fw[j * cols + s - 1])
                if not left:
                    continue
                e = s + size
                if j == k - 1:
                    right = bw[k * cols + e]
                else:
                    right = (e < n and (g[base + e * step] & EMPTY) != 0
                             and bw[(j + 1) * cols + e + 1])
                if right:
                    if s < self.lo[j]:
                        self.lo[j] = s
                    self.hi[j] = s

    cdef void _reach(self, const uint8_t* g, int line, int* n, int* base,
                     int* step) noexcept nogil:
        """How many of ``line``'s blocks can reach each of its cells (``reach[p]``; 0: the
        line splits there); the line's length, first cell and step in the grid."""
        cdef int k, p, j
        cdef const int64_t* clue
        if line < self.e.height:
            n[0], base[0], step[0] = self.e.width, line * self.e.width, 1
        else:
            n[0], base[0], step[0] = self.e.height, line - self.e.height, self.e.width
        k = <int>self.e.counts[line]
        clue = &self.e.clues[self.e.starts[line]]
        self._extents(g, base[0], step[0], n[0], clue, k)
        for p in range(n[0] + 1):
            self.reach[p] = 0
        for j in range(k):
            self.reach[self.lo[j]] += 1
            self.reach[self.hi[j] + clue[j]] -= 1
        for p in range(1, n[0] + 1):
            self.reach[p] += self.reach[p - 1]

    cdef inline int64_t _find(self, int64_t c) noexcept nogil:
        while self.parent[c] != c:
            self.parent[c] = self.parent[self.parent[c]]
            c = self.parent[c]
        return c

    cdef int _parts(self, const uint8_t* g, const int64_t* opens, int m,
                    int64_t* order) noexcept nogil:
        """Split the open cells ``opens`` into independent parts: ``order`` gets them part
        by part, and the return is how many parts; ``begin[i]`` is where part i starts in
        ``order`` (``begin[parts]`` the end)."""
        cdef int i, line, n, base, step, p, parts, at
        cdef int64_t c, first, a, b, r, slot
        for i in range(m):
            c = opens[i]
            self.parent[c] = c
            self.inside[c] = 1
        for i in range(m):
            c = opens[i]
            self.mark[c // self.e.width] = 1
            self.mark[self.e.height + c % self.e.width] = 1
        for line in range(self.e.nlines):
            if not self.mark[line]:
                continue
            self.mark[line] = 0
            self._reach(g, line, &n, &base, &step)
            first = -1
            for p in range(n):
                if self.reach[p] == 0:  # no block reaches over p: the line splits here
                    first = -1
                    continue
                c = base + p * step
                if g[c] == OPEN and self.inside[c]:
                    if first < 0:
                        first = c
                    else:
                        a = self._find(first)
                        b = self._find(c)
                        if a != b:
                            self.parent[b] = a
        for i in range(m):
            self.sizes[self._find(opens[i])] = 0
        for i in range(m):
            self.sizes[self._find(opens[i])] += 1
        parts = 0
        at = 0
        for i in range(m):  # each root, in the order of its first cell, gets its slice
            r = self._find(opens[i])
            if self.sizes[r] > 0:
                self.begin[parts] = at
                at += <int>self.sizes[r]
                self.sizes[r] = -self.begin[parts] - 1  # where its next cell goes, negated
                parts += 1
        for i in range(m):
            c = opens[i]
            r = self._find(c)
            slot = -self.sizes[r] - 1
            order[slot] = c
            self.sizes[r] -= 1
            self.inside[c] = 0
        self.begin[parts] = m
        return parts

    # ------------------------------------------------------------ the cache of parts

    cdef void _key(self, const uint8_t* g, const int64_t* part, int m, uint64_t* ka,
                   uint64_t* kb) noexcept nogil:
        """Two 64-bit hashes of what a part's count depends on and nothing else: each
        stretch of a line that holds its open cells (where it lies, which blocks it holds,
        its cells)."""
        cdef uint64_t a = 0x9E3779B97F4A7C15ULL, b = 0xC2B2AE3D27D4EB4FULL, w
        cdef int i, line, n, base, step, k, left, p, start, held, q
        cdef int64_t c
        cdef const int64_t* clue
        cdef bint mine
        for i in range(m):
            c = part[i]
            if g[c] == OPEN:
                self.inside[c] = 1
                self.mark[c // self.e.width] = 1
                self.mark[self.e.height + c % self.e.width] = 1
        for line in range(self.e.nlines):
            if not self.mark[line]:
                continue
            self.mark[line] = 0
            self._reach(g, line, &n, &base, &step)
            k = <int>self.e.counts[line]
            clue = &self.e.clues[self.e.starts[line]]
            left = 0  # blocks wholly left of the stretch
            p = 0
            while p < n:
                if self.reach[p] == 0:
                    p += 1
                    continue
                start = p  # a stretch: up to the next cell no block reaches
                mine = False
                while p < n and self.reach[p] > 0:
                    if self.inside[base + p * step]:
                        mine = True
                    p += 1
                if mine:
                    while left < k and self.hi[left] + clue[left] <= start:
                        left += 1
                    held = left  # and those that start before its end: the blocks it holds
                    while held < k and self.lo[held] < p:
                        held += 1
                    _mix(&a, &b, (<uint64_t>line) << 40 | (<uint64_t>start) << 20
                         | <uint64_t>p)
                    _mix(&a, &b, (<uint64_t>left) << 32 | <uint64_t>held)
                    w = 0
                    for q in range(start, p):
                        w = (w << 2) | <uint64_t>g[base + q * step]
                        if (q - start) % 32 == 31:
                            _mix(&a, &b, w)
                            w = 0
                    _mix(&a, &b, w)
        for i in range(m):
            self.inside[part[i]] = 0
        ka[0] = a
        kb[0] = b

    cdef inline int64_t _keep(self, int64_t slot, uint64_t a, uint64_t b,
                              int64_t n) noexcept nogil:
        self.keys[2 * slot] = a
        self.keys[2 * slot + 1] = b
        self.values[slot] = n
        return n

    # ------------------------------------------------------------ counting

    cdef int64_t _count(self, uint8_t* g, const int64_t* part, int m_part) noexcept nogil:
        """The solutions of ``part`` (cells of ``g``, a fixpoint of line logic, whose other
        open cells are independent of these): probe, split into parts and multiply their
        counts, or branch on the best-scored cell and add. What probing remembers and its
        scores are the engine's, this node's own (its caller's copy)."""
        cdef uint64_t a, b
        cdef int64_t slot, total, sub, best, top, c
        cdef int m, i, parts, j, value
        cdef bint probing
        cdef int64_t* opens
        cdef int64_t* order
        cdef int64_t* begin
        cdef uint8_t* h
        self._key(g, part, m_part, &a, &b)
        slot = <int64_t>(a & <uint64_t>(self.cache - 1))
        if self.keys[2 * slot] == a and self.keys[2 * slot + 1] == b:
            self.hits += 1
            return self.values[slot]
        self.e.nodes += 1
        m = _open_in(g, part, m_part)
        if m == 0:
            return self._keep(slot, a, b, 1)
        self.e._load(g)
        probing = m >= self.probe_min
        if probing:
            self.e.probe_cell = 0
            self.e.probe_quiet = 0
            if self.e.probe(g, MAX) == 0:
                return self._keep(slot, a, b, 0)
        m = _open_in(g, part, m_part)
        if m == 0:
            return self._keep(slot, a, b, 1)
        opens = <int64_t*>calloc(2 * m + 1, 8)
        if opens == NULL:
            return NOMEM
        order = opens + m
        try:
            m = 0
            for i in range(m_part):
                if g[part[i]] == OPEN:
                    opens[m] = part[i]
                    m += 1
            parts = self._parts(g, opens, m, order)
            if parts > 1:
                begin = <int64_t*>calloc(parts + 1, 8)
                if begin == NULL:
                    return NOMEM
                try:
                    memcpy(begin, self.begin, (parts + 1) * 8)
                    total = 1
                    for i in range(parts):
                        sub = self._in_a_copy(g, &order[begin[i]],
                                              <int>(begin[i + 1] - begin[i]), 0, 0, 0)
                        if sub <= 0:
                            return sub
                        if total > MAX // sub:
                            return OVER
                        total *= sub
                    return self._keep(slot, a, b, total)
                finally:
                    free(begin)
            best = opens[0]
            top = -1
            for i in range(m):
                c = opens[i]
                if probing and self.e.score[c] > top:
                    top = self.e.score[c]
                    best = c
            total = 0
            for j in range(2):
                value = FILLED if j == 0 else EMPTY
                sub = self._in_a_copy(g, opens, m, 1, best, value)
                if sub < 0:
                    return sub
                if total > MAX - sub:
                    return OVER
                total += sub
            return self._keep(slot, a, b, total)
        finally:
            free(opens)

    cdef int64_t _in_a_copy(self, uint8_t* g, const int64_t* part, int m, bint branch,
                            int64_t cell, int value) noexcept nogil:
        """A child's count, with its own copy of what probing remembers and of the scores
        (and, for a branch, of the grid, with ``cell`` settled to ``value`` first: 0 when
        that contradicts)."""
        cdef Py_ssize_t cells = self.e.cells, words = self.e.words, lines = self.e.nlines
        cdef int64_t* probed_at = self.e.probed_at
        cdef uint64_t* probe_lines = self.e.probe_lines
        cdef int64_t* line_changed = self.e.line_changed
        cdef int64_t* score = self.e.score
        cdef int64_t result
        cdef char* block = <char*>calloc(cells * (16 + 8 * words + 1) + 8 * lines, 1)
        if block == NULL:
            return NOMEM
        cdef uint8_t* h = <uint8_t*>block
        self.e.probed_at = <int64_t*>(block + cells)
        self.e.score = <int64_t*>(block + 9 * cells)
        self.e.line_changed = <int64_t*>(block + 17 * cells)
        self.e.probe_lines = <uint64_t*>(block + 17 * cells + 8 * lines)
        memcpy(self.e.probed_at, probed_at, cells * 8)
        memcpy(self.e.score, score, cells * 8)
        memcpy(self.e.line_changed, line_changed, lines * 8)
        memcpy(self.e.probe_lines, probe_lines, cells * words * 8)
        try:
            if not branch:
                return self._count(g, part, m)
            memcpy(h, g, cells)
            self.e._load(h)
            if not self.e._settle(h, <int>cell, value):
                return 0
            return self._count(h, part, m)
        finally:
            self.e.probed_at = probed_at
            self.e.probe_lines = probe_lines
            self.e.line_changed = line_changed
            self.e.score = score
            free(block)



cdef inline void _mix(uint64_t* a, uint64_t* b, uint64_t x) noexcept nogil:
    a[0] = (a[0] ^ x) * 0xBF58476D1CE4E5B9ULL
    a[0] ^= a[0] >> 29
    b[0] = (b[0] + x) * 0x94D049BB133111EBULL
    b[0] ^= b[0] >> 32


cdef inline int _open_in(const uint8_t* g, const int64_t* part, int m) noexcept nogil:
    """How many of ``part``'s cells are still open."""
    cdef int i, n = 0
    for i in range(m):
        if g[part[i]] == OPEN:
            n += 1
    return n


def count(Engine e, int64_t cache, int probe_min):
    """The number of solutions of ``e``'s root grid (propagated here first, on a fresh
    engine), or :data:`OVERFLOW` past 2^63 - 1, and how many parts came from the cache of
    ``cache`` entries (a power of two). Parts of fewer than ``probe_min`` open cells are
    not probed."""
    cdef _Counter counter = _Counter(e, cache, probe_min)
    cdef uint8_t* g = e._grid(0)
    cdef int64_t* part = <int64_t*>_alloc(e.cells, 8)
    cdef int64_t n
    cdef int i
    try:
        memset(e.probed_at, 0, e.cells * 8)
        memset(e.probe_lines, 0, e.cells * e.words * 8)
        memset(e.line_changed, 0, e.nlines * 8)
        memset(e.score, 0, e.cells * 8)
        e.clock = 1
        e._load(g)
        if not e.propagate(g):
            watch_heard(&e.watch)  # a signal's, not a contradiction
            return 0, 0
        for i in range(e.cells):
            part[i] = i
        n = counter._count(g, part, e.cells)
        watch_heard(&e.watch)  # a signal in line logic made the count meaningless: its exception
        if n == NOMEM:
            raise MemoryError()
        return n, counter.hits
    finally:
        free(part)


def extents(Engine e, int line):
    """The leftmost and rightmost start of each block of ``line`` of ``e``'s root grid
    among the line's placements that fit its known cells (the line a fixpoint of line
    logic): two lists, for tests."""
    cdef _Counter counter = _Counter(e, 1, 0)
    cdef int n, base, step, j, k = <int>e.counts[line]
    counter._reach(e._grid(0), line, &n, &base, &step)
    return [counter.lo[j] for j in range(k)], [counter.hi[j] for j in range(k)]
