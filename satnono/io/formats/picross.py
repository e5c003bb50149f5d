"""picross-solver's text format: ``GRID name``, ``ROWS``, ``COLUMNS``, ``[ 1 2 ]`` clue lines."""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of

NAME = "picross"
EXTENSIONS = ()


def sniff(text: str) -> bool:
    words = {ln.split()[0] for ln in lines_of(text) if ln.strip()}
    return "ROWS" in words and "COLUMNS" in words


def read(text: str, path: str | None = None) -> list[Puzzle]:
    puzzles = []
    current: dict | None = None
    section = None

    def finish() -> None:
        if current is None:
            return
        for key in ("ROWS", "COLUMNS"):
            if not current[key]:
                raise ParseError(f"grid {current['name']!r} has no {key} clues", path,
                                 current["line"])
        rows, cols = current["ROWS"], current["COLUMNS"]
        p = Puzzle(tuple(c for _, c in rows), tuple(c for _, c in cols), title=current["name"],
                   row_lines=tuple(i for i, _ in rows), col_lines=tuple(i for i, _ in cols))
        puzzles.append(checked(p, path, current["line"]))

    for i, raw in enumerate(lines_of(text), 1):
        ln = raw.strip()
        if not ln or ln.startswith("#"):
            continue
        word = ln.split()[0]
        if word == "GRID":
            finish()
            current = {"name": ln[4:].strip() or None, "line": i, "ROWS": [], "COLUMNS": []}
            section = None
        elif word in ("ROWS", "COLUMNS"):
            if current is None:  # files with one grid may leave out the GRID line
                current = {"name": None, "line": i, "ROWS": [], "COLUMNS": []}
            section = word
        elif ln.startswith("["):
            m = re.fullmatch(r"\[([^\]]*)\]", ln)
            if not m:
                raise ParseError("expected a clue in brackets, like [ 1 2 ]", path, i)
            if section is None or current is None:
                raise ParseError("a clue before ROWS or COLUMNS", path, i)
            current[section].append((i, clue(m.group(1).split(), path, i)))
        else:
            raise ParseError(f"unexpected line {ln[:40]!r} (expected GRID, ROWS, COLUMNS or "
                             "a [ ] clue)", path, i)
    finish()
    if not puzzles:
        raise ParseError("no GRID found", path, None)
    return puzzles


def write(puzzle: Puzzle) -> str:
    out = [f"GRID {puzzle.title or 'satnono'}".replace("\n", " "), "ROWS"]
    out += ["[ " + " ".join(map(str, c)) + " ]" if c else "[ ]" for c in puzzle.rows]
    out.append("COLUMNS")
    out += ["[ " + " ".join(map(str, c)) + " ]" if c else "[ ]" for c in puzzle.columns]
    return "\n".join(out) + "\n"
