"""Where a batch runs: this machine's cores (``--jobs N``) or a Dask cluster
(``--cluster tcp://HOST:PORT``, or ``local:N`` for a cluster of N worker processes here).

Either way the unit of work is a chunk of tasks and the answer a list of records, yielded
as each chunk finishes. Small puzzles go in chunks, so that handing out work does not cost
more than doing it; large ones go alone (:func:`plan`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

from ..analyze.count import CountResult
from ..analyze.split import Part, PartCounter, count_parts
from ..backends import backend
from ..errors import SolverFailed, UsageError
from ..model.puzzle import Puzzle
from .work import Job, Task, do_chunk, do_one, failed, resume, stop_all

#: puzzles of more cells than this go alone: they may take long, and one slow puzzle
#: should not hold small ones back
ALONE = 40 * 40
#: the most puzzles in one chunk
CHUNK = 32


#: the most puzzles in one chunk when each may take long (counting, checking): a chunk's
#: records arrive, and are kept, only when the whole chunk is done
CHUNK_SLOW = 4
#: the seconds of slow work a chunk may hold at its time limits: what a batch stopped on
#: a cluster can lose per worker (a count table's 300 s limit: one puzzle a chunk; four
#: puzzles, 20 minutes of records held back, was what a stopped run lost before)
CHUNK_SLOW_SECONDS = 120.0


def plan(tasks: list[Task], workers: int, slow: bool = False,
         timeout: float | None = None) -> list[list[Task]]:
    """``tasks`` in chunks: large puzzles one by one (first: they take longest), small
    ones in chunks of up to :data:`CHUNK` (:data:`CHUNK_SLOW` when ``slow``, and no more
    than :data:`CHUNK_SLOW_SECONDS` of ``timeout`` each), small enough that every worker
    gets about eight of them."""
    alone = [[t] for t in tasks if t.cells > ALONE]
    small = [t for t in tasks if t.cells <= ALONE]
    most = CHUNK
    if slow:
        most = CHUNK_SLOW
        if timeout:
            most = min(most, max(1, int(CHUNK_SLOW_SECONDS // timeout)))
    size = max(1, min(most, len(small) // (max(1, workers) * 8)))
    return alone + [small[i:i + size] for i in range(0, len(small), size)]


class Engine(Protocol):
    """Runs chunks of tasks; :attr:`workers` says how many run at once."""

    workers: int
    name: str

    def run(self, chunks: list[list[Task]], job: Job) -> Iterator[list[dict[str, Any]]]:
        ...

    def close(self) -> None:
        ...


class LocalEngine:
    """``jobs`` puzzles at a time on this machine, one by one, each in a process of its own
    (:func:`satnono.batch.work.do_one`), so the threads here only wait. Each record comes
    as its puzzle finishes; stopped (Ctrl-C, SIGTERM), every puzzle process is killed at
    once and no new one starts."""

    def __init__(self, jobs: int = 1):
        self.workers = jobs
        self.name = f"{jobs} local process(es)"

    def run(self, chunks: list[list[Task]], job: Job) -> Iterator[list[dict[str, Any]]]:
        import gc
        from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

        _warm(job.backend)  # each puzzle's process, forked from here, has it
        # what is here now stays out of the collector's way, in this process and in each
        # forked puzzle process, which then copies fewer of this process's pages
        gc.freeze()
        resume()
        pool = ThreadPoolExecutor(max_workers=self.workers)
        pending = [task for chunk in reversed(chunks) for task in reversed(chunk)]
        running: set[Future[dict[str, Any]]] = set()
        try:
            while pending or running:
                while pending and len(running) < self.workers:
                    running.add(pool.submit(do_one, pending.pop(), job))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    yield [fut.result()]
        finally:
            stop_all()  # the puzzles under way, when the batch is stopped
            for fut in running:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            resume()
            gc.unfreeze()

    def close(self) -> None:
        pass


class DaskEngine:
    """Chunks as Dask tasks. A worker that dies loses nothing: Dask gives its chunks to
    another; a chunk that kills workers again and again (Dask's ``allowed-failures``) is
    split and its puzzles tried alone, and a puzzle that still does is recorded as an
    error with the reason, while the batch goes on."""

    def __init__(self, address: str):
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--cluster needs Dask: pip install 'satnono[cluster]'") from None
        self.cluster: Any = None
        if address.startswith("local:"):
            n = address.partition(":")[2]
            if not n.isdigit() or int(n) < 1:
                raise UsageError(f"--cluster {address}: local:N takes a number of worker "
                                 "processes from 1, as in local:4")
            import logging

            # worker processes may start processes of their own (one per puzzle)
            with dask.config.set({"distributed.worker.daemon": False}):
                self.cluster = LocalCluster(n_workers=int(n), threads_per_worker=1,
                                            processes=True, dashboard_address=None,
                                            silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(address, timeout=10)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SolverFailed(f"cannot reach the Dask scheduler at {address}: {exc}"
                                   ) from None
        info = self.client.scheduler_info()
        self.workers = max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
        self.name = f"Dask at {info.get('address', address)} ({self.workers} worker thread(s))"

    def run(self, chunks: list[list[Task]], job: Job) -> Iterator[list[dict[str, Any]]]:
        self.client.run(_warm, job.backend)  # on every worker now; later ones warm up alone
        return self.map(do_chunk, chunks, (job,), failed)

    def map(self, fn: Callable[..., list[Any]], chunks: list[list[Any]], args: tuple[Any, ...],
            failure: Callable[[Any, str], Any]) -> Iterator[list[Any]]:
        """``fn(chunk, *args)`` for each chunk on the workers, the lists it returns as they
        come; ``failure(item, reason)`` stands for an item that kept killing workers."""
        from distributed import as_completed

        futures = {self.client.submit(fn, chunk, *args, pure=False): chunk
                   for chunk in chunks}
        done = as_completed(list(futures))
        try:
            for fut in done:
                chunk = futures.pop(fut)
                try:
                    yield fut.result()
                except Exception as exc:  # KilledWorker, or the task could not run there
                    if len(chunk) > 1:
                        for item in chunk:  # find the one that does it
                            alone = self.client.submit(fn, [item], *args, pure=False)
                            futures[alone] = [item]
                            done.add(alone)
                    else:
                        yield [failure(chunk[0], f"{type(exc).__name__}: {exc}"[:500])]
        finally:
            for fut in futures:
                fut.cancel()

    def part_counter(self) -> PartCounter:
        """Count the parts of a split count (:mod:`satnono.analyze.split`), one Dask task
        each; a part that keeps killing workers makes the count incomplete, with why."""
        def run(parts: list[Part], puzzle: Puzzle, method: str, until: float | None,
                threshold: int) -> Iterator[tuple[Part, CountResult]]:
            def lost(part: Part, reason: str) -> tuple[Part, CountResult]:
                return part, CountResult(0, False, f"lost ({reason})", 0.0)

            for chunk in self.map(count_parts, [[p] for p in parts],
                                  (puzzle, method, until, threshold), lost):
                yield from chunk

        return run

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _warm(name: str) -> None:
    from .. import pipeline  # noqa: F401  (what every puzzle starts from)

    backend(name).warm()


def engine(jobs: int = 1, cluster: str | None = None) -> Engine:
    """The engine ``--jobs`` or ``--cluster`` asks for."""
    if cluster:
        return DaskEngine(cluster)
    return LocalEngine(jobs)
