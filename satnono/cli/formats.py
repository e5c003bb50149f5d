"""``satnono formats``: the file formats satnono reads and writes."""

from __future__ import annotations

import argparse

from .options import SubParsers
from .status import ExitStatus


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("formats", help="list the file formats satnono reads and writes",
                       description="List every file format: its name (for --from and --to), "
                       "what satnono reads and writes in it (a puzzle's clues, or a picture), "
                       "whether it holds colour puzzles, the file extensions that select it, "
                       "and what it is.")
    p.set_defaults(run=run)
    return p


#: what ``convert --to`` and ``solve -o`` write besides puzzle formats: a solved picture
PICTURE_FORMATS = {
    "grid": "the picture as text (# and .); 'text' is the same",
    "pbm": "the picture as PBM (P1)",
    "sol": "every solution, olympiad japan.sol (* and ., <next>, <end>)",
}


def run(args: argparse.Namespace) -> int:
    from ..io.formats import FORMATS

    print(f"{'format':10} {'reads':9} {'writes':10} {'colour':10} {'extensions':14} what it is")
    rows = []
    for f in FORMATS.values():
        exts = " ".join(f.extensions) or "(by content)"
        reads = "picture" if f.name in PICTURE_FORMATS else "puzzle"
        writes = "puzzle" if f.write else "-"
        if f.name in PICTURE_FORMATS:
            writes = "picture"
        colour = ("read/write" if f.writes_colour else "read") if f.colour else "-"
        rows.append((f.name, reads, writes, colour, exts, f.description))
    for name, what in PICTURE_FORMATS.items():
        if name not in FORMATS:
            rows.append((name, "-", "solutions", "-", f".{name}", what))
    for name, reads, writes, colour, exts, what in rows:
        print(f"{name:10} {reads:9} {writes:10} {colour:10} {exts:14} {what}")
    print("\npuzzle: clues (and a goal where the format has one); picture: a grid, whose "
          "clues are read off it, and which 'convert' and 'solve -o' write solved")
    return ExitStatus.OK
