"""The header-and-lines formats: Wilk's ``.nin``, Olšák's ``.mk``, Kyle Keen's v2 text."""

from __future__ import annotations

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, clue_line, lines_of, number


def _numbered(text: str) -> list[tuple[int, str]]:
    return [(i + 1, ln.strip()) for i, ln in enumerate(lines_of(text))]


def _take(lines: list[tuple[int, str]], start: int, count: int, what: str,
          path: str | None) -> tuple[list, list, int]:
    clues, where = [], []
    pos = start
    for k in range(count):
        if pos >= len(lines):
            raise ParseError(f"expected {count} {what} clues, the file ends after {k}", path,
                             lines[-1][0] if lines else None)
        lineno, ln = lines[pos]
        clues.append(clue(ln.split(), path, lineno))
        where.append(lineno)
        pos += 1
    return clues, where, pos


def _header(lines: list[tuple[int, str]], path: str | None) -> tuple[int, int, int]:
    for pos, (lineno, ln) in enumerate(lines):
        if ln:
            toks = ln.split()
            if len(toks) != 2:
                raise ParseError(f"expected two numbers (the size), got {ln[:40]!r}", path,
                                 lineno)
            return (number(toks[0], path, lineno, "a size"),
                    number(toks[1], path, lineno, "a size"), pos + 1)
    raise ParseError("the file is empty", path, None)


def nin_sniff(text: str) -> bool:
    first = next((ln.split() for ln in lines_of(text) if ln.strip()), [])
    return len(first) == 2 and all(t.isdigit() for t in first)


def nin_read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = _numbered(text)
    w, h, pos = _header(lines, path)
    body = [x for x in lines[pos:] if x[1]]  # no blank clue lines in .nin: 0 is empty
    rows, rl, pos = _take(body, 0, h, "row", path)
    # the format ends the puzzle after its W+H clue lines: what follows is not part of it
    cols, cl, _ = _take(body, pos, w, "column", path)
    return [checked(Puzzle(tuple(rows), tuple(cols), row_lines=tuple(rl), col_lines=tuple(cl)),
                    path)]


def nin_write(puzzle: Puzzle) -> str:
    out = [f"{puzzle.width} {puzzle.height}"]
    out += [clue_line(c) for c in puzzle.rows + puzzle.columns]
    return "\n".join(out) + "\n"


def mk_sniff(text: str) -> bool:
    return nin_sniff(text) and any(ln.strip() == "#" for ln in lines_of(text))


def mk_read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = _numbered(text)
    h, w, pos = _header(lines, path)
    body = [x for x in lines[pos:] if x[1]]
    rows, rl, pos = _take(body, 0, h, "row", path)
    if pos >= len(body) or body[pos][1] != "#":
        where = body[pos][0] if pos < len(body) else None
        raise ParseError(f"expected a line '#' after the {h} row clues", path, where)
    cols, cl, pos = _take(body, pos + 1, w, "column", path)
    if pos < len(body):
        raise ParseError("unexpected text after the column clues", path, body[pos][0])
    return [checked(Puzzle(tuple(rows), tuple(cols), row_lines=tuple(rl), col_lines=tuple(cl)),
                    path)]


def mk_write(puzzle: Puzzle) -> str:
    out = [f"{puzzle.height} {puzzle.width}"]
    out += [clue_line(c) for c in puzzle.rows] + ["#"]
    out += [clue_line(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"


def keen_sniff(text: str) -> bool:
    blocks = _blocks(_numbered(text))
    return len(blocks) == 2 and all(
        all(t.isdigit() for t in ln.split()) for b in blocks for _, ln in b)


def _blocks(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    blocks: list[list[tuple[int, str]]] = [[]]
    for lineno, ln in lines:
        if ln:
            blocks[-1].append((lineno, ln))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def keen_read(text: str, path: str | None = None) -> list[Puzzle]:
    blocks = _blocks(_numbered(text))
    if len(blocks) != 2:
        raise ParseError(f"expected two groups of clue lines (rows, blank line, columns), "
                         f"found {len(blocks)}", path, None)
    rows, rl, _ = _take(blocks[0], 0, len(blocks[0]), "row", path)
    cols, cl, _ = _take(blocks[1], 0, len(blocks[1]), "column", path)
    return [checked(Puzzle(tuple(rows), tuple(cols), row_lines=tuple(rl), col_lines=tuple(cl)),
                    path)]


def keen_write(puzzle: Puzzle) -> str:
    out = [clue_line(c) for c in puzzle.rows] + [""] + [clue_line(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"
