# The engine's own look at the clock and at signals, for a time limit and a Ctrl-C that
# must be kept inside one call (a probe of a 1,500×1,500 picture propagates for seconds
# without coming back to Python). The deadline is given as seconds from now and kept on
# this clock, so it needs no agreement with Python's.
from libc.stdint cimport INT64_MAX, int64_t
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


# What both engines keep to stop line logic: at a cost (``stop_at``, line_logic's slices),
# at a deadline (seconds on this clock, 0: none) or on a signal; the clock is looked at when
# the cost passes ``check_at``. Once ``expired`` the engine's state is no longer a search's
# (its caller gives up on it), and ``signalled`` says a handler's exception is set.
cdef struct Watch:
    int64_t stop_at
    int64_t check_at
    double deadline
    bint expired
    bint signalled


cdef inline void watch_start(Watch* w) noexcept nogil:
    w.stop_at, w.check_at, w.deadline = INT64_MAX, CHECK_EVERY, 0.0
    w.expired = w.signalled = False


cdef inline void watch_limit(Watch* w, double seconds) noexcept nogil:
    """Line logic gives up ``seconds`` from now (0: no limit)."""
    w.deadline = monotonic() + seconds if seconds > 0 else 0.0


cdef inline void watch_stop_after(Watch* w, int64_t cost, int64_t work) noexcept nogil:
    """Line logic stops once ``work`` more cost (>= 0; a line at least) is passed; -1: it
    goes on to its fixpoint."""
    w.stop_at = cost + max(work, 1) if work >= 0 else INT64_MAX
    w.check_at = min(w.check_at, w.stop_at)


cdef inline bint watch_late(Watch* w, int64_t cost) noexcept nogil:
    """Whether line logic, at ``cost``, stops here: its work passed ``stop_at``, or the
    clock passed the deadline, or a signal's handler raised (then ``expired``)."""
    if w.expired:
        return True
    w.check_at = min(cost + CHECK_EVERY, w.stop_at)
    if cost >= w.stop_at:
        return True
    if w.deadline > 0 and monotonic() > w.deadline:
        w.expired = True
        w.check_at = 0  # every later call stops at once, whatever its deadline
        return True
    with gil:  # held already (the engine runs in its caller's thread): Ctrl-C, SIGTERM
        w.signalled = check_signals() != 0
    if w.signalled:  # the handler's exception is set: the call ends raising it
        w.expired = True
        w.check_at = 0
        return True
    return False


cdef inline int watch_heard(Watch* w) except -1:
    """Raise what a signal's handler raised inside line logic (the exception is set
    already); every entry that runs line logic ends with this."""
    if w.signalled:
        w.signalled = False
        return -1
    return 0
