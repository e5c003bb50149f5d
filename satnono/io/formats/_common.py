"""Helpers every reader shares: decoding, numbers with line numbers, validation into ParseError."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...errors import ParseError
from ...model.puzzle import Puzzle, clue_text, problems

_INT = re.compile(r"[0-9]+")


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM); Latin-1 for old files, whose numbers read the same."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def number(token: str, path: str | None, line: int | None, what: str = "a whole number") -> int:
    if not _INT.fullmatch(token) or len(token) > 9:
        raise ParseError(f"expected {what}, got {token[:40]!r}", path, line)
    return int(token)


def clue(tokens: Iterable[str], path: str | None, line: int | None) -> tuple[int, ...]:
    """Block lengths from number tokens; a lone 0 (or nothing) is the empty clue."""
    nums = tuple(number(t, path, line, "a block length") for t in tokens)
    if nums == (0,):
        return ()
    if 0 in nums:
        raise ParseError(f"a block of length 0 inside the clue {' '.join(map(str, nums))}",
                         path, line)
    return nums


def no_colour(path: str | None, line: int | None) -> ParseError:
    return ParseError("colour puzzles are not supported (black and white only)", path, line)


def checked(puzzle: Puzzle, path: str | None, where: int | None = None) -> Puzzle:
    """Validate, turning the first problem into a ParseError that points at its file line."""
    found = problems(puzzle)
    if found:
        p = found[0]
        more = f" (and {len(found) - 1} more problem(s))" if len(found) > 1 else ""
        raise ParseError(p.message + more, path, p.line if p.line is not None else where)
    return puzzle


def lines_of(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def clue_line(c: Sequence[object], sep: str = " ") -> str:
    return sep.join(map(str, c)) if c else "0"


__all__ = ["decode", "number", "clue", "no_colour", "checked", "lines_of", "clue_line",
           "clue_text"]
