"""The plain depth-first search: probing at every node, no learning.

Branch on the cell whose probes fixed most, over board copies with an explicit stack (a
puzzle with 10^15 solutions goes deeper than Python's recursion limit). It is the simplest
thing that can be right, so the tests hold the conflict-driven search against it; its
``--trace`` reads like the tree of guesses a person would draw.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...logic.board import Board
from ...logic.context import Context
from ...logic.events import Backtrack, Branch, Found
from ...logic.probe import probe
from ...logic.propagate import propagate
from ...model.grid import ROW, Cell, Line
from ...model.solution import Solution
from ...runtime.deadline import Deadline


def _pick(board: Board) -> Cell:
    """Without probing: an unknown cell of the row with the fewest unknown cells."""
    best = None
    for r, u in enumerate(board._open_rows()):
        if u and (best is None or u.bit_count() < best[0]):
            best = (u.bit_count(), r, (u & -u).bit_length() - 1)
    assert best is not None
    return best[1], best[2]


def search(ctx: Context, board: Board | None = None, *, probing: bool = True,
           deadline: Deadline) -> Iterator[Solution]:
    """Yield every solution below ``board`` (the empty board when None).

    Branches try "filled" before "empty", so the order is deterministic (the 2×2 puzzle
    with two solutions gives them in the order the olympiad's program prints them).
    """
    start = board if board is not None else ctx.board()
    stack: list[tuple[Board, tuple[Line, ...] | None, int]] = [(start, None, 0)]
    stats, observer = ctx.stats, ctx.observer
    rows, cols = ctx.lines
    while stack:
        deadline.check()
        board, dirty, depth = stack.pop()
        stats.nodes += 1
        stats.max_depth = max(stats.max_depth, depth)
        if observer is not None and dirty:
            r, c = dirty[0].index, dirty[1].index
            observer(Branch((r, c), board.get(r, c) or 0, depth), board)
        if not propagate(ctx, board, dirty, deadline):
            if observer is not None:
                observer(Backtrack(depth), board)
            continue
        if board.solved():
            stats.solutions += 1
            if observer is not None:
                observer(Found(stats.solutions), board)
            yield board.to_solution()
            continue
        if probing:
            ok, cell = probe(ctx, board, deadline)
            if not ok:
                if observer is not None:
                    observer(Backtrack(depth), board)
                continue
            if cell is None:
                # probing fixed every cell: the board is solved, look again on the next pop
                stack.append((board, (), depth))
                continue
        else:
            cell = _pick(board)
        r, c = cell
        lines = (rows[r], cols[c])
        # each colour the cell may take, block colours first ("filled" before "empty")
        options = [k for k in range(board.colours, -1, -1) if board.may[ROW][k][r] >> c & 1]
        for k in reversed(options):
            branch = board if k == options[0] else board.copy()
            if branch is not board:
                branch.set(r, c, k)
            stack.append((branch, lines, depth + 1))
        board.set(r, c, options[0])
