"""``satnono make``: picture in, puzzle out, uniqueness checked at once.

Exit status as ``check``: 0 unique, 5 not unique, 1 no solution — so a script can redraw
until it gets 0.
"""

from __future__ import annotations

import argparse
import os

from ..errors import UsageError
from .check import CHECK_WORKERS, STATUS
from .inputs import within_the_limit
from .options import SubParsers, add_timeout, add_workers, say


def grey(text: str) -> int:
    if not text.isdigit() or int(text) > 255:
        raise argparse.ArgumentTypeError(f"expected a grey level 0..255, got {text!r}")
    return int(text)


MAX_COLOURS = 24


def colours(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_COLOURS:
        raise argparse.ArgumentTypeError(f"expected 1..{MAX_COLOURS} colours, got {text!r}")
    return int(text)


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("make", help="picture in, puzzle out, uniqueness checked",
                       description="Derive the clues of a picture (PBM, text grid of #/., "
                       "PNG, GIF, BMP, JPEG), write the puzzle with its goal picture, and "
                       "check it at once; with --colours, a colour puzzle (a puzzle file's "
                       "colour goal keeps its palette). Exit 0 unique, 5 not unique, 1 no "
                       "solution.")
    p.add_argument("picture", help="picture file (- reads standard input)")
    p.add_argument("-o", "--output", metavar="PUZZLE", help="puzzle file (default: stdout)")
    p.add_argument("--to", metavar="FORMAT", help="puzzle format (default: from the "
                   "extension of PUZZLE, else non)")
    p.add_argument("--from", dest="fmt", metavar="FORMAT", help="picture format (pbm, grid)")
    p.add_argument("--threshold", type=grey, default=128, metavar="0-255",
                   help="images: pixels darker than this are filled (default 128)")
    p.add_argument("--invert", action="store_true", help="light pixels are filled")
    p.add_argument("--colours", "--colors", type=colours, metavar="K",
                   help="a colour puzzle: the image reduced to K block colours and a "
                   "background, its lightest colour (written as json unless --to webpbn)")
    p.add_argument("--size", metavar="WxH", help="images: scale to W×H cells first (default: "
                   "as they are, or to 100 cells on the longer side if larger)")
    p.add_argument("--title", help="the puzzle's title (default: the picture's name)")
    add_timeout(p, "time limit for the check")
    add_workers(p, CHECK_WORKERS, default=1)
    p.add_argument("--no-rating", action="store_true", help="skip the difficulty rating")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.check import check
    from ..io.formats import FORMATS, format_for_extension, shown, write_puzzle
    from ..io.image import default_size, load_colour_picture, load_picture, parse_size
    from ..io.output import atomic_output
    from ..io.words import check_report
    from ..model.puzzle import Puzzle, puzzle_from_colours, puzzle_from_picture, validate

    default = "json" if args.colours else "non"
    named = format_for_extension(args.output) if args.output else None
    if not args.to and not named and os.path.splitext(args.output or "")[1] not in ("", "."):
        raise UsageError(f"{args.output}: no puzzle format has that extension (a .sol file "
                         "holds solutions); give --to FORMAT, or see 'satnono formats'")
    fmt = args.to or named or default
    if fmt not in FORMATS or FORMATS[fmt].write is None:
        raise UsageError(f"cannot write puzzles as {fmt!r}; see 'satnono formats'")
    if args.colours and not FORMATS[fmt].writes_colour:
        raise UsageError(f"{fmt} is written for black-and-white puzzles only; write a colour "
                         "puzzle as json or webpbn")
    size = parse_size(args.size) if args.size else None
    fitted = None if size else default_size(args.picture)
    if fitted:
        (w, h), size = fitted
        say(f"{shown(args.picture)}: an image of {w}x{h} pixels, made into {size[0]}x{size[1]} "
            "cells (--size WxH gives other sizes)")
    title = args.title or ("" if args.picture == "-" else
                           os.path.splitext(os.path.basename(args.picture))[0])
    puzzle: Puzzle
    if args.colours:
        if args.invert or args.threshold != 128:
            raise UsageError("--threshold and --invert make black-and-white pictures; "
                             "--colours keeps the colours")
        grid, palette = within_the_limit(args, lambda: load_colour_picture(
            args.picture, args.colours, fmt=args.fmt, size=size))
        if not any(any(row) for row in grid):
            raise UsageError(f"{shown(args.picture)}: the picture is one colour")
        puzzle = validate(puzzle_from_colours(grid, palette, title=title))
    else:
        pic = within_the_limit(args, lambda: load_picture(
            args.picture, fmt=args.fmt, threshold=args.threshold, invert=args.invert,
            size=size))
        if not any(pic.rows):
            raise UsageError(f"{shown(args.picture)}: the picture is blank at threshold "
                             f"{args.threshold} (try --threshold or --invert)")
        puzzle = validate(puzzle_from_picture(pic, title=title))
    with atomic_output(args.output) as out:
        out.write(write_puzzle(puzzle, fmt))
    where = args.output or "standard output"
    result = check(puzzle, timeout=args.timeout, workers=args.workers,
                   rating=not args.no_rating)
    say("\n".join(check_report(result, f"{title or shown(args.picture)} ({puzzle.size}, written to "
                               f"{where})")))
    return STATUS[result.verdict]
