# The engine's own look at the clock, for a time limit that must hold inside one call (a
# probe of a 1,500×1,500 colour picture propagates for seconds without coming back to
# Python). The deadline is given as seconds from now and kept on this clock, so it needs
# no agreement with Python's.
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

# work (the engine's cost) between two looks at the clock inside line logic: about a
# millisecond, against ~30 ns a look
cdef enum:
    CHECK_EVERY = 1 << 20


cdef inline double monotonic() noexcept nogil:
    """Seconds on the monotonic clock."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9
