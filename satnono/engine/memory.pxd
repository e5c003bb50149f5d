# The engine's memory of its own (every part's state is C memory, freed with its object).
from libc.stdlib cimport calloc, realloc
from libc.string cimport memset


cdef inline void* _alloc(Py_ssize_t count, Py_ssize_t size) except NULL:
    """Zeroed memory for ``count`` items of ``size`` bytes (at least one item)."""
    cdef void* p = calloc(max(count, 1), size)
    if p == NULL:
        raise MemoryError()
    return p


cdef inline void* _grown(void* old, Py_ssize_t had, Py_ssize_t count,
                         Py_ssize_t size) except NULL:
    """``old`` (``had`` items) made room for ``count`` items, the new ones zeroed."""
    cdef void* p = realloc(old, max(count, 1) * size)
    if p == NULL:
        raise MemoryError()
    if count > had:
        memset(<char*>p + had * size, 0, (count - had) * size)
    return p
