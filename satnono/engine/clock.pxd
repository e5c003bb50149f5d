# The engine's own look at the clock and at signals, for a time limit and a Ctrl-C that
# must be kept inside one call (a probe of a 1,500×1,500 picture propagates for seconds
# without coming back to Python). The deadline is given as seconds from now and kept on
# this clock, so it needs no agreement with Python's.
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


# Python's own look at its signals (a Ctrl-C's handler raises KeyboardInterrupt), declared
# without Cython's error check so that the exception stays set for the entry to raise
cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals" () noexcept
