"""``satnono check``: is the puzzle unique? where is the ambiguity? how hard is it?

Exit status: 0 unique; 1 no solution; 2 bad input; 3 time limit; 5 more than one solution
— so a script can redraw until it gets 0.
"""

from __future__ import annotations

import argparse
import json

from ..model.verdict import Verdict
from .options import SubParsers, add_input, add_json, add_timeout, add_workers, chosen, label
from .status import ExitStatus, worse

CHECK_WORKERS = ("SAT solvers with different search settings raced on as many cores for "
                 "the first solution, the first to find one going on alone (default 1)")
STATUS = {Verdict.UNIQUE: ExitStatus.OK, Verdict.NONE: ExitStatus.NO_SOLUTION,
          Verdict.MULTIPLE: ExitStatus.MULTIPLE, None: ExitStatus.TIME_LIMIT}


def add_parser(sub: SubParsers) -> None:
    p = sub.add_parser("check", help="is the puzzle unique? where is the ambiguity? how hard?",
                       description="Prove the puzzle unique, multiple or unsolvable; for "
                       "multiple, show two solutions and every cell that differs across all "
                       "solutions; rate the difficulty (line / probe / search). Exit 0 "
                       "unique, 1 no solution, 5 not unique. Rows and columns count from 1.")
    add_input(p)
    add_timeout(p)
    add_workers(p, CHECK_WORKERS, default=1)
    add_json(p, "all of it as JSON")
    p.add_argument("--no-rating", action="store_true",
                   help="skip the difficulty rating (its search can take longer than the "
                   "verdict on large ambiguous puzzles)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..analyze.check import check

    pairs, total = chosen(args)
    status: int = ExitStatus.OK
    items = []
    for idx, puzzle in pairs:
        name = label(args, idx, total)
        result = check(puzzle, timeout=args.timeout, workers=args.workers,
                       rating=not args.no_rating)
        items.append(result.as_dict(name))
        if not args.json:
            print("\n".join(result.lines(name)), flush=True)
        status = worse(status, STATUS[result.verdict])
    if args.json:
        print(json.dumps(items if len(items) > 1 else items[0], indent=1))
    return status
