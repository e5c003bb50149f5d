"""Run a generator in a forked process that is killed at a deadline.

SAT solvers and model counters inside pysat and pyganak cannot be interrupted in the middle
of one call, so a time limit is only honest if the work runs where it can be killed.
Items cross back through a pipe as soon as they are made, so nothing found is lost.
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
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
    proc.start()
    child.close()
    found = 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not parent.poll(left):
                raise SearchTimeout(found, timeout)
            try:
                item = parent.recv()
            except EOFError:
                raise SatnonoError(f"the {what} process ended unexpectedly") from None
            if item == _END:
                return
            if isinstance(item, tuple) and len(item) == 2 and item[0] == "__error__":
                raise SatnonoError(f"the {what} failed: {item[1]}")
            found += 1
            yield item
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
