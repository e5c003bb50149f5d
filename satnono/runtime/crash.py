"""A crash says so: the ``satnono`` command ends with one line naming the puzzle and the
signal, and exit status 6, where the engine (compiled code in this process) would
otherwise die silently by SIGSEGV, or by SIGILL where it was built for another processor.

The command arms it (:data:`ARMED`, set by :mod:`satnono.entry`) and names the input it
works on (:func:`working_on`); the engine's handler is installed when an engine is first
made for a puzzle (:func:`engine_for`), with the puzzle's size in its line. A library
user's process is left as it is.
"""

from __future__ import annotations

#: whether this process is the ``satnono`` command's (crashes are then reported)
ARMED = False
_source = ""


def working_on(source: str) -> None:
    """The input the command is working on now (its file name), for the crash's line."""
    global _source
    _source = source


def engine_for(size: str) -> None:
    """An engine is being made for a puzzle of ``size``: where armed, a crash from now on
    says so in one line with the input and the size."""
    if not ARMED:
        return
    from ..engine.search import guard

    where = f"{_source}: " if _source else ""
    guard(f"satnono: {where}the engine crashed with ",
          f" on a {size} puzzle (a bug in satnono: please report it with the puzzle)\n")
