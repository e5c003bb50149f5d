"""Helpers every reader shares: decoding, numbers with line numbers, validation into ParseError."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...errors import InvalidPuzzle, ParseError
from ...model.puzzle import Block, Colour, Palette, Puzzle, clue_text, problems

_INT = re.compile(r"[0-9]+")


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM); Latin-1 for old files, whose numbers read the same."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def number(token: str, path: str | None, line: int | None, what: str = "a whole number") -> int:
    if token.isascii() and token.isdigit() and len(token) <= 9:  # the common case, quickly
        return int(token)
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
           "clue_text", "rgb_of", "palette_of", "colour_clue"]


def rgb_of(spec: str, path: str | None, line: int | None) -> str:
    """A colour as six hex digits, from a name (``red``), ``#rrggbb``/``rrggbb``/``rgb``,
    or ``r,g,b`` — the ways puzzle files give them."""
    from PIL import ImageColor

    text = spec.strip().strip("()").strip()
    if re.fullmatch(r"[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3}", text):
        text = "#" + text
    elif re.fullmatch(r"\d+\s*,\s*\d+\s*,\s*\d+", text):
        text = f"rgb({text})"
    try:
        r, g, b = ImageColor.getrgb(text)[:3]
    except ValueError:
        raise ParseError(f"not a colour: {spec.strip()[:40]!r}", path, line) from None
    return f"{r:02x}{g:02x}{b:02x}"


def palette_of(colours: list[tuple[str, str | None, str]], path: str | None,
               background: tuple[str, str | None, str] = ("white", ".", "ffffff")
               ) -> Palette:
    """A palette from (name, character or None, rgb) entries, the background first; a
    colour without a character (or with one already taken, or a space, which images and
    pbnsolve cannot tell from layout) gets a free one."""
    taken: set[str] = set()
    out: list[Colour] = []
    for name, char, rgb in [background, *colours]:
        if name in (c.name for c in out):
            raise ParseError(f"the colour {name!r} is declared twice", path, None)
        if not char or len(char) != 1 or char in taken or char.isspace():
            char = next(ch for ch in name + "#%@*+=&$ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        if ch not in taken and not ch.isspace())
        taken.add(char)
        out.append(Colour(name, char, rgb))
    try:
        return Palette(tuple(out))
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), path, None) from None


def colour_clue(tokens: Iterable[str], path: str | None, line: int | None,
                suffixes: dict[str, str], default: str = "black") -> list[Block]:
    """Blocks from tokens like ``3r`` (a colour's letter after the length) or ``2``
    (the default colour); a lone ``0`` is the empty clue."""
    out = []
    for t in tokens:
        m = re.fullmatch(r"([0-9]+)([^\d\s]\S*)?", t)
        if not m:
            raise ParseError(f"expected a block (a length, then maybe a colour letter), got "
                             f"{t[:40]!r}", path, line)
        length = number(m.group(1), path, line, "a block length")
        if m.group(2) is not None and m.group(2) not in suffixes:
            raise ParseError(f"the colour {m.group(2)!r} is not declared", path, line)
        out.append(Block(length, suffixes[m.group(2)] if m.group(2) else default))
    if [b.length for b in out] == [0]:
        return []
    if any(b.length == 0 for b in out):
        raise ParseError("a block of length 0 inside a clue", path, line)
    return out
