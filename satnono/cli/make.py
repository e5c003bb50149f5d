"""``satnono check`` and ``satnono make``: the puzzle maker's commands.

Exit status (both): 0 unique; 1 no solution; 2 bad input; 3 time limit; 5 more than one
solution — so a script can redraw until it gets 0.
"""

from __future__ import annotations

import argparse
import json

from ..io.formats import shown
from . import EXIT_NO_SOLUTION, EXIT_OK, EXIT_TIMEOUT, Usage, _chosen, _count, _say

EXIT_MULTIPLE = 5
CHECK_WORKERS = ("SAT solvers with different search settings raced on as many cores for "
                 "the first solution, the first to find one going on alone (default 1)")


def _report(label: str, puzzle, timeout: float | None, want_json: bool,
            rate_it: bool = True, workers: int = 1) -> tuple[int, dict | None, list[str]]:
    """The verdict, ambiguity, switches and rating of one puzzle as text lines and JSON."""
    from ..analyze.difficulty import rate
    from ..analyze.uniqueness import ambiguity_grid, switches, uniqueness
    from ..errors import SearchTimeout
    from ..logic.presolve import deadline_of, time_left
    from ..model.puzzle import Solution

    lines: list[str] = []
    data: dict = {"puzzle": label, "title": puzzle.title, "size": puzzle.size}
    # one limit for the whole check: the rating gets what the verdict left
    deadline = deadline_of(timeout)
    try:
        u = uniqueness(puzzle, timeout=timeout, workers=workers)
    except SearchTimeout as exc:
        lines.append(f"{label}: no verdict — {exc}")
        data["verdict"] = "timeout"
        return EXIT_TIMEOUT, data, lines
    data["verdict"] = u.verdict
    data["solutions"] = [s.strings() for s in u.solutions]
    if u.verdict == "none":
        lines.append(f"{label}: no solution (proven)")
        status = EXIT_NO_SOLUTION
    elif u.verdict == "unique":
        lines.append(f"{label}: unique solution (proven)")
        status = EXIT_OK
    else:
        status = EXIT_MULTIPLE
        cells = puzzle.width * puzzle.height
        if u.complete:
            differ = f"{len(u.ambiguous)} of {cells} cells differ between solutions"
            legend = "cells that differ across all solutions ('?'; the rest is forced)"
        else:
            differ = (f"at least {len(u.ambiguous)} of {cells} cells differ between "
                      "solutions (the time limit stopped the search for more)")
            legend = "cells found to differ ('?'; the time ran out before the rest was proven)"
        lines.append(f"{label}: NOT unique — more than one solution (proven); {differ}")
        a, b = (s.strings() for s in u.solutions[:2])
        lines.append("  two solutions:")
        lines.extend(f"    {x}   {y}" for x, y in zip(a, b))
        grid = ambiguity_grid(u.solutions[0], u.ambiguous)
        lines.append(f"  {legend}:")
        lines.extend(f"    {row}" for row in grid)
        data["ambiguous"] = [[r + 1, c + 1] for r, c in u.ambiguous]
        data["ambiguous_complete"] = u.complete
        data["ambiguity_grid"] = grid
    if puzzle.goal:
        goal = Solution.from_strings(puzzle.goal)
        sw = switches(goal)
        data["switches"] = [[r + 1, c + 1] for r, c in sw]
        if sw:
            where = ", ".join(f"rows {r + 1}-{r + 2} × columns {c + 1}-{c + 2}"
                              for r, c in sw[:10])
            more = f" and {len(sw) - 10} more" if len(sw) > 10 else ""
            lines.append(f"  the goal picture has {len(sw)} 2×2 checkerboard(s) that flip "
                         f"without changing a clue — redraw there: {where}{more}")
    if rate_it:
        r = rate(puzzle, timeout=time_left(deadline))
        data["difficulty"] = r.as_dict()
        lines.append(f"  difficulty: {r.describe()}")
    return status, data, lines


def cmd_check(args: argparse.Namespace) -> int:
    chosen, total = _chosen(args)
    worst = EXIT_OK
    items = []
    for idx, puzzle in chosen:
        label = shown(args.puzzle) + (f" #{idx}" if total > 1 else "")
        status, data, lines = _report(label, puzzle, args.timeout, args.json,
                                      rate_it=not args.no_rating, workers=args.workers)
        items.append(data)
        if not args.json:
            print("\n".join(lines), flush=True)
        worst = status if worst == EXIT_OK else max(worst, status)
    if args.json:
        print(json.dumps(items if len(items) > 1 else items[0], indent=1))
    return worst


def cmd_make(args: argparse.Namespace) -> int:
    from ..io.formats import (
        FORMATS,
        STDIN,
        format_for_extension,
        read_bytes,
        read_file,
        read_stdin,
        write_puzzle,
    )
    from ..io.image import is_image, looks_like_image, parse_size, read_image
    from ..io.output import atomic_output
    from ..model.puzzle import Solution, puzzle_from_picture, validate

    fmt = args.to or (format_for_extension(args.output) if args.output else None) or "non"
    if fmt not in FORMATS or FORMATS[fmt].write is None:
        raise Usage(f"cannot write puzzles as {fmt!r}; see 'satnono formats'")
    size = parse_size(args.size) if args.size else None
    data = read_stdin() if args.picture == "-" else None
    if is_image(args.picture) or (data is not None and looks_like_image(data)):
        pic = read_image(shown(args.picture), threshold=args.threshold, invert=args.invert,
                         size=size, data=data)
    else:
        if size is not None:
            raise Usage("--size scales images (PNG, GIF, …); PBM and text grids are used as is")
        puzzles = (read_bytes(data, STDIN, args.fmt) if data is not None else
                   read_file(args.picture, args.fmt or _picture_format(args.picture)))
        if len(puzzles) != 1 or not puzzles[0].goal:
            raise Usage(f"{shown(args.picture)}: not a picture (PBM, a text grid of #/., "
                        "or an image)")
        pic = Solution.from_strings(puzzles[0].goal)
        if args.invert:
            full = (1 << pic.width) - 1
            pic = Solution(pic.width, tuple(full & ~m for m in pic.rows))
    if not any(pic.rows):
        raise Usage(f"{shown(args.picture)}: the picture is blank at threshold {args.threshold} "
                    "(try --threshold or --invert)")
    import os

    title = args.title or ("" if args.picture == "-" else
                           os.path.splitext(os.path.basename(args.picture))[0])
    puzzle = puzzle_from_picture(pic, title=title)
    validate(puzzle)
    with atomic_output(args.output) as out:
        out.write(write_puzzle(puzzle, fmt))
    where = args.output or "standard output"
    status, _, lines = _report(f"{title or shown(args.picture)} ({puzzle.size}, written to "
                               f"{where})", puzzle,
                               args.timeout, False, rate_it=not args.no_rating,
                               workers=args.workers)
    _say("\n".join(lines))
    return status


def cmd_render(args: argparse.Namespace) -> int:
    import os

    from ..errors import SearchTimeout
    from ..io import draw
    from ..io.formats import load
    from ..io.output import atomic_output
    from ..model.puzzle import Solution, is_solution

    kind = args.to or os.path.splitext(args.output)[1].lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise Usage(f"{args.output}: render writes .png or .svg (or say --to png|svg)")
    if args.blank and args.partial:
        raise Usage("--blank and --partial draw different things; pick one")
    puzzle = load(args.puzzle, args.index, args.fmt)
    status = EXIT_OK
    if args.blank:
        grid = None
    elif args.partial:
        from ..logic.board import Board
        from ..logic.propagate import Context, propagate

        board = Board(puzzle.width, puzzle.height)
        if not propagate(Context(puzzle), board):
            _say(f"{shown(args.puzzle)}: line logic finds the clues contradictory; drawing blank")
            grid = None
        else:
            grid = draw.board_grid(board)
            left = puzzle.width * puzzle.height - board.known()
            _say(f"{shown(args.puzzle)}: line logic leaves {left} of "
                 f"{puzzle.width * puzzle.height} cells unknown (shaded)")
    else:
        sol = Solution.from_strings(puzzle.goal) if puzzle.goal else None
        if sol is None or not is_solution(puzzle, sol):
            from ..pipeline import solve

            try:
                found = list(solve(puzzle, "sat", limit=2, timeout=args.timeout))
            except SearchTimeout as exc:
                raise Usage(f"{shown(args.puzzle)}: {exc}; nothing drawn") from None
            if not found:
                _say(f"{shown(args.puzzle)}: no solution; nothing drawn")
                return EXIT_NO_SOLUTION
            if len(found) > 1:
                _say(f"{shown(args.puzzle)}: not unique; drawing the first solution")
                status = EXIT_MULTIPLE
            sol = found[0]
        grid = draw.solution_grid(sol)
    clues = not args.no_clues
    if kind == "png":
        data = draw.png(puzzle, grid, clues=clues, cell=args.cell)
        with atomic_output(args.output, binary=True) as out:
            out.write(data)
    else:
        text = draw.svg(puzzle, grid, clues=clues, cell=args.cell)
        with atomic_output(args.output) as out:
            out.write(text)
    return status


def _picture_format(path: str) -> str | None:
    import os

    ext = os.path.splitext(path)[1].lower()
    return {".pbm": "pbm", ".txt": "grid"}.get(ext)


def _grey(text: str) -> int:
    if not text.isdigit() or int(text) > 255:
        raise argparse.ArgumentTypeError(f"expected a grey level 0..255, got {text!r}")
    return int(text)


def add_parsers(sub, add_input, positive) -> None:
    p = sub.add_parser("check", help="is the puzzle unique? where is the ambiguity? how hard?",
                       description="Prove the puzzle unique, multiple or unsolvable; for "
                       "multiple, show two solutions and every cell that differs across all "
                       "solutions; rate the difficulty (line / probe / search). Exit 0 "
                       "unique, 1 no solution, 5 not unique. Rows and columns count from 1.")
    add_input(p)
    p.add_argument("--timeout", type=positive, metavar="S", help="give up after S seconds")
    p.add_argument("--workers", type=_count, default=1, metavar="N", help=CHECK_WORKERS)
    p.add_argument("--json", action="store_true", help="all of it as JSON")
    p.add_argument("--no-rating", action="store_true",
                   help="skip the difficulty rating (its search can take longer than the "
                   "verdict on large ambiguous puzzles)")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("make", help="picture in, puzzle out, uniqueness checked",
                       description="Derive the clues of a picture (PBM, text grid of #/., "
                       "PNG, GIF, BMP, JPEG), write the puzzle with its goal picture, and "
                       "check it at once. Exit 0 unique, 5 not unique, 1 no solution.")
    p.add_argument("picture", help="picture file (- reads standard input)")
    p.add_argument("-o", "--output", metavar="PUZZLE", help="puzzle file (default: stdout)")
    p.add_argument("--to", metavar="FORMAT", help="puzzle format (default: from the "
                   "extension of PUZZLE, else non)")
    p.add_argument("--from", dest="fmt", metavar="FORMAT", help="picture format (pbm, grid)")
    p.add_argument("--threshold", type=_grey, default=128, metavar="0-255",
                   help="images: pixels darker than this are filled (default 128)")
    p.add_argument("--invert", action="store_true", help="light pixels are filled")
    p.add_argument("--size", metavar="WxH", help="images: scale to W×H cells first")
    p.add_argument("--title", help="the puzzle's title (default: the picture's name)")
    p.add_argument("--timeout", type=positive, metavar="S", help="time limit for the check")
    p.add_argument("--workers", type=_count, default=1, metavar="N", help=CHECK_WORKERS)
    p.add_argument("--no-rating", action="store_true", help="skip the difficulty rating")
    p.set_defaults(run=cmd_make)

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
    p.add_argument("--cell", type=int, metavar="PX", help="cell size in pixels")
    p.add_argument("--timeout", type=positive, metavar="S", help="time limit for solving")
    p.set_defaults(run=cmd_render)


