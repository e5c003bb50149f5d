"""Ctrl-C that Python would lose: never a traceback, never a command that goes on.

Python swallows an exception raised where nothing can catch it — a weakref callback (the
import system's module locks have one), a ``__del__``, a callback from C (LLVM's, while
a compiled extension's) — prints "Exception ignored ... Traceback" and carries on. A Ctrl-C that
lands there is lost and the user sees a traceback. And a Ctrl-C inside a class body's
``__set_name__`` (a dataclass being imported) comes out as a ``RuntimeError`` caused by it.

:func:`swallowed_interrupts` keeps the first kind quiet and raises it again a millisecond
later, on a line of Python; :func:`caused_by_interrupt` recognises the second.

>>> caused_by_interrupt(RuntimeError("Error calling __set_name__"))
False
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def swallowed_interrupts() -> Iterator[list[BaseException]]:
    """Within the block, a KeyboardInterrupt that Python would swallow is kept quiet (its
    "Exception ignored" is not printed) and, in the main thread, raised again a millisecond
    later by a timer, once the callback that swallowed it has returned; a timer that lands
    in such a callback again is kept and set again. Elsewhere (no signals outside the main
    thread) it is only kept: the list it yields holds what was swallowed, for the caller to
    raise when it can. Any other unraisable error goes to the hook that was there before.
    """
    swallowed: list[BaseException] = []
    hook = sys.unraisablehook
    main = threading.current_thread() is threading.main_thread()

    def keep(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)
            return
        swallowed.append(unraisable.exc_value)
        if main:
            signal.setitimer(signal.ITIMER_REAL, 0.001)

    def again(signum: int, frame: Any) -> None:
        raise swallowed[0]

    alarm = signal.signal(signal.SIGALRM, again) if main else None
    sys.unraisablehook = keep
    try:
        yield swallowed
    finally:
        if sys.unraisablehook is keep:
            sys.unraisablehook = hook
        if main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, alarm)


_heard: list[KeyboardInterrupt] = []


def note(stop: KeyboardInterrupt) -> KeyboardInterrupt:
    """Record that Ctrl-C or SIGTERM came (``stop`` is what it raises: KeyboardInterrupt,
    or :class:`~satnono.errors.Interrupted` for SIGTERM), and return it to be raised."""
    _heard.append(stop)
    return stop


def heard() -> KeyboardInterrupt | None:
    """The first Ctrl-C or SIGTERM of this run, if one came: what to raise where an
    extension's loader turned it into an error of its own."""
    return _heard[0] if _heard else None


def noting_interrupt(signum: int, frame: Any) -> None:
    """Python's own Ctrl-C handler (KeyboardInterrupt), noting that one came: a compiled
    extension interrupted while it loads may drop the KeyboardInterrupt and report an
    error of its own with nothing to show what caused it (NumPy's C part, loading the
    ``datetime`` capsule: "PyCapsule_Import could not import module"), which
    :func:`caused_by_interrupt` then still recognises."""
    note(KeyboardInterrupt())
    signal.default_int_handler(signum, frame)


def forget_interrupts() -> None:
    """A new run (:func:`satnono.cli.main` called again in the same process, as a test or
    a program that embeds the CLI does): a Ctrl-C heard in an earlier run no longer words
    this run's errors as an interrupt."""
    _heard.clear()


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C, or an error that one caused: an interrupted
    ``__set_name__`` is re-raised as a RuntimeError, an interrupted compiled extension's
    load (OR-Tools') as an ImportError; or whether a Ctrl-C came at all
    (:func:`noting_interrupt`), for an extension that lost it."""
    if _heard:
        return True
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        if isinstance(at, KeyboardInterrupt):
            return True
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return False
