"""The TAAI/TCGA tournament format: ``$n`` then column clues, then row clues (tab-separated).

Puzzles are square, N columns then N rows, one clue a line; an empty line is an empty
clue (the tournament sets have them), so every line of a ``$n`` block counts. Blank lines
after a block's last clue separate puzzles, except one that must be an empty last row for
the columns and rows to pair up. The headerless variant holds one puzzle: N column lines,
then N row lines.
"""

from __future__ import annotations

import re

from ...errors import ParseError, UnsupportedOutput
from ...model.puzzle import Puzzle
from ._common import checked, clue, clue_line, lines_of

NAME = "taai"
EXTENSIONS = ()


def sniff(text: str) -> bool:
    first = next((ln.strip() for ln in lines_of(text) if ln.strip()), "")
    if re.fullmatch(r"\$\d+\$?", first):
        return True
    # headerless: an even number of number lines with no blank line between them
    lines = [ln for ln in lines_of(text)]
    while lines and not lines[-1].strip():
        lines.pop()
    return (len(lines) % 2 == 0 and all(re.fullmatch(r"\s*[0-9][0-9\s]*", ln)
                                        for ln in lines))


def _one(block: list[tuple[int, str]], path: str | None, title: str | None,
         where: int | None) -> Puzzle:
    block = _trimmed(block)
    if len(block) % 2:
        raise ParseError(f"expected as many column lines as row lines, got {len(block)} lines "
                         "in all", path, where)
    n = len(block) // 2
    parsed = [(lineno, clue(ln.split(), path, lineno)) for lineno, ln in block]
    cols, rows = parsed[:n], parsed[n:]
    p = Puzzle(tuple(c for _, c in rows), tuple(c for _, c in cols), title=title,
               row_lines=tuple(i for i, _ in rows), col_lines=tuple(i for i, _ in cols))
    return checked(p, path, where)


def _trimmed(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The block without the blank lines that end it, but for one that makes the count of
    clue lines even (an empty last row)."""
    end = len(block)
    while end and not block[end - 1][1]:
        end -= 1
    if end % 2 and end < len(block):
        end += 1
    return block[:end]


def read(text: str, path: str | None = None) -> list[Puzzle]:
    puzzles: list[Puzzle] = []
    block: list[tuple[int, str]] = []
    header: tuple[int, str] | None = None
    for i, raw in enumerate(lines_of(text), 1):
        ln = raw.strip()
        m = re.fullmatch(r"\$(\d+)\$?", ln)
        if m:
            if header is not None:
                puzzles.append(_one(block, path, f"${header[1]}", header[0]))
            elif block:
                raise ParseError("clue lines before the first '$n' header", path, i)
            header = (i, m.group(1))
            block = []
        elif ln or header is not None:  # inside a $n block, an empty line is a clue
            block.append((i, ln))
    if header is not None:
        puzzles.append(_one(block, path, f"${header[1]}", header[0]))
    else:
        block = [x for x in block if x[1]]  # headerless: no empty clue lines
        if not block:
            raise ParseError("the file is empty", path, None)
        puzzles.append(_one(block, path, None, None))
    return puzzles


def write(puzzle: Puzzle) -> str:
    if puzzle.width != puzzle.height:
        raise UnsupportedOutput("the tournament format holds square puzzles only")
    out = ["$1"] + [clue_line(c, "\t") for c in puzzle.columns + puzzle.rows]
    return "\n".join(out) + "\n"
