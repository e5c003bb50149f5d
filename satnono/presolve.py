"""What every solver backend starts from: line propagation, then probing, at the root."""

from __future__ import annotations

import time

from .board import Board
from .errors import SearchTimeout
from .probe import probe
from .propagate import Context, propagate


def presolve(ctx: Context, *, probing: bool = True, deadline: float | None = None,
             timeout: float | None = None) -> Board | None:
    """The board after propagation (and probing); None when the clues contradict."""
    puzzle = ctx.puzzle
    board = Board(puzzle.width, puzzle.height)
    if not propagate(ctx, board):
        return None
    if probing and not board.solved():
        try:
            consistent, _ = probe(ctx, board, deadline)
        except SearchTimeout:
            raise SearchTimeout(0, timeout or 0) from None
        if not consistent:
            return None
    return board


def deadline_of(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def time_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (None: no limit), never zero: for a later stage that takes
    a timeout, so that one limit covers the stages before it too."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)
