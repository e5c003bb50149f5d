"""Every exception satnono raises on purpose, in one place.

Everything a user can cause ends in a :class:`SatnonoError`; the command line prints its
message on one line and picks the exit status from its class (``satnono.cli.status``).
"""

from __future__ import annotations

#: the most characters of a user's input an error message quotes
QUOTED = 300


def cut(text: str, most: int = QUOTED) -> str:
    """``text`` as an error message quotes it: whole when short, else its start and end
    around an ellipsis (a clue of a million numbers once filled a megabyte of stderr).

    >>> cut("1 " * 200, 20)
    '1 1 1 1 1 1 1 … 1 1 1 '
    """
    if len(text) <= most:
        return text
    head = most * 2 // 3
    return f"{text[:head]} … {text[-(most - head - 1):]}"


class SatnonoError(Exception):
    """Base of every error satnono reports to a user; its message is one line, and any
    part of it past :data:`QUOTED` characters is cut (:func:`cut`)."""

    def __init__(self, *args: object):
        if len(args) == 1 and isinstance(args[0], str):
            args = (cut(args[0], 2 * QUOTED),)
        super().__init__(*args)


# -- bad input and bad requests (exit status 2) -------------------------------------------

class ParseError(SatnonoError):
    """A puzzle file that cannot be read: names the file and, where known, the line."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = cut(message, 2 * QUOTED)
        self.path = path
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        return f"{where}: {self.message}"


class NotAPuzzle(ParseError):
    """A file that holds no puzzle at all: a picture, binary data, text in none of the
    formats satnono reads (a README or LICENSE beside the puzzles). A batch over a folder
    passes such files by with one line; a file in a puzzle's format that does not read
    (an empty ``.non``, clues that contradict) is an error."""


class UnknownFormat(NotAPuzzle):
    """Content in none of the formats satnono reads, and no format named: each interface
    says how to name one (the command line's ``--from``, the library's ``fmt``)."""

    def hinted(self, how: str) -> UnknownFormat:
        """The same error, saying ``how`` a format is named where it is raised."""
        return UnknownFormat(f"{self.message}; {how}", self.path, self.line)


class InvalidPuzzle(SatnonoError):
    """Clues that no grid could satisfy for a plain reason (a clue too long, totals differ),
    or a puzzle built from values that are not clues."""


class UsageError(SatnonoError):
    """A request that asks for something impossible: options that do not go together, a
    value out of range."""


class UnknownBackend(UsageError):
    """A backend name that is not in the registry (``satnono.backends.BACKENDS``)."""


class UnknownOption(UsageError):
    """An option the chosen backend does not take (``workers`` goes to sat and cpsat,
    ``solver`` to sat, …)."""


class UnsupportedSolver(UsageError):
    """A SAT solver pysat does not offer, or one that cannot do what is asked (kissat is not
    incremental, so it cannot enumerate)."""


class UnsupportedOutput(SatnonoError):
    """The chosen output format cannot hold this puzzle (say, a non-square tournament file)."""


class OutputError(SatnonoError):
    """An output file that cannot be written (no such folder, a folder given as file, …)."""


# -- the work did not finish ----------------------------------------------------------------

class SearchTimeout(SatnonoError):
    """The time limit ran out: the solutions already yielded are real, the search is
    incomplete. ``found`` is how many the caller had been given. The message leaves out
    ``seconds``: a command's limit counts from its start, so what is left of it when the
    work begins is not the number the user gave. ``bounds`` are what racers that stopped
    at their own limit said they had (a counter's lower bound), for the caller to weigh."""

    bounds: tuple[object, ...] = ()

    def __init__(self, found: int, seconds: float):
        self.found = found
        self.seconds = seconds
        super().__init__(
            f"the time limit ran out after {found} solution(s); search incomplete")


class ReadTimeout(SearchTimeout):
    """The time limit ran out while the input was being read (a huge picture, a FIFO that
    no one writes): nothing was solved."""

    def __init__(self, path: str, seconds: float):
        self.found = 0
        self.seconds = seconds
        SatnonoError.__init__(self, f"{path}: the time limit of {seconds:g} s ran out while "
                                    "reading it; nothing was solved")


class SolverFailed(SatnonoError):
    """A solver or counter process failed or was killed (most often for lack of memory):
    not the input's fault, so the command line exits with status 6, not 2."""


class ChildDied(SolverFailed):
    """A child process ended without a word: killed, most often for lack of memory."""


class OutOfMemory(SolverFailed):
    """A residual CNF that a SAT solver's copy of would not fit in the memory left."""


class CounterMissing(SolverFailed):
    """Exact counting of many solutions needs pyganak, and it cannot be imported."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped the work; the message says what had been found."""

    def __init__(self, message: str = "interrupted", status: int = 130):
        self.message = message
        self.status = status
        super().__init__(message)

    @classmethod
    def saying(cls, exc: KeyboardInterrupt, known: str) -> Interrupted:
        """``exc`` (Ctrl-C, or SIGTERM's Interrupted) again, saying what was ``known``
        when it came: ``interrupted: at least 23,182 solution(s) counted …``."""
        if isinstance(exc, Interrupted):
            return cls(f"{exc.message.split(':')[0]}: {known}", exc.status)
        return cls(f"interrupted: {known}")


# -- bugs -----------------------------------------------------------------------------------

class WrongSolution(SatnonoError):
    """A backend returned a grid that breaks the clues. Never the input's fault: a bug in
    satnono, caught by the check every solution passes before it leaves the library."""
