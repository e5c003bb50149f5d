"""``satnono check``: is the puzzle unique? where is the ambiguity? how hard is it?

Exit status: 0 unique; 1 no solution; 2 bad input; 3 time limit; 5 more than one solution
— so a script can redraw until it gets 0.
"""

from __future__ import annotations

import argparse
import sys

from ..model.verdict import Verdict
from .inputs import chosen, label
from .options import SubParsers, about, add_input, add_json, add_timeout, add_workers
from .status import ExitStatus, worse

CHECK_WORKERS = ("SAT solvers with different search settings raced on as many cores for "
                 "the first solution, the first to find one going on alone (default 1)")
STATUS = {Verdict.UNIQUE: ExitStatus.OK, Verdict.NONE: ExitStatus.NO_SOLUTION,
          Verdict.MULTIPLE: ExitStatus.MULTIPLE, None: ExitStatus.TIME_LIMIT}


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("check", help="is the puzzle unique? where is the ambiguity? how hard?",
                       description="Prove the puzzle unique, multiple or unsolvable; for "
                       "multiple, show two solutions and every cell that differs across all "
                       "solutions; rate the difficulty (line / probe / search). Exit 0 "
                       "unique, 1 no solution, 5 not unique. Rows and columns count from 1.")
    add_input(p)
    add_timeout(p)
    add_workers(p, CHECK_WORKERS, default=1)
    add_json(p, "all of it as JSON: one object per puzzle, one per line (see 'satnono "
             "--help' for the shape)")
    p.add_argument("--no-rating", action="store_true",
                   help="skip the difficulty rating (read off the verdict's proof where "
                   "the engine runs; without it, a search of its own in Python)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.check import check
    from ..io.formats import shown
    from ..io.progress import Progress
    from ..io.records import check_record, line
    from ..io.words import check_report

    pairs, total = chosen(args)
    status: int = ExitStatus.OK
    for idx, puzzle in pairs:
        name = label(args, idx, total)
        with about(name), Progress(f"checking {name}"):
            result = check(puzzle, timeout=args.timeout, workers=args.workers,
                           rating=not args.no_rating)
        if args.json:
            sys.stdout.write(line(check_record(shown(args.puzzle), idx, puzzle, result)))
        else:
            print("\n".join(check_report(result, name)))
        sys.stdout.flush()
        status = worse(status, STATUS[result.verdict])
    return status
