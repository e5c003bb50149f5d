# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's fast path for black and white, compiled ahead of time: propagation with a
cache of line solves, probing to a fixpoint with its memory, and a depth-first search that
probes at every node, with restarts. The general search (:mod:`.colour`) takes black and
white too, as a palette of one colour; this one, a cell two bits and a line two machine
words, is chosen for black-and-white puzzles once per puzzle
(:func:`satnono.logic.compiled.search_for`) because it is faster on them (benchmarks/results,
"One engine for both palettes").

The method is the tournament solvers' (Wu, Sun, Chen et al., "An Efficient Approach to
Solving Nonograms", IEEE TCIAIG 2013: probing every open cell to a fixpoint at every node,
branching on the cell whose two probes fix the most) with nonosolve's memory of probes (a
cell whose probes solved no line that has changed since is not probed again) and restarts
after Luby's sequence of node counts (Luby, Sinclair & Zuckerman 1993). It visits the same
nodes and solves the same lines as the Numba kernel it replaced (benchmarks/results/NOTES.md
says why each part is as it is).

A grid is ``height × width`` bytes, row by row, each the set of values the cell may take:
bit 0 "may be empty", bit 1 "may be filled" (3 open, 0 a contradiction). Beside it each
line of up to 63 cells is kept as two machine words (which cells may be empty, which may
be filled), so the line solver reads a line in two loads. Every piece of state is a named
field of :class:`Engine`.
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

from .clock cimport watch_heard, watch_late, watch_limit, watch_start, watch_stop_after
from .memory cimport _alloc, _grown

from .line cimport narrow64, narrow_wide
from .words cimport _lowest


cdef enum:
    EMPTY = 1
    FILLED = 2
    OPEN = 3

# what Engine.search returns
FOUND = 1  # a solution is in ``solution``; call again for the next
DONE = 2  # the tree is exhausted: every solution has been returned
SLICE = 3  # the slice's work is spent; call again to go on
EXPIRED = 4  # the time limit (limit_time) passed inside the call: the search is given up

#: entries of the cache of line solves (a power of two)
cdef int64_t CACHE = 1 << 16
#: entries of the cache of line solves past 63 cells
cdef int64_t CACHE_WIDE = 1 << 14
#: from the third run on each branching score is multiplied by 1 + NOISE × a random number
cdef double NOISE = 0.5
cdef uint64_t ONE = 1




cdef int64_t _luby(int64_t i) noexcept nogil:
    """The i-th term (from 0) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 …"""
    cdef int64_t size = 1, seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return (<int64_t>1) << seq


@cython.final
cdef class Engine:
    """One black-and-white puzzle's search state: its clues, the stack of grids, the
    scratch of propagation, the caches of line solves, what probing remembers (now and
    kept per level), the counters of work and the search's position. All of it is memory
    of its own (no NumPy: importing the engine costs a few milliseconds)."""

    def __dealloc__(self):
        # the pointers start NULL (a new object's memory is zeroed), and free(NULL) is fine
        free(self.clues)
        free(self.starts)
        free(self.counts)
        free(self.queue)
        free(self.trail)
        free(self.cache_line)
        free(self.cells1)
        free(self.cells0)
        free(self.probed_at)
        free(self.line_changed)
        free(self.saved_probed_at)
        free(self.saved_line_changed)
        free(self.saved_score)
        free(self.branch)
        free(self.score)
        free(self.queued)
        free(self.line_cells)
        free(self.values1)
        free(self.values0)
        free(self.seen)
        free(self.stack)
        free(self.other)
        free(self.solution)
        free(self.may_empty)
        free(self.may_fill)
        free(self.touched)
        free(self.fs)
        free(self.ff)
        free(self.bs)
        free(self.bf)
        free(self.sweep)
        free(self.wt)
        free(self.cache_entry)
        free(self.cache_wide)
        free(self.probe_lines)
        free(self.saved_probe_lines)

    def __init__(self, int height, int width, clues, starts, counts, int levels,
                 int64_t memory):
        """``clues``: every line's block lengths in one sequence, rows first; ``starts``
        and ``counts``: where each line's are in it and how many; ``levels`` the stack's
        first depth (it doubles as needed); ``memory`` bytes for what probing remembers
        at each level."""
        cdef int i, line, kmax = 1
        self.height, self.width = height, width
        self.nlines = height + width
        self.cells = height * width
        self.clues = <int64_t*>_alloc(len(clues), sizeof(int64_t))
        for i in range(len(clues)):
            self.clues[i] = clues[i]
        self.starts = <int64_t*>_alloc(self.nlines, sizeof(int64_t))
        self.counts = <int64_t*>_alloc(self.nlines, sizeof(int64_t))
        for line in range(self.nlines):
            self.starts[line] = starts[line]
            self.counts[line] = counts[line]
            kmax = max(kmax, <int>self.counts[line])
        cdef int size = max(height, width), nw = size // 64 + 1
        self.words = (self.nlines + 63) // 64
        self.queue = <int64_t*>_alloc(self.nlines, sizeof(int64_t))
        self.queued = <uint8_t*>_alloc(self.nlines, 1)
        memset(self.queued, 1, self.nlines)
        self.may_empty = <uint64_t*>_alloc(self.nlines, sizeof(uint64_t))
        self.may_fill = <uint64_t*>_alloc(self.nlines, sizeof(uint64_t))
        self.trail = <int64_t*>_alloc(self.cells + 1, sizeof(int64_t))
        self.touched = <uint64_t*>_alloc(self.words, sizeof(uint64_t))
        self.line_cells = <uint8_t*>_alloc(size, 1)
        self.fs = <uint64_t*>_alloc(kmax + 2, sizeof(uint64_t))
        self.ff = <uint64_t*>_alloc(kmax + 2, sizeof(uint64_t))
        self.bs = <uint64_t*>_alloc(kmax + 2, sizeof(uint64_t))
        self.bf = <uint64_t*>_alloc(kmax + 2, sizeof(uint64_t))
        self.stride = nw
        self.sweep = <uint64_t*>_alloc(4 * (kmax + 2) * nw, sizeof(uint64_t))
        self.wt = <uint64_t*>_alloc(12 * nw, sizeof(uint64_t))
        self.cache_line = <int64_t*>_alloc(CACHE, sizeof(int64_t))
        for i in range(CACHE):
            self.cache_line[i] = -1
        self.cache_entry = <uint64_t*>_alloc(4 * CACHE, sizeof(uint64_t))
        self.wide_rows = CACHE_WIDE if size > 63 else 1
        self.wide_cols = 1 + 4 * nw
        self.cache_wide = <uint64_t*>_alloc(self.wide_rows * self.wide_cols,
                                            sizeof(uint64_t))
        self.cells1 = <int64_t*>_alloc(self.cells + 1, sizeof(int64_t))
        self.cells0 = <int64_t*>_alloc(self.cells + 1, sizeof(int64_t))
        self.values1 = <uint8_t*>_alloc(self.cells + 1, 1)
        self.values0 = <uint8_t*>_alloc(self.cells + 1, 1)
        self.seen = <uint8_t*>_alloc(self.cells, 1)
        self.probed_at = <int64_t*>_alloc(self.cells, sizeof(int64_t))
        self.probe_lines = <uint64_t*>_alloc(self.cells * self.words, sizeof(uint64_t))
        self.line_changed = <int64_t*>_alloc(self.nlines, sizeof(int64_t))
        self.clock = 1
        self.keep = <int>max(0, memory // (8 * (self.cells * (2 + self.words) + self.nlines)))
        self.kept = min(levels, self.keep)
        self._allocate_saved(self.kept, 0)
        self.levels = levels
        self.stack = <uint8_t*>_alloc(levels * self.cells, 1)
        memset(self.stack, OPEN, levels * self.cells)
        self.branch = <int64_t*>_alloc(levels, sizeof(int64_t))
        self.other = <uint8_t*>_alloc(levels, 1)
        self.score = <int64_t*>_alloc(self.cells, sizeof(int64_t))
        self.solution = <uint8_t*>_alloc(self.cells, 1)
        self.level, self.phase, self.probe_cell, self.probe_quiet = 0, 1, 0, 0
        self.restart, self.run, self.run_nodes = 0, 0, 0
        self.seed = 0x2545F4914F6CDD1D
        self.lines = self.nodes = self.depth = self.root = self.cost = 0
        self.held, self.held_head = 0, 0
        watch_start(&self.watch)

    cdef void _allocate_saved(self, int kept, int old) except *:
        """Room to keep what probing remembers at ``kept`` levels (the first ``old`` of
        them kept as they are)."""
        cdef Py_ssize_t c = self.cells, w = self.words, n = self.nlines
        self.saved_probed_at = <int64_t*>_grown(self.saved_probed_at, old * c, kept * c, 8)
        self.saved_probe_lines = <uint64_t*>_grown(self.saved_probe_lines, old * c * w,
                                                   kept * c * w, 8)
        self.saved_line_changed = <int64_t*>_grown(self.saved_line_changed, old * n,
                                                   kept * n, 8)
        self.saved_score = <int64_t*>_grown(self.saved_score, old * c, kept * c, 8)
        self.kept = kept

    # ------------------------------------------------------------ grids in and out

    def set_root(self, bytes grid):
        """The root's grid: ``cells`` bytes, row by row, each 1 (empty), 2 (filled) or 3."""
        if len(grid) != self.cells:
            raise ValueError(f"a grid of {self.cells} cells, not {len(grid)}")
        memcpy(self.stack, <const char*>grid, self.cells)

    @property
    def root_grid(self):
        """Level 0's grid: the root, propagated and probed once the search has started."""
        return (<char*>self.stack)[:self.cells]

    @property
    def solution_grid(self):
        """The last solution found, as :attr:`root_grid` is given."""
        return (<char*>self.solution)[:self.cells]

    # ------------------------------------------------------------ the grid and its words

    cdef void _put(self, uint8_t* g, int r, int c, int value) noexcept nogil:
        """Cell (r, c) takes ``value``, in the grid and in its lines' words."""
        cdef uint64_t bit
        cdef int line
        g[r * self.width + c] = <uint8_t>value
        if self.width <= 63:
            bit = ONE << c
            self.may_empty[r] = (self.may_empty[r] & ~bit) | (bit if value & EMPTY else 0)
            self.may_fill[r] = (self.may_fill[r] & ~bit) | (bit if value & FILLED else 0)
        if self.height <= 63:
            bit = ONE << r
            line = self.height + c
            self.may_empty[line] = (self.may_empty[line] & ~bit) | (bit if value & EMPTY else 0)
            self.may_fill[line] = (self.may_fill[line] & ~bit) | (bit if value & FILLED else 0)

    cdef void _load(self, const uint8_t* g) noexcept nogil:
        """Every line's words from the grid."""
        cdef int r, c, v
        for r in range(self.nlines):
            self.may_empty[r] = 0
            self.may_fill[r] = 0
        for r in range(self.height):
            for c in range(self.width):
                v = g[r * self.width + c]
                if v & EMPTY:
                    self.may_empty[r] |= ONE << (c % 64)
                    self.may_empty[self.height + c] |= ONE << (r % 64)
                if v & FILLED:
                    self.may_fill[r] |= ONE << (c % 64)
                    self.may_fill[self.height + c] |= ONE << (r % 64)

    cdef int _change(self, uint8_t* g, int r, int c, int value, int cross,
                            int* tail) noexcept nogil:
        """Cell (r, c) narrows to ``value``: on the trail, and its crossing line queued
        unless it is already; returns how many lines were queued (0 or 1)."""
        self._put(g, r, c, value)
        self.trail[self.top] = r * self.width + c
        self.top += 1
        if self.queued[cross]:
            return 0
        self.queued[cross] = 1
        self.queue[tail[0]] = cross
        tail[0] = (tail[0] + 1) % self.nlines
        return 1

    # ------------------------------------------------------------ propagation

    cdef bint propagate(self, uint8_t* g) noexcept nogil:
        """Solve the queued lines until none changes; False on a contradiction. The cells
        changed go on the trail, the lines solved into ``touched`` (added to)."""
        cdef uint64_t mask = <uint64_t>(CACHE - 1)
        cdef int lines = self.nlines, height = self.height, width = self.width
        cdef int head = 0, tail = 0, pending = 0, line, n, base, step, k, i, nw, v
        cdef int64_t slot, c0
        cdef bint ok = True, good, hit
        cdef uint64_t can_empty, can_fill, may_empty, may_fill, h, changed, bit
        cdef uint64_t* wide_empty
        cdef uint64_t* wide_fill
        cdef uint64_t* out_empty
        cdef uint64_t* out_fill
        cdef uint64_t* went
        cdef int wcols
        self.top = 0
        if self.held:
            # going on where the last call stopped, in the same order
            head, pending = <int>self.held_head, <int>self.held
            tail = (head + pending) % lines
            self.held = 0
        else:
            for line in range(lines):
                if self.queued[line]:
                    self.queue[tail] = line
                    tail = (tail + 1) % lines
                    pending += 1
        while pending:
            if self.cost >= self.watch.check_at and ok and watch_late(&self.watch, self.cost):
                if self.watch.expired:
                    ok = False  # out of time: drain the queue, the search is given up
                    continue
                # out of work: the lines still queued wait for the next call
                self.held_head, self.held = head, pending
                return True
            line = <int>self.queue[head]
            head = (head + 1) % lines
            pending -= 1
            self.queued[line] = 0
            if not ok:
                continue  # drain the queue
            self.touched[line >> 6] |= ONE << (line & 63)
            if line < height:
                n, base, step = width, line * width, 1
            else:
                n, base, step = height, line - height, width
            self.lines += 1
            c0 = self.starts[line]
            k = <int>self.counts[line]
            if n <= 63:
                self.cost += n
                can_empty = self.may_empty[line]
                can_fill = self.may_fill[line]
                h = ((<uint64_t>(line + 1)) * 0x9E3779B97F4A7C15ULL
                     ^ can_empty * 0xBF58476D1CE4E5B9ULL ^ can_fill * 0x94D049BB133111EBULL)
                slot = <int64_t>((h ^ (h >> 29)) & mask)
                if (self.cache_line[slot] >> 1 == line
                        and self.cache_entry[4 * slot + 0] == can_empty
                        and self.cache_entry[4 * slot + 1] == can_fill):
                    good = (self.cache_line[slot] & 1) == 1
                    may_empty = self.cache_entry[4 * slot + 2]
                    may_fill = self.cache_entry[4 * slot + 3]
                else:
                    good = narrow64(&self.clues[c0], k, n, can_empty, can_fill, &self.fs[0],
                                    &self.ff[0], &self.bs[0], &self.bf[0], &may_empty,
                                    &may_fill)
                    if not good:
                        may_empty = 0
                        may_fill = 0
                    self.cache_line[slot] = 2 * line + (1 if good else 0)
                    self.cache_entry[4 * slot + 0] = can_empty
                    self.cache_entry[4 * slot + 1] = can_fill
                    self.cache_entry[4 * slot + 2] = may_empty
                    self.cache_entry[4 * slot + 3] = may_fill
                if not good:
                    ok = False
                    continue
                changed = (can_empty ^ may_empty) | (can_fill ^ may_fill)
                while changed:
                    i = _lowest(changed)
                    changed &= changed - ONE
                    v = <int>(((may_empty >> i) & ONE) | (((may_fill >> i) & ONE) << 1))
                    if line < height:
                        pending += self._change(g, line, i, v, height + i, &tail)
                    else:
                        pending += self._change(g, i, line - height, v, i, &tail)
                continue
            # past 63 cells: the line gathered from the grid into several words
            nw = n // 64 + 1
            self.cost += n * (nw + 1)
            wide_empty = &self.wt[0]
            wide_fill = &self.wt[self.stride]
            out_empty = &self.wt[2 * self.stride]
            out_fill = &self.wt[3 * self.stride]
            for i in range(nw):
                wide_empty[i] = 0
                wide_fill[i] = 0
            for i in range(n):
                v = g[base + i * step]
                self.line_cells[i] = <uint8_t>v
                bit = ONE << (i & 63)
                if v & EMPTY:
                    wide_empty[i >> 6] |= bit
                if v & FILLED:
                    wide_fill[i >> 6] |= bit
            h = (<uint64_t>(line + 1)) * 0x9E3779B97F4A7C15ULL
            for i in range(nw):
                h = ((h ^ wide_empty[i]) * 0xBF58476D1CE4E5B9ULL
                     ^ wide_fill[i] * 0x94D049BB133111EBULL)
            slot = <int64_t>((h ^ (h >> 29)) & <uint64_t>(self.wide_rows - 1))
            went = &self.cache_wide[slot * self.wide_cols]
            hit = (went[0] >> 1) == <uint64_t>(line + 1)
            if hit:
                for i in range(nw):
                    if went[1 + i] != wide_empty[i] or went[1 + nw + i] != wide_fill[i]:
                        hit = False
                        break
            if hit:
                good = (went[0] & ONE) == ONE
                for i in range(nw):
                    out_empty[i] = went[1 + 2 * nw + i]
                    out_fill[i] = went[1 + 3 * nw + i]
            else:
                good = narrow_wide(&self.clues[c0], k, n, wide_empty, wide_fill,
                                   &self.sweep[0], self.stride, &self.wt[0], out_empty,
                                   out_fill)
                went[0] = <uint64_t>(2 * (line + 1) + (1 if good else 0))
                for i in range(nw):
                    went[1 + i] = wide_empty[i]
                    went[1 + nw + i] = wide_fill[i]
                    went[1 + 2 * nw + i] = out_empty[i]
                    went[1 + 3 * nw + i] = out_fill[i]
            if not good:
                ok = False
                continue
            for i in range(n):
                v = <int>(((out_empty[i >> 6] >> (i & 63)) & ONE)
                          | (((out_fill[i >> 6] >> (i & 63)) & ONE) << 1))
                if v != self.line_cells[i]:
                    if line < height:
                        pending += self._change(g, line, i, v, height + i, &tail)
                    else:
                        pending += self._change(g, i, line - height, v, i, &tail)
        return ok

    def limit_time(self, double seconds):
        """Line logic gives up ``seconds`` from now (0: no limit), ending its call
        ``expired``: a time limit kept inside one long call."""
        watch_limit(&self.watch, seconds)

    @property
    def expired(self):
        """Whether line logic gave up (the deadline, a signal): the state is no longer a
        search's."""
        return self.watch.expired

    cdef void _queue_cell(self, int cell) noexcept nogil:
        self.queued[cell // self.width] = 1
        self.queued[self.height + cell % self.width] = 1

    cdef void _mark(self, int cell) noexcept nogil:
        """``cell`` is about to be fixed for good: its row and column change at the next
        stamp."""
        self.line_changed[cell // self.width] = self.clock + 1
        self.line_changed[self.height + cell % self.width] = self.clock + 1

    cdef void _stamp(self) noexcept nogil:
        """A new stamp for the lines the last propagation changed (and those marked since
        the last stamp): every probe that solved one of them must run again."""
        cdef int64_t i, t
        self.clock += 1
        for i in range(self.top):
            t = self.trail[i]
            self.line_changed[t // self.width] = self.clock
            self.line_changed[self.height + t % self.width] = self.clock

    cdef bint _still_valid(self, int c) noexcept nogil:
        """Whether cell ``c``'s last probes would give the same again (nonosolve's rule)."""
        cdef int64_t when = self.probed_at[c]
        cdef int w
        cdef uint64_t x
        if when == 0:
            return False
        for w in range(self.words):
            x = self.probe_lines[c * self.words + w]
            while x:
                if self.line_changed[w * 64 + _lowest(x)] > when:
                    return False
                x &= x - ONE
        return True

    cdef bint _assign(self, uint8_t* g, int cell, int value) noexcept nogil:
        """Cell ``cell`` takes ``value`` for good; propagate from its row and column."""
        cdef bint ok
        self._put(g, cell // self.width, cell % self.width, value)
        self._queue_cell(cell)
        self._mark(cell)
        ok = self.propagate(g)
        self._stamp()
        return ok

    cdef int _probe_one(self, uint8_t* g, int c, int value, int64_t* cells_out,
                        uint8_t* values_out) noexcept nogil:
        """Cell ``c`` set to ``value`` and propagated, then undone: the cells that changed
        and their values go out; returns how many (``c`` among them), or -1 on a
        contradiction."""
        cdef bint ok
        cdef int64_t n, i, t
        self._put(g, c // self.width, c % self.width, value)
        self._queue_cell(c)
        ok = self.propagate(g)
        n = self.top
        cells_out[0] = c
        values_out[0] = <uint8_t>value
        for i in range(n):
            t = self.trail[i]
            cells_out[i + 1] = t
            values_out[i + 1] = g[t]
            self._put(g, <int>(t // self.width), <int>(t % self.width), OPEN)
        self._put(g, c // self.width, c % self.width, OPEN)
        return <int>(n + 1) if ok else -1

    # ------------------------------------------------------------ probing

    cdef int probe(self, uint8_t* g, int64_t stop) noexcept nogil:
        """Probe the open cells both ways, round and round, until a whole round changes
        nothing: 1, or 0 on a contradiction, or 2 when the cost passed ``stop`` first
        (``probe_cell`` and ``probe_quiet`` say where to go on). ``score[cell]`` is left at
        (1 + cells fixed by filling) × (1 + cells fixed by emptying) for each open cell."""
        cdef int cells = self.cells, c, n1, n0, i, w
        cdef int64_t t
        cdef bint agreed, ok
        cdef int64_t* c1 = &self.cells1[0]
        cdef int64_t* c0 = &self.cells0[0]
        cdef uint8_t* v1 = &self.values1[0]
        cdef uint8_t* v0 = &self.values0[0]
        while self.probe_quiet < cells:
            c = <int>self.probe_cell
            if g[c] != OPEN:
                self.score[c] = 0
                self.probe_cell = (c + 1) % cells
                self.probe_quiet += 1
                continue
            if self._still_valid(c):
                self.probe_cell = (c + 1) % cells
                self.probe_quiet += 1
                continue
            if self.cost >= stop:
                return 2
            self.probe_cell = (c + 1) % cells
            self.probe_quiet += 1
            memset(self.touched, 0, self.words * sizeof(uint64_t))
            n1 = self._probe_one(g, c, FILLED, c1, v1)
            n0 = self._probe_one(g, c, EMPTY, c0, v0)
            if n1 < 0 and n0 < 0:
                return 0
            if n1 < 0 or n0 < 0:
                if not self._assign(g, c, EMPTY if n1 < 0 else FILLED):
                    return 0
                self.probe_quiet = 0
                self.score[c] = 0
                continue
            self.probed_at[c] = self.clock
            memcpy(&self.probe_lines[c * self.words], self.touched,
                   self.words * sizeof(uint64_t))
            for i in range(n1):
                self.seen[c1[i]] = v1[i]
            agreed = False
            for i in range(n0):
                t = c0[i]
                if self.seen[t] == v0[i]:
                    self._put(g, <int>(t // self.width), <int>(t % self.width), v0[i])
                    self._queue_cell(<int>t)
                    self._mark(<int>t)
                    agreed = True
            for i in range(n1):
                self.seen[c1[i]] = 0
            if agreed:
                self.probe_quiet = 0
                ok = self.propagate(g)
                self._stamp()
                if not ok:
                    return 0
                if g[c] != OPEN:
                    self.score[c] = 0
                    continue
            self.score[c] = (1 + n1) * (1 + n0)
        return 1

    # ------------------------------------------------------------ the search

    cdef double _random(self) noexcept nogil:
        """A number in [0, 1) from the xorshift generator."""
        cdef uint64_t x = self.seed
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        self.seed = x
        return <double>(x >> 11) * (1.0 / 9007199254740992.0)

    cdef void _keep(self, int d) noexcept nogil:
        """Level d is about to branch: keep what its probes were, with its scores."""
        cdef Py_ssize_t c = self.cells, w = self.words, n = self.nlines
        if d < self.kept:
            memcpy(&self.saved_probed_at[d * c], self.probed_at, c * 8)
            memcpy(&self.saved_probe_lines[d * c * w], self.probe_lines, c * w * 8)
            memcpy(&self.saved_line_changed[d * n], self.line_changed, n * 8)
            memcpy(&self.saved_score[d * c], self.score, c * 8)

    cdef void _recall(self, int d) noexcept nogil:
        """Back at level d: what :meth:`_keep` kept; without room for that level, every
        cell is probed again."""
        cdef Py_ssize_t c = self.cells, w = self.words, n = self.nlines
        if d < self.kept:
            memcpy(self.probed_at, &self.saved_probed_at[d * c], c * 8)
            memcpy(self.probe_lines, &self.saved_probe_lines[d * c * w], c * w * 8)
            memcpy(self.line_changed, &self.saved_line_changed[d * n], n * 8)
            memcpy(self.score, &self.saved_score[d * c], c * 8)
        else:
            memset(self.probed_at, 0, c * 8)

    cdef uint8_t* _grid(self, int64_t d) noexcept nogil:
        """Level d's grid."""
        return &self.stack[d * self.cells]

    cdef bint _backtrack(self) noexcept nogil:
        """Go up to the deepest level with a value still to try and set up its child;
        False when there is none (the tree is done)."""
        cdef int64_t d = self.level - 1
        cdef int v, c
        while d >= 0:
            v = self.other[d]
            if v:
                self.other[d] = 0
                c = <int>self.branch[d]
                memcpy(self._grid(d + 1), self._grid(d), self.cells)
                self._grid(d + 1)[c] = <uint8_t>v
                self._queue_cell(c)
                self._recall(<int>d)
                self._mark(c)
                self.level = d + 1
                self.phase = 1
                return True
            d -= 1
        return False

    cdef void _grow(self) except *:
        """Twice the levels (the search never needs more than one per cell), and room to
        keep what probing remembers at more of them, up to ``keep``."""
        cdef int levels = self.levels
        self.stack = <uint8_t*>_grown(self.stack, levels * self.cells,
                                      2 * levels * self.cells, 1)
        self.branch = <int64_t*>_grown(self.branch, levels, 2 * levels, 8)
        self.other = <uint8_t*>_grown(self.other, levels, 2 * levels, 1)
        self.levels = 2 * levels
        if self.kept < self.keep:
            self._allocate_saved(min(2 * self.kept, self.keep), self.kept)

    def search(self, int64_t budget):
        """Depth-first search with probing at every node, resumed where it stopped: runs
        until a solution (FOUND, the grid in ``solution``), the end of the tree (DONE) or
        the cost passing ``budget`` (SLICE), or the time limit (EXPIRED)."""
        cdef int r = self._search(budget)
        watch_heard(&self.watch)
        return r

    cdef int _search(self, int64_t budget) except -1:
        cdef int cells = self.cells, c, best, first
        cdef int64_t d
        cdef bint ok, noisy
        cdef int probed
        cdef double top, sc
        cdef uint8_t* g
        if self.level >= 0 and self.phase != 1:
            self._load(self._grid(self.level))
        while True:
            d = self.level
            if self.phase:
                if d + 1 >= self.levels:
                    self._grow()
                if self.phase == 1 and d > 0 and self.restart > 0:
                    self.run_nodes += 1
                    if self.run_nodes > self.restart * _luby(self.run):
                        for c in range(self.nlines):
                            self.queued[c] = 0
                        self._recall(0)
                        self.run += 1
                        self.run_nodes = 0
                        self.level = 0
                        self.phase = 2
                        self.probe_cell = 0
                        self.probe_quiet = 0
                        self._load(self._grid(0))
                        continue
                g = self._grid(d)
                ok = True
                if self.phase == 1:  # a new node: propagate, then probe from its first cell
                    self._load(g)
                    ok = self.propagate(g)
                    self._stamp()
                    self.probe_cell = 0
                    self.probe_quiet = 0
                self.phase = 0
                if ok:
                    probed = self.probe(g, budget)
                    if probed == 2:  # this node again, probing on from where it stopped
                        self.phase = 2
                        return SLICE
                    ok = probed == 1
                if self.watch.expired:
                    return EXPIRED
                self.nodes += 1
                if d == 0:
                    self.root = 1 if ok else 2
                if d > self.depth:
                    self.depth = d
                if ok:
                    best = -1
                    top = 0.0
                    noisy = self.run >= 2
                    for c in range(cells):
                        if g[c] == OPEN and self.score[c] > 0:
                            sc = <double>self.score[c]
                            if noisy:
                                sc *= 1.0 + NOISE * self._random()
                            if sc > top:
                                top = sc
                                best = c
                    if best < 0:
                        for c in range(cells):
                            if g[c] == OPEN:
                                best = c
                                break
                    if best < 0:  # solved
                        memcpy(self.solution, g, self.cells)
                        if not self._backtrack():
                            self.level = -1
                        return FOUND
                    first = FILLED if self.run % 2 == 0 else EMPTY
                    self.branch[d] = best
                    self.other[d] = <uint8_t>(FILLED + EMPTY - first)
                    self._keep(<int>d)
                    memcpy(self._grid(d + 1), g, self.cells)
                    self._grid(d + 1)[best] = <uint8_t>first
                    self._queue_cell(best)
                    self._mark(best)
                    self.level = d + 1
                    self.phase = 1
                elif not self._backtrack():
                    self.level = -1
                    return DONE
            elif d < 0:
                return DONE
            if self.cost >= budget:
                return SLICE

    # ------------------------------------------------------------ other entries

    def line_logic(self, int64_t work=-1):
        """Line logic alone on the queued lines of the root (no probing): 0 a
        contradiction, 1 settled, 2 stopped once ``work`` more cost (>= 0) was passed, so
        that the caller can look at the clock; the next call goes on in the same order."""
        cdef uint8_t* g = self._grid(0)
        cdef bint ok
        self._load(g)
        watch_stop_after(&self.watch, self.cost, work)
        ok = self.propagate(g)
        watch_stop_after(&self.watch, self.cost, -1)
        watch_heard(&self.watch)
        return 0 if not ok else (2 if self.held else 1)

    def implications(self, bytes grid, int64_t limit, int first=0, int64_t work=-1):
        """What each probe of ``grid``'s open cells from ``first`` on implies: pairs
        ``(a, b)``, "a implies b", each literal ``2 × cell + 1`` for filled and ``2 × cell``
        for empty, ``b`` = -1 where ``a`` contradicts; at most ``limit`` pairs, as native
        64-bit integers a, b, a, b, … in bytes, and the cell to go on from (the number of
        cells: done). Stops after the cell at which ``work`` more cost (>= 0) is passed, so
        that the caller can look at the clock between slices. Runs on this engine's
        scratch, which must be fresh."""
        if len(grid) != self.cells:
            raise ValueError(f"a grid of {self.cells} cells, not {len(grid)}")
        if not 0 <= first <= self.cells:
            raise ValueError(f"the first cell {first} is not in 0..{self.cells}")
        cdef int cells = self.cells, c, value, a, k, i, j
        cdef int64_t n = 0
        cdef int64_t stop = self.cost + work
        cdef uint8_t* g = <uint8_t*>_alloc(cells, 1)
        cdef int64_t* fixed = <int64_t*>_alloc(cells + 1, sizeof(int64_t))
        cdef uint8_t* values = <uint8_t*>_alloc(cells + 1, 1)
        cdef int64_t* out = <int64_t*>_alloc(2 * limit, sizeof(int64_t))
        try:
            memcpy(g, <const char*>grid, cells)
            memset(self.queued, 0, self.nlines)
            self._load(g)
            for c in range(first, cells):
                if work >= 0 and self.cost > stop:
                    return (<char*>out)[:16 * n], c
                if g[c] != OPEN:
                    continue
                for j in range(2):
                    value = FILLED if j == 0 else EMPTY
                    k = self._probe_one(g, c, value, fixed, values)
                    if self.watch.expired:  # not a contradiction: the time limit or a signal
                        watch_heard(&self.watch)
                        return (<char*>out)[:16 * n], c
                    a = 2 * c + (1 if value == FILLED else 0)
                    if k < 0:
                        if n < limit:
                            out[2 * n] = a
                            out[2 * n + 1] = -1
                            n += 1
                        continue
                    for i in range(1, k):
                        if n == limit:
                            return (<char*>out)[:16 * n], cells
                        out[2 * n] = a
                        out[2 * n + 1] = 2 * fixed[i] + (1 if values[i] == FILLED else 0)
                        n += 1
            return (<char*>out)[:16 * n], cells
        finally:
            free(g)
            free(fixed)
            free(values)
            free(out)
