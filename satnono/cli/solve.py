"""``satnono solve``: solve a puzzle, say whether the solution is unique, write solutions."""

from __future__ import annotations

import argparse
import sys

from ..backends import BACKENDS
from ..errors import SearchTimeout, UsageError
from .inputs import chosen, label
from .options import (
    SubParsers,
    about,
    add_backend,
    add_backend_options,
    add_cluster,
    add_input,
    add_timeout,
    backend_options,
    cluster_engine,
    say,
    whole,
)
from .status import VERIFIED, ExitStatus, stopped, worse

FORMATS = ["sol", "text", "non", "pbm", "json"]
#: past this many solutions of an enumeration with no limit, the user is told how to stop
MANY = 1000


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("solve", help="solve a puzzle; say whether the solution is unique",
                       description="Solve a puzzle. With no --limit it looks for two solutions "
                       "and says whether the one shown is unique; the olympiad's .sol format lists "
                       "every solution.")
    add_input(p)
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--to", choices=FORMATS,
                   help="output format (default: from OUT's extension, else text)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--limit", type=whole, metavar="N", help="stop after N solutions")
    g.add_argument("--all", action="store_true", help="find every solution")
    add_timeout(p)
    add_backend(p, "the solver (default sat; native with --trace)")
    add_backend_options(p)
    add_cluster(p, "race --workers N differently set sat searches (default: one per worker "
                "thread) on a Dask cluster; the first to finish wins")
    p.add_argument("--trace", action="store_true",
                   help="show the native solver's steps: live on a terminal, one line per "
                   "step otherwise (on standard error)")
    p.add_argument("--trace-gif", metavar="OUT.gif", help="record the steps as an animation")
    p.add_argument("--verify", action="store_true",
                   help="also solve with the native backtracker and compare the solution "
                   "sets (up to the limit); exit 4 if they differ")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..analyze.crosscheck import cross_check
    from ..io.formats import shown
    from ..io.progress import Progress
    from ..io.records import solve_record
    from ..io.render import Solved, show, solution_format, write_solutions
    from ..io.words import cross_check_report, solve_summary
    from ..model.verdict import Ending
    from ..pipeline import UNIQUENESS_LIMIT, backend_for, solve

    pairs, total = chosen(args)
    fmt = solution_format(args.to, args.output, [p for _, p in pairs], shown(args.puzzle))
    # how many solutions to look for (the olympiad's .sol lists every one), how many to show
    limit = (None if args.all else args.limit if args.limit is not None else
             None if fmt == "sol" else UNIQUENESS_LIMIT)
    show_all = args.all or args.limit is not None or fmt in ("sol", "json")
    tracing = args.trace or args.trace_gif
    if tracing and args.trace_gif and len(pairs) > 1:
        raise UsageError(f"{shown(args.puzzle)} holds {len(pairs)} puzzles; pick one with "
                         "--index for --trace-gif")
    try:
        backend = backend_for(args.backend, observer=True if tracing else None)
    except UsageError:
        raise UsageError("--trace follows the native solver's steps; drop --backend or "
                         "use --backend native") from None
    if tracing and args.backend is None:
        say("satnono: --trace follows the native backend's steps")
    options = backend_options(args, backend)
    if args.cluster and ("search" not in BACKENDS[backend].options  # a racing backend
                         or tracing or args.verify or args.solver):
        raise UsageError("--cluster races the sat backend's own CaDiCaL searches: it goes "
                         "without --backend, --solver, --trace and --verify")
    # every other sat option goes to each racing search as it would to a local one
    racing = {k: v for k, v in options.items() if k != "workers"}
    engine = cluster_engine(args.cluster)
    stream = sys.stdout if fmt == "text" and args.output in (None, "-") else None
    status: int = ExitStatus.OK
    results = []
    for idx, puzzle in pairs:
        name = label(args, idx, total)
        with about(name):
            if stream is not None and len(pairs) > 1:
                stream.write(f"== puzzle {idx}{': ' + puzzle.title if puzzle.title else ''} "
                             f"({puzzle.size})\n")
            tracer = None
            if tracing:
                from ..io.trace import Tracer

                tracer = Tracer(puzzle, show=args.trace, gif=args.trace_gif)
            found = []
            winner: list = []
            if engine is not None:
                from ..batch.race import race_run

                solving, winner = race_run(engine, puzzle, args.workers or engine.workers,
                                           limit, args.timeout, racing)
            else:
                solving = solve(puzzle, backend, limit=limit, timeout=args.timeout,
                                observer=tracer, **options)
            try:
                with Progress(f"solving {name}", solving.known) as progress:
                    for sol in solving:
                        found.append(sol)
                        with progress.pause():
                            if stream is not None and (show_all or len(found) == 1):
                                show(stream, puzzle, sol, len(found))
                            if len(found) == MANY and limit is None:
                                say(f"{name}: {MANY} solutions so far, and every one will "
                                    f"be {'written' if stream is None else 'shown'} (Ctrl-C "
                                    "stops; --limit N keeps the first N; 'satnono count' "
                                    "counts them)")
            except SearchTimeout:
                pass
            except KeyboardInterrupt as exc:
                raise stopped(exc, len(found), args.output) from None
            finally:
                if tracer is not None:  # in what is left of the time limit, if there is one
                    left = solving.deadline.remaining()
                    say(tracer.finish(found, None if left is None else max(left, 0.5)))
            where = (f", first to finish: racing search {winner[0].search} on {winner[0].worker}"
                     if winner else "")
            stats = solving.stats
            if stats.racers:  # the hard part raced on several cores (--workers 1: one)
                where += f", raced {stats.racing()}" + (f": {stats.winner} first"
                                                        if stats.winner else "")
            say(f"{name}: {solve_summary(len(found), limit, solving.ending)} "
                f"[{solving.seconds:.2f} s, backend {backend}{where}]")
            complete = solving.ending in (Ending.ALL_FOUND, Ending.LIMIT)
            record = {} if fmt != "json" else solve_record(  # 200,000 solutions: seconds
                shown(args.puzzle), idx, puzzle, found, solving.ending, solving.verdict,
                solving.seconds, backend, solving)
            results.append(Solved(idx, puzzle, found, complete, record))
            if args.verify and complete:
                check = cross_check(puzzle, backend, found, limit, args.timeout)
                say("\n".join(cross_check_report(check, name, backend, puzzle.palette.chars)))
                status = worse(status, VERIFIED[check.agree])
            if not complete:
                status = worse(status, ExitStatus.TIME_LIMIT)
            elif not found:
                status = worse(status, ExitStatus.NO_SOLUTION)
    if engine is not None:
        engine.close()
    if stream is None:
        why_not = write_solutions(args.output, fmt, results, show_all)
        if why_not:
            say(why_not)
    return status

