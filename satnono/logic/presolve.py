"""What every solver backend starts from: line propagation, then probing, at the root."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import SearchTimeout
from .board import Board
from .probe import probe
from .propagate import Context, propagate


def presolve(ctx: Context, *, probing: bool = True, deadline: float | None = None,
             timeout: float | None = None, workers: int = 1) -> Board | None:
    """The board after propagation (and probing, in ``workers`` processes); None when
    the clues contradict."""
    puzzle = ctx.puzzle
    board = Board(puzzle.width, puzzle.height)
    with gc_paused():
        if not propagate(ctx, board):
            return None
        if probing and not board.solved():
            try:
                consistent, _ = probe(ctx, board, deadline, min(workers, cores()))
            except SearchTimeout:
                raise SearchTimeout(0, timeout or 0) from None
            if not consistent:
                return None
    return board


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: presolve and encoding make no cycles, but
    they make millions of short-lived objects beside a growing line cache and clause
    list, and the collections that triggers cost 10–15 % of their time (0.2–0.3 s on a
    99×59 puzzle). Reference counting still frees everything as it goes."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cores() -> int:
    """The processors this process may run on: probing in more processes than that
    only adds the cost of starting them."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def deadline_of(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def time_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (None: no limit), never zero: for a later stage that takes
    a timeout, so that one limit covers the stages before it too."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)
