# The engine's search state (search.pyx), one class for every palette, declared for the
# engine's other parts (the counter) to use its fields and methods. Its methods that touch
# the grid are fused over the cell: a byte in black and white, a 64-bit colour set in
# colour; each caller's grid pointer picks the copy compiled for it.
cimport cython
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from .clock cimport Watch
from .colour_line cimport ColourLine

ctypedef fused cell_t:
    uint8_t
    uint64_t

# what probing remembers of a cell (or a group of lines), kept on the undo log when a level
# below the one that wrote it is still on the path: its slot (>= 0) or -1 - the group, the
# time it was probed (or changed), its score and the level that wrote it
cdef struct Memo:
    int64_t index
    int64_t when
    double score
    int64_t level


@cython.final
cdef class Engine:
    # the puzzle: every line's block lengths and colours in one array each, rows first,
    # each line's start in them and its number of blocks; a colour set a cell (bit 0 the
    # background, bit c block colour c); black and white is a palette of one colour
    cdef readonly int64_t height, width, nlines, cells
    cdef readonly int colours, kmax, longest
    cdef readonly bint bw
    cdef int64_t* sizes
    cdef int64_t* cols
    cdef int64_t* starts
    cdef int64_t* counts
    # the grid (``cells`` cells of one byte or 64 bits), the root's copy once the search
    # left it, the last solution
    cdef void* grid
    cdef void* root_copy
    cdef bint root_saved
    cdef void* solution
    # black and white: each line of up to 63 cells also as two words (which cells may be
    # empty, which may be filled), kept with the grid
    cdef uint64_t* may_empty
    cdef uint64_t* may_fill
    # the line solvers' scratch: a line's cells gathered, the black-and-white solver's
    # words (rows of ``stride`` words), the colour solver's state
    cdef uint64_t* line_in
    cdef uint64_t* fs
    cdef uint64_t* ff
    cdef uint64_t* bs
    cdef uint64_t* bf
    cdef uint64_t* sweep
    cdef uint64_t* wt
    cdef int stride
    cdef ColourLine solver
    # the caches of line solves: a slot's line × 2 + consistent, its words in and out (up
    # to 63 cells, 4 words a slot); past 63 cells rows of 1 + 4 × words
    cdef int64_t cache_size
    cdef int64_t* cache_line
    cdef uint64_t* cache_entry
    cdef uint64_t* cache_wide
    cdef int64_t wide_rows, wide_cols
    # the queue of lines (a ring: lines are flagged outside propagation and taken in line
    # order when it starts), the lines still queued when line logic stopped at a cost
    cdef int64_t* queue
    cdef uint8_t* queued
    cdef int64_t held, held_head
    # the trail: every change (the cell and what it was) since the root, undone on the way
    # back; off while the root's own line logic runs (it is never undone)
    cdef int64_t* trail_cell
    cdef uint64_t* trail_old
    cdef int64_t trail_len, trail_cap
    cdef bint trail_on
    # the cells open when the root's line logic was done, each a slot of its own: the
    # slot of a cell (``NO_SLOT``: decided then), and each slot's cell
    cdef uint32_t* slot_of
    cdef int64_t* opens
    cdef int64_t nopen
    # probing's scratch by slot: how many branches changed it, the union of what they left,
    # the branch that last counted it; the slots one probe changed
    cdef int64_t* p_count
    cdef uint64_t* p_union
    cdef int64_t* p_tick
    cdef int64_t* p_list
    cdef int64_t tick
    # what probing remembers (nonosolve's rule, a probe is skipped while none of the lines
    # it solved has changed): by slot, when it was probed, the groups of lines it solved
    # (``sig_words`` words, a bit a group: a line is its own group up to 64 × sig_words
    # lines), its score and the level that wrote them; by group, when a line of it last
    # changed and the level that wrote it; the clock; the undo log
    cdef int64_t* probed_at
    cdef uint64_t* probe_sig
    cdef double* score
    cdef int64_t* slot_level
    cdef int sig_words
    cdef int64_t groups
    cdef int64_t* group_changed
    cdef int64_t* group_level
    cdef uint64_t* solved
    cdef int64_t clock
    cdef Memo* memo
    cdef uint64_t* memo_sig
    cdef int64_t memo_len, memo_cap
    # the search: each level's branch cell, the values tried there, the trail and the log
    # where it began
    cdef readonly int64_t levels
    cdef int64_t* branch
    cdef uint64_t* tried
    cdef int64_t* level_trail
    cdef int64_t* level_memo
    # the search's position: its level, its phase, where probing is (a slot) and how many
    # slots in a row changed nothing; restarts (every ``restart`` × Luby(run) nodes; 0
    # never), the run, its nodes so far, the scores' noise from the third run on, the
    # random generator
    cdef public int64_t level, phase, probe_pos, probe_quiet, restart, run, run_nodes
    cdef public double noise
    # whether probing remembers at all (off: every probe runs again, for tests); each
    # cell's preferred first value (prefer)
    cdef public bint remember
    cdef uint8_t* preferred
    cdef uint64_t seed
    # the work so far: line solves, nodes, the deepest level, how the root ended (0 not
    # yet, 1 consistent, 2 a contradiction), the cost (a line of n cells costs n in black
    # and white, n × (words + 1) past 63 cells; n × (blocks + 1) in colour), the values
    # probing tried
    cdef public int64_t lines, nodes, depth, root, cost, probes
    # memory that could not be had inside a call (the call ends, MemoryError says so)
    cdef bint nomem
    cdef Watch watch

    cdef bint _room(self, int64_t more) noexcept nogil
    cdef bint _memo_room(self) noexcept nogil
    cdef bint _grow(self) noexcept nogil
    cdef void _set(self, cell_t* g, int64_t cell, uint64_t value) noexcept nogil
    cdef void _undo(self, cell_t* g, int64_t mark) noexcept nogil
    cdef void _load(self, cell_t* g) noexcept nogil
    cdef bint propagate(self, cell_t* g) noexcept nogil
    cdef void _slot_write(self, int64_t slot, int64_t when, double score,
                          const uint64_t* sig) noexcept nogil
    cdef void _mark(self, int64_t cell) noexcept nogil
    cdef void _stamp(self, int64_t start) noexcept nogil
    cdef void _forget(self, int64_t mark) noexcept nogil
    cdef bint _still_valid(self, int64_t slot) noexcept nogil
    cdef bint assign(self, cell_t* g, int64_t cell, uint64_t value) noexcept nogil
    cdef bint _find_opens(self, cell_t* g) noexcept nogil
    cdef int probe(self, cell_t* g, int64_t stop) noexcept nogil
    cdef bint enter(self) noexcept nogil
    cdef void leave(self, cell_t* g, int64_t level) noexcept nogil
    cdef double _random(self) noexcept nogil
    cdef uint64_t _pick(self, int64_t cell, uint64_t left) noexcept nogil
    cdef int _search(self, cell_t* g, int64_t budget) noexcept nogil
    cdef bint _branch(self, cell_t* g, int64_t d, int64_t cell) noexcept nogil
    cdef bint _backtrack(self, cell_t* g) noexcept nogil
    cdef (int64_t, int64_t) _implications(self, cell_t* g, int64_t* out, int64_t limit,
                                          int64_t first, int64_t work,
                                          int64_t stop) noexcept nogil
