"""Iterated line analysis (seed 000): re-solve every line whose crossing cells changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..model.puzzle import Puzzle
from .board import Board
from .line import LineCache


@dataclass
class Stats:
    """What the solving took; the difficulty rating and the benchmarks read these."""

    line_solves: int = 0
    probes: int = 0
    nodes: int = 0
    max_depth: int = 0
    solutions: int = 0


@dataclass
class Context:
    """Per-puzzle state shared by propagation, probing and search."""

    puzzle: Puzzle
    cache: LineCache = field(default_factory=LineCache)
    stats: Stats = field(default_factory=Stats)
    encoding: object | None = None  # the residual CNF, when a SAT backend built one
    #: called as trace(event, board, *details) when set (``solve --trace``)
    trace: Callable[..., None] | None = None

    @property
    def lines(self) -> int:
        return self.puzzle.height + self.puzzle.width


def propagate(ctx: Context, board: Board, dirty: list[int] | None = None) -> bool:
    """Run line analysis to a fixed point; False on a contradiction (board is then garbage).

    Line ids: 0..h-1 are rows, h..h+w-1 columns. ``dirty`` lists the lines to start from
    (all lines when None); a line is queued again whenever one of its cells becomes known.
    """
    h = board.height
    w = board.width
    rows = ctx.puzzle.rows
    cols = ctx.puzzle.columns
    solve = ctx.cache.solve
    rf, re, cf, ce = board.rf, board.re, board.cf, board.ce
    queue = list(range(h + w)) if dirty is None else list(dirty)
    queued = bytearray(h + w)
    for i in queue:
        queued[i] = 1
    head = 0
    solves = 0
    while head < len(queue):
        lid = queue[head]
        head += 1
        queued[lid] = 0
        solves += 1
        if lid < h:  # a row: its crossing lines are the columns, ids h..h+w-1
            i, clue, n, base = lid, rows[lid], w, h
            own_f, own_e, cross_f, cross_e = rf, re, cf, ce
        else:
            i, clue, n, base = lid - h, cols[lid - h], h, 0
            own_f, own_e, cross_f, cross_e = cf, ce, rf, re
        f, e = own_f[i], own_e[i]
        res = solve(clue, n, f, e)
        if res is None:
            ctx.stats.line_solves += solves
            if ctx.trace is not None:
                ctx.trace("contradiction", board, lid)
            return False
        nf = res.filled & ~f
        ne = res.empty & ~e
        if not (nf or ne):
            continue
        own_f[i] = f | nf
        own_e[i] = e | ne
        bit = 1 << i
        if ctx.trace is not None:
            _sync_trace(ctx, board, lid, nf, ne)
        for x, cross in ((nf, cross_f), (ne, cross_e)):
            while x:
                low = x & -x
                j = low.bit_length() - 1
                x ^= low
                cross[j] |= bit
                if not queued[base + j]:
                    queued[base + j] = 1
                    queue.append(base + j)
        if head > 4096 and head * 2 > len(queue):
            del queue[:head]
            head = 0
    ctx.stats.line_solves += solves
    return True


def _sync_trace(ctx: Context, board: Board, lid: int, nf: int, ne: int) -> None:
    """Report a line step with the crossing masks brought up to date first (the loop
    updates them just after), so the tracer sees one consistent board."""
    h = board.height
    i = lid if lid < h else lid - h
    for x, v in ((nf, 1), (ne, 0)):
        while x:
            low = x & -x
            j = low.bit_length() - 1
            x ^= low
            if lid < h:
                (board.cf if v else board.ce)[j] |= 1 << i
            else:
                (board.rf if v else board.re)[j] |= 1 << i
    assert ctx.trace is not None
    ctx.trace("line", board, lid, nf.bit_count(), ne.bit_count())


def line_solve(puzzle: Puzzle, board: Board | None = None) -> Board | None:
    """The board after line logic alone (seed 000's primary analysis), or None if infeasible."""
    board = board or Board(puzzle.width, puzzle.height)
    return board if propagate(Context(puzzle), board) else None
