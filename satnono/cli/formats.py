"""``satnono formats``: the file formats satnono reads and writes."""

from __future__ import annotations

import argparse

from .options import SubParsers
from .status import ExitStatus


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("formats", help="list the file formats satnono reads and writes",
                       description="List every puzzle file format: its name (for --from and "
                       "--to), whether satnono reads or also writes it, whether it holds colour "
                       "puzzles, the file extensions that select it, and what it is.")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..io.formats import FORMATS

    print(f"{'format':10} {'puzzles':10} {'colour':10} {'extensions':14} what it is")
    for f in FORMATS.values():
        exts = " ".join(f.extensions) or "(by content)"
        mode = "read/write" if f.write else "read"
        colour = ("read/write" if f.writes_colour else "read") if f.colour else "-"
        print(f"{f.name:10} {mode:10} {colour:10} {exts:14} {f.description}")
    return ExitStatus.OK
