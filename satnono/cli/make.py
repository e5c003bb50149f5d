"""``satnono make``: picture in, puzzle out, uniqueness checked at once.

Exit status as ``check``: 0 unique, 5 not unique, 1 no solution — so a script can redraw
until it gets 0.
"""

from __future__ import annotations

import argparse
import os

from ..errors import UsageError
from .check import CHECK_WORKERS, STATUS
from .options import SubParsers, add_timeout, add_workers, say


def grey(text: str) -> int:
    if not text.isdigit() or int(text) > 255:
        raise argparse.ArgumentTypeError(f"expected a grey level 0..255, got {text!r}")
    return int(text)


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("make", help="picture in, puzzle out, uniqueness checked",
                       description="Derive the clues of a picture (PBM, text grid of #/., "
                       "PNG, GIF, BMP, JPEG), write the puzzle with its goal picture, and "
                       "check it at once. Exit 0 unique, 5 not unique, 1 no solution.")
    p.add_argument("picture", help="picture file (- reads standard input)")
    p.add_argument("-o", "--output", metavar="PUZZLE", help="puzzle file (default: stdout)")
    p.add_argument("--to", metavar="FORMAT", help="puzzle format (default: from the "
                   "extension of PUZZLE, else non)")
    p.add_argument("--from", dest="fmt", metavar="FORMAT", help="picture format (pbm, grid)")
    p.add_argument("--threshold", type=grey, default=128, metavar="0-255",
                   help="images: pixels darker than this are filled (default 128)")
    p.add_argument("--invert", action="store_true", help="light pixels are filled")
    p.add_argument("--size", metavar="WxH", help="images: scale to W×H cells first")
    p.add_argument("--title", help="the puzzle's title (default: the picture's name)")
    add_timeout(p, "time limit for the check")
    add_workers(p, CHECK_WORKERS, default=1)
    p.add_argument("--no-rating", action="store_true", help="skip the difficulty rating")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.check import check
    from ..io.formats import FORMATS, format_for_extension, shown, write_puzzle
    from ..io.image import load_picture, parse_size
    from ..io.output import atomic_output
    from ..model.puzzle import puzzle_from_picture, validate

    fmt = args.to or (format_for_extension(args.output) if args.output else None) or "non"
    if fmt not in FORMATS or FORMATS[fmt].write is None:
        raise UsageError(f"cannot write puzzles as {fmt!r}; see 'satnono formats'")
    pic = load_picture(args.picture, fmt=args.fmt, threshold=args.threshold,
                       invert=args.invert, size=parse_size(args.size) if args.size else None)
    if not any(pic.rows):
        raise UsageError(f"{shown(args.picture)}: the picture is blank at threshold "
                         f"{args.threshold} (try --threshold or --invert)")
    title = args.title or ("" if args.picture == "-" else
                           os.path.splitext(os.path.basename(args.picture))[0])
    puzzle = validate(puzzle_from_picture(pic, title=title))
    with atomic_output(args.output) as out:
        out.write(write_puzzle(puzzle, fmt))
    where = args.output or "standard output"
    result = check(puzzle, timeout=args.timeout, workers=args.workers,
                   rating=not args.no_rating)
    say("\n".join(result.lines(f"{title or shown(args.picture)} ({puzzle.size}, written to "
                               f"{where})")))
    return STATUS[result.verdict]
