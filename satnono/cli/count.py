"""``satnono count``: the exact number of solutions, and how it was obtained."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..backends import DEFAULT
from ..errors import UsageError
from .inputs import chosen, label
from .options import (
    SubParsers,
    about,
    add_backend,
    add_cluster,
    add_exact_first,
    add_input,
    add_json,
    add_timeout,
    add_workers,
    backend_options,
    cluster_engine,
    exact_first,
    positive,
    say,
    whole,
)
from .status import ExitStatus, worse

if TYPE_CHECKING:
    from ..analyze.count import CountResult
    from ..batch.engines import DaskEngine
    from ..model.puzzle import Puzzle


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    from ..analyze.approx import DELTA, EPSILON
    from ..analyze.count import METHODS
    from ..tuning import TUNING

    p = sub.add_parser("count", help="count the solutions exactly",
                       description="Print the exact number of solutions (on standard output; "
                       "how it was obtained on standard error). auto enumerates up to "
                       "--threshold solutions; past them, the compiled counter, Ganak and "
                       "enumeration race (D4 too on four cores or more; the first count in "
                       "is kept); with --timeout, the last quarter of it goes to ApproxMC if "
                       "the count is not done: an estimate, printed as one (≈ N, between L "
                       "and H with probability ≥ 1 - delta), never as a count.")
    add_input(p)
    p.add_argument("--method", default="auto", choices=METHODS,
                   help="compiled: a search that counts independent parts apart; "
                   "enumerate: blocking clauses, one solution at a time; ganak, d4: exact "
                   "projected model counting (Ganak, D4); approx: ApproxMC's estimate only; "
                   "auto "
                   "(default): enumerate, then compiled, ganak and enumeration side by "
                   "side (d4 too on four cores or more)")
    p.add_argument("--approx", dest="method", action="store_const", const="approx",
                   help="the same as --method approx")
    p.add_argument("--epsilon", type=positive, default=EPSILON, metavar="E",
                   help=f"an estimate's tolerance: within a factor 1 + E (default {EPSILON})")
    add_exact_first(p)
    p.add_argument("--delta", type=positive, default=DELTA, metavar="D",
                   help=f"an estimate's bounds fail with probability at most D (default "
                   f"{DELTA})")
    add_backend(p, f"the backend that enumerates (default {DEFAULT})", default=DEFAULT)
    add_workers(p, "sat backend (the default): split the count into parts (--parts) and "
                "count them on N processes; cpsat: its search workers")
    p.add_argument("--threshold", type=whole, default=TUNING.threshold, metavar="N",
                   help=f"auto: stop enumerating after N solutions (default "
                   f"{TUNING.threshold})")
    p.add_argument("--parts", type=whole, metavar="K",
                   help="split the puzzle into about K parts (cells chosen by probing), "
                   "count each on its own and add them up (default with --workers N > 1 "
                   f"or --cluster: {TUNING.parts_per_worker} per worker)")
    add_cluster(p, "count the parts on a Dask cluster")
    add_timeout(p, "give up after S seconds (the solutions enumerated so far are reported "
                "as a lower bound)")
    add_json(p, "one JSON object per puzzle, one per line (see 'satnono --help' for the "
             "shape)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.count import CNF_BACKEND, count
    from ..io.progress import Progress

    if args.method in ("ganak", "d4", "compiled", "approx") and args.backend != CNF_BACKEND:
        raise UsageError(f"--backend chooses how to enumerate; {args.method} counts on its "
                         "own")
    backend_options(args, args.backend)  # --workers with a backend that has none: refused
    workers = args.workers or 1
    splits = _splits(args, workers)
    waits = exact_first(args)
    pairs, total = chosen(args)
    status: int = ExitStatus.OK
    engine = cluster_engine(args.cluster if splits else None)
    try:
        for idx, puzzle in pairs:
            name = label(args, idx, total)
            with about(name), Progress(f"counting {name}"):
                if engine is not None:
                    res = _split_count(puzzle, args, engine)
                else:  # split into parts (--parts, --workers) or not, as the library does
                    res = count(puzzle, args.method, backend=args.backend,
                                timeout=args.timeout, threshold=args.threshold,
                                workers=workers, parts=args.parts, epsilon=args.epsilon,
                                delta=args.delta, exact_first=waits)
            status = worse(status, _report(args, idx, name, len(pairs), puzzle, res))
    finally:
        if engine is not None:
            engine.close()
    return status


def _splits(args: argparse.Namespace, workers: int) -> bool:
    """Whether the count is split into parts (refusing what cannot be split)."""
    from ..analyze.count import CNF_BACKEND

    if args.method == "approx" and (args.parts or args.cluster or workers > 1):
        raise UsageError("an estimate is made in one process: leave out --parts, --cluster "
                         "and --workers")
    if not (args.parts or args.cluster or workers > 1) or args.backend != CNF_BACKEND:
        if args.parts or args.cluster:
            raise UsageError("--parts and --cluster split the count of the sat backend and "
                             "Ganak; other backends count in one piece")
        return False
    if args.cluster and args.workers:
        raise UsageError("--workers and --cluster both say where the parts are counted: "
                         "give one")
    return True


def _split_count(puzzle: Puzzle, args: argparse.Namespace, engine: DaskEngine
                 ) -> CountResult:
    """The parts counted on a cluster (as many per worker as on one machine)."""
    from ..analyze.split import count_split
    from ..tuning import TUNING

    parts = args.parts or TUNING.parts_per_worker * engine.workers
    return count_split(puzzle, parts, args.method, timeout=args.timeout,
                       threshold=args.threshold, counter=engine.part_counter()).result


def _report(args: argparse.Namespace, idx: int, name: str, many: int, puzzle: Puzzle,
            res: CountResult) -> int:
    from ..io.formats import shown
    from ..io.records import count_record, line
    from ..io.words import count_words

    if args.json:
        sys.stdout.write(line(count_record(shown(args.puzzle), idx, puzzle, res)))
    else:
        prefix = f"{name}: " if many > 1 else ""
        print(prefix + (res.estimate.words() if res.estimate is not None else
                        f"{res.count}" + ("" if res.complete else "+")))
        say(f"{name}: {count_words(res)}")
    if res.estimate is not None and args.method == "approx":
        return ExitStatus.OK  # the estimate asked for
    if not res.complete:
        return ExitStatus.TIME_LIMIT
    if res.count == 0:
        return ExitStatus.NO_SOLUTION
    return ExitStatus.OK
