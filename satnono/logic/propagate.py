"""Iterated line analysis: re-solve every line whose crossing cells changed, to a fixed point.

Each line keeps a "needs another look" flag: when solving a line fixes cells, the lines
crossing them are queued again. Deterministic, no guessing; with the complete line solver
it reaches the same fixed point in any order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.grid import Line
from ..model.puzzle import Puzzle
from ..runtime.deadline import NO_DEADLINE, Deadline
from .board import Board
from .context import Context
from .events import Contradiction, LineSolved

#: line solves between two looks at the clock
CLOCK_EVERY = 256


def propagate(ctx: Context, board: Board, dirty: Iterable[Line] | None = None,
              deadline: Deadline = NO_DEADLINE, quiet: bool = False) -> bool:
    """Run line analysis to a fixed point; False on a contradiction (the board is then
    garbage). A line is one may-mask per colour (the background first), solved by the
    puzzle's line solver (``ctx.logic``, the one seam); a colour it rules out in a cell is
    ruled out in the crossing line too. ``dirty`` lists the lines to start from (every line
    when None). On a board of a million cells a fixed point takes seconds, so the deadline
    is looked at every :data:`CLOCK_EVERY` line solves (SearchTimeout when it has passed).
    Each step goes to ``ctx.observer`` unless ``quiet`` (a probe's steps are not the
    solving's).

    >>> from satnono.model.puzzle import Puzzle
    >>> p = Puzzle(rows=((3,), (1,)), columns=((2,), (1,), (1,)))
    >>> b = Board(3, 2)
    >>> propagate(Context(p), b), b.strings()
    (True, ['###', '#..'])
    """
    may = board.may
    clues, sizes, lines = ctx.clues, ctx.sizes, ctx.lines
    narrow = ctx.logic.narrow
    observer = None if quiet else ctx.observer
    queue = [*lines[0], *lines[1]] if dirty is None else list(dirty)
    queued = (bytearray(board.height), bytearray(board.width))
    for axis, i in queue:
        queued[axis][i] = 1
    head = 0
    solves = 0
    clock = CLOCK_EVERY if deadline.limited else -1
    while head < len(queue):
        line = queue[head]
        head += 1
        axis, i = line
        queued[axis][i] = 0
        solves += 1
        if solves == clock:
            clock += CLOCK_EVERY
            if deadline.passed():
                ctx.stats.line_solves += solves
                raise deadline.expired()
        own = may[axis]
        old = tuple([layer[i] for layer in own])
        new = narrow(clues[axis][i], sizes[axis], old)
        if new is None:
            ctx.stats.line_solves += solves
            if observer is not None:
                observer(Contradiction(line), board)
            return False
        if new == old:
            continue
        # a colour the line ruled out in a cell is ruled out there in the crossing line
        other = 1 - axis
        cross, cross_lines, cross_queued = may[other], lines[other], queued[other]
        keep = ~(1 << i)
        changed = 0
        for colour, (was, now) in enumerate(zip(old, new)):
            removed = was & ~now
            if not removed:
                continue
            own[colour][i] = now
            changed |= removed
            layer = cross[colour]
            while removed:
                low = removed & -removed
                j = low.bit_length() - 1
                removed ^= low
                layer[j] &= keep
                if not cross_queued[j]:
                    cross_queued[j] = 1
                    queue.append(cross_lines[j])
        if observer is not None:
            observer(LineSolved.of(line, changed, new), board)
        if head > 4096 and head * 2 > len(queue):
            del queue[:head]
            head = 0
    ctx.stats.line_solves += solves
    return True


def line_solve(puzzle: Puzzle, board: Board | None = None) -> Board | None:
    """The board after line logic alone, or None when line logic finds a contradiction."""
    ctx = Context(puzzle)
    board = board or ctx.board()
    return board if propagate(ctx, board) else None
