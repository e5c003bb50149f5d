"""The ``satnono`` command's first lines, before anything heavy is imported: a Ctrl-C or
SIGTERM at any moment of a command's start (loading the solvers takes a few tenths of a
second) ends it with one line and exit status 130 (143 for SIGTERM), never a traceback.
:func:`satnono.cli.main` takes over once loaded; once it returns, the command's status
stands.

Nothing else is imported here, and ``satnono/__init__`` loads its names lazily, so the
window without this handler is the interpreter's own start. The handler goes in through
``_signal``, the interpreter's built-in module: ``signal`` itself builds its enums on
import, a few milliseconds in which a Ctrl-C (on a loaded machine, one sent 40 ms after
the start) met Python's default handler and printed a traceback.
"""

from __future__ import annotations

import _signal as signal  # the built-in part of ``signal``: nothing to build on import
import os
import sys


def _interrupt(signum: int, frame: object) -> None:
    os.write(2, b"satnono: terminated\n" if signum == signal.SIGTERM
             else b"satnono: interrupted\n")
    os._exit(128 + signum)


def main() -> int:
    """Run the command line (:func:`satnono.cli.main`) with Ctrl-C and SIGTERM handled from
    the start. A shell that started us with Ctrl-C ignored (a background job) keeps it
    ignored."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if not ignored:
        signal.signal(signal.SIGINT, _interrupt)
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:
        signal.signal(signal.SIGTERM, _interrupt)
    from .cli import main as cli_main
    from .runtime import crash, memory

    memory.ENDS_WITH_COMMAND = True  # what is slow to free is left to the end (_ended)
    crash.ARMED = True  # a crash of the engine is reported in one line

    status = cli_main(restore_interrupt=not ignored, own_process=True)
    if not ignored:
        # the command is over and its output written: the interpreter's last milliseconds
        # (where Python would put back the default, and a Ctrl-C would kill it with no
        # status of ours) let a Ctrl-C pass
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the same for SIGTERM: the status stands, the output is whole
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return _ended(status)


def _ended(status: int) -> int:
    """End the process as Python's exit would (output flushed, exit handlers run) but
    without freeing, object by object, what the command built: a residual CNF of millions
    of clauses takes half a second to free, and a command at its time limit would overrun
    it by that. Where a thread besides this one is alive, Python's own exit (which waits
    for it) does the rest."""
    import threading

    if threading.active_count() > 1:
        return status
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader is gone: nothing more to say to it
            pass
        except (OSError, ValueError) as exc:  # a full disk under a redirection
            if not status:
                os.write(2, f"satnono: cannot write standard output: {exc}\n".encode())
                status = 2  # as cli.main says it
    import atexit

    atexit._run_exitfuncs()
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
