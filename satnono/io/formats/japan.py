"""The olympiad problem's ``japan.dat``: counts, then ``Ni b1 … bNi`` per row, then columns."""

from __future__ import annotations

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of, number

NAME = "japan"
EXTENSIONS = (".dat",)


def sniff(text: str) -> bool:
    first = next((ln.split() for ln in lines_of(text) if ln.strip()), [])
    # a sign too: a count of -3 rows is this format's error to name, not another format's
    return len(first) == 1 and first[0].lstrip("+-").isdigit() and "param" not in text


def read(text: str, path: str | None = None) -> list[Puzzle]:
    rows = [(i + 1, ln.split()) for i, ln in enumerate(lines_of(text)) if ln.strip()]
    pos = 0

    def section(kind: str) -> tuple[list[tuple[int, ...]], list[int]]:
        nonlocal pos
        if pos >= len(rows):
            raise ParseError(f"expected the number of {kind}s, found the end of the file", path,
                             None)
        lineno, toks = rows[pos]
        if len(toks) != 1:
            raise ParseError(f"expected the number of {kind}s alone on the line", path, lineno)
        count = number(toks[0], path, lineno, f"the number of {kind}s")
        pos += 1
        clues, where = [], []
        for i in range(count):
            if pos >= len(rows):
                raise ParseError(f"expected {count} {kind} lines, the file ends after {i}",
                                 path, None)
            lineno, toks = rows[pos]
            pos += 1
            n = number(toks[0], path, lineno, "the number of blocks")
            if len(toks) - 1 != n:
                raise ParseError(f"{kind} {i + 1}: says {n} blocks but lists {len(toks) - 1}",
                                 path, lineno)
            c = clue(toks[1:], path, lineno)
            clues.append(c)
            where.append(lineno)
        return clues, where

    r, rl = section("row")
    c, cl = section("column")
    if pos < len(rows):
        raise ParseError("unexpected text after the column clues", path, rows[pos][0])
    return [checked(Puzzle(tuple(r), tuple(c), row_lines=tuple(rl), col_lines=tuple(cl)), path)]


def write(puzzle: Puzzle) -> str:
    out = [str(puzzle.height)]
    out += [" ".join(map(str, (len(c), *c))) for c in puzzle.rows]
    out.append(str(puzzle.width))
    out += [" ".join(map(str, (len(c), *c))) for c in puzzle.columns]
    return "\n".join(out) + "\n"
