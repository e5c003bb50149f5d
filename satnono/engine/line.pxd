# The black-and-white line solver of the engine, for the engine's other parts to cimport.
from libc.stdint cimport int64_t, uint64_t

cdef bint narrow64(const int64_t* clue, int k, int n, uint64_t can_empty,
                   uint64_t can_fill, uint64_t* fs, uint64_t* ff, uint64_t* bs,
                   uint64_t* bf, uint64_t* may_empty, uint64_t* may_fill) noexcept nogil

cdef bint narrow_wide(const int64_t* clue, int k, int n, const uint64_t* can_empty,
                      const uint64_t* can_fill, uint64_t* sweep, int stride,
                      uint64_t* wt, uint64_t* may_empty,
                      uint64_t* may_fill) noexcept nogil
