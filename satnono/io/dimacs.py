"""The residual CNF as a DIMACS file any SAT solver or model counter reads.

The header maps the variables back to the picture, so that a model found by another
program can be drawn without satnono::

    c satnono residual CNF: cup.non, 25x25, black and white, logic fixed 512 of 625 cells
    c every model is one solution: the cell variables below decide the rest
    c format: c cell VARIABLE ROW COLUMN [COLOUR]   (rows and columns from 1; ...)
    c cell 1 3 7
    ...
    c format: c known ROW CHARS   (the cells logic fixed, in the palette's chars; ? open)
    c known 1 ....##??..
    c format: c colour INDEX CHAR NAME   (colour puzzles: the palette, 0 the background)
    c colour 0 . white

(every ``c cell``, ``c known`` and ``c colour`` line is data: the lines that say how to
read them start with ``c format:``)
    c p show 1 2 ... 0  (the projection onto the cells: model counting competition format)
    c ind 1 2 ... 0     (the same for ApproxMC and older Ganak)
    c format: c phase LITERALS 0   (each variable's likelier value, by belief propagation)
    c phase 1 -2 3 ... 0
    p cnf 3187 10854
    ...

The other variables (the automaton's nodes, or with ``--encoding order`` the blocks'
bounds and covers) are functions of the cells (:mod:`satnono.encode.residual`), so a
counter counts the solutions with or without the projection; the tests check both, and
that another pysat solver's models of the file, decoded from the header alone, are
satnono's solutions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from ..encode.residual import Residual
from ..model.puzzle import Puzzle

#: variables per projection line (some readers cap a line's length)
PER_LINE = 100


def write_residual(out: IO[str], res: Residual, puzzle: Puzzle, source: str) -> None:
    """Write ``res`` (the residual of ``puzzle``, read from ``source``) as DIMACS."""
    palette = puzzle.palette
    bw = palette.black_and_white
    enc = res.encoding
    board = res.board
    cells = puzzle.width * puzzle.height
    kind = "black and white" if bw else f"{len(palette.colours) - 1} colours"
    if res.contradiction:
        fixed = "logic refutes the clues: no solution"
    else:
        known = board.known() if board is not None else 0
        fixed = f"logic fixed {known} of {cells} cells"
    out.write(f"c satnono residual CNF: {source}, {puzzle.width}x{puzzle.height}, {kind}, "
              f"{fixed}\n")
    if res.contradiction:
        out.write("c the empty clause: unsatisfiable\np cnf 0 1\n0\n")
        return
    out.write("c every model is one solution: the cell variables below decide the rest\n")
    out.write("c format: c cell VARIABLE ROW COLUMN" + ("" if bw else " COLOUR")
              + "   (rows and columns from 1; true: "
              + ("filled)\n" if bw else "the cell has that colour, by its index below)\n"))
    variables: list[int] = []
    if enc is not None:
        for key, v in sorted(enc.cells.items(), key=lambda kv: kv[1]):
            extra = "" if bw else f" {key[2]}"
            out.write(f"c cell {v} {key[0] + 1} {key[1] + 1}{extra}\n")
            variables.append(v)
    out.write("c format: c known ROW CHARS   (the cells logic fixed, in the palette's "
              "chars; ? open)\n")
    assert board is not None
    for r in range(puzzle.height):
        row = "".join(palette.colours[k].char if k is not None else "?"
                      for k in (board.get(r, c) for c in range(puzzle.width)))
        out.write(f"c known {r + 1} {row}\n")
    if not bw:
        out.write("c format: c colour INDEX CHAR NAME   (0 the background)\n")
        for k, colour in enumerate(palette.colours):
            out.write(f"c colour {k} {colour.char} {colour.name}\n")
    for prefix in ("c p show", "c ind"):
        for line in _chunks(variables):
            out.write(f"{prefix} {line} 0\n")
        if not variables:
            out.write(f"{prefix} 0\n")
    if enc is not None and enc.phases:
        out.write("c format: c phase LITERALS 0   (each variable's likelier value by belief "
                  "propagation between rows and columns: a SAT solver's first values; the "
                  "cells' and, with --encoding order, the blocks' bounds')\n")
        for line in _chunks(enc.phases):
            out.write(f"c phase {line} 0\n")
    clauses = enc.clauses if enc is not None else []
    top = enc.variables if enc is not None else 0
    out.write(f"p cnf {top} {len(clauses)}\n")
    for i in range(0, len(clauses), 10_000):
        out.write("".join(" ".join(map(str, cl)) + " 0\n" for cl in clauses[i:i + 10_000]))


def _chunks(variables: list[int]) -> Iterable[str]:
    for i in range(0, len(variables), PER_LINE):
        yield " ".join(map(str, variables[i:i + PER_LINE]))
