# The engine's colour line solver (colour_line.pyx), for the general search to cimport: its
# state in one struct, the clues it reads owned by the engine.
from libc.stdint cimport int64_t, uint64_t


cdef struct ColourLine:
    # the clues: every line's block lengths and colours, rows first (the engine's arrays)
    int colours, kmax, nw
    const int64_t* sizes
    const int64_t* cols
    # its words on one line (each way's starts and reachable positions, a word per colour
    # in, reversed and out), the same past 63 cells, its answer by cell
    uint64_t* line_words
    uint64_t* line_masks
    uint64_t* sweep
    uint64_t* wide_masks
    uint64_t* wt
    int64_t* out

cdef int colour_line_start(ColourLine* s, int colours, int kmax, int longest,
                           const int64_t* sizes, const int64_t* cols) except -1
cdef void colour_line_free(ColourLine* s) noexcept nogil
cdef int narrow_colour_line(ColourLine* s, const uint64_t* line, int n, int64_t s0, int k,
                            bint wide) noexcept nogil
