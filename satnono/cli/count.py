"""``satnono count``: the exact number of solutions, and how it was obtained."""

from __future__ import annotations

import argparse
import sys

from ..errors import UsageError
from .options import (
    SubParsers,
    about,
    add_backend,
    add_input,
    add_json,
    add_timeout,
    add_workers,
    backend_options,
    chosen,
    label,
    say,
    whole,
)
from .status import ExitStatus, worse


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    from ..analyze.count import METHODS, THRESHOLD

    p = sub.add_parser("count", help="count the solutions exactly",
                       description="Print the exact number of solutions (on standard output; "
                       "how it was obtained on standard error). auto enumerates up to "
                       "--threshold solutions, then counts with Ganak.")
    add_input(p)
    p.add_argument("--method", default="auto", choices=METHODS,
                   help="enumerate: blocking clauses, one solution at a time; ganak: exact "
                   "projected model counting; auto (default): enumerate, then ganak")
    add_backend(p, "the backend that enumerates (default sat)", default="sat")
    add_workers(p)
    p.add_argument("--threshold", type=whole, default=THRESHOLD, metavar="N",
                   help=f"auto: switch to ganak after N solutions (default {THRESHOLD})")
    add_timeout(p, "give up after S seconds (the solutions enumerated so far are reported "
                "as a lower bound)")
    add_json(p, "one JSON object per puzzle, one per line (see 'satnono --help' for the "
             "shape)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.count import count
    from ..io.formats import shown
    from ..io.progress import Progress
    from ..io.records import count_record, line

    if args.method == "ganak" and (args.backend != "sat" or args.workers):
        raise UsageError("--backend and --workers choose how to enumerate; ganak counts on "
                         "its own")
    backend_options(args, args.backend)  # --workers with a backend that has none: refused
    workers = args.workers or 1
    pairs, total = chosen(args)
    status: int = ExitStatus.OK
    for idx, puzzle in pairs:
        name = label(args, idx, total)
        with about(name), Progress(f"counting {name}"):
            res = count(puzzle, args.method, backend=args.backend, timeout=args.timeout,
                        threshold=args.threshold, workers=workers)
        if args.json:
            sys.stdout.write(line(count_record(shown(args.puzzle), idx, puzzle, res)))
        else:
            prefix = f"{name}: " if len(pairs) > 1 else ""
            print(f"{prefix}{res.count}" + ("" if res.complete else "+"))
            say(f"{name}: {res.describe()}")
        if not res.complete:
            status = worse(status, ExitStatus.TIME_LIMIT)
        elif res.count == 0:
            status = worse(status, ExitStatus.NO_SOLUTION)
    return status
