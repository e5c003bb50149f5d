# The engine's black-and-white search state (search.pyx), declared for the engine's other
# parts (the counter) to use its fields and methods.
cimport cython
from libc.stdint cimport int64_t, uint8_t, uint64_t

from .clock cimport Watch


@cython.final
cdef class Engine:
    # the puzzle: the clues of every line in one array, rows first, each line's start in it
    # and its number of blocks
    cdef readonly int height, width, nlines, cells
    cdef int64_t* clues
    cdef int64_t* starts
    cdef int64_t* counts
    # propagation: the queue of lines, the line words (which cells may be empty, which may
    # be filled, one word a line of up to 63 cells), the trail of changed cells, the lines
    # solved (bits), the line solver's words
    cdef int64_t* queue
    cdef uint8_t* queued
    cdef uint64_t* may_empty
    cdef uint64_t* may_fill
    cdef int64_t* trail
    cdef int64_t top
    cdef uint64_t* touched
    cdef int words
    cdef uint8_t* line_cells
    cdef uint64_t* fs
    cdef uint64_t* ff
    cdef uint64_t* bs
    cdef uint64_t* bf
    cdef uint64_t* sweep
    cdef uint64_t* wt
    cdef int stride
    # the caches of line solves: one word a line (each slot: line × 2 + consistent, then
    # its words in and out), and past 63 cells (rows of 1 + 4 × words)
    cdef int64_t* cache_line
    cdef uint64_t* cache_entry
    cdef uint64_t* cache_wide
    cdef int64_t wide_rows
    cdef int wide_cols
    # a probe's two propagations: the cells and values each fixed, and the first's by cell
    cdef int64_t* cells1
    cdef int64_t* cells0
    cdef uint8_t* values1
    cdef uint8_t* values0
    cdef uint8_t* seen
    # what probing remembers: when each cell was probed, the lines its probes solved
    # (``words`` a cell), when each line last changed, and the clock those times are read
    # on; kept for the first ``kept`` levels
    cdef int64_t* probed_at
    cdef uint64_t* probe_lines
    cdef int64_t* line_changed
    cdef int64_t clock
    cdef int64_t* saved_probed_at
    cdef uint64_t* saved_probe_lines
    cdef int64_t* saved_line_changed
    cdef int64_t* saved_score
    cdef int kept
    cdef readonly int keep
    # the search: the stack of grids (``levels`` of ``cells`` bytes), each level's branch
    # cell and value still to try, the branching scores, the last solution
    cdef uint8_t* stack
    cdef readonly int levels
    cdef int64_t* branch
    cdef uint8_t* other
    cdef int64_t* score
    cdef uint8_t* solution
    # the search's position: its level, its phase (1 a new node, 2 its probing under way,
    # 0 neither), where probing is (the next cell, how many cells in a row changed
    # nothing), restarts (every ``restart`` × Luby(run) nodes; 0 never), the run, its
    # nodes so far, the random generator
    cdef public int64_t level, phase, probe_cell, probe_quiet, restart, run, run_nodes
    cdef uint64_t seed
    # the work so far: line solves, nodes, the deepest level, how the root ended (0 not
    # yet, 1 consistent, 2 a contradiction), and the cost (a line of n cells costs n, and
    # n × (words + 1) past 63 cells)
    cdef public int64_t lines, nodes, depth, root, cost
    # line logic at the root stops at a cost (line_logic), the ``held`` lines still
    # queued (from ``held_head`` in the queue) kept for the next call; or at the deadline,
    # or on a signal (clock.pxd)
    cdef int64_t held, held_head
    cdef Watch watch

    cdef void _allocate_saved(self, int kept, int old) except *
    cdef void _put(self, uint8_t* g, int r, int c, int value) noexcept nogil
    cdef void _load(self, const uint8_t* g) noexcept nogil
    cdef int _change(self, uint8_t* g, int r, int c, int value, int cross,
                            int* tail) noexcept nogil
    cdef bint propagate(self, uint8_t* g) noexcept nogil
    cdef int _search(self, int64_t budget) except -1
    cdef void _queue_cell(self, int cell) noexcept nogil
    cdef void _mark(self, int cell) noexcept nogil
    cdef void _stamp(self) noexcept nogil
    cdef bint _still_valid(self, int c) noexcept nogil
    cdef bint _assign(self, uint8_t* g, int cell, int value) noexcept nogil
    cdef int _probe_one(self, uint8_t* g, int c, int value, int64_t* cells_out,
                        uint8_t* values_out) noexcept nogil
    cdef int probe(self, uint8_t* g, int64_t stop) noexcept nogil
    cdef double _random(self) noexcept nogil
    cdef void _keep(self, int d) noexcept nogil
    cdef void _recall(self, int d) noexcept nogil
    cdef uint8_t* _grid(self, int64_t d) noexcept nogil
    cdef bint _backtrack(self) noexcept nogil
    cdef void _grow(self) except *
