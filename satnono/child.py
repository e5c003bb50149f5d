"""Run a generator in a forked process that is killed at a deadline.

SAT solvers and model counters inside pysat and pyganak cannot be interrupted in the middle
of one call, so a time limit is only honest if the work runs where it can be killed.
Items cross back through a pipe as soon as they are made, so nothing found is lost. With
one job and no deadline there is nothing to kill, and the generator runs in this process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from .errors import SatnonoError, SearchTimeout

_END = "__end__"


def _child(conn, fn: Callable[..., Iterator], args: tuple) -> None:
    try:
        for item in fn(*args):
            conn.send(item)
        conn.send(_END)
    except BaseException as exc:  # pragma: no cover - reported to the parent
        conn.send(("__error__", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def stream(fn: Callable[..., Iterator], args: tuple, deadline: float | None,
           timeout: float | None, what: str = "solver") -> Iterator:
    """Yield what ``fn(*args)`` yields, computed in a child when there is a deadline;
    SearchTimeout at ``deadline`` (its ``found`` is the number of items yielded before it)."""
    return race([(fn, args)], deadline, timeout, what)


def race(jobs: list[tuple[Callable[..., Iterator], tuple]], deadline: float | None,
         timeout: float | None, what: str = "solver") -> Iterator:
    """Start every job's generator in its own child; the first child to yield goes on
    alone and the others are killed. For jobs that yield the same items by different
    searches (a portfolio), this takes the luckiest search on each input: what one
    search gains on one puzzle another often loses on the next."""
    if len(jobs) == 1 and deadline is None:  # nothing to race, nothing to kill
        fn, args = jobs[0]
        yield from fn(*args)
        return
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = mp.get_context("fork")
    procs, conns = [], []
    try:
        for fn, args in jobs:
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
            proc.start()
            child.close()
            procs.append(proc)
            conns.append(parent)
        ready = wait(conns, None if deadline is None else max(0.0, deadline - time.monotonic()))
        if not ready:
            raise SearchTimeout(0, timeout or 0)
        winner = ready[0]
        for proc, conn in zip(procs, conns):
            if conn is not winner and proc.is_alive():
                proc.kill()
        found = 0
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not winner.poll(left):
                    raise SearchTimeout(found, timeout or 0)
            try:
                item = winner.recv()
            except EOFError:
                raise SatnonoError(f"the {what} process ended unexpectedly") from None
            if item == _END:
                return
            if isinstance(item, tuple) and len(item) == 2 and item[0] == "__error__":
                raise SatnonoError(f"the {what} failed: {item[1]}")
            found += 1
            yield item
    finally:
        stop(procs, conns)


def stop(procs: list, conns: list) -> None:
    """Kill the children still running (a search nobody waits for any more), reap them
    all and close their pipes."""
    for proc in procs:
        if proc.is_alive():
            proc.kill()
        proc.join()
    for conn in conns:
        conn.close()
