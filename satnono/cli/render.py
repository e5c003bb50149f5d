"""``satnono render``: a puzzle or its solution drawn as PNG or SVG."""

from __future__ import annotations

import argparse
import os

from ..errors import SearchTimeout, UsageError
from .inputs import load_one
from .options import SubParsers, add_input, add_timeout, say
from .status import ExitStatus

MAX_CELL = 200


def cell_size(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_CELL:
        raise argparse.ArgumentTypeError(f"expected a cell size of 1..{MAX_CELL} pixels, "
                                         f"got {text!r}")
    return int(text)


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("render", help="draw a puzzle or its solution as PNG or SVG",
                       description="Draw the solution (the goal picture when the file has "
                       "one), the blank printable puzzle (--blank) or what line logic "
                       "leaves (--partial, unknown cells shaded), with the clues in the "
                       "margins.")
    add_input(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="out.png or out.svg")
    p.add_argument("--to", choices=["png", "svg"], help="image format (default: from OUT)")
    p.add_argument("--blank", action="store_true", help="the empty puzzle, for printing")
    p.add_argument("--partial", action="store_true", help="the grid after line logic")
    p.add_argument("--no-clues", action="store_true", help="the grid only")
    p.add_argument("--cell", type=cell_size, metavar="PX",
                   help=f"cell size in pixels, 1..{MAX_CELL} (default: from the puzzle's size)")
    add_timeout(p, "time limit for solving")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..io import draw
    from ..io.formats import shown
    from ..io.output import atomic_output
    from ..logic.propagate import line_solve
    from ..model.puzzle import is_solution
    from ..pipeline import UNIQUENESS_LIMIT, solve

    kind = args.to or os.path.splitext(args.output)[1].lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise UsageError(f"{args.output}: render writes .png or .svg (or say --to png|svg)")
    if args.blank and args.partial:
        raise UsageError("--blank and --partial draw different things; pick one")
    puzzle = load_one(args)
    name = shown(args.puzzle)
    grid = None
    if args.partial:
        board = line_solve(puzzle)
        if board is None:
            say(f"{name}: line logic finds the clues contradictory; drawing blank")
        else:
            grid = draw.board_grid(board)
            cells = puzzle.width * puzzle.height
            say(f"{name}: line logic leaves {cells - board.known()} of {cells} cells "
                "unknown (shaded)")
    elif not args.blank:
        sol = puzzle.goal_solution()
        if sol is None or not is_solution(puzzle, sol):
            try:
                found = list(solve(puzzle, limit=UNIQUENESS_LIMIT,
                                   timeout=args.timeout))
            except SearchTimeout as exc:
                say(f"{name}: {exc}; nothing drawn")
                return ExitStatus.TIME_LIMIT
            if not found:
                say(f"{name}: no solution; nothing drawn")
                return ExitStatus.NO_SOLUTION
            if len(found) > 1:
                say(f"{name}: not unique; drawing the first solution")
            sol = found[0]
        grid = draw.solution_grid(sol)
    clues = not args.no_clues
    draw.check_size(puzzle, args.cell, clues)
    readable = draw.readable_cell(puzzle)
    if clues and args.cell is not None and args.cell < readable:
        say(f"{name}: clues are drawn small to fit cells of {args.cell} px; --cell "
            f"{readable} or more keeps them readable")
    if kind == "png":
        with atomic_output(args.output, binary=True) as out:
            out.write(draw.png(puzzle, grid, clues=clues, cell=args.cell))
    else:
        with atomic_output(args.output) as out:
            out.write(draw.svg(puzzle, grid, clues=clues, cell=args.cell))
    return ExitStatus.OK
