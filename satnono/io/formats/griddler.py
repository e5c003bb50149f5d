"""Olšák's griddler ``.g``: free text, then ``:``-sections of row and column clues."""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of, no_colour

NAME = "g"
EXTENSIONS = (".g",)


def sniff(text: str) -> bool:
    return sum(1 for ln in lines_of(text) if ln.startswith(":")) >= 2


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = lines_of(text)
    title = None
    sections: list[list[tuple[int, str]]] = []
    started = False
    for i, raw in enumerate(lines, 1):
        if raw.startswith(":"):
            if len(sections) == 2:
                break  # the closing colon: everything after it is ignored
            started = True
            sections.append([])
            continue
        if not started:
            low = raw.strip().lower()
            if low.startswith("#t"):
                raise ParseError("triddlers (hexagonal grids) are not supported", path, i)
            if low.startswith("#d"):
                raise no_colour(path, i)
            if raw.strip() and title is None and not raw.startswith("#"):
                title = raw.strip()
            continue
        if raw.strip():
            sections[-1].append((i, raw.strip()))
    sections = [s for s in sections if s]
    if len(sections) != 2:
        raise ParseError(f"expected two ':' sections (rows, then columns), found "
                         f"{len(sections)}", path, None)
    out = []
    for sec in sections:
        clues, where = [], []
        for lineno, ln in sec:
            toks = ln.split()
            if any(re.fullmatch(r"[0-9]+[^0-9]", t) for t in toks):
                raise no_colour(path, lineno)
            clues.append(clue(toks, path, lineno))
            where.append(lineno)
        out.append((tuple(clues), tuple(where)))
    (rows, rl), (cols, cl) = out
    return [checked(Puzzle(rows, cols, title=title, row_lines=rl, col_lines=cl), path)]


def write(puzzle: Puzzle) -> str:
    out = [(puzzle.title or "satnono puzzle").replace("\n", " ").lstrip(":#"), ": rows"]
    out += [" ".join(map(str, c)) if c else "0" for c in puzzle.rows]
    out.append(": columns")
    out += [" ".join(map(str, c)) if c else "0" for c in puzzle.columns]
    out.append(":")
    return "\n".join(out) + "\n"
