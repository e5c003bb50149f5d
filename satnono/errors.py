"""The project's own exceptions: everything a user can cause ends in one of these."""

from __future__ import annotations


class SatnonoError(Exception):
    """Base of every error satnono reports to a user (the CLI prints it, exit status 2)."""


class ParseError(SatnonoError):
    """A puzzle file that cannot be read: names the file and, where known, the line."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        return f"{where}: {self.message}"


class InvalidPuzzle(SatnonoError):
    """Clues that no grid could satisfy for a plain reason (a clue too long, totals differ)."""


class SearchTimeout(SatnonoError):
    """The time limit ran out: the solutions already yielded are real, the search is incomplete."""

    def __init__(self, found: int, seconds: float):
        self.found = found
        self.seconds = seconds
        super().__init__(
            f"time limit of {seconds:g} s reached after {found} solution(s); search incomplete"
        )


class SolverFailed(SatnonoError):
    """A solver or counter process failed or was killed (most often for lack of memory):
    not the input's fault, so the CLI exits with status 6, not 2."""


class UnsupportedOutput(SatnonoError):
    """The chosen output format cannot hold this puzzle (say, a non-square tournament file)."""


class OutputError(SatnonoError):
    """An output file that cannot be written (no such folder, a folder given as file, …)."""
