"""Run a generator in a forked process that is killed at a deadline, or race several.

SAT solvers and model counters inside pysat and pyganak cannot be interrupted in the middle
of one call, so a time limit is only honest if the work runs where it can be killed.
Items cross back through a pipe as soon as they are made, so nothing found is lost.
A race runs differently configured solvers on the same formula, one per core, and keeps
the one that answers first: their running times on a hard puzzle differ by a factor of
two or more, and which one is fast is not known in advance.
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


def stream(fn: Callable[..., Iterator], args: tuple, deadline: float, timeout: float,
           what: str = "solver") -> Iterator:
    """Yield what ``fn(*args)`` yields, computed in a child; SearchTimeout at ``deadline``
    (its ``found`` is the number of items yielded before it)."""
    return race([(fn, args)], deadline, timeout, what)


def race(jobs: list[tuple[Callable[..., Iterator], tuple]], deadline: float | None,
         timeout: float, what: str = "solver") -> Iterator:
    """Start every job in its own child; the first to send anything (an item or its end)
    wins, the others are killed, and the winner's items are yielded. The jobs must yield
    the same items (in any order): only the winner's are seen. ``deadline`` None: no limit.
    """
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = mp.get_context("fork")
    running = []
    found = 0
    try:
        for fn, args in jobs:
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
            proc.start()
            child.close()
            running.append((parent, proc))
        winner = None
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise SearchTimeout(found, timeout)
            if winner is None:
                ready = wait([conn for conn, _ in running], left)
                if not ready:
                    raise SearchTimeout(found, timeout)
                winner = ready[0]
                for conn, proc in running:
                    if conn is not winner:
                        proc.kill()
            elif not winner.poll(left):
                raise SearchTimeout(found, timeout)
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
        for conn, proc in running:
            if proc.is_alive():
                proc.kill()
            proc.join()
            conn.close()
