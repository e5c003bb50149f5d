"""What every solver backend starts from: line propagation, then probing, at the root."""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.child import cores
from ..runtime.deadline import NO_DEADLINE, Deadline
from ..runtime.memory import gc_paused
from .board import Board
from .context import Context
from .probe import probe
from .propagate import propagate


@dataclass
class Presolved:
    """The board logic leaves, or None when the clues contradict; and how many cells line
    logic (``by_line``) and then probing (``by_probe``) fixed."""

    board: Board | None
    by_line: int = 0
    by_probe: int = 0

    @property
    def contradiction(self) -> bool:
        return self.board is None

    @property
    def solved(self) -> bool:
        return self.board is not None and self.board.solved()


def presolve(ctx: Context, *, probing: bool = True, deadline: Deadline = NO_DEADLINE,
             workers: int = 1, board: Board | None = None) -> Presolved:
    """Propagate, then probe (in up to ``workers`` processes) until nothing changes,
    from an open board or from ``board`` (some cells given: a part of a split count).

    >>> from satnono.model.puzzle import Puzzle
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> r = presolve(Context(p))
    >>> r.solved, r.by_line, r.by_probe
    (False, 0, 0)
    """
    board = board if board is not None else ctx.board()
    with gc_paused():
        with ctx.stats.timing("line"):
            consistent = propagate(ctx, board, deadline=deadline)
        if not consistent:
            return _done(ctx, Presolved(None))
        by_line = board.known()
        if probing and not board.solved():
            with ctx.stats.timing("probe"):
                consistent, _ = probe(ctx, board, deadline, min(workers, cores()))
            if not consistent:
                return _done(ctx, Presolved(None, by_line))
    return _done(ctx, Presolved(board, by_line, board.known() - by_line))


def _done(ctx: Context, result: Presolved) -> Presolved:
    # a contradiction decides every cell (there is nothing left to search)
    board = result.board
    ctx.stats.fixed = ctx.stats.cells if board is None else board.known()
    return result
