"""What every solver backend starts from: line propagation, then probing, at the root.

Two implementations reach the same board (``tests/test_presolve.py`` and
``tests/test_colour_kernel.py`` hold them to it): the Python logic here, and the compiled
engine (:mod:`satnono.logic.compiled`), several times faster, for black-and-white and
colour puzzles where it is available. The compiled one also leaves
its search state at the root (:attr:`Presolved.search`), so that a search can go on from
it without probing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.verdict import Level
from ..runtime.child import cores
from ..runtime.deadline import NO_DEADLINE, Deadline
from ..runtime.memory import gc_paused
from .board import Board
from .context import Context
from .probe import probe
from .propagate import propagate

if TYPE_CHECKING:
    from .compiled import Search


@dataclass
class Presolved:
    """The board logic leaves, or None when the clues contradict; how many cells line
    logic (``by_line``) and then probing (``by_probe``) fixed; and, when the compiled
    engine probed, its search state at that root (a solution its probing met waits there).
    """

    board: Board | None
    by_line: int = 0
    by_probe: int = 0
    search: Search | None = None
    #: where the clues were refuted, when they were: line logic alone, or probing
    refuted_by: Level | None = None

    @property
    def contradiction(self) -> bool:
        return self.board is None

    @property
    def solved(self) -> bool:
        return self.board is not None and self.board.solved()


def presolve(ctx: Context, *, probing: bool = True, deadline: Deadline = NO_DEADLINE,
             workers: int = 1, board: Board | None = None, compiled: bool = False
             ) -> Presolved:
    """Propagate, then probe (in up to ``workers`` processes) until nothing changes,
    from an open board or from ``board`` (some cells given: a part of a split count).
    With ``compiled``, the engine does it where it can (built at install, up to 62
    colours).

    >>> from satnono.model.puzzle import Puzzle
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> r = presolve(Context(p))
    >>> r.solved, r.by_line, r.by_probe
    (False, 0, 0)
    """
    if compiled and probing:
        done = _compiled(ctx, deadline, board)
        if isinstance(done, Presolved):
            return done
        board = done  # the compiled code is unavailable: go on in Python from here
    board = board if board is not None else ctx.board()
    with gc_paused():
        with ctx.stats.timing("line"):
            consistent = propagate(ctx, board, deadline=deadline)
        if not consistent:
            return _done(ctx, Presolved(None, refuted_by=Level.LINE))
        by_line = board.known()
        if probing and not board.solved():
            with ctx.stats.timing("probe"):
                consistent, _ = probe(ctx, board, deadline, min(workers, cores()))
            if not consistent:
                return _done(ctx, Presolved(None, by_line, refuted_by=Level.PROBE))
    return _done(ctx, Presolved(board, by_line, board.known() - by_line))


def _compiled(ctx: Context, deadline: Deadline, board: Board | None
              ) -> Presolved | Board | None:
    """Presolve in the engine, or the board to go on from in Python where it cannot run
    (not built, turned off, more colours than it takes)."""
    from . import compiled as fast

    if not fast.usable(ctx.puzzle):
        return board
    dfs = fast.search_for(ctx.puzzle, board, tuning=ctx.tuning)
    with ctx.stats.timing("line"):
        dfs.lines_only(deadline)
    if dfs.done:  # line logic refuted the clues
        dfs.count_into(ctx.stats)
        return _done(ctx, Presolved(None, refuted_by=Level.LINE))
    by_line = dfs.root_known()
    with ctx.stats.timing("probe"):
        dfs.root_only(deadline)
    root = dfs.root()
    if root is None:
        dfs.count_into(ctx.stats)
        return _done(ctx, Presolved(None, by_line, refuted_by=Level.PROBE))
    if root.solved():
        dfs.count_into(ctx.stats)
        return _done(ctx, Presolved(root, by_line, root.known() - by_line))
    return _done(ctx, Presolved(root, by_line, root.known() - by_line, dfs))


def _done(ctx: Context, result: Presolved) -> Presolved:
    # a contradiction decides every cell (there is nothing left to search)
    board = result.board
    ctx.stats.fixed = ctx.stats.cells if board is None else board.known()
    return result
