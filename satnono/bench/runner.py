"""``satnono bench``: every (puzzle, backend, solver, mode) run in its own worker process.

A worker is killed at its timeout (plus a grace second) without taking the run down;
``--jobs`` keeps that many workers busy. Each result is appended to the CSV as soon as it
comes back, so an interrupted run keeps what it measured, and a rerun skips what the CSV
already holds (resume).
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from multiprocessing.connection import Connection
from typing import Any

from ..backends import BACKENDS, pinned
from ..backends import backend as backend_row
from ..errors import ParseError, UsageError
from ..io.output import atomic_output, write_failed
from ..model.puzzle import Puzzle
from ..model.verdict import Depth

MODES = {"first": 1, "validate": 2, "count": None}


def backend_spec(label: str) -> tuple[str, int]:
    """``"sat:2"`` -> ``("sat", 2)``: a benchmarked backend and its workers (racing
    searches for sat, CP-SAT's workers for cpsat), so that one CSV can hold both."""
    name, colon, workers = label.partition(":")
    row = backend_row(name)
    if not colon:
        return name, 1
    if "workers" not in row.options:
        raise UsageError(f"{label!r}: workers go with "
                         + ", ".join(b.name for b in BACKENDS.values() if "workers" in b.options))
    if not workers.isdigit() or int(workers) < 1:
        raise UsageError(f"{label!r}: workers must be a whole number from 1, as in sat:2")
    return name, int(workers)


def _cpu() -> float:
    """CPU seconds of this process and of the children it has waited for: the solver
    processes a run with a timeout (or racing workers) searches in."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Run:
    suite: str
    puzzle: str
    size: str
    backend: str
    solver: str
    mode: str
    timeout: float
    wall: float = 0.0
    cpu: float = 0.0
    solutions: int = 0
    verdict: str = ""  # unique | multiple | none | timeout | error | a count
    fixed: int = -1  # cells fixed by propagation (and probing) before the solver; -1 n/a
    cells: int = 0
    variables: int = 0
    clauses: int = 0
    peak_mb: float = 0.0
    error: str = ""
    # where and when the run was made: a report may be written later, on another machine
    # (last, so CSVs written before these columns existed still read and resume)
    machine: str = ""
    date: str = ""
    # where the time went (seconds): reading the puzzle's file (its share of it), line
    # propagation, probing, building the residual CNF, loading it, the search (for
    # backends that do not say, what the rest of the run took)
    read_s: float = 0.0
    line_s: float = 0.0
    probe_s: float = 0.0
    encode_s: float = 0.0
    load_s: float = 0.0
    search_s: float = 0.0
    # a peer's run (``bench --peer``): the command line it was given, placeholders and all
    command: str = ""

    def key(self) -> tuple:
        return (self.suite, self.puzzle, self.backend, self.solver, self.mode)


COLUMNS = [f.name for f in fields(Run)]


#: the columns every CSV written by any satnono has
REQUIRED = ("suite", "puzzle", "backend", "mode", "wall", "verdict")


def read_csv(path: str) -> list[Run]:
    """The runs of a ``satnono bench`` CSV (none when there is no such file yet, so that a
    run can start one); a ParseError for a file that is not one."""
    if not os.path.exists(path):
        return []
    out = []
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing and os.path.getsize(path):
                raise ParseError("not a satnono bench CSV (its first line names no "
                                 f"{', '.join(missing)} column)", path, 1)
            for row in reader:
                kw: dict[str, Any] = {}
                for f in fields(Run):
                    v = row.get(f.name) or ""
                    kw[f.name] = (float(v or 0) if f.type in ("float", float) else
                                  int(float(v or 0)) if f.type in ("int", int) else v)
                out.append(Run(**kw))
    except (ValueError, UnicodeDecodeError, csv.Error) as exc:
        raise ParseError(f"not a satnono bench CSV ({exc})", path, None) from None
    except OSError as exc:
        raise ParseError(f"cannot read the file ({exc.strerror or exc})", path, None) from None
    return out


def machine() -> str:
    """This machine as a benchmark report names it: architecture, cores, processor, Python."""
    import platform

    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{platform.machine()}, {os.cpu_count()} cores, {cpu or 'unknown processor'}, "
            f"Python {platform.python_version()}")


def _measure(run: Run, puzzle: Puzzle) -> Run:
    """Runs in the worker process."""
    import resource

    if run.command:
        return _measure_peer(run, puzzle)
    from ..errors import SearchTimeout
    from ..pipeline import solve

    run.cells = puzzle.width * puzzle.height
    backend, workers = backend_spec(run.backend)
    options: dict[str, Any] = pinned(backend, workers)
    if run.solver:
        options["solver"] = run.solver
    started = time.monotonic()
    cpu0 = _cpu()
    seconds: dict[str, float] | None = None
    try:
        if run.mode == "count":
            from ..analyze.count import CNF_BACKEND, count

            res = count(puzzle, "auto" if backend == CNF_BACKEND else "enumerate",
                        backend=backend, timeout=run.timeout, workers=workers)
            run.solutions = res.count
            run.verdict = str(res.count) if res.complete else "timeout"
            run.variables, run.clauses = res.variables, res.clauses
            run.fixed = run.cells - res.unknown_cells if res.variables else -1
        else:
            solving = solve(puzzle, backend, limit=MODES[run.mode], timeout=run.timeout,
                            **options)
            try:
                for _ in solving:
                    run.solutions += 1
                run.verdict = {0: "none", 1: "unique"}.get(run.solutions, "multiple")
                if run.mode == "first" and run.solutions:
                    run.verdict = "found"
            except SearchTimeout:
                run.verdict = "timeout"
            stats = solving.stats
            seconds = stats.seconds
            run.variables, run.clauses = stats.variables, stats.clauses
            if backend_row(backend).depth is not Depth.OPEN and stats.fixed is not None and (
                    stats.variables or run.verdict != "timeout"):
                run.fixed = stats.fixed
    except Exception as exc:  # reported in the CSV, never fatal to the run
        run.verdict = "error"
        run.error = f"{type(exc).__name__}: {exc}"[:300]
    run.wall = time.monotonic() - started
    run.cpu = _cpu() - cpu0
    if seconds is not None:
        _stages(run, seconds, run.wall)
    if run.fixed < 0 and run.verdict != "error":
        # backends that do not report it: what line propagation alone fixes (outside the
        # timed part; it costs milliseconds)
        from ..logic.propagate import line_solve

        board = line_solve(puzzle)
        run.fixed = board.known() if board is not None else run.cells
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    run.peak_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, children) / 1024
    return run


def _measure_peer(run: Run, puzzle: Puzzle) -> Run:
    """A peer's run: its command on the puzzle, in its own process group (the worker
    waits for it, so its CPU time is the worker's children's)."""
    import resource

    from .peer import Peer, run_peer

    run.cells = puzzle.width * puzzle.height
    cpu0 = _cpu()
    got = run_peer(Peer(run.backend, run.command), puzzle, run.timeout)
    run.verdict, run.wall, run.error = got.verdict, got.wall, got.error
    if run.mode == "first" and run.verdict in ("unique", "multiple"):
        run.verdict = "found"
    run.solutions = {"unique": 1, "multiple": 2, "found": 1}.get(run.verdict, 0)
    run.cpu = _cpu() - cpu0
    run.search_s = run.wall
    run.peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return run


#: the stages a run's time is split into, as :class:`Run` fields ``<stage>_s``
STAGES = ("read", "line", "probe", "encode", "load", "search")


def _stages(run: Run, seconds: dict[str, float], wall: float) -> None:
    """Copy where a run's time went into ``run``; a backend that times nothing (CP-SAT,
    the plain baselines: one solver call) gets the whole run as search."""
    for stage in STAGES[1:]:
        setattr(run, f"{stage}_s", seconds.get(stage, 0.0))
    if not seconds:
        run.search_s = wall


def _worker(conn: Connection, parent: int, run: Run, puzzle: Puzzle) -> None:
    from ..runtime.child import tie_to_parent

    tie_to_parent(parent)
    try:
        conn.send(asdict(_measure(run, puzzle)))
    finally:
        conn.close()


def _keeper(running: dict, run: Run) -> Callable[[Any, Any], None]:
    """Records a started worker in ``running`` (by its connection)."""
    def keep(proc: Any, conn: Any) -> None:
        running[conn] = (proc, run, time.monotonic())

    return keep


def execute(tasks: list[tuple[Run, Puzzle]], jobs: int = 1) -> Iterator[Run]:
    """Yield each task's result as it finishes, ``jobs`` worker processes at a time."""
    from multiprocessing.connection import wait

    from .. import pipeline  # noqa: F401  (what every run starts from)
    from ..runtime.child import fork

    here = machine()

    for name in {backend_spec(run.backend)[0] for run, _ in tasks if not run.command}:
        backend_row(name).warm()  # once, before the workers fork
    pending = list(reversed(tasks))
    running: dict = {}  # connection -> (process, run, started)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                run, puzzle = pending.pop()
                # recorded before the run, so a killed or crashed run carries them too
                run.machine, run.date = here, time.strftime("%Y-%m-%d")
                # a worker may fork solver processes of its own: not a daemon
                fork(_worker, (run, puzzle), _keeper(running, run), daemon=False)
            ready = wait(list(running), timeout=0.2)
            now = time.monotonic()
            for conn in list(running):
                proc, run, started = running[conn]
                result = None
                if conn in ready:
                    try:
                        result = Run(**conn.recv())
                    except EOFError:
                        run.verdict, run.error = "error", "the worker died"
                        run.wall = now - started
                        result = run
                elif now - started > run.timeout + 5:
                    # the backend ignored its own limit (a C extension busy): kill it
                    proc.kill()
                    run.verdict, run.wall = "timeout", now - started
                    result = run
                if result is not None:
                    del running[conn]
                    proc.join()
                    conn.close()
                    yield result
    finally:
        for conn, (proc, _, _) in running.items():
            proc.kill()
            proc.join()
            conn.close()


def run_chunk(tasks: list[tuple[Run, Puzzle]]) -> list[Run]:
    """``tasks`` one after another, each in its own process (what a cluster worker runs
    for ``bench --cluster``)."""
    from ..runtime.child import allow_children

    allow_children()
    return list(execute(tasks, 1))


def lost(task: tuple[Run, Puzzle], reason: str) -> Run:
    """The record of a run whose worker kept dying."""
    run = task[0]
    run.verdict, run.error = "error", reason
    return run


def upgrade_csv(path: str) -> None:
    """Before resuming a CSV written by an older satnono, rewrite it with today's columns,
    so the rows appended next keep every field."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    with open(path, newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh), [])
    if header == COLUMNS:
        return
    old = read_csv(path)
    with atomic_output(path) as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(asdict(r) for r in old)


def append_csv(path: str, run: Run) -> None:
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    try:
        with open(path, "a", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=COLUMNS)
            if new:
                w.writeheader()
            w.writerow(asdict(run))
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise write_failed(path, exc) from None


def dispatch(tasks: list[tuple[Run, Puzzle]], jobs: int, cluster: str | None
             ) -> Iterator[Run]:
    """The runs' results as they come: ``jobs`` worker processes here, or one run per
    task on a Dask cluster (the engine ``satnono batch`` uses)."""
    if not cluster:
        yield from execute(tasks, jobs)
        return
    from ..batch.engines import DaskEngine

    engine = DaskEngine(cluster)
    try:
        for chunk in engine.map(run_chunk, [[t] for t in tasks], (), lost):
            yield from chunk
    finally:
        engine.close()
