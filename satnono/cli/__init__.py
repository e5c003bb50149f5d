"""The ``satnono`` command: a table of commands, each a module with ``add_parser`` and
``run(args) -> int``, and the one place that turns an error into a message and an exit
status (:mod:`.status`).

The command modules are light: each imports the library it needs only when it runs, so
``satnono --help`` loads no solver.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..errors import SatnonoError
from . import bench, check, convert, count, formats, make, render, solve
from .options import say
from .status import EPILOG, ExitStatus, status_of

#: the commands, in the order ``--help`` lists them
COMMANDS = (solve, count, check, make, render, convert, bench, formats)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="satnono",
        description="Solve, enumerate and count black-and-white nonograms.",
        epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from ..io.output import check_writable

    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        # before the work, not after it; a report makes its own folder for the plots
        if not getattr(args, "report", None):
            check_writable(getattr(args, "output", None))
        check_writable(getattr(args, "trace_gif", None))
        return int(run(args))
    except SatnonoError as exc:
        say(f"satnono: {exc}")
        return status_of(exc)
    except MemoryError:
        say("satnono: out of memory: this puzzle needs more than this machine has")
        return ExitStatus.FAILED
    except KeyboardInterrupt:
        say("satnono: interrupted")
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return ExitStatus.OK


if __name__ == "__main__":
    sys.exit(main())
