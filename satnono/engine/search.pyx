# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's search, compiled ahead of time, for every palette: propagation with a cache
of line solves, probing to a fixpoint with its memory, and a depth-first search that probes
at every node, with restarts; what probing implies, for a SAT solver. Black and white is a
palette of one colour: a cell is the set of values it may still take (bit 0 the
background, bit c block colour c), a byte in black and white and 64 bits in colour, and
every method that reads the grid is compiled once for each (a fused type), so the two
differ only where the representation does — the line solver (two machine words a line in
black and white, :mod:`.line`; a word per colour, :mod:`.colour_line`) and its cache.

The method is the tournament solvers' (Wu, Sun, Chen et al., "An Efficient Approach to
Solving Nonograms", IEEE TCIAIG 2013: probing every open cell to a fixpoint at every node,
branching on the cell whose probes decide the most) with nonosolve's memory of probes (a
cell whose probes solved no line that has changed since is not probed again) and restarts
after Luby's sequence of node counts (Luby, Sinclair & Zuckerman 1993; Gomes, Selman &
Kautz, AAAI 1998). Probing a cell tries each value it may take; a value whose propagation
contradicts is ruled out, and every cell that all the surviving values changed is narrowed
to the union of what they left it.

Memory follows what is open, not the grid: one grid, changed in place, with a trail of
every change to undo on the way back (no stack of grids); the cells still open when the
root's line logic is done are given slots, and everything probing keeps is by slot; what
it remembers at each level is kept on an undo log (only what a deeper level overwrote), so
that a level finds it as it left it. Every size is 64-bit; every allocation is checked,
and one that fails inside a call ends it with ``nomem`` set (MemoryError says what).
"""

cimport cython
from libc.stdint cimport UINT32_MAX, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memcpy, memset

from .clock cimport watch_heard, watch_late, watch_limit, watch_start, watch_stop_after
from .colour_line cimport colour_line_free, colour_line_start, narrow_colour_line
from .line cimport narrow64, narrow_wide
from .memory cimport _alloc

from .words cimport _lowest

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil

cdef uint64_t ONE = 1


cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    #include <unistd.h>
    static char satnono_before[1024], satnono_after[1024];
    static size_t satnono_lengths[2];
    static char satnono_altstack[1 << 16];

    static void satnono_crashed(int sig) {
        const char* name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS"
            : sig == SIGILL ? "SIGILL" : sig == SIGFPE ? "SIGFPE" : "a signal";
        ssize_t ignored = write(2, satnono_before, satnono_lengths[0]);
        ignored = write(2, name, strlen(name));
        ignored = write(2, satnono_after, satnono_lengths[1]);
        (void)ignored;
        _exit(6);
    }

    static int satnono_guard(const char* before, const char* after) {
        static int installed = 0;
        strncpy(satnono_before, before, sizeof satnono_before - 1);
        strncpy(satnono_after, after, sizeof satnono_after - 1);
        satnono_lengths[0] = strlen(satnono_before);
        satnono_lengths[1] = strlen(satnono_after);
        if (!installed) {
            stack_t ss;
            struct sigaction sa;
            int i, sigs[4] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
            ss.ss_sp = satnono_altstack;
            ss.ss_size = sizeof satnono_altstack;
            ss.ss_flags = 0;
            if (sigaltstack(&ss, NULL) != 0) return -1;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = satnono_crashed;
            sa.sa_flags = SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            for (i = 0; i < 4; i++)
                if (sigaction(sigs[i], &sa, NULL) != 0) return -1;
            installed = 1;
        }
        return 0;
    }
    """
    int satnono_guard(const char* before, const char* after)


def guard(str before, str after):
    """From now on a crash of this process (SIGSEGV, SIGBUS, SIGILL, SIGFPE: a bug, or an
    engine built for another processor) ends it with one line on stderr, ``before`` + the
    signal's name + ``after``, and exit status 6, instead of a silent death; called again,
    only the line changes. For the ``satnono`` command, which says there which puzzle
    was being solved (:mod:`satnono.runtime.crash`)."""
    cdef bytes b = before.encode()[:1000], a = after.encode()[:1000]
    if satnono_guard(b, a) != 0:
        raise OSError("the crash handler could not be installed")



# the search's phases: a node to propagate, its probing under way, neither
cdef enum:
    IDLE = 0
    NEW = 1
    PROBING = 2

# what Engine.search returns
cdef enum:
    FOUND = 1  # a solution is in ``solution``; call again for the next
    DONE = 2  # the tree is exhausted: every solution has been returned
    SLICE = 3  # the slice's work is spent; call again to go on
    EXPIRED = 4  # the time limit (limit_time) passed inside the call: it is given up
    NOMEM = 5  # memory could not be had inside the call: the search is given up

#: a cell decided when the root's line logic was done has no slot
cdef uint32_t NO_SLOT = UINT32_MAX
#: the most words what probing remembers keeps a cell's solved lines in: one bit a line up
#: to 64 × this many lines (a 256×256 puzzle), past that a bit stands for every line
#: whose number is the same modulo 64 × this many (a probe then runs again a little more
#: often, never less)
cdef int SIG_WORDS = 8


def footprint(int64_t height, int64_t width, int colours, int64_t cache):
    """Bytes the engine takes for a ``height`` × ``width`` puzzle of ``colours`` block
    colours before its search begins (what grows with the search — the trail, the slots of
    open cells, the levels — comes on top, in proportion to what is open): the grid and a
    solution, a slot number and a line's share a cell, the caches."""
    cdef int64_t cells = height * width, n = max(height, width), lines = height + width
    cdef int64_t cell = 1 if colours == 1 else 8
    cdef int64_t nw = n // 64 + 1
    return (cells * (2 * cell + 4) + lines * 40 + cache * 40
            + (16384 * (1 + 4 * nw) * 8 if n > 63 else 0) + n * 8 * 16)


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


cdef inline bint _single(uint64_t v) noexcept nogil:
    return v & (v - ONE) == 0


cdef inline int64_t _row(Engine e, int64_t cell) noexcept nogil:
    """The row of ``cell`` (a 32-bit division: the engine takes fewer than 2^32 cells)."""
    return <int64_t>(<uint32_t>cell // <uint32_t>e.width)


cdef inline void _words(Engine e, int64_t r, int64_t c, uint64_t value) noexcept nogil:
    """Black and white: cell (r, c)'s bits in its lines' words (lines up to 63 cells)."""
    cdef uint64_t bit
    cdef int64_t line
    cdef uint64_t empty = 0 - (value & ONE), fill = 0 - ((value >> 1) & ONE)  # all or none
    if e.width <= 63:
        bit = ONE << c
        e.may_empty[r] = (e.may_empty[r] & ~bit) | (bit & empty)
        e.may_fill[r] = (e.may_fill[r] & ~bit) | (bit & fill)
    if e.height <= 63:
        bit = ONE << r
        line = e.height + c
        e.may_empty[line] = (e.may_empty[line] & ~bit) | (bit & empty)
        e.may_fill[line] = (e.may_fill[line] & ~bit) | (bit & fill)


cdef inline void _put(Engine e, cell_t* g, int64_t cell, uint64_t value) noexcept nogil:
    """Cell ``cell`` takes ``value``, in the grid (and in black and white its lines'
    words), without the trail."""
    cdef int64_t r
    g[cell] = <cell_t>value
    if cell_t is uint8_t:
        if e.width <= 63 or e.height <= 63:
            r = _row(e, cell)
            _words(e, r, cell - r * e.width, value)


cdef inline void _set_at(Engine e, cell_t* g, int64_t cell, int64_t r, int64_t c,
                         uint64_t value) noexcept nogil:
    """Cell (r, c), whose number is ``cell``, narrows to ``value``, on the trail when it is
    on (room made by the caller; a black-and-white cell was open before: 3)."""
    if e.trail_on:
        e.trail_cell[e.trail_len] = cell
        if cell_t is uint64_t:
            e.trail_old[e.trail_len] = g[cell]
        e.trail_len += 1
    g[cell] = <cell_t>value
    if cell_t is uint8_t:
        _words(e, r, c, value)


cdef inline void _queue_cell(Engine e, int64_t cell) noexcept nogil:
    cdef int64_t r = _row(e, cell)
    e.queued[r] = 1
    e.queued[e.height + cell - r * e.width] = 1


cdef inline int64_t _group(Engine e, int64_t line) noexcept nogil:
    return line if line < e.groups else line % e.groups


cdef inline void _group_write(Engine e, int64_t group, int64_t when) noexcept nogil:
    """A line of ``group`` changed at ``when``; the old time is logged where a level above
    this one wrote it."""
    cdef Memo* m
    if e.group_level[group] < e.level and e._memo_room():
        m = &e.memo[e.memo_len]
        m.index, m.when, m.level = -1 - group, e.group_changed[group], e.group_level[group]
        e.memo_len += 1
        e.group_level[group] = e.level
    e.group_changed[group] = when


cdef inline int64_t _solve_line(Engine e, cell_t* g, int64_t line,
                                int64_t* tail) noexcept nogil:
    """Solve ``line``, narrow its cells and queue the crossing lines of those that
    changed: how many were queued, or -1 on a contradiction (or no memory)."""
    cdef int64_t n, base, step, i, k, c0, slot, cell, cross, queued = 0
    cdef int nw, m
    cdef bint good, hit
    cdef uint64_t can_empty, can_fill, may_empty, may_fill, h, changed, bit, v
    cdef uint64_t* went
    cdef uint64_t* wide_empty
    cdef uint64_t* wide_fill
    cdef uint64_t* out_empty
    cdef uint64_t* out_fill
    if line < e.height:
        n, base, step = e.width, line * e.width, 1
    else:
        n, base, step = e.height, line - e.height, e.width
    k = e.counts[line]
    c0 = e.starts[line]
    if e.trail_len + n > e.trail_cap and not e._room(n):
        return -1
    if cell_t is uint8_t:
        if n <= 63:
            e.cost += n
            can_empty = e.may_empty[line]
            can_fill = e.may_fill[line]
            h = ((<uint64_t>(line + 1)) * 0x9E3779B97F4A7C15ULL
                 ^ can_empty * 0xBF58476D1CE4E5B9ULL ^ can_fill * 0x94D049BB133111EBULL)
            slot = <int64_t>((h ^ (h >> 29)) & <uint64_t>(e.cache_size - 1))
            if (e.cache_size and e.cache_line[slot] >> 1 == line
                    and e.cache_entry[4 * slot] == can_empty
                    and e.cache_entry[4 * slot + 1] == can_fill):
                good = (e.cache_line[slot] & 1) == 1
                may_empty = e.cache_entry[4 * slot + 2]
                may_fill = e.cache_entry[4 * slot + 3]
            else:
                good = narrow64(&e.sizes[c0], <int>k, <int>n, can_empty,
                                can_fill, e.fs, e.ff, e.bs, e.bf,
                                &may_empty, &may_fill)
                if e.cache_size:
                    e.cache_line[slot] = 2 * line + (1 if good else 0)
                    e.cache_entry[4 * slot] = can_empty
                    e.cache_entry[4 * slot + 1] = can_fill
                    e.cache_entry[4 * slot + 2] = may_empty
                    e.cache_entry[4 * slot + 3] = may_fill
            if not good:
                return -1
            changed = (can_empty ^ may_empty) | (can_fill ^ may_fill)
            while changed:
                i = _lowest(changed)
                changed &= changed - ONE
                v = ((may_empty >> i) & ONE) | (((may_fill >> i) & ONE) << 1)
                if line < e.height:
                    _set_at(e, g, base + i, line, i, v)
                    cross = e.height + i
                else:
                    _set_at(e, g, base + i * step, i, line - e.height, v)
                    cross = i
                if not e.queued[cross]:
                    e.queued[cross] = 1
                    e.queue[tail[0]] = cross
                    tail[0] = tail[0] + 1 if tail[0] + 1 < e.nlines else 0
                    queued += 1
            return queued
        # past 63 cells: the line gathered from the grid into several words
        nw = <int>(n // 64 + 1)
        e.cost += n * (nw + 1)
        wide_empty = &e.wt[0]
        wide_fill = &e.wt[e.stride]
        out_empty = &e.wt[2 * e.stride]
        out_fill = &e.wt[3 * e.stride]
        for i in range(nw):
            wide_empty[i] = 0
            wide_fill[i] = 0
        for i in range(n):
            v = g[base + i * step]
            e.line_in[i] = v
            bit = ONE << (i & 63)
            if v & 1:
                wide_empty[i >> 6] |= bit
            if v & 2:
                wide_fill[i >> 6] |= bit
        h = (<uint64_t>(line + 1)) * 0x9E3779B97F4A7C15ULL
        for i in range(nw):
            h = ((h ^ wide_empty[i]) * 0xBF58476D1CE4E5B9ULL
                 ^ wide_fill[i] * 0x94D049BB133111EBULL)
        slot = <int64_t>((h ^ (h >> 29)) & <uint64_t>(e.wide_rows - 1))
        went = &e.cache_wide[slot * e.wide_cols]
        hit = e.cache_size > 0 and (went[0] >> 1) == <uint64_t>(line + 1)
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
            good = narrow_wide(&e.sizes[c0], <int>k, <int>n, wide_empty,
                               wide_fill, e.sweep, e.stride, e.wt, out_empty,
                               out_fill)
            if e.cache_size:
                went[0] = <uint64_t>(2 * (line + 1) + (1 if good else 0))
                for i in range(nw):
                    went[1 + i] = wide_empty[i]
                    went[1 + nw + i] = wide_fill[i]
                    went[1 + 2 * nw + i] = out_empty[i]
                    went[1 + 3 * nw + i] = out_fill[i]
        if not good:
            return -1
        for i in range(n):
            v = ((out_empty[i >> 6] >> (i & 63)) & ONE) | \
                (((out_fill[i >> 6] >> (i & 63)) & ONE) << 1)
            if v != e.line_in[i]:
                if line < e.height:
                    _set_at(e, g, base + i, line, i, v)
                    cross = e.height + i
                else:
                    _set_at(e, g, base + i * step, i, line - e.height, v)
                    cross = i
                if not e.queued[cross]:
                    e.queued[cross] = 1
                    e.queue[tail[0]] = cross
                    tail[0] = tail[0] + 1 if tail[0] + 1 < e.nlines else 0
                    queued += 1
        return queued
    else:
        for i in range(n):
            e.line_in[i] = g[base + i * step]
        m = narrow_colour_line(&e.solver, e.line_in, <int>n, c0, <int>k, False)
        e.cost += n * (k + 1)
        if m < 0:
            return -1
        for i in range(n):
            v = <uint64_t>e.solver.out[i]
            if v != e.line_in[i]:
                if line < e.height:
                    _set_at(e, g, base + i, line, i, v)
                    cross = e.height + i
                else:
                    _set_at(e, g, base + i * step, i, line - e.height, v)
                    cross = i
                if not e.queued[cross]:
                    e.queued[cross] = 1
                    e.queue[tail[0]] = cross
                    tail[0] = tail[0] + 1 if tail[0] + 1 < e.nlines else 0
                    queued += 1
        return queued


@cython.final
cdef class Engine:
    """One puzzle's search state, every part a named field of memory of its own (no NumPy:
    importing the engine costs a few milliseconds)."""

    def __dealloc__(self):
        # the pointers start NULL (a new object's memory is zeroed), and free(NULL) is fine
        free(self.sizes)
        free(self.cols)
        free(self.starts)
        free(self.counts)
        free(self.grid)
        free(self.root_copy)
        free(self.solution)
        free(self.may_empty)
        free(self.may_fill)
        free(self.line_in)
        free(self.fs)
        free(self.ff)
        free(self.bs)
        free(self.bf)
        free(self.sweep)
        free(self.wt)
        colour_line_free(&self.solver)
        free(self.cache_line)
        free(self.cache_entry)
        free(self.cache_wide)
        free(self.queue)
        free(self.queued)
        free(self.trail_cell)
        free(self.trail_old)
        free(self.slot_of)
        free(self.opens)
        free(self.p_count)
        free(self.p_union)
        free(self.p_tick)
        free(self.p_list)
        free(self.probed_at)
        free(self.probe_sig)
        free(self.score)
        free(self.slot_level)
        free(self.group_changed)
        free(self.group_level)
        free(self.solved)
        free(self.memo)
        free(self.memo_sig)
        free(self.branch)
        free(self.tried)
        free(self.level_trail)
        free(self.level_memo)
        free(self.preferred)

    def __init__(self, int64_t height, int64_t width, int colours, sizes, cols, starts,
                 counts, int64_t cache=1 << 16, bint general=False):
        """``sizes``, ``cols``: every line's block lengths and colours (1..``colours``) in
        one sequence each, rows first; ``starts``, ``counts``: where each line's are and
        how many; ``cache``: entries of the cache of line solves (a power of two, 0 none);
        ``general``: black and white on the colour representation (64-bit cells, the
        colour line solver), which the tests hold the fast one to. Every cell starts open
        and every line queued."""
        cdef int64_t i, line, n = max(height, width), nw
        if height < 1 or width < 1:
            raise ValueError(f"a grid of at least one cell, not {height}×{width}")
        if not 1 <= colours <= 62:
            raise ValueError(f"1 to 62 block colours, not {colours}")
        self.height, self.width, self.colours = height, width, colours
        self.bw = colours == 1 and not general
        self.nlines = height + width
        self.cells = height * width
        if self.cells >= <int64_t>UINT32_MAX:
            raise MemoryError(f"the engine takes up to {UINT32_MAX - 1:,} cells, not "
                              f"{self.cells:,} ({height}×{width})")
        self.longest = <int>n
        self.sizes = <int64_t*>_alloc(max(len(sizes), 1), 8)
        self.cols = <int64_t*>_alloc(max(len(cols), 1), 8)
        for i in range(len(sizes)):
            self.sizes[i] = sizes[i]
            self.cols[i] = cols[i]
        self.starts = <int64_t*>_alloc(self.nlines, 8)
        self.counts = <int64_t*>_alloc(self.nlines, 8)
        self.kmax = 1
        for line in range(self.nlines):
            self.starts[line] = starts[line]
            self.counts[line] = counts[line]
            self.kmax = max(self.kmax, <int>self.counts[line])
        cdef int64_t cell = 1 if self.bw else 8
        self.grid = _alloc(self.cells, cell)
        self.solution = _alloc(self.cells, cell)
        cdef uint64_t full = (ONE << (colours + 1)) - ONE
        if self.bw:
            memset(self.grid, 3, self.cells)
        else:
            for i in range(self.cells):
                (<uint64_t*>self.grid)[i] = full
        # the line solvers
        nw = n // 64 + 1
        self.stride = <int>nw
        self.line_in = <uint64_t*>_alloc(n + 1, 8)
        if self.bw:
            self.may_empty = <uint64_t*>_alloc(self.nlines, 8)
            self.may_fill = <uint64_t*>_alloc(self.nlines, 8)
            self.fs = <uint64_t*>_alloc(self.kmax + 2, 8)
            self.ff = <uint64_t*>_alloc(self.kmax + 2, 8)
            self.bs = <uint64_t*>_alloc(self.kmax + 2, 8)
            self.bf = <uint64_t*>_alloc(self.kmax + 2, 8)
            self.sweep = <uint64_t*>_alloc(4 * (self.kmax + 2) * nw, 8)
            self.wt = <uint64_t*>_alloc(12 * nw, 8)
            self._load(<uint8_t*>self.grid)
            self.cache_size = cache
            self.cache_line = <int64_t*>_alloc(max(cache, 1), 8)
            for i in range(max(cache, 1)):
                self.cache_line[i] = -1
            self.cache_entry = <uint64_t*>_alloc(4 * max(cache, 1), 8)
            self.wide_rows = (16384 if cache else 1) if n > 63 else 1
            self.wide_cols = 1 + 4 * nw
            self.cache_wide = <uint64_t*>_alloc(self.wide_rows * self.wide_cols, 8)
        else:
            colour_line_start(&self.solver, colours, self.kmax, self.longest, self.sizes,
                              self.cols)
        # propagation
        self.queue = <int64_t*>_alloc(self.nlines, 8)
        self.queued = <uint8_t*>_alloc(self.nlines, 1)
        memset(self.queued, 1, self.nlines)
        self.trail_cap = 1024
        self.trail_cell = <int64_t*>_alloc(self.trail_cap, 8)
        self.trail_old = <uint64_t*>_alloc(self.trail_cap, 8)
        self.trail_on = True
        self.slot_of = <uint32_t*>_alloc(self.cells, 4)
        self.nopen = -1
        # what probing remembers, by groups of lines
        self.sig_words = <int>min((self.nlines + 63) // 64, SIG_WORDS)
        self.groups = min(self.nlines, 64 * <int64_t>self.sig_words)
        self.group_changed = <int64_t*>_alloc(self.groups, 8)
        self.group_level = <int64_t*>_alloc(self.groups, 8)
        self.solved = <uint64_t*>_alloc(self.sig_words, 8)
        self.clock = 1
        self.memo_cap = 256
        self.memo = <Memo*>_alloc(self.memo_cap, sizeof(Memo))
        self.memo_sig = <uint64_t*>_alloc(self.memo_cap * self.sig_words, 8)
        # the search
        self.levels = 64
        self.branch = <int64_t*>_alloc(self.levels, 8)
        self.tried = <uint64_t*>_alloc(self.levels, 8)
        self.level_trail = <int64_t*>_alloc(self.levels + 1, 8)
        self.level_memo = <int64_t*>_alloc(self.levels + 1, 8)
        self.level, self.phase, self.probe_pos, self.probe_quiet = 0, NEW, 0, 0
        self.restart, self.run, self.run_nodes, self.noise = 0, 0, 0, 0.5
        self.remember = True
        self.seed = 0x2545F4914F6CDD1D
        self.lines = self.nodes = self.depth = self.root = self.cost = self.probes = 0
        watch_start(&self.watch)

    # ------------------------------------------------------------ grids in and out

    def set_root(self, layers):
        """The root: for each value (0 the background, then each block colour) the rows'
        masks of the cells that may take it (bit c of row r's mask: cell (r, c)), as a
        :class:`satnono.logic.board.Board` keeps them. Every line is queued again."""
        if len(layers) != self.colours + 1:
            raise ValueError(f"{self.colours + 1} layers, not {len(layers)}")
        cdef int64_t r, c, v, cell = 1 if self.bw else 8
        cdef bytes row
        cdef const uint8_t* bits
        memset(self.grid, 0, self.cells * cell)
        for v in range(self.colours + 1):
            if len(layers[v]) != self.height:
                raise ValueError(f"{self.height} rows, not {len(layers[v])}")
            for r in range(self.height):
                row = int(layers[v][r]).to_bytes((self.width + 7) // 8, "little")
                bits = <const uint8_t*>row
                for c in range(self.width):
                    if (bits[c >> 3] >> (c & 7)) & 1:
                        if self.bw:
                            (<uint8_t*>self.grid)[r * self.width + c] |= <uint8_t>(1 << v)
                        else:
                            (<uint64_t*>self.grid)[r * self.width + c] |= ONE << v
        if self.bw:
            self._load(<uint8_t*>self.grid)
        memset(self.queued, 1, self.nlines)
        self.nopen = -1
        self.root_saved = False

    def layers(self, which=0, bint columns=False):
        """For each value the masks of the cells that may take it, row by row (or column by
        column), of the root (``which`` 0), or of the last solution (1)."""
        cdef const uint8_t* g8
        cdef const uint64_t* g64
        cdef void* src = self.root_copy if (which == 0 and self.root_saved) else self.grid
        if which == 1:
            src = self.solution
        g8, g64 = <const uint8_t*>src, <const uint64_t*>src
        cdef int64_t outer = self.width if columns else self.height
        cdef int64_t inner = self.height if columns else self.width
        cdef int64_t so = 1 if columns else self.width, si = self.width if columns else 1
        cdef int64_t v, i, p, nbytes = (inner + 7) // 8
        cdef uint64_t x
        cdef bytearray buf = bytearray(nbytes)
        cdef uint8_t* b = buf
        out = []
        for v in range(self.colours + 1):
            masks = []
            for i in range(outer):
                memset(b, 0, nbytes)
                for p in range(inner):
                    x = g8[i * so + p * si] if self.bw else g64[i * so + p * si]
                    if (x >> v) & 1:
                        b[p >> 3] |= <uint8_t>(1 << (p & 7))
                masks.append(int.from_bytes(buf, "little"))
            out.append(masks)
        return out

    def narrow(self, cells, int64_t line, bint wide=False):
        """The colour line solver on ``line`` whose cells take the colour sets ``cells``,
        for tests: the cells' new sets, or None for a contradiction. ``wide`` runs the
        solver on several words a colour on a line of any length."""
        if self.bw:
            raise ValueError("the colour line solver runs in colour (or general=True)")
        cdef int64_t i, n = self.width if line < self.height else self.height
        if len(cells) != n:
            raise ValueError(f"{n} cells, not {len(cells)}")
        for i in range(n):
            self.line_in[i] = cells[i]
        cdef int r = narrow_colour_line(&self.solver, self.line_in, <int>n,
                                        self.starts[line], <int>self.counts[line], wide)
        return None if r < 0 else [self.solver.out[i] for i in range(n)]

    @property
    def root_grid(self):
        """The root's cells as raw bytes (a byte a cell in black and white, 8 in colour):
        propagated and probed once the search has started."""
        cdef int64_t cell = 1 if self.bw else 8
        cdef void* src = self.root_copy if self.root_saved else self.grid
        return (<char*>src)[:self.cells * cell]

    @property
    def solution_grid(self):
        """The last solution's cells, as :attr:`root_grid` gives them."""
        cdef int64_t cell = 1 if self.bw else 8
        return (<char*>self.solution)[:self.cells * cell]

    def prefer(self, bytes values):
        """The value each cell tries first when the search branches on it (a byte a cell:
        0 the background, c block colour c), on even runs; odd runs take the lowest."""
        if len(values) != self.cells:
            raise ValueError(f"a value for each of {self.cells} cells, not {len(values)}")
        if self.preferred == NULL:
            self.preferred = <uint8_t*>_alloc(self.cells, 1)
        memcpy(self.preferred, <const char*>values, self.cells)

    @property
    def open_cells(self):
        """Cells the root's line logic left open (slots given to them; -1 before)."""
        return self.nopen

    def open_now(self, bint root=False):
        """Cells of the grid still open (``root``: of the root, once the search has left
        it)."""
        cdef int64_t i, n = 0
        cdef void* g = self.root_copy if root and self.root_saved else self.grid
        for i in range(self.cells):
            if self.bw:
                n += not _single((<uint8_t*>g)[i])
            else:
                n += not _single((<uint64_t*>g)[i])
        return n

    # ------------------------------------------------------------ the grid and its words

    cdef bint _room(self, int64_t more) noexcept nogil:
        """Room on the trail for ``more`` changes (False: none to be had, ``nomem``)."""
        cdef int64_t cap = self.trail_cap
        cdef void* a
        cdef void* b
        if self.trail_len + more <= cap:
            return True
        while cap < self.trail_len + more:
            cap *= 2
        a = realloc(self.trail_cell, cap * 8)
        if a != NULL:
            self.trail_cell = <int64_t*>a
        b = realloc(self.trail_old, cap * 8)
        if b != NULL:
            self.trail_old = <uint64_t*>b
        if a == NULL or b == NULL:
            self.nomem = True
            return False
        self.trail_cap = cap
        return True

    cdef void _set(self, cell_t* g, int64_t cell, uint64_t value) noexcept nogil:
        """Cell ``cell`` narrows to ``value``, on the trail (room made by the caller)."""
        cdef int64_t r = _row(self, cell)
        _set_at(self, g, cell, r, cell - r * self.width, value)

    cdef void _undo(self, cell_t* g, int64_t mark) noexcept nogil:
        """Every change after ``mark`` undone, the last first."""
        cdef int64_t i = self.trail_len - 1
        while i >= mark:  # a black-and-white cell changes once, from open
            _put(self, g, self.trail_cell[i], 3 if cell_t is uint8_t else self.trail_old[i])
            i -= 1
        self.trail_len = mark

    cdef void _load(self, cell_t* g) noexcept nogil:
        """Black and white: every line's words from the grid."""
        cdef int64_t r, c, v
        if cell_t is uint8_t:
            for r in range(self.nlines):
                self.may_empty[r] = 0
                self.may_fill[r] = 0
            for r in range(self.height):
                for c in range(self.width):
                    v = g[r * self.width + c]
                    if v & 1:
                        self.may_empty[r] |= ONE << (c % 64)
                        self.may_empty[self.height + c] |= ONE << (r % 64)
                    if v & 2:
                        self.may_fill[r] |= ONE << (c % 64)
                        self.may_fill[self.height + c] |= ONE << (r % 64)

    # ------------------------------------------------------------ propagation

    cdef bint propagate(self, cell_t* g) noexcept nogil:
        """Solve the queued lines until none changes; False on a contradiction (the queue
        emptied). The cells changed go on the trail (when it is on), the groups of the
        lines solved into ``solved`` (added to). Line logic stopped at a cost keeps the
        lines still queued for the next call (``held``)."""
        cdef int64_t lines = self.nlines, head = 0, tail = 0, pending = 0, line, r
        cdef int64_t groups = self.groups
        if self.held:
            # going on where the last call stopped, in the same order
            head, pending = self.held_head, self.held
            tail = (head + pending) % lines
            self.held = 0
        else:
            for line in range(lines):
                if self.queued[line]:
                    self.queue[tail] = line
                    tail = (tail + 1) % lines
                    pending += 1
        while pending:
            if self.cost >= self.watch.check_at and watch_late(&self.watch, self.cost):
                if not self.watch.expired:
                    # out of work: the lines still queued wait for the next call
                    self.held_head, self.held = head, pending
                    return True
                r = -1  # out of time: the search is given up
            else:
                line = self.queue[head]
                head = head + 1 if head + 1 < lines else 0
                pending -= 1
                self.queued[line] = 0
                r = line if line < groups else line % groups
                self.solved[r >> 6] |= ONE << (r & 63)
                self.lines += 1
                r = _solve_line(self, g, line, &tail)
            if r < 0:
                while pending:  # drain the queue
                    self.queued[self.queue[head]] = 0
                    head = (head + 1) % lines
                    pending -= 1
                return False
            pending += r
        return True

    def limit_time(self, double seconds):
        """Line logic gives up ``seconds`` from now (0: no limit), ending its call
        ``expired``: a time limit kept inside one long call."""
        watch_limit(&self.watch, seconds)

    @property
    def expired(self):
        """Whether line logic gave up (the deadline, a signal): the state is no longer a
        search's."""
        return self.watch.expired

    # ------------------------------------------------------------ what probing remembers

    cdef bint _memo_room(self) noexcept nogil:
        cdef int64_t cap = self.memo_cap * 2
        cdef void* a
        cdef void* b
        if self.memo_len < self.memo_cap:
            return True
        a = realloc(self.memo, cap * sizeof(Memo))
        if a != NULL:
            self.memo = <Memo*>a
        b = realloc(self.memo_sig, cap * self.sig_words * 8)
        if b != NULL:
            self.memo_sig = <uint64_t*>b
        if a == NULL or b == NULL:
            self.nomem = True
            return False
        self.memo_cap = cap
        return True

    cdef void _slot_write(self, int64_t slot, int64_t when, double score,
                          const uint64_t* sig) noexcept nogil:
        """Slot ``slot`` probed at ``when`` (0: never) with ``score``, its probes having
        solved the groups ``sig`` (NULL: as they were); what it was is logged where a
        level above this one wrote it."""
        cdef Memo* m
        cdef int w = self.sig_words
        if self.slot_level[slot] < self.level and self._memo_room():
            m = &self.memo[self.memo_len]
            m.index, m.when, m.score, m.level = slot, self.probed_at[slot], \
                self.score[slot], self.slot_level[slot]
            memcpy(&self.memo_sig[self.memo_len * w], &self.probe_sig[slot * w], w * 8)
            self.memo_len += 1
            self.slot_level[slot] = self.level
        self.probed_at[slot] = when
        self.score[slot] = score
        if sig != NULL:
            memcpy(&self.probe_sig[slot * w], sig, w * 8)

    cdef void _forget(self, int64_t mark) noexcept nogil:
        """Back to what probing remembered when the log was ``mark`` long."""
        cdef int64_t i = self.memo_len - 1, g
        cdef Memo* m
        cdef int w = self.sig_words
        while i >= mark:
            m = &self.memo[i]
            if m.index >= 0:
                self.probed_at[m.index] = m.when
                self.score[m.index] = m.score
                self.slot_level[m.index] = m.level
                memcpy(&self.probe_sig[m.index * w], &self.memo_sig[i * w], w * 8)
            else:
                g = -1 - m.index
                self.group_changed[g] = m.when
                self.group_level[g] = m.level
            i -= 1
        self.memo_len = mark

    cdef void _mark(self, int64_t cell) noexcept nogil:
        """``cell`` is about to be fixed for good: its row and column change at the next
        stamp."""
        cdef int64_t r = _row(self, cell)
        _group_write(self, _group(self, r), self.clock + 1)
        _group_write(self, _group(self, self.height + cell - r * self.width), self.clock + 1)

    cdef void _stamp(self, int64_t start) noexcept nogil:
        """A new time for the lines of the changes from ``start`` on the trail (and those
        marked since the last stamp): every probe that solved one of them runs again."""
        cdef int64_t i, t, r
        self.clock += 1
        for i in range(start, self.trail_len):
            t = self.trail_cell[i]
            r = _row(self, t)
            _group_write(self, _group(self, r), self.clock)
            _group_write(self, _group(self, self.height + t - r * self.width), self.clock)

    cdef bint _still_valid(self, int64_t slot) noexcept nogil:
        """Whether the slot's last probes would give the same again (nonosolve's rule)."""
        cdef int64_t when = self.probed_at[slot]
        cdef int w
        cdef uint64_t x
        if when == 0 or not self.remember:
            return False
        for w in range(self.sig_words):
            x = self.probe_sig[slot * self.sig_words + w]
            while x:
                if self.group_changed[w * 64 + _lowest(x)] > when:
                    return False
                x &= x - ONE
        return True

    # ------------------------------------------------------------ probing

    cdef bint assign(self, cell_t* g, int64_t cell, uint64_t value) noexcept nogil:
        """Cell ``cell`` takes ``value`` for good; propagate from its row and column."""
        cdef bint ok
        cdef int64_t start = self.trail_len
        if not self._room(1):
            return False
        self._set(g, cell, value)
        _queue_cell(self, cell)
        self._mark(cell)
        ok = self.propagate(g)
        self._stamp(start)
        if self.level == 0:
            self.trail_len = 0  # the root's changes are never undone
        return ok

    cdef bint _find_opens(self, cell_t* g) noexcept nogil:
        """Slots for the cells open now (the root after its line logic), and probing's
        memory of them; False without memory for it."""
        cdef int64_t i, n = 0, w = self.sig_words, m
        for i in range(self.cells):
            if _single(g[i]):
                self.slot_of[i] = NO_SLOT
            else:
                self.slot_of[i] = <uint32_t>n
                n += 1
        free(self.opens)
        free(self.p_count)
        free(self.p_union)
        free(self.p_tick)
        free(self.p_list)
        free(self.probed_at)
        free(self.probe_sig)
        free(self.score)
        free(self.slot_level)
        m = max(n, 1)
        self.opens = <int64_t*>calloc(m, 8)
        self.p_count = <int64_t*>calloc(m, 8)
        self.p_union = <uint64_t*>calloc(m, 8)
        self.p_tick = <int64_t*>calloc(m, 8)
        self.p_list = <int64_t*>calloc(m, 8)
        self.probed_at = <int64_t*>calloc(m, 8)
        self.probe_sig = <uint64_t*>calloc(m * w, 8)
        self.score = <double*>calloc(m, 8)
        self.slot_level = <int64_t*>calloc(m, 8)
        if (self.opens == NULL or self.p_count == NULL or self.p_union == NULL
                or self.p_tick == NULL or self.p_list == NULL or self.probed_at == NULL
                or self.probe_sig == NULL or self.score == NULL or self.slot_level == NULL):
            self.nomem = True
            return False
        n = 0
        for i in range(self.cells):
            if self.slot_of[i] != NO_SLOT:
                self.opens[n] = i
                n += 1
        self.nopen = n
        return True

    cdef int probe(self, cell_t* g, int64_t stop) noexcept nogil:
        """Probe the open cells, each value each may take, round and round until a whole
        round changes nothing: 1, or 0 on a contradiction, or 2 when the cost passed
        ``stop`` first (``probe_pos`` and ``probe_quiet`` say where to go on). Each open
        cell's score is left at the product over its values of one more than the cells
        their propagation decided."""
        cdef int64_t nopen = self.nopen, slot, c, i, t, s, start, branches, listed
        cdef int64_t gain, tick, last_value = 0
        cdef uint64_t m, bits, b, v
        cdef double product
        cdef bint ok, agreed
        cdef uint64_t* solved = self.solved
        while self.probe_quiet < nopen:
            slot = self.probe_pos
            c = self.opens[slot]
            m = g[c]
            if _single(m) or self._still_valid(slot):
                self.probe_pos = (slot + 1) % nopen
                self.probe_quiet += 1
                continue
            if self.cost >= stop:
                return 2
            self.probe_pos = (slot + 1) % nopen
            self.probe_quiet += 1
            memset(solved, 0, self.sig_words * 8)
            branches = listed = 0
            product = 1.0
            bits = m
            while bits:  # each value, the highest first (filled before empty)
                b = ONE << (63 - __builtin_clzll(bits))
                bits ^= b
                start = self.trail_len
                if not self._room(1):
                    return 0
                self._set(g, c, b)
                _queue_cell(self, c)
                self.probes += 1
                ok = self.propagate(g)
                if self.nomem or self.watch.expired:
                    self._undo(g, start)
                    return 0
                if ok:
                    branches += 1
                    last_value = <int64_t>b
                    self.tick += 1
                    tick = self.tick
                    gain = 0
                    for i in range(start, self.trail_len):
                        s = self.slot_of[self.trail_cell[i]]
                        if self.p_tick[s] == tick:
                            continue
                        self.p_tick[s] = tick
                        v = g[self.trail_cell[i]]
                        if _single(v):
                            gain += 1
                        if branches == 1:
                            self.p_count[s] = 1
                            self.p_union[s] = v
                            self.p_list[listed] = s
                            listed += 1
                        elif self.p_count[s] == branches - 1:
                            self.p_count[s] = branches
                            self.p_union[s] |= v
                    product *= 1.0 + <double>gain
                self._undo(g, start)
            if branches == 0:
                for i in range(listed):
                    self.p_count[self.p_list[i]] = 0
                return 0
            if branches == 1 and not _single(m):
                # one value left: the cell takes it
                for i in range(listed):
                    self.p_count[self.p_list[i]] = 0
                if not self.assign(g, c, <uint64_t>last_value):
                    return 0
                self.probe_quiet = 0
                self._slot_write(slot, self.probed_at[slot], 0.0, NULL)
                continue
            self._slot_write(slot, self.clock, self.score[slot], solved)
            agreed = False
            start = self.trail_len
            if not self._room(listed):
                return 0
            for i in range(listed):  # what every value left a cell: it takes no other
                s = self.p_list[i]
                t = self.opens[s]
                if self.p_count[s] == branches and self.p_union[s] != g[t]:
                    self._set(g, t, self.p_union[s])
                    _queue_cell(self, t)
                    self._mark(t)
                    agreed = True
                self.p_count[s] = 0
            if agreed:
                self.probe_quiet = 0
                ok = self.propagate(g)
                self._stamp(start)
                if self.level == 0:
                    self.trail_len = 0
                if not ok:
                    return 0
                if _single(g[c]):
                    self._slot_write(slot, self.probed_at[slot], 0.0, NULL)
                    continue
            self._slot_write(slot, self.probed_at[slot], product, NULL)
        return 1

    # ------------------------------------------------------------ levels

    cdef bint enter(self) noexcept nogil:
        """One level down: what is changed from here on is undone by :meth:`leave`."""
        cdef int64_t d = self.level + 1
        cdef void* p
        if d + 1 >= self.levels:
            if not self._grow():
                return False
        self.level_trail[d] = self.trail_len
        self.level_memo[d] = self.memo_len
        self.level = d
        return True

    cdef void leave(self, cell_t* g, int64_t level) noexcept nogil:
        """Back to ``level`` (above this one): its grid and what probing remembered there."""
        self._undo(g, self.level_trail[level + 1])
        self._forget(self.level_memo[level + 1])
        self.level = level

    cdef bint _grow(self) noexcept nogil:
        """Twice the levels (the search needs at most one per open cell)."""
        cdef int64_t levels = 2 * self.levels
        cdef void* a = realloc(self.branch, levels * 8)
        if a == NULL:
            self.nomem = True
            return False
        self.branch = <int64_t*>a
        a = realloc(self.tried, levels * 8)
        if a == NULL:
            self.nomem = True
            return False
        self.tried = <uint64_t*>a
        a = realloc(self.level_trail, (levels + 1) * 8)
        if a == NULL:
            self.nomem = True
            return False
        self.level_trail = <int64_t*>a
        a = realloc(self.level_memo, (levels + 1) * 8)
        if a == NULL:
            self.nomem = True
            return False
        self.level_memo = <int64_t*>a
        self.levels = levels
        return True

    # ------------------------------------------------------------ the search

    cdef double _random(self) noexcept nogil:
        """A number in [0, 1) from the xorshift generator."""
        cdef uint64_t x = self.seed
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        self.seed = x
        return <double>(x >> 11) * (1.0 / 9007199254740992.0)

    cdef uint64_t _pick(self, int64_t cell, uint64_t left) noexcept nogil:
        """The value to try next of those ``left``: the preferred one where it is left and
        the run is even (:meth:`prefer`), else the highest (a block colour before the
        background) on even runs, the lowest on odd ones."""
        cdef uint64_t want
        if self.run % 2 == 0:
            if self.preferred != NULL:
                want = ONE << self.preferred[cell]
                if want & left:
                    return want
            return ONE << (63 - __builtin_clzll(left))
        return left & (~left + ONE)

    cdef bint _branch(self, cell_t* g, int64_t d, int64_t cell) noexcept nogil:
        """Level ``d`` branches on ``cell``: its first value, one level down."""
        cdef uint64_t value = self._pick(cell, g[cell])
        if not self.enter() or not self._room(1):
            return False
        self.branch[d] = cell
        self.tried[d] = value
        self._set(g, cell, value)
        _queue_cell(self, cell)
        self._mark(cell)
        self.phase = NEW
        return True

    cdef bint _backtrack(self, cell_t* g) noexcept nogil:
        """Up to the deepest level with a value still to try, and its child set up; False
        when there is none (the tree is done)."""
        cdef int64_t d = self.level - 1, c
        cdef uint64_t left, value
        while d >= 0:
            self.leave(g, d)
            c = self.branch[d]
            left = g[c] & ~self.tried[d]
            if left:
                value = self._pick(c, left)
                self.tried[d] |= value
                self.enter()
                self._set(g, c, value)
                _queue_cell(self, c)
                self._mark(c)
                self.phase = NEW
                return True
            d -= 1
        return False

    def search(self, int64_t budget):
        """Depth-first search with probing at every node, resumed where it stopped: runs
        until a solution (FOUND, the grid in ``solution``), the end of the tree (DONE) or
        the cost passing ``budget`` (SLICE), or the time limit (EXPIRED)."""
        cdef int r
        if self.root_copy == NULL:
            self.root_copy = _alloc(self.cells, 1 if self.bw else 8)
        if self.bw:
            r = self._search(<uint8_t*>self.grid, budget)
        else:
            r = self._search(<uint64_t*>self.grid, budget)
        watch_heard(&self.watch)
        if r == NOMEM:
            raise MemoryError(f"the engine's search of a {self.height}×{self.width} "
                              f"puzzle ({self.nopen:,} cells open after line logic) could "
                              "not have more memory for its trail and levels")
        return r

    cdef int _search(self, cell_t* g, int64_t budget) noexcept nogil:
        cdef int64_t d, c, slot, best
        cdef bint ok, noisy
        cdef int probed
        cdef double top, sc
        while True:
            d = self.level
            if d < 0:
                return DONE
            ok = True
            if self.phase == NEW:
                if d > 0 and self.restart > 0:
                    self.run_nodes += 1
                    if self.run_nodes > self.restart * _luby(self.run):
                        memset(self.queued, 0, self.nlines)
                        self.leave(g, 0)
                        self.run += 1
                        self.run_nodes = 0
                        self.phase = PROBING
                        self.probe_pos = 0
                        self.probe_quiet = 0
                        continue
                c = self.trail_len
                self.trail_on = d > 0 or self.nopen >= 0
                ok = self.propagate(g)
                self.trail_on = True
                self._stamp(c)
                if d == 0:
                    self.trail_len = 0
                if self.nomem:
                    return NOMEM
                if self.watch.expired:
                    return EXPIRED
                if ok and self.nopen < 0 and not self._find_opens(g):
                    return NOMEM
                self.probe_pos = 0
                self.probe_quiet = 0
                self.phase = PROBING
            if ok:
                probed = self.probe(g, budget)
                if self.nomem:
                    return NOMEM
                if self.watch.expired:
                    return EXPIRED
                if probed == 2:  # this node again, probing on from where it stopped
                    return SLICE
                ok = probed == 1
            self.phase = IDLE
            self.nodes += 1
            if d == 0:
                self.root = 1 if ok else 2
                if ok and not self.root_saved:
                    memcpy(self.root_copy, g, self.cells * sizeof(cell_t))
                    self.root_saved = True
            if d > self.depth:
                self.depth = d
            if ok:
                best = -1
                top = 0.0
                noisy = self.run >= 2
                for slot in range(self.nopen):
                    c = self.opens[slot]
                    if not _single(g[c]) and self.score[slot] > 0:
                        sc = self.score[slot]
                        if noisy:
                            sc *= 1.0 + self.noise * self._random()
                        if sc > top:
                            top = sc
                            best = c
                if best < 0:
                    for slot in range(self.nopen):
                        c = self.opens[slot]
                        if not _single(g[c]):
                            best = c
                            break
                if best < 0:  # solved
                    memcpy(self.solution, g, self.cells * sizeof(cell_t))
                    if not self._backtrack(g):
                        self.level = -1
                    return FOUND
                if not self._branch(g, d, best):
                    return NOMEM
            elif not self._backtrack(g):
                self.level = -1
                return DONE
            if self.cost >= budget:
                return SLICE

    # ------------------------------------------------------------ other entries

    def line_logic(self, int64_t work=-1):
        """Line logic alone on the queued lines of the root (no probing, no trail): 0 a
        contradiction, 1 settled, 2 stopped once ``work`` more cost (>= 0) was passed, so
        that the caller can look at the clock; the next call goes on in the same order."""
        cdef bint ok
        if self.level != 0:
            raise ValueError("line logic alone runs at the root")
        watch_stop_after(&self.watch, self.cost, work)
        self.trail_on = False
        if self.bw:
            ok = self.propagate(<uint8_t*>self.grid)
        else:
            ok = self.propagate(<uint64_t*>self.grid)
        self.trail_on = True
        watch_stop_after(&self.watch, self.cost, -1)
        watch_heard(&self.watch)
        if not ok and self.nomem:
            raise MemoryError("line logic could not have memory")
        return 0 if not ok else (2 if self.held else 1)

    def implications(self, layers, int64_t limit, int64_t first=0, int64_t work=-1):
        """What each probe of the grid ``layers`` (as :meth:`set_root` takes it, a fixpoint
        of line logic) implies, from its ``first`` cell on: pairs ``(a, b)``, "a implies
        not b", ``a`` a literal ``cell × (colours + 1) + value`` (the cell takes that
        value: 0 the background, c block colour c), ``b`` the same for a value the
        implied cell can no longer take, or -1 where ``a`` contradicts; at most ``limit``
        pairs, as native 64-bit integers a, b, a, b, … in bytes, and the cell to go on
        from (the number of cells: done). Stops after the cell at which ``work`` more cost
        (>= 0) is passed, so that the caller can look at the clock between slices; the
        next call, from that cell, goes on on the same grid. Runs on this engine, which
        must be fresh (no search)."""
        if not 0 <= first <= self.cells:
            raise ValueError(f"the first cell {first} is not in 0..{self.cells}")
        if self.root_copy != NULL or self.level != 0:
            raise ValueError("implications run on a fresh engine")
        cdef bint ok = True
        if first == 0 or self.nopen < 0:
            self.set_root(layers)
            memset(self.queued, 0, self.nlines)
            ok = (self._find_opens(<uint8_t*>self.grid) if self.bw
                  else self._find_opens(<uint64_t*>self.grid))
        if not ok:
            raise MemoryError("probing for implications could not have memory")
        cdef int64_t* out = <int64_t*>_alloc(2 * max(limit, 1), 8)
        cdef int64_t n = 0, stop = self.cost + work, c
        try:
            if self.bw:
                n, c = self._implications(<uint8_t*>self.grid, out, limit, first, work, stop)
            else:
                n, c = self._implications(<uint64_t*>self.grid, out, limit, first, work, stop)
            watch_heard(&self.watch)
            if self.nomem:
                raise MemoryError("probing for implications could not have memory")
            return (<char*>out)[:16 * n], c
        finally:
            free(out)

    cdef (int64_t, int64_t) _implications(self, cell_t* g, int64_t* out, int64_t limit,
                                          int64_t first, int64_t work,
                                          int64_t stop) noexcept nogil:
        cdef int64_t c, n = 0, a, i, t, s, values = self.colours + 1
        cdef uint64_t m, bits, b, gone
        cdef bint ok
        for c in range(first, self.cells):
            if work >= 0 and self.cost > stop:
                return n, c
            m = g[c]
            if _single(m):
                continue
            bits = m
            while bits:
                b = ONE << (63 - __builtin_clzll(bits))
                bits ^= b
                if not self._room(1):
                    return n, c
                self._set(g, c, b)
                _queue_cell(self, c)
                ok = self.propagate(g)
                if self.watch.expired or self.nomem:
                    self._undo(g, 0)
                    return n, c
                a = c * values + (63 - __builtin_clzll(b))
                if not ok:
                    if n < limit:
                        out[2 * n] = a
                        out[2 * n + 1] = -1
                        n += 1
                else:
                    self.tick += 1
                    for i in range(1, self.trail_len):
                        t = self.trail_cell[i]
                        s = self.slot_of[t]
                        if self.p_tick[s] == self.tick:
                            continue  # narrowed twice: its first change held what it was
                        self.p_tick[s] = self.tick
                        gone = ((3 if cell_t is uint8_t else self.trail_old[i])
                                & ~(<uint64_t>g[t]))
                        while gone:
                            if n == limit:
                                self._undo(g, 0)
                                return n, self.cells
                            out[2 * n] = a
                            out[2 * n + 1] = t * values + _lowest(gone)
                            n += 1
                            gone &= gone - ONE
                self._undo(g, 0)
        return n, self.cells
