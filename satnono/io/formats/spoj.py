"""SPOJ JCROSS input: a count, then per puzzle ``H W`` and clue lines each ending in 0."""

from __future__ import annotations

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of, number

NAME = "spoj"
EXTENSIONS = ()


def sniff(text: str) -> bool:
    lines = [ln.split() for ln in lines_of(text) if ln.strip()]
    if not (len(lines) >= 3 and len(lines[0]) == 1 and len(lines[1]) == 2
            and all(t.isdigit() for t in lines[1])):
        return False
    first = lines[2:2 + int(lines[1][0]) + int(lines[1][1])]
    return bool(first) and all(ln[-1] == "0" for ln in first)


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = [(i + 1, ln.split()) for i, ln in enumerate(lines_of(text)) if ln.strip()]
    if not lines:
        raise ParseError("the file is empty", path, None)
    lineno, toks = lines[0]
    if len(toks) != 1:
        raise ParseError("expected the number of puzzles alone on the first line", path, lineno)
    count = number(toks[0], path, lineno, "the number of puzzles")
    if count < 1:
        raise ParseError("the number of puzzles must be at least 1", path, lineno)
    pos = 1
    out = []
    for k in range(count):
        if pos >= len(lines):
            raise ParseError(f"expected {count} puzzles, the file ends after {k}", path, None)
        lineno, toks = lines[pos]
        if len(toks) != 2:
            raise ParseError("expected 'rows columns'", path, lineno)
        h, w = (number(t, path, lineno, "a size") for t in toks)
        pos += 1
        parts = []
        for kind, n in (("row", h), ("column", w)):
            clues, where = [], []
            for j in range(n):
                if pos >= len(lines):
                    raise ParseError(f"expected {n} {kind} lines, the file ends after {j}",
                                     path, None)
                ln_no, toks = lines[pos]
                if toks[-1] != "0":
                    raise ParseError(f"each {kind} line ends with 0", path, ln_no)
                clues.append(clue(toks[:-1], path, ln_no) if len(toks) > 1 else ())
                where.append(ln_no)
                pos += 1
            parts.append((tuple(clues), tuple(where)))
        (rows, rl), (cols, cl) = parts
        out.append(checked(Puzzle(rows, cols, title=f"#{k + 1}", row_lines=rl, col_lines=cl),
                           path, lineno))
    if pos < len(lines):
        raise ParseError(f"unexpected text after the {count} puzzle(s) the first line counts",
                         path, lines[pos][0])
    return out


def write(puzzle: Puzzle) -> str:
    out = ["1", f"{puzzle.height} {puzzle.width}"]
    out += [" ".join(map(str, (*c, 0))) for c in puzzle.rows + puzzle.columns]
    return "\n".join(out) + "\n"
