"""``satnono batch``: every puzzle of files and folders, on local processes or a Dask
cluster; one JSON line per puzzle, resumable."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from ..backends import BACKENDS, DEFAULT
from ..errors import Interrupted, UsageError
from ..model.verdict import CountMethod
from .options import (
    SubParsers,
    add_exact_first,
    add_timeout,
    add_where,
    add_workers,
    exact_first,
    say,
)
from .status import ExitStatus


def run(args: argparse.Namespace) -> int:
    from ..batch import DOS, Job, collect, done, engine, open_journal, plan
    from ..batch.journal import again, append, drop
    from ..io.words import batch_summary

    if args.do not in DOS:
        raise UsageError(f"unknown --do {args.do!r} (known: {', '.join(DOS)})")
    if args.method != "auto" and args.do != "count":
        raise UsageError("--method goes with --do count")
    job = Job(args.do, args.timeout or 60.0, args.backend, args.workers, args.method,
              exact_first(args))
    found = collect(args.paths)
    tasks = found.tasks
    if found.skipped:
        names = ", ".join(found.skipped[:5])
        more = f" and {len(found.skipped) - 5} more" if len(found.skipped) > 5 else ""
        say(f"passed by {len(found.skipped)} file(s) that hold no puzzle: {names}{more}")
    if not tasks and not found.unreadable:
        raise UsageError("no puzzles in the files and folders given")
    if args.retry_timeouts and not args.output:
        raise UsageError("--retry-timeouts goes with -o FILE (the results to retry)")
    already = done(args.output)
    redo = again(already, {t.key for t in tasks}, args.retry_timeouts, found.unreadable)
    if redo:
        drop(args.output, set(redo))
        already = {k: r for k, r in already.items() if k not in redo}
    todo = [t for t in tasks if t.key not in already]
    if already or redo:
        why = [f"{n} {w}" for w, n in Counter(redo.values()).items()]
        again_ = f" ({'; '.join(why)}, again with --timeout {job.timeout:g})" if why else ""
        say(f"resuming: {len(tasks) - len(todo)} of {len(tasks)} puzzle(s) already in "
            f"{args.output}, {len(todo)} to go{again_}")
    from ..runtime.child import cores

    runner = engine(cores() if args.jobs is None else args.jobs, args.cluster)
    out = open_journal(args.output) if args.output else sys.stdout
    records: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        for bad in found.unreadable:  # a record each, once
            if bad.key not in already:
                records.append(bad.record())
                append(out, records[-1])
        say(f"batch: {len(todo)} puzzle(s), --do {job.do}, {job.timeout:g} s each, on "
            f"{runner.name}")
        chunks = plan(todo, runner.workers, slow=job.do in ("count", "check"),
                      timeout=job.timeout)
        for record in _progress(_records(runner.run(chunks, job)), len(todo)):
            append(out, record)
            records.append(record)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (Interrupted)
        where = f"; rerun with -o {args.output} to go on" if args.output else ""
        told = Interrupted.saying(exc, f"{len(records)} of {len(todo)} puzzle(s) done{where}")
        say(f"satnono: {told.message}")
        return told.status
    finally:
        runner.close()
        if out is not sys.stdout:
            out.close()
    say("\n".join(batch_summary(records, time.monotonic() - started)))
    before = [already[u.key] for u in found.unreadable if u.key in already]
    if before:
        say(f"batch: {len(before)} file(s) still cannot be read; their records say why")
    return _status(records + before)


def _status(records: list[dict[str, Any]]) -> int:
    """0 when every puzzle got its answer (a time-out is an answer: the record says so);
    else 2 where a file could not be read, 6 where a puzzle's process failed."""
    errors = [r for r in records if r["verdict"] == "error"]
    if any(r["index"] for r in errors):
        return ExitStatus.FAILED
    return ExitStatus.BAD_INPUT if errors else ExitStatus.OK


def _records(chunks: Iterable[list[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
    for chunk in chunks:
        yield from chunk


def _progress(records: Iterator[dict[str, Any]], total: int
              ) -> Iterator[dict[str, Any]]:
    """A live bar on a terminal: done, failed, rate, time left."""
    if not sys.stderr.isatty():
        yield from records
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    cols = (TextColumn("batch"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed, {task.fields[rate]}/s"),
            TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    started = time.monotonic()
    bad = 0
    with Progress(*cols, transient=False) as bar:
        task = bar.add_task("batch", total=total, failed=0, rate="-")
        for n, record in enumerate(records, 1):
            bad += record["verdict"] in ("timeout", "error")
            rate = n / max(1e-9, time.monotonic() - started)
            bar.update(task, advance=1, failed=bad, rate=f"{rate:.1f}")
            yield record


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("batch", help="validate, solve, count or check every puzzle of files "
                       "and folders, here or on a Dask cluster",
                       description="Every puzzle in the files and folders given (each entry "
                       "of a multi-puzzle file) is one task, run in a process of its own "
                       "killed at the time limit. One JSON line per puzzle (source, index, "
                       "title, size, verdict, solutions or count, seconds, worker, error) "
                       "goes to -o FILE, flushed as it comes; rerunning with the same -o "
                       "skips the puzzles already there. A count that did not finish says "
                       "verdict timeout, exact false and at_least N (what it had found); "
                       "with an estimate instead (auto's last quarter of --timeout, or "
                       "--method approx), verdict estimate, with estimate, low, high, "
                       "epsilon and delta. A file in a folder that cannot be read gets a "
                       "record too (index 0, verdict error). Exit 0 when every puzzle ran (a "
                       "time-out is a result), 2 when a file could not be read, 6 when a "
                       "puzzle's process failed.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders")
    p.add_argument("--do", default="validate", metavar="WHAT",
                   help="validate (the default: unique, multiple or none), solve (the same, "
                   "with the solution), count (the exact count), check (verdict, ambiguous "
                   "cells, difficulty)")
    p.add_argument("-o", "--output", metavar="FILE.jsonl",
                   help="results file (resumable); standard output when not given")
    add_timeout(p, "per puzzle, in seconds (default 60)")
    add_where(p, "puzzles at a time on this machine (default: every core)", default=None)
    p.add_argument("--backend", default=DEFAULT, choices=[b for b in BACKENDS],
                   help=f"the backend for each puzzle (default {DEFAULT})")
    p.add_argument("--method", default="auto", choices=[m.value for m in CountMethod],
                   help="how --do count counts: auto (enumerate up to 1000 solutions, then "
                   "the compiled counter, Ganak and enumeration side by side, D4 too on "
                   "four cores or more; ApproxMC's estimate in the last quarter of "
                   "--timeout if the count is not done), compiled, enumerate, ganak, d4, "
                   "approx (an estimate only)")
    add_exact_first(p)
    add_workers(p, "processes on each puzzle, as solve takes it (sat: racing searches; "
                "cpsat: its search workers; default 1: mind --jobs)", default=1)
    p.add_argument("--retry-timeouts", action="store_true",
                   help="with -o: do again the puzzles whose record there says timeout "
                   "or estimate (with this run's --timeout); their old lines are replaced")
    p.set_defaults(run=run)
    return p

