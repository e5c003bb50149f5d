"""``satnono bench``: run backends on puzzle sets, stream a CSV, write a report."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..backends import BACKENDS, taking
from ..errors import UsageError
from .options import SubParsers, add_where, say, seconds
from .status import ExitStatus

if TYPE_CHECKING:
    from ..bench.runner import Run


def run(args: argparse.Namespace) -> int:
    if args.report:
        from ..bench.report import write_report

        out = args.output or os.path.splitext(args.report)[0] + ".md"
        path = write_report(args.report, out)
        say(f"report written to {path}")
        return ExitStatus.OK
    if not args.paths and not args.suite:
        raise UsageError("give puzzle files or directories, or --suite NAME")
    from ..bench.peer import parse_peers
    from ..bench.report import summary
    from ..bench.runner import (
        MODES,
        Run,
        append_csv,
        backend_spec,
        dispatch,
        read_csv,
        upgrade_csv,
    )
    from ..bench.suites import gather

    backends = args.backend.split(",")
    names = {b: backend_spec(b)[0] for b in backends}
    if args.mode not in MODES:
        raise UsageError(f"unknown mode {args.mode!r} (known: {', '.join(MODES)})")
    solvers = args.solver.split(",") if args.solver else [""]
    if args.solver:
        from ..backends.solver import check_solver

        for s in solvers:
            check_solver(s, enumerating=args.mode != "first")
    peers = parse_peers(args.peer or [], args.mode, frozenset(BACKENDS))
    items = gather(args.suite or [], args.paths, say)
    if args.orientations:
        from ..model.orientation import ORIENTATIONS, orient

        items = [(s, f"{name}@{o}", orient(puzzle, o), read)
                 for s, name, puzzle, read in items for o in ORIENTATIONS]
    if args.output:
        upgrade_csv(args.output)
    done = {r.key() for r in read_csv(args.output)} if args.output else set()
    tasks = []
    for suite_name, name, puzzle, read in items:
        for b in backends:
            for s in (solvers if "solver" in BACKENDS[names[b]].options else [""]):
                run = Run(suite_name, name, puzzle.size, b, s, args.mode, args.timeout,
                          read_s=read)
                if run.key() not in done:
                    tasks.append((run, puzzle))
        for peer in peers:  # right after satnono's runs of the same puzzle
            run = Run(suite_name, name, puzzle.size, peer.name, "", args.mode, args.timeout,
                      read_s=read, command=peer.command)
            if run.key() not in done:
                tasks.append((run, puzzle))
    if not items:
        raise UsageError("nothing to run: no puzzles in the suites and paths given (the "
                         "suites read the corpus from $SATNONO_CORPUS or ../shared/corpus, "
                         "the tournament sets from $SATNONO_TOURNAMENTS or "
                         "../shared/tournaments)")
    if done:
        say(f"resuming: {len(done)} run(s) already in {args.output}, {len(tasks)} to go")
    results = []
    for run in _progress(dispatch(tasks, args.jobs, args.cluster), len(tasks)):
        results.append(run)
        if args.output:
            append_csv(args.output, run)
    summary(results)
    return ExitStatus.OK


def _progress(runs: Iterable[Run], total: int) -> Iterator[Run]:
    """A live bar with time left on a terminal; one line per run otherwise."""
    if sys.stderr.isatty():
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        cols = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
        with Progress(*cols, transient=False) as bar:
            task = bar.add_task("bench", total=total)
            for run in runs:
                bar.update(task, advance=1,
                           description=f"{run.puzzle[:24]:24} {run.backend:10}")
                yield run
        return
    for i, run in enumerate(runs, 1):
        say(f"[{i}/{total}] {run.suite} {run.puzzle} {run.backend} {run.solver} {run.mode}: "
             f"{run.verdict} {run.wall:.2f} s")
        yield run


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("bench", help="benchmark backends on puzzle files and suites",
                       description="Run every puzzle on every backend, each run in its own "
                       "worker process killed at the timeout; results stream to a CSV "
                       "(rerunning resumes). --report CSV writes a Markdown report with plots.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files or directories")
    p.add_argument("--suite", action="append", metavar="NAME",
                   help="survey, tcga2015, random, hard-random (20 each of 40×40 at density "
                   "0.4, 50×50 and 70×70 at 0.5; hard-random-40 etc. one size), large "
                   "(black and white), colour, a "
                   "tournament set such as icga2020, or tournaments (all 30 sets; "
                   "repeatable)")
    p.add_argument("--backend", default="sat,cpsat,native",
                   help="comma-separated: " + ", ".join(BACKENDS) + "; "
                   + ", ".join(f"{b}:N" for b in taking("workers", baselines=True))
                   + " with N workers (as --workers N; mind --jobs, which multiplies them)")
    p.add_argument("--peer", action="append", metavar="NAME=COMMAND",
                   help="also run another solver on every puzzle, right after satnono's "
                   "runs of it, under the same limit: COMMAND holds the puzzle's file as "
                   "{non}, {nin}, {xml} (webpbn), {mk}, … (any format satnono writes) and "
                   "may hold {timeout} (seconds); its verdict is the first of the words "
                   "unique, multiple, contradiction/none, timeout it prints, and a picture "
                   "it prints is checked against the clues (repeatable; e.g. "
                   "--peer pbnsolve='pbnsolve -b -u {xml}')")
    p.add_argument("--solver", help="comma-separated pysat solvers for sat and plain-sat")
    p.add_argument("--mode", default="validate", help="first (1 solution), validate (2, the "
                   "default: tells unique from not), count (exact count)")
    p.add_argument("--orientations", action="store_true",
                   help="run each puzzle in its eight orientations (transposed, mirrored: "
                   "the same puzzle, searched in another order); the report gives each "
                   "puzzle's spread")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="S",
                   help="per run (default 60)")
    add_where(p, "runs at a time on this machine (default 1)")
    p.add_argument("-o", "--output", metavar="FILE", help="results CSV (bench) or report "
                   "Markdown (--report)")
    p.add_argument("--report", metavar="CSV", help="write the report of a results CSV")
    p.set_defaults(run=run)
    return p
