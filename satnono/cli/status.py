"""Exit statuses, the same in every command (and in docs/commands.md), and the one-line usage
error."""

from __future__ import annotations

import argparse
import sys
from enum import IntEnum
from typing import NoReturn

from ..errors import (
    Interrupted,
    SatnonoError,
    SearchTimeout,
    SolverFailed,
    WrongSolution,
)


class ExitStatus(IntEnum):
    OK = 0  # done (check, make: the puzzle is unique)
    NO_SOLUTION = 1
    BAD_INPUT = 2  # bad input or usage: one line naming file and line
    TIME_LIMIT = 3  # what was found so far is reported; the search is incomplete
    DISAGREE = 4  # a bug caught: --verify found the backends disagree, or a wrong grid
    MULTIPLE = 5  # check, make: more than one solution
    FAILED = 6  # a solver process failed or was killed (most often: out of memory)
    INTERRUPTED = 130  # Ctrl-C


EPILOG = ("Exit status: 0 done, 1 no solution, 2 bad input, 3 time limit reached, "
          "4 a bug caught (--verify found the backends disagree, or a wrong grid), 5 not "
          "unique (check, make), 6 a solver process failed or was killed (most often: out "
          "of memory), 130 Ctrl-C, 143 SIGTERM. Environment: SATNONO_CORPUS and "
          "SATNONO_TOURNAMENTS (where bench's suites are read), SATNONO_MAX_BYTES (the "
          "largest input). Machine output (solve --to json, count and check --json): one "
          "JSON object per puzzle, one per line; its schema is satnono/io/schema.json.")


def status_of(exc: SatnonoError) -> ExitStatus:
    """The one map from what went wrong to the exit status."""
    if isinstance(exc, WrongSolution):
        return ExitStatus.DISAGREE
    if isinstance(exc, SolverFailed):
        return ExitStatus.FAILED
    if isinstance(exc, SearchTimeout):
        return ExitStatus.TIME_LIMIT
    return ExitStatus.BAD_INPUT


def stopped(exc: KeyboardInterrupt, found: int, output: str | None) -> Interrupted:
    """Ctrl-C or SIGTERM during a search: what was found, and that nothing was written."""
    file = f"; {output} was not written" if output not in (None, "-") else ""
    return Interrupted.saying(exc, f"{found} solution(s) found, search incomplete{file}")


#: what ``--verify`` found: agreement, disagreement, or no answer from native in time
VERIFIED = {True: ExitStatus.OK, False: ExitStatus.DISAGREE, None: ExitStatus.TIME_LIMIT}


def worse(a: int, b: int) -> int:
    """Of two statuses, the one a script should see: the higher, but a finished run (0)
    never hides another."""
    return b if a == ExitStatus.OK else max(a, b)


class Parser(argparse.ArgumentParser):
    """A command's parser whose usage errors are one line with a hint, as every other
    error is: argparse's own prints the whole usage block (up to nine lines) first, which
    buries the one line that says what is wrong. Its subcommands' parsers are of this kind
    too (argparse makes them of their parent's class)."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} ('{self.prog} --help' lists the "
                         "options)\n")
        sys.exit(ExitStatus.BAD_INPUT)
