"""Probing ("fork and sync"): try each value of a cell and keep what every value implies.

A value whose branch contradicts is refuted, so the cell takes another — no recursion
needed. When every branch survives, a colour that no branch leaves a cell is ruled out
there too (for black and white: every cell both branches agree on is fixed).

Probing to the end gives the same board whatever order the cells are probed in (each
deduction stays valid, and stays derivable, once more cells are known), so a pass can be
split between processes: each probes its share of the cells on its own copy of the board,
the parent merges what they found, and passes repeat until none finds anything.
"""

from __future__ import annotations

from operator import or_
from typing import TYPE_CHECKING

from ..errors import SearchTimeout, SolverFailed
from ..model.grid import COLUMN, ROW, Cell, Line
from ..runtime.deadline import NO_DEADLINE, Deadline
from .board import Board
from .context import Context
from .events import Agreed, Refuted
from .propagate import propagate

if TYPE_CHECKING:  # multiprocessing is imported when probing forks, not before
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess


Score = tuple[int, int]


def _branch(ctx: Context, board: Board, r: int, c: int, value: int, deadline: Deadline
            ) -> Board | None:
    b = board.copy()
    b.set(r, c, value)
    ctx.stats.probes += 1
    lines = (ctx.lines[ROW][r], ctx.lines[COLUMN][c])
    return b if propagate(ctx, b, lines, deadline, quiet=True) else None


def _pass(ctx: Context, board: Board, cells: list[Cell], deadline: Deadline
          ) -> tuple[bool, bool, Cell | None, Score]:
    """Probe ``cells`` once, in order, updating ``board`` in place: each colour a cell may
    still take is tried (in black and white, filled then empty); the ones that contradict
    are ruled out, and a colour no surviving branch leaves a cell is ruled out there too.

    Returns ``(consistent, changed, best, score)``: ``best`` is the first cell whose
    branches fixed the most cells (``score``: the fewest any branch fixed, then the sum),
    meaningful when nothing changed. One pass for both kinds of puzzle: on black and white
    the colour pass reaches the same boards at 1-2 % more time (25×25 pictures), and the
    compiled engine does black-and-white probing wherever it runs."""
    changed = False
    best = None
    best_score = (-1, -1)
    rows, cols = ctx.lines
    row_layers = board.may[ROW]
    for r, c in cells:
        options = [k for k in range(board.colours, -1, -1) if row_layers[k][r] >> c & 1]
        if len(options) < 2:
            continue
        if deadline.passed():
            raise deadline.expired()
        branches = []
        refuted = []
        for k in options:
            b = _branch(ctx, board, r, c, k, deadline)
            (refuted.append(k) if b is None else branches.append(b))
        if refuted:
            bit = ~(1 << c)
            board.fix(rows[r], [layer[r] & bit if k in refuted else layer[r]
                                for k, layer in enumerate(row_layers)])
            if ctx.observer is not None:
                for k in refuted:
                    ctx.observer(Refuted((r, c), k, board.get(r, c)), board)
            if not branches or not propagate(ctx, board, (rows[r], cols[c]), deadline):
                return False, True, None, best_score
            changed = True
            continue
        union = [list(layer) for layer in branches[0].may[ROW]]
        for b in branches[1:]:
            union = [list(map(or_, mine, theirs)) for mine, theirs in zip(union, b.may[ROW])]
        dirty, agreed = _merge(ctx, board, union)
        if dirty:
            if ctx.observer is not None:
                ctx.observer(Agreed((r, c), agreed), board)
            if not propagate(ctx, board, dirty, deadline):
                return False, True, None, best_score
            changed = True
            continue
        known = board.known()
        gains = [b.known() - known for b in branches]
        score = (min(gains), sum(gains))
        if score > best_score:
            best_score, best = score, (r, c)
    return True, changed, best, best_score


def _merge(ctx: Context, board: Board, layers: list[list[int]]) -> tuple[list[Line], int]:
    """Narrow ``board`` to ``layers`` (per colour, per row, the cells that may take it).
    Returns the lines to propagate from — the rows and the columns of the cells that
    changed (a column's new cell does not make its row's solve fix anything, so the column
    would not be looked at again) — and how many cells changed."""
    if layers == board.may[ROW]:  # the usual case, told in C
        return [], 0
    rows, cols = ctx.lines
    lines: list[Line] = []
    columns = 0
    count = 0
    for r in range(board.height):
        changed = board.fix(rows[r], [layer[r] for layer in layers])
        if changed:
            lines.append(rows[r])
            columns |= changed
            count += changed.bit_count()
    while columns:
        low = columns & -columns
        lines.append(cols[low.bit_length() - 1])
        columns ^= low
    return lines, count


def probe(ctx: Context, board: Board, deadline: Deadline = NO_DEADLINE, workers: int = 1
          ) -> tuple[bool, Cell | None]:
    """Probe every unknown cell until nothing changes; the board is updated in place.

    Returns ``(consistent, best)``: ``consistent`` is False when the board has no solution;
    ``best`` is the unknown cell whose two branches fixed the most cells (the branching
    choice), or None when the board is solved. ``workers`` > 1 splits each pass between
    that many processes (the same board and the same ``best`` come out).
    """
    if workers > 1 and ctx.observer is None and board.unknown() >= ctx.tuning.parallel_min_unknown:
        return _probe_parallel(ctx, board, deadline, workers)
    while True:
        consistent, changed, best, _ = _pass(ctx, board, board.unknown_cells(), deadline)
        if not consistent:
            return False, None
        if not changed:
            return True, best


def _shares(cells: list[Cell], n: int) -> list[list[Cell]]:
    """Consecutive runs of the cells (row-major), one per process: probes of nearby cells
    solve the same lines, so each process's line cache keeps serving its own share."""
    size = -(-len(cells) // n)
    return [cells[i * size:(i + 1) * size] for i in range(n)]


def _worker(conn: Connection, parent: int, ctx: Context, deadline: Deadline) -> None:
    """A helper process's loop: a board and cells in, the pass's outcome and board out."""
    from ..runtime.child import tie_to_parent

    tie_to_parent(parent)
    try:
        while True:
            may, cells = conn.recv()
            board = ctx.board()
            board.may = may
            probes, solves = ctx.stats.probes, ctx.stats.line_solves
            try:
                outcome = _pass(ctx, board, cells, deadline)
            except SearchTimeout:
                conn.send("timeout")
                return
            conn.send((outcome, board.may[ROW], ctx.stats.probes - probes,
                       ctx.stats.line_solves - solves))
    except EOFError:  # the parent is gone
        return
    except BaseException as exc:  # pragma: no cover - reported to the parent
        conn.send(f"{type(exc).__name__}: {exc}")


def _probe_parallel(ctx: Context, board: Board, deadline: Deadline, workers: int
                    ) -> tuple[bool, Cell | None]:
    """Each pass: this process probes the first share on the board, helpers the others on
    copies of it; what they fixed is merged and propagated, until a pass fixes nothing.
    Helpers live for the whole of probing, so their line caches stay warm."""
    from ..errors import ChildDied
    from ..runtime.child import death, fork, stop

    conns: list[Connection] = []
    procs: list[BaseProcess] = []

    def keep(proc: BaseProcess, conn: Connection) -> None:
        procs.append(proc)
        conns.append(conn)

    try:
        for _ in range(workers - 1):
            fork(_worker, (ctx, deadline), keep, duplex=True)
        while True:
            shares = _shares(board.unknown_cells(), workers)
            for conn, cells in zip(conns, shares[1:]):
                conn.send((board.may, cells))
            # this process's share is probed on the board itself, the helpers' merged after
            consistent, changed, best, best_score = _pass(ctx, board, shares[0], deadline)
            if not consistent:
                return False, None
            results = []
            for conn, proc in zip(conns, procs):
                try:
                    reply = conn.recv()
                except EOFError:
                    raise ChildDied(f"a probing process {death(proc)}") from None
                if reply == "timeout":
                    raise deadline.expired()
                if isinstance(reply, str):
                    raise SolverFailed(f"a probing process failed: {reply}")
                outcome, layers, probes, solves = reply
                ctx.stats.probes += probes
                ctx.stats.line_solves += solves
                results.append((outcome, layers))
            dirty: set[Line] = set()
            for (consistent, moved, cell, score), layers in results:
                if not consistent:
                    return False, None
                changed |= moved
                if score > best_score:  # shares come in cell order: the first best wins
                    best, best_score = cell, score
                dirty.update(_merge(ctx, board, layers)[0])
            if dirty and not propagate(ctx, board, sorted(dirty), deadline):
                return False, None
            if not changed:
                return True, best
    finally:
        stop(procs, conns)
