# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The engine's general search, compiled ahead of time: propagation with the colour line
solver (:mod:`.colour_line`), probing to a fixpoint and a depth-first search that probes at
every node, for any palette — colour, and black and white as a palette of one colour.
Black-and-white puzzles take the fast path (:mod:`.search`: a cell two bits, a line two
machine words, the same method, with restarts) instead, chosen once per puzzle
(:func:`satnono.logic.compiled.search_for`); tests hold the two to each other, and
``python -m benchmarks.search_rate --general`` measures what the fast path saves.

A grid is ``height × width`` 64-bit cells, row by row, each the set of colours it may
still take: bit 0 the background, bit c block colour c (up to 62 block colours; a cell of
one bit is decided, 0 a contradiction). Probing tries each colour a cell may take, rules
out those whose propagation contradicts, and narrows every cell that all surviving
branches changed to the union of what they left it. It visits the same nodes and solves
the same lines as the Numba kernel it replaced (benchmarks/results, "The engine compiled
ahead of time").
"""

cimport cython
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

from .clock cimport (Watch, watch_heard, watch_late, watch_limit, watch_start,
                     watch_stop_after)
from .memory cimport _alloc, _grown

from .colour_line cimport colour_line_free, colour_line_start, narrow_colour_line
from .words cimport _lowest

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil

cdef uint64_t ONE = 1

# the search's phases: a node to propagate, its probing under way, the next colour of its
# branch cell to try, back to the level above
cdef enum:
    NEW = 1
    PROBING = 2
    BRANCH = 3
    BACK = 4

# what Engine.search returns (as the black-and-white search)
FOUND = 1
DONE = 2
SLICE = 3
EXPIRED = 4




@cython.final
cdef class ColourEngine:
    """One colour puzzle's search state, every part a named field."""

    def __dealloc__(self):
        free(self.sizes)
        free(self.cols)
        free(self.starts)
        free(self.counts)
        colour_line_free(&self.solver)
        free(self.queue)
        free(self.queued)
        free(self.trail_cell)
        free(self.trail_old)
        free(self.count)
        free(self.union_)
        free(self.stamp)
        free(self.seen)
        free(self.probe_bits)
        free(self.probed_at)
        free(self.probed_node)
        free(self.probed_level)
        free(self.probe_lines)
        free(self.line_changed)
        free(self.path)
        free(self.stack)
        free(self.branch)
        free(self.tried)
        free(self.score)
        free(self.solution)

    def __init__(self, int height, int width, int colours, sizes, cols, starts, counts,
                 int levels):
        """``sizes``, ``cols``: every line's block lengths and colours (1..``colours``) in
        one sequence each, rows first; ``starts``, ``counts``: where each line's are and
        how many; ``levels`` the stack's first depth (it doubles as needed)."""
        cdef int i, line
        self.height, self.width, self.colours = height, width, colours
        self.nlines = height + width
        self.cells = height * width
        cdef int n = max(height, width)
        self.kmax = 0
        self.sizes = <int64_t*>_alloc(len(sizes), 8)
        self.cols = <int64_t*>_alloc(len(cols), 8)
        for i in range(len(sizes)):
            self.sizes[i] = sizes[i]
            self.cols[i] = cols[i]
        self.starts = <int64_t*>_alloc(self.nlines, 8)
        self.counts = <int64_t*>_alloc(self.nlines, 8)
        for line in range(self.nlines):
            self.starts[line] = starts[line]
            self.counts[line] = counts[line]
            self.kmax = max(self.kmax, <int>self.counts[line])
        self.words = (self.nlines + 63) // 64
        colour_line_start(&self.solver, colours, self.kmax, n, self.sizes, self.cols)
        cdef int c1 = colours + 1
        self.queue = <int64_t*>_alloc(self.nlines, 8)
        self.queued = <char*>_alloc(self.nlines, 1)
        self.trail_cell = <int64_t*>_alloc(self.cells * (colours + 2), 8)
        self.trail_old = <int64_t*>_alloc(self.cells * (colours + 2), 8)
        self.count = <int64_t*>_alloc(self.cells, 8)
        self.union_ = <int64_t*>_alloc(self.cells, 8)
        self.stamp = <int64_t*>_alloc(self.cells, 8)
        self.seen = <int64_t*>_alloc(self.cells, 8)
        self.probe_bits = <uint64_t*>_alloc(self.words, 8)
        self.probed_at = <int64_t*>_alloc(self.cells, 8)
        self.probed_node = <int64_t*>_alloc(self.cells, 8)
        self.probed_level = <int64_t*>_alloc(self.cells, 8)
        self.probe_lines = <uint64_t*>_alloc(self.cells * self.words, 8)
        self.line_changed = <int64_t*>_alloc(self.nlines, 8)
        self.path = <int64_t*>_alloc(self.cells + 2, 8)
        self.change_clock = self.node_clock = 1
        self.levels = levels
        self.stack = <int64_t*>_alloc(levels * self.cells, 8)
        cdef int64_t full = ((<int64_t>1) << c1) - 1
        for i in range(levels * self.cells):
            self.stack[i] = full
        self.branch = <int64_t*>_alloc(levels, 8)
        self.tried = <int64_t*>_alloc(levels, 8)
        self.score = <double*>_alloc(self.cells, 8)
        self.solution = <int64_t*>_alloc(self.cells, 8)
        self.level, self.phase, self.probe_cell, self.probe_quiet, self.tick = 0, NEW, 0, 0, 0
        self.lines = self.nodes = self.depth = self.root = self.cost = 0
        watch_start(&self.watch)

    # ------------------------------------------------------------ grids in and out

    def set_root(self, grid):
        """The root's grid: a colour set (bits) a cell, row by row."""
        if len(grid) != self.cells:
            raise ValueError(f"a grid of {self.cells} cells, not {len(grid)}")
        cdef int i
        for i in range(self.cells):
            self.stack[i] = grid[i]

    @property
    def root_grid(self):
        """Level 0's grid, as :meth:`set_root` takes it."""
        return [self.stack[i] for i in range(self.cells)]

    @property
    def solution_grid(self):
        """The last solution found, as :attr:`root_grid` is given."""
        return [self.solution[i] for i in range(self.cells)]

    # ------------------------------------------------------------ the line solver

    cdef int _line(self, const int64_t* g, int line, bint wide) noexcept nogil:
        """Narrow ``line``'s cells into ``out``; the line's length, or -1 when no
        placement of its blocks fits what its cells may take."""
        cdef int n, base, step
        if line < self.height:
            n, base, step = self.width, line * self.width, 1
        else:
            n, base, step = self.height, line - self.height, self.width
        return narrow_colour_line(&self.solver, g, base, step, n, self.starts[line],
                                  <int>self.counts[line], wide)

    def narrow(self, grid, int line, bint wide=False):
        """One line of ``grid`` (as :meth:`set_root` takes it) solved on its own, for tests:
        its cells' new colour sets, or None for a contradiction. ``wide`` runs the solver
        on several words a colour on a line of any length."""
        cdef int64_t* g = <int64_t*>_alloc(self.cells, 8)
        cdef int i, n
        try:
            for i in range(self.cells):
                g[i] = grid[i]
            n = self._line(g, line, wide)
            return None if n < 0 else [self.solver.out[i] for i in range(n)]
        finally:
            free(g)

    # ------------------------------------------------------------ propagation

    cdef void _push(self, int64_t line) noexcept nogil:
        if not self.queued[line]:
            self.queued[line] = 1
            self.queue[(self.q_head + self.q_size) % self.nlines] = line
            self.q_size += 1

    cdef void _push_cell(self, int64_t cell) noexcept nogil:
        self._push(cell // self.width)
        self._push(self.height + cell % self.width)

    cdef void _clear(self) noexcept nogil:
        while self.q_size > 0:
            self.queued[self.queue[self.q_head]] = 0
            self.q_head = (self.q_head + 1) % self.nlines
            self.q_size -= 1

    cdef bint propagate(self, int64_t* g) noexcept nogil:
        """Solve the queued lines until none is left (False: a contradiction, the queue
        emptied); every cell changed goes on the trail with what it was."""
        cdef int64_t line, k, cell
        cdef int n, base, step, p
        while self.q_size > 0:
            if self.cost >= self.watch.check_at and watch_late(&self.watch, self.cost):
                if self.watch.expired:
                    self._clear()  # out of time: the search is given up
                    return False
                return True  # out of work: the lines still queued wait for the next call
            line = self.queue[self.q_head]
            self.q_head = (self.q_head + 1) % self.nlines
            self.q_size -= 1
            self.queued[line] = 0
            n = self._line(g, <int>line, False)
            self.lines += 1
            k = self.counts[line]
            if n < 0:
                self.cost += (self.height if line >= self.height else self.width) * (k + 1)
                self._clear()
                return False
            self.cost += n * (k + 1)
            if line < self.height:
                base, step = <int>line * self.width, 1
            else:
                base, step = <int>(line - self.height), self.width
            for p in range(n):
                cell = base + p * step
                if self.solver.out[p] != g[cell]:
                    self.trail_cell[self.trail_len] = cell
                    self.trail_old[self.trail_len] = g[cell]
                    self.trail_len += 1
                    g[cell] = self.solver.out[p]
                    if line < self.height:
                        self._push(self.height + p)
                    else:
                        self._push(p)
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

    def line_logic(self, bint first=True, int64_t work=-1):
        """Line logic over every line of the root to a fixpoint (``first``: every line
        queued; else going on from the last call): 0 a contradiction, 1 settled, 2 stopped
        once ``work`` more cost (>= 0) was passed, so that the caller can look at the clock."""
        cdef int line
        cdef bint ok
        if first:
            for line in range(self.nlines):
                self._push(line)
        self.trail_len = 0
        watch_stop_after(&self.watch, self.cost, work)
        ok = self.propagate(self.stack)
        watch_stop_after(&self.watch, self.cost, -1)
        watch_heard(&self.watch)
        return 0 if not ok else (2 if self.q_size > 0 else 1)

    cdef void _changed(self, int64_t cell) noexcept nogil:
        """``cell`` changed for good: its row and column carry the change clock's time."""
        self.line_changed[cell // self.width] = self.change_clock
        self.line_changed[self.height + cell % self.width] = self.change_clock

    cdef void _trail_changed(self) noexcept nogil:
        cdef int64_t i
        for i in range(self.trail_len):
            self._changed(self.trail_cell[i])

    cdef void _touch(self, int64_t cell, uint64_t* lines) noexcept nogil:
        """Add ``cell``'s row and column to the bit set ``lines``."""
        cdef int64_t row = cell // self.width, col = self.height + cell % self.width
        lines[row >> 6] |= ONE << (row & 63)
        lines[col >> 6] |= ONE << (col & 63)

    cdef bint _still_valid(self, int64_t c, int64_t level) noexcept nogil:
        """Whether cell ``c``'s last probes would give the same again: they ran in this
        node or one above it on the current path, and none of the lines they solved has
        changed since."""
        cdef int64_t when = self.probed_at[c], at = self.probed_level[c]
        cdef int w
        cdef uint64_t x
        if when == 0 or at > level or self.path[at] != self.probed_node[c]:
            return False
        for w in range(self.words):
            x = self.probe_lines[c * self.words + w]
            while x:
                if self.line_changed[w * 64 + _lowest(x)] > when:
                    return False
                x &= x - ONE
        return True

    cdef bint _assign(self, int64_t* g, int64_t cell, int64_t value) noexcept nogil:
        """Cell ``cell`` takes the colours ``value`` for good; propagate from its row and
        column, every change carrying the change clock's next time (as a new node's)."""
        cdef bint ok
        self.change_clock += 1
        g[cell] = value
        self._changed(cell)
        self.trail_len = 0
        self._push_cell(cell)
        ok = self.propagate(g)
        self._trail_changed()
        return ok

    # ------------------------------------------------------------ probing

    cdef int probe(self, int64_t* g, int64_t end) noexcept nogil:
        """Probe the open cells in turn until a whole round changes nothing: 1, 0 for a
        contradiction, 2 when ``end`` work is reached first. ``score[c]`` is the product
        over the colours of cell c of one more than the cells their branch decided."""
        cdef int64_t cells = self.cells, level = self.level, c, m, bits, b, cell, v, tick
        cdef int64_t i, branches, touched, gain
        cdef double product
        cdef bint ok, changed
        while self.probe_quiet < cells:
            if self.cost >= end:
                return 2
            c = self.probe_cell
            self.probe_cell = c + 1 if c + 1 < cells else 0
            m = g[c]
            if m & (m - 1) == 0 or self._still_valid(c, level):
                self.probe_quiet += 1
                continue
            memset(self.probe_bits, 0, self.words * 8)
            branches = 0
            touched = 0
            product = 1.0
            bits = m
            while bits:
                b = bits & -bits
                bits ^= b
                self.trail_cell[0] = c
                self.trail_old[0] = m
                self.trail_len = 1
                g[c] = b
                self._push_cell(c)
                ok = self.propagate(g)
                self.tick += 1
                tick = self.tick
                for i in range(self.trail_len):
                    self._touch(self.trail_cell[i], self.probe_bits)
                if ok:
                    branches += 1
                    gain = 0
                    for i in range(self.trail_len):
                        cell = self.trail_cell[i]
                        if self.stamp[cell] == tick:
                            continue
                        self.stamp[cell] = tick
                        v = g[cell]
                        if v & (v - 1) == 0:
                            gain += 1
                        if branches == 1:
                            self.count[cell] = 1
                            self.union_[cell] = v
                            self.seen[touched] = cell
                            touched += 1
                        elif self.count[cell] == branches - 1:
                            self.count[cell] = branches
                            self.union_[cell] |= v
                    product *= 1.0 + gain
                i = self.trail_len - 1
                while i >= 0:  # undo, last change first
                    g[self.trail_cell[i]] = self.trail_old[i]
                    i -= 1
                self.trail_len = 0
            if branches == 0:
                return 0
            changed = False
            for i in range(touched):
                cell = self.seen[i]
                if self.count[cell] == branches and self.union_[cell] != g[cell]:
                    if not changed:
                        self.change_clock += 1
                    g[cell] = self.union_[cell]
                    self._changed(cell)
                    self._push_cell(cell)
                    changed = True
                self.count[cell] = 0
            if changed:
                self.trail_len = 0
                ok = self.propagate(g)
                self._trail_changed()
                if not ok:
                    return 0
                self.probe_quiet = 0
            else:
                self.score[c] = product
                self.probe_quiet += 1
                self.probed_at[c] = self.change_clock
                self.probed_node[c] = self.path[level]
                self.probed_level[c] = level
                memcpy(&self.probe_lines[c * self.words], self.probe_bits, self.words * 8)
        return 1

    # ------------------------------------------------------------ the search

    cdef int64_t* _grid(self, int64_t d) noexcept nogil:
        return &self.stack[d * self.cells]

    cdef bint _failed(self, int64_t level) noexcept nogil:
        """A node contradicted: back to the level above; True at the root (the clues
        contradict), whose end ends a slice."""
        self.phase = BACK
        if level == 0:
            self.root = 2
            return True
        return False

    cdef void _grow(self) except *:
        cdef int levels = self.levels
        self.stack = <int64_t*>_grown(self.stack, levels * self.cells,
                                      2 * levels * self.cells, 8)
        self.branch = <int64_t*>_grown(self.branch, levels, 2 * levels, 8)
        self.tried = <int64_t*>_grown(self.tried, levels, 2 * levels, 8)
        self.levels = 2 * levels

    def search(self, int64_t end):
        """Go on with the search until a solution (FOUND, in ``solution``), the end of the
        tree (DONE) or ``end`` work (SLICE). Every node is propagated and probed to a
        fixpoint and branches on its best-scored open cell, a block colour before the
        background. The root's settling ends a slice of its own (``root``: 1 consistent,
        2 a contradiction)."""
        cdef int r = self._search(end)
        watch_heard(&self.watch)
        return r

    cdef int _search(self, int64_t end) except -1:
        cdef int64_t cells = self.cells, level, phase, line, c, m, best, left, b
        cdef int64_t* g
        cdef bint ok
        cdef int r
        cdef double top
        while True:
            level = self.level
            phase = self.phase
            if level < 0:
                return DONE
            if phase == NEW:
                g = self._grid(level)
                self.trail_len = 0
                if level == 0:
                    for line in range(self.nlines):
                        self._push(line)
                else:
                    self._push_cell(self.branch[level - 1])
                self.nodes += 1
                if level > self.depth:
                    self.depth = level
                self.node_clock += 1  # this node's id, on the path at its level
                self.path[level] = self.node_clock
                self.change_clock += 1  # the branch cell and what propagation changes
                if level > 0:
                    self._changed(self.branch[level - 1])
                ok = self.propagate(g)
                self._trail_changed()
                if self.watch.expired:
                    return EXPIRED
                if ok:
                    self.phase = PROBING
                    self.probe_cell = 0
                    self.probe_quiet = 0
                elif self._failed(level):
                    return SLICE
                continue
            if phase == PROBING:
                g = self._grid(level)
                r = self.probe(g, end)
                if self.watch.expired:
                    return EXPIRED
                if r == 2:
                    return SLICE
                if r == 0:
                    if self._failed(level):
                        return SLICE
                    continue
                best = -1
                top = -1.0
                for c in range(cells):
                    m = g[c]
                    if m & (m - 1) != 0 and self.score[c] > top:
                        top = self.score[c]
                        best = c
                if best < 0:
                    memcpy(self.solution, g, cells * 8)
                    self.phase = BACK
                    if level == 0:
                        self.root = 1
                    return FOUND
                self.branch[level] = best
                self.tried[level] = 0
                self.phase = BRANCH
                if level == 0:
                    self.root = 1
                    return SLICE
                continue
            if phase == BACK:
                if level == 0:
                    self.level = -1
                    return DONE
                self.level = level - 1
                self.phase = BRANCH
                continue
            # BRANCH: the next colour of the branch cell, the highest first
            if self.cost >= end:
                return SLICE
            c = self.branch[level]
            left = self._grid(level)[c] & ~self.tried[level]
            if left == 0:
                self.phase = BACK
                continue
            b = (<int64_t>1) << (63 - __builtin_clzll(<unsigned long long>left))
            if level + 1 >= self.levels:
                self._grow()
            self.tried[level] |= b
            memcpy(self._grid(level + 1), self._grid(level), cells * 8)
            self._grid(level + 1)[c] = b
            self.level = level + 1
            self.phase = NEW
