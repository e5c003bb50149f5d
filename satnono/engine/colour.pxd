# The engine's colour search state (colour.pyx), declared for the engine's other parts (the
# counter) to use its fields and methods.
cimport cython
from libc.stdint cimport int64_t, uint64_t

from .clock cimport Watch
from .colour_line cimport ColourLine


@cython.final
cdef class ColourEngine:
    # the puzzle: block lengths and colours of every line in one array each, rows first,
    # each line's start in them and its number of blocks; block colours
    cdef readonly int height, width, nlines, cells, colours
    cdef int64_t* sizes
    cdef int64_t* cols
    cdef int64_t* starts
    cdef int64_t* counts
    cdef int kmax, words
    # the line solver: its words and its answer by cell (colour_line.pyx)
    cdef ColourLine solver
    # the queue of lines (a ring: its head and size), the trail of changed cells and what
    # they were
    cdef int64_t* queue
    cdef char* queued
    cdef int64_t q_head, q_size
    cdef int64_t* trail_cell
    cdef int64_t* trail_old
    cdef int64_t trail_len
    # probing: how many branches changed each cell and the union of what they left it,
    # the stamp of the branch that last counted a cell, the cells counted, the lines a
    # cell's probes solved (bits)
    cdef int64_t* count
    cdef int64_t* union_
    cdef int64_t* stamp
    cdef int64_t* seen
    cdef uint64_t* probe_bits
    # what probing remembers (nonosolve's rule): when each cell's probes last ran and
    # changed nothing, in which node (its id and level), the lines they solved; when each
    # line last changed; each level's node id on the current path; the change clock and
    # the node clock
    cdef int64_t* probed_at
    cdef int64_t* probed_node
    cdef int64_t* probed_level
    cdef uint64_t* probe_lines
    cdef int64_t* line_changed
    cdef int64_t* path
    cdef int64_t change_clock, node_clock
    # the search: the stack of grids, each level's branch cell and the colours tried
    # there, the branching scores, the last solution
    cdef int64_t* stack
    cdef readonly int levels
    cdef int64_t* branch
    cdef int64_t* tried
    cdef double* score
    cdef int64_t* solution
    # the search's position: its level and phase, where probing is, the probes' stamp
    cdef public int64_t level, phase, probe_cell, probe_quiet, tick
    # the work so far (as the black-and-white search's; the cost counts a line of n cells
    # and k blocks as n × (k + 1))
    cdef public int64_t lines, nodes, depth, root, cost
    # line logic stops at a cost (line_logic), at the deadline or on a signal (clock.pxd)
    cdef Watch watch

    cdef int _line(self, const int64_t* g, int line, bint wide) noexcept nogil
    cdef void _push(self, int64_t line) noexcept nogil
    cdef void _push_cell(self, int64_t cell) noexcept nogil
    cdef void _clear(self) noexcept nogil
    cdef bint propagate(self, int64_t* g) noexcept nogil
    cdef void _changed(self, int64_t cell) noexcept nogil
    cdef void _trail_changed(self) noexcept nogil
    cdef void _touch(self, int64_t cell, uint64_t* lines) noexcept nogil
    cdef bint _still_valid(self, int64_t c, int64_t level) noexcept nogil
    cdef bint _assign(self, int64_t* g, int64_t cell, int64_t value) noexcept nogil
    cdef int probe(self, int64_t* g, int64_t end) noexcept nogil
    cdef int64_t* _grid(self, int64_t d) noexcept nogil
    cdef bint _failed(self, int64_t level) noexcept nogil
    cdef void _grow(self) except *
    cdef int _search(self, int64_t end) except -1
