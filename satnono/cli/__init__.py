"""The ``satnono`` command: a table of commands, each a module with ``add_parser`` and
``run(args) -> int``, and the one place that turns an error into a message and an exit
status (:mod:`.status`).

The command modules are light: each imports the library it needs only when it runs, so
``satnono --help`` loads no solver.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable

from ..errors import Interrupted, SatnonoError
from ..runtime.interrupt import (
    caused_by_interrupt,
    forget_interrupts,
    heard,
    note,
    noting_interrupt,
    swallowed_interrupts,
)
from ..runtime.memory import left_to_the_end
from . import batch, bench, check, convert, count, encode, formats, make, render, serve, solve
from .inputs import capped
from .options import say
from .status import EPILOG, ExitStatus, Parser, status_of

#: the commands, in the order ``--help`` lists them
COMMANDS = (solve, count, check, make, render, convert, encode, batch, bench, serve, formats)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, when ``argv`` names one (its first word), of that
    command alone: a command's options can name what its library offers (count's methods,
    batch's backends), and loading every command's library for the one that runs cost a
    fresh ``satnono solve`` a third of its imports."""
    parser = Parser(
        prog="satnono",
        description="Solve, enumerate and count nonograms, black-and-white and colour.",
        epilog=EPILOG)
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the program's version number and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parser.set_defaults(commands={})
    named = [c for c in COMMANDS if argv and c.__name__.rsplit(".", 1)[-1] == argv[0]]
    for command in named or COMMANDS:
        p = command.add_parser(sub)
        parser.get_default("commands")[p.prog.split()[-1]] = p
    return parser


class _Version(argparse.Action):
    """``--version``, which reads the installed package's metadata only when asked (the
    metadata library costs a tenth of a fresh process's start), and says whether the
    engine was built and how (a user's first question when satnono is slow)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("satnono")
        except PackageNotFoundError:  # pragma: no cover - run from a source tree
            text = "(not installed)"
        from ..engine import describe

        sys.stdout.write(f"satnono {text}\n{describe()}\n")
        parser.exit()


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments; a flag the command does not know is shown with that command's usage,
    not the program's."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        args.commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _terminated(signum: int, frame: object) -> None:
    raise note(Interrupted("terminated", 128 + signum))


def _run(argv: list[str] | None, started: float) -> int:
    from ..io.output import check_writable

    parser = build_parser(sys.argv[1:] if argv is None else argv)
    args = _parse(parser, argv)
    args.started = started  # where --timeout counts from (options.within_the_limit)
    capped(args)  # before the work: one line if they come down
    run: Callable[[argparse.Namespace], int] = args.run
    # before the work, not after it; a report makes its own folder for the plots
    if not getattr(args, "report", None):
        check_writable(getattr(args, "output", None))
    check_writable(getattr(args, "trace_gif", None))
    return int(run(args))


def main(argv: list[str] | None = None, restore_interrupt: bool = False,
         own_process: bool = False) -> int:
    """Parse, run the command, and turn every error and interrupt into one line and an exit
    status. ``restore_interrupt``: Ctrl-C was handled by :mod:`satnono.entry` while loading,
    and becomes Python's KeyboardInterrupt again, caught below. ``own_process``: the
    process is the command's (the ``satnono`` program), so its time limit counts from the
    process's start; else (a test, a program that embeds the command line) from this
    call."""
    from ..runtime.deadline import since_start

    started = time.monotonic() - (since_start() if own_process else 0.0)
    # SIGTERM as Ctrl-C: the work stops where it is, solver processes are stopped, no file
    # is left half written, and the message says so
    previous = signal.signal(signal.SIGTERM, _terminated)
    forget_interrupts()
    try:
        # a Ctrl-C that lands where Python swallows it (the import system's callbacks, while
        # the command loads what it needs) is raised again, not lost with a traceback
        with swallowed_interrupts():
            if restore_interrupt:
                signal.signal(signal.SIGINT, noting_interrupt)
            return _run(argv, started)
    except SatnonoError as exc:
        say(f"satnono: {exc}")
        # its traceback's frames hold what the work built (a CNF of millions of clauses:
        # half a second to free): left to the process's end where that comes next
        left_to_the_end(exc)
        return status_of(exc)
    except MemoryError:
        say("satnono: out of memory: this puzzle needs more than this machine has")
        return ExitStatus.FAILED
    except Interrupted as exc:
        say(f"satnono: {exc.message}")
        return exc.status
    except (KeyboardInterrupt, ImportError, RuntimeError) as exc:
        # a compiled extension interrupted while it loads (OR-Tools' does) reports the
        # Ctrl-C as an ImportError caused by it, a class interrupted while it is made as a
        # RuntimeError; any other error of those kinds is not ours to word
        if not caused_by_interrupt(exc):
            raise
        stop = heard()
        if isinstance(stop, Interrupted):  # SIGTERM, turned into another error on its way
            say(f"satnono: {stop.message}")
            return stop.status
        say("satnono: interrupted; the work is incomplete and no file was written")
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return ExitStatus.OK
    except OSError as exc:  # standard output refused (a full disk): as a refused -o file
        from ..io.output import write_failed

        failed = write_failed(exc.filename or "standard output", exc)
        say(f"satnono: {failed}")
        return status_of(failed)
    finally:
        signal.signal(signal.SIGTERM, previous)
