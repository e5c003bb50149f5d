"""``satnono convert``: a puzzle in another format, or its picture."""

from __future__ import annotations

import argparse
import os

from ..errors import UsageError
from .inputs import load_one
from .options import SubParsers, add_input, add_timeout, say
from .status import ExitStatus

PICTURES = ("pbm", "grid", "text", "sol")


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("convert", help="write a puzzle in another format",
                       description="Write the puzzle in another format (see 'satnono "
                       "formats'), or its picture (pbm, grid, sol): the goal when the file "
                       "has one, else the solution.")
    add_input(p)
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--to", metavar="FORMAT", help="output format (default: from OUT's extension)")
    add_timeout(p, "time limit when a picture has to be solved for")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..io import render
    from ..io.formats import (
        FORMATS,
        PUZZLE_WRITERS,
        format_for_extension,
        shown,
        write_puzzle,
    )
    from ..io.output import atomic_output
    from ..pipeline import UNIQUENESS_LIMIT, solve

    fmt = args.to or format_for_extension(args.output or "") or None
    if fmt is None:
        ext = os.path.splitext(args.output or "")[1].lower()
        fmt = {".txt": "grid", ".sol": "sol"}.get(ext)
    written = ", ".join((*PUZZLE_WRITERS, *PICTURES))
    if fmt is None and (args.output or "").lower().endswith((".png", ".svg")):
        raise UsageError("'satnono render' draws PNG and SVG; convert writes the formats "
                         f"{written}")
    if fmt is None:
        raise UsageError(f"say which format to write with --to (one of {written})")
    if fmt not in PUZZLE_WRITERS and fmt not in PICTURES:
        raise UsageError(f"cannot write {fmt!r}: the formats written are {written}")
    puzzle = load_one(args)
    if fmt in FORMATS and FORMATS[fmt].write is not None:
        text = write_puzzle(puzzle, fmt)
        with atomic_output(args.output) as out:
            out.write(text)
        return ExitStatus.OK
    # a picture: the goal when the file has one, else the solution
    goal = puzzle.goal_solution()
    if goal is not None:
        sols = [goal]
    else:
        sols = list(solve(puzzle, limit=UNIQUENESS_LIMIT, timeout=args.timeout))
        if not sols:
            say(f"{shown(args.puzzle)}: no solution, nothing to draw")
            return ExitStatus.NO_SOLUTION
        if len(sols) > 1:
            say(f"{shown(args.puzzle)}: not unique; drawing the first solution")
        sols = sols[:1]
    if fmt == "pbm":
        with atomic_output(args.output, binary=True) as out:
            out.write(render.pbm(sols))
    else:
        with atomic_output(args.output) as out:
            (render.write_sol if fmt == "sol" else render.write_text)(out, sols)
    return ExitStatus.OK
