"""One puzzle of a batch, done where a worker runs it: in a child process, killed at the
time limit (plus a grace), so that neither a solver busy in C nor one that runs out of
memory takes the worker down with it.

The child is kept for the next puzzle while puzzles end quickly (:data:`KEEP_AFTER`):
forking a process that has loaded the compiled code and solving in it costs about 15 ms a
puzzle more than solving in a process that has already solved one (its memory is copied
page by page as it is touched), which on a tournament set of easy puzzles was most of the
time. A puzzle that runs longer, fails, or is killed at its limit ends its process; the
next starts afresh."""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..backends import DEFAULT, pinned
from ..model.puzzle import Puzzle

#: what a batch can do with each puzzle
DOS = ("validate", "solve", "count", "check")
#: seconds a puzzle's process gets past its time limit before it is killed
GRACE = 2.0
#: a puzzle's process that finished its puzzle within this many seconds takes the next one
#: of its thread; after a longer puzzle it ends, so that what a hard puzzle left in memory
#: is not carried on (tcga2015, one process: 94 % of the puzzles end within it)
KEEP_AFTER = 0.5
#: the puzzles' processes running now in this process (:func:`stop_all`)
LIVE: set[Any] = set()
#: set by :func:`stop_all`: no new puzzle process starts in this process until
#: :func:`resume`; the lock makes starting one and stopping all exclusive
STOPPED = threading.Event()
_STARTING = threading.Lock()


class Stopped(Exception):
    """The batch was stopped before this puzzle's process could start."""


@dataclass(frozen=True)
class Task:
    """One puzzle: entry ``index`` (from 1) of the file ``source``."""

    source: str
    index: int
    puzzle: Puzzle

    @property
    def key(self) -> str:
        """What the results file knows the puzzle by (a rerun skips the keys it has)."""
        return f"{self.source}#{self.index}"

    @property
    def cells(self) -> int:
        return self.puzzle.width * self.puzzle.height


@dataclass(frozen=True)
class Job:
    """What to do with every puzzle of a batch, and with what."""

    do: str = "validate"
    timeout: float = 60.0
    backend: str = DEFAULT
    workers: int = 1
    #: how ``count`` counts: auto, compiled, enumerate or ganak (a second method confirms
    #: the first)
    method: str = "auto"
    #: with ``method`` approx: the seconds the exact methods get first (None: the default)
    exact_first: float | None = None


@dataclass(frozen=True)
class Unreadable:
    """A file found in a folder, in a puzzle's format, that does not read (an empty file,
    clues that contradict): it gets a record of its own, verdict ``error``."""

    source: str
    error: str

    @property
    def key(self) -> str:
        return f"{self.source}#0"

    def record(self) -> dict[str, Any]:
        return {"key": self.key, "source": self.source, "index": 0, "title": "", "size": "",
                "verdict": "error", "solutions": 0, "seconds": 0.0, "worker": "",
                "error": self.error}


@dataclass(frozen=True)
class Collected:
    """What the files and folders of a batch hold: a task per puzzle, the files in
    folders that could not be read, and those passed by as holding no puzzle at all (a
    README, a picture)."""

    tasks: list[Task]
    unreadable: list[Unreadable]
    skipped: list[str] = field(default_factory=list)


def collect(paths: list[str]) -> Collected:
    """Every puzzle in the files and folders given, each entry of a multi-puzzle file a
    task of its own. A file named on the command line that cannot be read is an error; in
    a folder, such a file is :class:`Unreadable`, not a reason to stop, and one that holds
    no puzzle at all (:class:`~satnono.errors.NotAPuzzle`: a README, a LICENSE, a picture)
    is passed by. Hidden files and folders (a name starting with a dot: ``.git``) are not
    looked in."""
    from ..errors import NotAPuzzle, SatnonoError
    from ..io.formats import read_file

    tasks: list[Task] = []
    unreadable: list[Unreadable] = []
    skipped: list[str] = []
    for path in paths:
        files = [path]
        if os.path.isdir(path):
            files = []
            for d, subs, fs in os.walk(path):
                subs[:] = [s for s in subs if not s.startswith(".")]
                files += [os.path.join(d, f) for f in fs if not f.startswith(".")]
            files.sort()
        for f in files:
            try:
                puzzles = read_file(f)
            except NotAPuzzle:
                if f == path:
                    raise
                skipped.append(f)
                continue
            except SatnonoError as exc:
                if f == path:
                    raise
                message = str(exc)
                unreadable.append(Unreadable(f, message.removeprefix(f"{f}: ")))
                continue
            tasks += [Task(f, i, p) for i, p in enumerate(puzzles, 1)]
    return Collected(tasks, unreadable, skipped)


def where() -> str:
    """The worker this runs on: its Dask address, else host and process."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        import threading

        # --jobs N: the N threads of this process that each wait on one puzzle's process
        slot = threading.current_thread().name.rpartition("_")[2]
        return f"{socket.gethostname()}:{os.getpid()}/{slot}"


def do_chunk(tasks: list[Task], job: Job) -> list[dict[str, Any]]:
    """The result records of ``tasks``, one after another (what a worker runs); the
    puzzle process kept between them ends with the chunk."""
    try:
        return [do_one(t, job) for t in tasks]
    finally:
        _retire()


#: this thread's puzzle process kept for its next puzzle: (process, pipe, job)
_KEPT = threading.local()


def do_one(task: Task, job: Job) -> dict[str, Any]:
    """``task``'s result record: done in a child process killed ``GRACE`` seconds after
    the time limit, whatever the solver does; the record says ``error`` (and why) when
    the child dies, ``timeout`` when it had to be killed. The child is this thread's kept
    one when it has one for ``job`` (:data:`KEEP_AFTER`)."""
    from ..runtime.child import death

    record = _record(task)
    record["worker"] = where()
    proc, conn = _process(task, job)
    started = time.monotonic()
    keep = False
    try:
        conn.send(task)
        if conn.poll(job.timeout + GRACE):
            try:
                record.update(conn.recv())
                keep = record["verdict"] != "error"
            except EOFError:  # died: not the puzzle's verdict, so a rerun runs it again
                record.update(verdict="error", error=f"the solver process {death(proc)}",
                              died=True)
        else:
            proc.kill()
            record.update(verdict="timeout", error="killed at the time limit")
    except (BrokenPipeError, ConnectionResetError):  # killed before it took the puzzle
        record.update(verdict="error", error=f"the solver process {death(proc)}", died=True)
    record["seconds"] = round(time.monotonic() - started, 4)
    if not keep or record["seconds"] > KEEP_AFTER:
        _retire()
    return record


def _process(task: Task, job: Job) -> tuple[Any, Any]:
    """This thread's puzzle process for ``job``: the kept one, or a new one."""
    from ..runtime.child import allow_children, fork

    kept = getattr(_KEPT, "process", None)
    if kept is not None and kept[2] == job and kept[0].is_alive() and not STOPPED.is_set():
        return kept[0], kept[1]
    _retire()
    allow_children()
    started_child: list[tuple[Any, Any]] = []

    def keep(proc: Any, conn: Any) -> None:
        LIVE.add(proc)
        started_child.append((proc, conn))

    with _STARTING:
        if STOPPED.is_set():
            raise Stopped(task.key)
        fork(_serve, (job,), keep, duplex=True, daemon=False)
    ((proc, conn),) = started_child
    _KEPT.process = (proc, conn, job)
    return proc, conn


def _retire() -> None:
    """End this thread's kept puzzle process, if it has one."""
    kept = getattr(_KEPT, "process", None)
    if kept is None:
        return
    _KEPT.process = None
    proc, conn, _ = kept
    conn.close()
    # killed, not asked to end: it holds nothing, and an interpreter's exit waits for
    # whatever a solver left running (as the process of one puzzle always was)
    proc.kill()
    proc.join()
    LIVE.discard(proc)


def stop_all() -> None:
    """Kill every puzzle process this process runs, those kept for a next puzzle too, and
    start no more (Ctrl-C on a batch, and the end of one): a thread waiting on one gets
    its end at once."""
    with _STARTING:
        STOPPED.set()
        procs = list(LIVE)
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.join()
            LIVE.discard(proc)


def resume() -> None:
    """Let puzzle processes start again (a new batch in the same process)."""
    STOPPED.clear()


def _record(task: Task) -> dict[str, Any]:
    p = task.puzzle
    return {"key": task.key, "source": task.source, "index": task.index, "title": p.title,
            "size": p.size, "verdict": "", "solutions": 0, "seconds": 0.0, "worker": "",
            "error": ""}


def _serve(conn: Any, parent: int, job: Job) -> None:
    """A puzzle process: each task that comes over the pipe done in turn, its record sent
    back, until the pipe closes."""
    from ..runtime.child import tie_to_parent

    tie_to_parent(parent)
    try:
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            try:
                out = _work(task.puzzle, job)
            except BaseException as exc:  # reported in the record, never fatal to the batch
                out = {"verdict": "error", "error": f"{type(exc).__name__}: {exc}"[:500]}
            conn.send(out)
    finally:
        conn.close()


def _work(puzzle: Puzzle, job: Job) -> dict[str, Any]:
    """The part of the record the work itself fills in (runs in the child)."""
    from ..errors import SearchTimeout

    options: dict[str, Any] = pinned(job.backend or DEFAULT, job.workers)
    if job.do == "count":
        from ..analyze.count import count

        if job.exact_first is not None:
            options["exact_first"] = job.exact_first
        res = count(puzzle, job.method, backend=job.backend, timeout=job.timeout, **options)
        if res.complete:
            return {"verdict": _verdict(res.count), "solutions": res.count, "count": res.count,
                    "exact": True, "method": res.method}
        # no count: what was found is a lower bound, and says so; an estimate says so too
        unfinished: dict[str, Any] = {
            "verdict": "timeout" if res.estimate is None else "estimate", "solutions": None,
            "count": None, "exact": False, "at_least": res.count, "method": res.method}
        if res.estimate is not None:
            from ..io.records import estimate_fields

            unfinished.update(estimate_fields(res))
        return unfinished
    if job.do == "check":
        from ..analyze.check import check

        c = check(puzzle, timeout=job.timeout, **options)
        if c.verdict is None:
            return {"verdict": "timeout", "error": c.timeout}
        u = c.uniqueness
        assert u is not None
        out: dict[str, Any] = {"verdict": c.verdict.value, "solutions": len(u.solutions),
                               "ambiguous_cells": len(u.ambiguous)}
        if c.rating is not None:
            out["difficulty"] = c.rating.level.value
            if not c.rating.finished:  # the limit came first: at least this level
                out["difficulty_finished"] = False
        return out
    from ..pipeline import solve

    run = solve(puzzle, job.backend, limit=2, timeout=job.timeout, **options)
    found = []
    try:
        for sol in run:
            found.append(sol)
    except SearchTimeout:
        # one solution found is no verdict: a second may have been next
        return {"verdict": "timeout", "solutions": len(found), **_solution(job, puzzle, found)}
    return {"verdict": _verdict(len(found)), "solutions": len(found),
            **_solution(job, puzzle, found)}


def _verdict(solutions: int) -> str:
    """none, unique or multiple: what ``solve``, ``check`` and ``count`` records say."""
    return {0: "none", 1: "unique"}.get(solutions, "multiple")


def _solution(job: Job, puzzle: Puzzle, found: list) -> dict[str, Any]:
    if job.do != "solve" or not found:
        return {}
    return {"solution": found[0].strings(chars=puzzle.palette.chars)}


def failed(task: Task, reason: str) -> dict[str, Any]:
    """The record of a puzzle that could not be done at all (its worker kept dying)."""
    record = _record(task)
    record.update(verdict="error", error=reason)
    return record
