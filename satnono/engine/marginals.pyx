# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Line marginals and belief propagation between rows and columns, compiled ahead of time:
how likely each open cell is to take each value, and each block to start where, for a SAT
solver's first decisions and the search's first values.

A line's marginals: over every placement of its blocks that fits what its cells may take,
each placement weighted by the product of its cells' priors (a weight per cell and value),
the share of the weight in which a block starts at a position, and in which a cell takes a
value. The automaton's forward-backward count (the sum-product algorithm on a chain,
Kschischang, Frey & Loeliger, "Factor graphs and the sum-product algorithm", IEEE Trans. IT
47, 2001), in two states a position — the last cell background, or the end of a block, since
two blocks of one colour need background between them and blocks of different colours may
touch — with weights in floating point rescaled at every position (a position's values
sum to one, its scale kept as a logarithm), so that lines of any length neither underflow
nor overflow. With every weight 1 a placement that no completion uses has weight exactly 0:
the marginals' support is the complete line solver's answer.

Belief propagation (Pearl's, run on the loopy graph of rows, columns and cells: Murphy,
Weiss & Jordan, "Loopy belief propagation for approximate inference", UAI 1999), as
nonosolve runs it: each line sends each of its open cells the extrinsic message — its
marginal with the cell's prior divided out, the prior being what the crossing line sent —
damped by half against the last one; rows, then columns, a fixed number of rounds. A
cell's belief is the product of its two messages.
"""

from libc.math cimport INFINITY, exp, log
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

from .clock cimport check_signals, monotonic
from .memory cimport _alloc
from .search cimport Engine

#: messages are kept in [EPS, 1 - EPS], so that no value is ever ruled out by a message
#: (only by the clues)
cdef double EPS = 1e-6


cdef class _Scratch:
    """One line's forward-backward tables, for lines of up to ``n`` cells, ``k`` blocks and
    ``values`` values (the background and each block colour)."""

    cdef int64_t n, k, values
    cdef double* G   # (k + 1) × (n + 1): j blocks placed in the first i cells, cell i-1 background
    cdef double* E   # the same, the j-th block ending at i
    cdef double* L   # n + 1: each position's scale, as a logarithm
    cdef double* Gr  # the same three on the reversed line
    cdef double* Er
    cdef double* Lr
    cdef double* lw  # values × (n + 1): prefix sums of the log weights
    cdef int64_t* nc  # values × (n + 1): prefix counts of cells that may not take the value
    cdef double* cover  # values × (n + 2): each value's weight on each cell (a difference array)

    def __dealloc__(self):
        free(self.G)
        free(self.E)
        free(self.L)
        free(self.Gr)
        free(self.Er)
        free(self.Lr)
        free(self.lw)
        free(self.nc)
        free(self.cover)

    def __init__(self, int64_t n, int64_t k, int64_t values):
        self.n, self.k, self.values = n, k, values
        cdef int64_t table = (k + 1) * (n + 1)
        self.G = <double*>_alloc(table, 8)
        self.E = <double*>_alloc(table, 8)
        self.L = <double*>_alloc(n + 1, 8)
        self.Gr = <double*>_alloc(table, 8)
        self.Er = <double*>_alloc(table, 8)
        self.Lr = <double*>_alloc(n + 1, 8)
        self.lw = <double*>_alloc(values * (n + 1), 8)
        self.nc = <int64_t*>_alloc(values * (n + 1), 8)
        self.cover = <double*>_alloc(values * (n + 2), 8)


cdef inline double _span_log(_Scratch s, int64_t n, int64_t v, int64_t a, int64_t b,
                             bint rev) noexcept nogil:
    """The log weight of value ``v`` over the line's cells [a, b) in the direction of
    travel (``rev``: counted from the end)."""
    if rev:
        a, b = n - b, n - a
    return s.lw[v * (n + 1) + b] - s.lw[v * (n + 1) + a]


cdef inline bint _fits(_Scratch s, int64_t n, int64_t v, int64_t a, int64_t b,
                       bint rev) noexcept nogil:
    if rev:
        a, b = n - b, n - a
    return s.nc[v * (n + 1) + b] == s.nc[v * (n + 1) + a]


cdef double _forward(_Scratch s, int64_t n, int64_t k, const int64_t* sizes,
                     const int64_t* cols, const uint64_t* allowed, const double* w,
                     int64_t values, bint rev, double* G, double* E,
                     double* L) noexcept nogil:
    """The forward count over the line (``rev``: over the reversed line and blocks): the
    tables ``G``, ``E`` and scales ``L``; returns the log of the total weight (-inf: no
    placement fits)."""
    cdef int64_t i, j, t, cell, a, block, size, prev, cols1 = n + 1
    cdef double g, e, base, total, bg
    cdef uint64_t c
    memset(G, 0, (k + 1) * cols1 * 8)
    memset(E, 0, (k + 1) * cols1 * 8)
    G[0] = 1.0
    L[0] = 0.0
    for i in range(1, n + 1):
        t = i - 1
        cell = n - 1 - t if rev else t
        bg = w[cell * values] if allowed[cell] & 1 else 0.0
        total = 0.0
        for j in range(k + 1):
            g = (G[j * cols1 + i - 1] + E[j * cols1 + i - 1]) * bg if bg > 0 else 0.0
            G[j * cols1 + i] = g
            e = 0.0
            if j >= 1:
                block = k - j if rev else j - 1
                size = sizes[block]
                c = <uint64_t>cols[block]
                a = i - size
                if a >= 0 and _fits(s, n, c, a, i, rev):
                    base = G[(j - 1) * cols1 + a]
                    if j >= 2:
                        prev = block + 1 if rev else block - 1
                        if <uint64_t>cols[prev] != c:
                            base += E[(j - 1) * cols1 + a]
                    if base > 0:
                        e = base * exp(_span_log(s, n, c, a, i, rev) + L[a] - L[i - 1])
            E[j * cols1 + i] = e
            total += g + e
        if total > 0:
            for j in range(k + 1):
                G[j * cols1 + i] /= total
                E[j * cols1 + i] /= total
            L[i] = L[i - 1] + log(total)
        else:
            L[i] = L[i - 1]
    total = G[k * cols1 + n] + E[k * cols1 + n]
    if not total > 0:
        return -INFINITY
    return log(total) + L[n]


cdef bint line_marginals(_Scratch s, int64_t n, int64_t k, const int64_t* sizes,
                         const int64_t* cols, const uint64_t* allowed, const double* w,
                         int64_t values, double* post, double* start) noexcept nogil:
    """The marginals of one line of ``n`` cells (each may take the values ``allowed[i]``,
    weighted ``w[i × values + v]``) and ``k`` blocks: ``post[i × values + v]`` the share of
    the weight in which cell i takes value v, ``start[j × n + p]`` (when given) the share
    in which block j starts at p. False when no placement fits."""
    cdef int64_t i, j, v, p, size, m, cols1 = n + 1, rest
    cdef double logt, before, after, share, total
    cdef uint64_t c
    for v in range(values):  # prefix sums of log weights and of cells that rule v out
        s.lw[v * cols1] = 0.0
        s.nc[v * cols1] = 0
        for i in range(n):
            if (allowed[i] >> v) & 1:
                s.lw[v * cols1 + i + 1] = s.lw[v * cols1 + i] + log(w[i * values + v])
                s.nc[v * cols1 + i + 1] = s.nc[v * cols1 + i]
            else:
                s.lw[v * cols1 + i + 1] = s.lw[v * cols1 + i]
                s.nc[v * cols1 + i + 1] = s.nc[v * cols1 + i] + 1
    logt = _forward(s, n, k, sizes, cols, allowed, w, values, False, s.G, s.E, s.L)
    if logt == -INFINITY:
        return False
    _forward(s, n, k, sizes, cols, allowed, w, values, True, s.Gr, s.Er, s.Lr)
    memset(s.cover, 0, values * (n + 2) * 8)
    if start != NULL:
        memset(start, 0, k * n * 8)
    for j in range(k):
        size = sizes[j]
        c = <uint64_t>cols[j]
        m = k - 1 - j  # blocks after j
        for p in range(n - size + 1):
            if not _fits(s, n, c, p, p + size, False):
                continue
            before = s.G[j * cols1 + p]
            if j >= 1 and <uint64_t>cols[j - 1] != c:
                before += s.E[j * cols1 + p]
            rest = n - p - size
            after = s.Gr[m * cols1 + rest]
            if m >= 1 and <uint64_t>cols[j + 1] != c:
                after += s.Er[m * cols1 + rest]
            if before <= 0 or after <= 0:
                continue
            share = before * after * exp(_span_log(s, n, c, p, p + size, False) + s.L[p]
                                         + s.Lr[rest] - logt)
            if start != NULL:
                start[j * n + p] = share
            s.cover[c * (n + 2) + p] += share
            s.cover[c * (n + 2) + p + size] -= share
    for i in range(n):
        total = 0.0
        for v in range(1, values):
            if i > 0:
                s.cover[v * (n + 2) + i] += s.cover[v * (n + 2) + i - 1]
            share = s.cover[v * (n + 2) + i]
            if share < 0:
                share = 0.0
            post[i * values + v] = share
            total += share
        post[i * values] = 1.0 - total if total < 1.0 else 0.0
    return True


# ---------------------------------------------------------------- the grid


cdef inline uint64_t _cell(Engine e, int64_t cell) noexcept nogil:
    if e.bw:
        return (<uint8_t*>e.grid)[cell]
    return (<uint64_t*>e.grid)[cell]


def marginals(Engine e, int64_t line, weights=None):
    """The marginals of ``line`` of ``e``'s grid (rows first, then columns), with every
    placement weighted 1 (or by ``weights``: a weight per cell and value, cell by cell):
    each cell's share of each value, and each block's share of each start, as lists; None
    when no placement fits. For tests."""
    cdef int64_t n = e.width if line < e.height else e.height, i, v
    cdef int64_t k = e.counts[line], values = e.colours + 1
    cdef _Scratch s = _Scratch(n, max(k, 1), values)
    cdef uint64_t* allowed = <uint64_t*>_alloc(n, 8)
    cdef double* w = <double*>_alloc(n * values, 8)
    cdef double* post = <double*>_alloc(n * values, 8)
    cdef double* start = <double*>_alloc(max(k, 1) * n, 8)
    try:
        for i in range(n):
            allowed[i] = _cell(e, line * e.width + i if line < e.height
                               else i * e.width + line - e.height)
            for v in range(values):
                w[i * values + v] = 1.0 if weights is None else weights[i * values + v]
        if not line_marginals(s, n, k, &e.sizes[e.starts[line]], &e.cols[e.starts[line]],
                              allowed, w, values, post, start):
            return None
        return ([[post[i * values + v] for v in range(values)] for i in range(n)],
                [[start[j * n + p] for p in range(n)] for j in range(k)])
    finally:
        free(allowed)
        free(w)
        free(post)
        free(start)


cdef int _heard() except -1:
    """Raise what a signal's handler raised (Ctrl-C, SIGTERM): belief propagation over a
    large grid runs for seconds without coming back to Python."""
    if check_signals() != 0:
        return -1
    return 0


def beliefs(Engine e, int rounds=100, double damping=0.5, double tolerance=1e-4,
            double seconds=0.0):
    """Belief propagation over ``e``'s grid (its root, logic's fixpoint): passes over the
    rows, then the columns, each line's extrinsic message to each of its open cells mixed
    with the last one by ``damping``, until no message moves by more than ``tolerance`` in
    a pass, or ``rounds`` passes. Returns each open cell's belief (its share of
    each value, the background first) as bytes of native doubles, cell by cell in the
    order of ``cells`` (bytes of native 64-bit cell numbers), and for each line with open
    cells (``{line: bytes}``) its blocks' start distributions, as shares that block j
    starts at or before p (``j × n + p``), with the crossing lines' messages as priors —
    the order variables' phases; the passes run, and the lines computed (a line whose
    crossing lines' messages did not move, and whose own last did not, is not computed
    again: it would send the same). It stops ``seconds`` from now (0: no limit) with the
    beliefs as they stand and no start distributions (its fourth answer is then -1), and
    raises what a signal's handler raises, looking after every line."""
    cdef double until = monotonic() + seconds if seconds > 0 else 0.0
    cdef bint late = False
    cdef int64_t values = e.colours + 1, nlines = e.nlines, cells = e.cells
    cdef int64_t i, line, n, k, r, c, cell, slot, v, opens = 0, round_, p, j
    cdef int64_t longest = max(e.height, e.width)
    cdef uint32_t none = 0xFFFFFFFF
    # the open cells, each a slot
    cdef uint32_t* slot_of = <uint32_t*>_alloc(cells, 4)
    for i in range(cells):
        v = <int64_t>_cell(e, i)
        if v & (v - 1):
            slot_of[i] = <uint32_t>opens
            opens += 1
        else:
            slot_of[i] = none
    cdef double* mr = <double*>_alloc(max(opens, 1) * values, 8)
    cdef double* mc = <double*>_alloc(max(opens, 1) * values, 8)
    cdef uint8_t* busy = <uint8_t*>_alloc(nlines, 1)
    cdef uint8_t* stale = <uint8_t*>_alloc(nlines, 1)  # to be computed again
    cdef uint8_t* next_stale = <uint8_t*>_alloc(nlines, 1)
    cdef int64_t work = 0, cross
    cdef bint moved_here
    cdef _Scratch s = _Scratch(longest, max(e.kmax, 1), values)
    cdef uint64_t* allowed = <uint64_t*>_alloc(longest, 8)
    cdef double* w = <double*>_alloc(longest * values, 8)
    cdef double* post = <double*>_alloc(longest * values, 8)
    cdef double* start = <double*>_alloc(max(e.kmax, 1) * longest, 8)
    cdef int64_t* where = <int64_t*>_alloc(longest, 8)
    cdef double* msg
    cdef double* prior
    cdef double m, total, count, moved = 0.0, change
    cdef int64_t ran = 0
    cdef uint64_t bits
    out_cells = bytearray(8 * opens)
    out_beliefs = bytearray(8 * opens * values)
    cdef int64_t* oc = <int64_t*><char*>out_cells
    cdef double* ob = <double*><char*>out_beliefs
    starts = {}
    try:
        for i in range(cells):  # messages start even over the values a cell may take
            if slot_of[i] != none:
                slot = slot_of[i]
                oc[slot] = i
                bits = _cell(e, i)
                count = 0.0
                for v in range(values):
                    count += (bits >> v) & 1
                for v in range(values):
                    mr[slot * values + v] = mc[slot * values + v] = \
                        (1.0 / count if (bits >> v) & 1 else 0.0)
                busy[i // e.width] = 1
                busy[e.height + i % e.width] = 1
        memcpy(stale, busy, nlines)
        round_ = 0
        while True:
            final = round_ == rounds or (round_ > 0 and moved <= tolerance)
            moved = 0.0
            memset(next_stale, 0, nlines)
            for line in range(nlines):
                if not busy[line] or not (final or stale[line]):
                    continue  # nothing it reads moved since it last sent: it would send the same
                _heard()
                if until > 0 and monotonic() > until:
                    late = True
                    break
                work += 1
                n = e.width if line < e.height else e.height
                k = e.counts[line]
                msg = mr if line < e.height else mc
                prior = mc if line < e.height else mr
                for i in range(n):
                    cell = line * e.width + i if line < e.height else i * e.width + line - e.height
                    where[i] = cell
                    allowed[i] = _cell(e, cell)
                    slot = slot_of[cell]
                    for v in range(values):
                        w[i * values + v] = 1.0 if slot == none else \
                            max(prior[slot * values + v], EPS)
                if not line_marginals(s, n, k, &e.sizes[e.starts[line]],
                                      &e.cols[e.starts[line]], allowed, w, values, post,
                                      start if final else NULL):
                    continue  # no placement fits: logic would have said so; nothing to send
                if final:  # the starts, as "at or before p"
                    for j in range(k):
                        for p in range(1, n):
                            start[j * n + p] += start[j * n + p - 1]
                    starts[line] = bytes((<char*>start)[:8 * k * n])
                    continue
                stale[line] = 0
                for i in range(n):
                    slot = slot_of[where[i]]
                    if slot == none:
                        continue
                    moved_here = False
                    total = 0.0
                    for v in range(values):  # the prior divided out: what the line adds
                        m = 0.0
                        if (allowed[i] >> v) & 1:
                            m = post[i * values + v] / w[i * values + v]
                        post[i * values + v] = m
                        total += m
                    for v in range(values):
                        m = post[i * values + v] / total if total > 0 else 0.0
                        if (allowed[i] >> v) & 1:
                            m = min(max(m, EPS), 1.0 - EPS)
                        m = damping * msg[slot * values + v] + (1.0 - damping) * m
                        change = m - msg[slot * values + v]
                        if change < 0:
                            change = -change
                        if change > moved:
                            moved = change
                        if change > tolerance:
                            moved_here = True
                        msg[slot * values + v] = m
                    if moved_here:  # the crossing line reads it; this one damps on
                        cross = (e.height + where[i] % e.width if line < e.height
                                 else where[i] // e.width)
                        stale[cross] = 1
                        next_stale[line] = 1
            if final or late:
                break
            for line in range(nlines):
                if next_stale[line]:
                    stale[line] = 1
            round_ += 1
        for slot in range(opens):  # a cell's belief: the product of its two messages
            total = 0.0
            for v in range(values):
                ob[slot * values + v] = mr[slot * values + v] * mc[slot * values + v]
                total += ob[slot * values + v]
            for v in range(values):
                ob[slot * values + v] = ob[slot * values + v] / total if total > 0 else 0.0
        if late:
            starts, round_ = {}, -1
        return bytes(out_cells), bytes(out_beliefs), starts, round_, work
    finally:
        free(slot_of)
        free(mr)
        free(mc)
        free(busy)
        free(stale)
        free(next_stale)
        free(allowed)
        free(w)
        free(post)
        free(start)
        free(where)
