"""One time limit for a whole run, passed down to every stage that can take long.

A user gives one ``--timeout``; propagation, probing, encoding, the solver and the rating
after it all spend from the same budget, so each stage gets the deadline (an instant), not
a fresh number of seconds. The timeout itself travels along only to word the message.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import ReadTimeout, SearchTimeout, UsageError

#: the longest time limit, in seconds (23 days): the waits a limit ends are the operating
#: system's, in milliseconds of 32 bits (24.8 days), and Python's own overflow past that
LONGEST = 2_000_000


def too_long(timeout: float) -> str:
    """The message for a limit past :data:`LONGEST`."""
    return (f"a time limit may be at most {LONGEST:,} seconds (23 days), not {timeout:g}; "
            "leave it out for no limit")


@dataclass(frozen=True)
class Deadline:
    """An instant on the monotonic clock (``at``), or none; ``timeout`` is the limit it
    came from, in seconds.

    >>> Deadline.after(None).passed(), Deadline.after(None).left()
    (False, None)
    >>> d = Deadline.after(60)
    >>> d.passed(), 59 < d.left() <= 60
    (False, True)
    """

    at: float | None = None
    timeout: float | None = None

    @classmethod
    def after(cls, timeout: float | None) -> Deadline:
        """The deadline ``timeout`` seconds from now (None: no limit)."""
        if timeout is None:
            return NO_DEADLINE
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise UsageError(f"a time limit is a number of seconds, not {timeout!r}")
        if not timeout > 0 or timeout == float("inf"):  # also refuses NaN
            raise UsageError(f"a time limit must be a positive number of seconds, not "
                             f"{timeout!r}")
        if timeout > LONGEST:
            raise UsageError(too_long(timeout))
        from .memory import release_left

        release_left()  # new work under a new limit: the last one's leftovers go now
        return cls(time.monotonic() + timeout, float(timeout))

    @property
    def limited(self) -> bool:
        return self.at is not None

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() > self.at

    def left(self) -> float | None:
        """Seconds until the deadline (None: no limit), never zero: for a later stage that
        takes a number of seconds, so that one limit covers the stages before it too."""
        return None if self.at is None else max(self.at - time.monotonic(), 0.001)

    def remaining(self) -> float | None:
        """Seconds until the deadline, zero once it has passed: for waiting."""
        return None if self.at is None else max(self.at - time.monotonic(), 0.0)

    def expired(self, found: int = 0) -> SearchTimeout:
        """The error to raise when the deadline has passed, after ``found`` solutions. Its
        traceback holds the work's data (a CNF of millions of clauses), so it is left to
        the next piece of work or the process's end to free
        (:func:`~satnono.runtime.memory.left_to_the_end`)."""
        from .memory import left_to_the_end

        error = SearchTimeout(found, self.timeout or 0.0)
        left_to_the_end(error)
        return error

    def check(self) -> None:
        """Raise :class:`~satnono.errors.SearchTimeout` once the deadline has passed."""
        if self.at is not None and time.monotonic() > self.at:
            raise self.expired()


#: no time limit
NO_DEADLINE = Deadline()


def since_start() -> float:
    """Seconds since this process started (0 where the system does not say): a command's
    time limit counts from its start, the interpreter's and the imports' time included."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            ticks = int(fh.read().rsplit(b")", 1)[1].split()[19])
        return max(time.clock_gettime(time.CLOCK_BOOTTIME)
                   - ticks / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError, AttributeError):  # pragma: no cover
        return 0.0


def counted_from(started: float, timeout: float | None) -> Deadline:
    """The deadline ``timeout`` seconds after ``started`` (an instant on the monotonic
    clock: a command's start)."""
    deadline = Deadline.after(timeout)  # checks the limit
    if timeout is None:
        return deadline
    return Deadline(started + timeout, deadline.timeout)


#: seconds an input always gets to be read, even where the process's start-up took the
#: whole time limit (a busy machine): a file that reads at once is read, and the stages
#: after it say what they found in no time (a count's "at least 0"), where a read cut
#: before it began would say nothing of the puzzle
READ_GRACE = 0.25


@contextmanager
def reading(deadline: Deadline, path: str) -> Iterator[None]:
    """Reading an input within ``deadline`` (but for :data:`READ_GRACE` at least): past
    it, :class:`~satnono.errors.ReadTimeout` (a FIFO that no one writes to blocks in the
    system, a huge picture in Python; a timer's signal ends both). Only the main thread
    gets signals: elsewhere the read is not cut."""
    if deadline.at is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise ReadTimeout(path, deadline.timeout or 0.0)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, max(deadline.at - time.monotonic(), READ_GRACE))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
