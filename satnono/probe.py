"""Probing, seed 001's "fork and sync": try both values of a cell and keep what both imply.

A value whose branch contradicts is refuted, so the cell takes the other value — no
recursion needed. When both branches survive, every cell they agree on is fixed too.
"""

from __future__ import annotations

import time

from .board import Board
from .errors import SearchTimeout
from .propagate import Context, propagate


def _branch(ctx: Context, board: Board, r: int, c: int, value: int) -> Board | None:
    b = board.copy()
    b.set(r, c, value)
    ctx.stats.probes += 1
    trace, ctx.trace = ctx.trace, None  # a probe's own line steps are not the solving's
    try:
        return b if propagate(ctx, b, [r, board.height + c]) else None
    finally:
        ctx.trace = trace


def probe(ctx: Context, board: Board, deadline: float | None = None
          ) -> tuple[bool, tuple[int, int] | None]:
    """Probe every unknown cell until nothing changes; the board is updated in place.

    Returns ``(consistent, best)``: ``consistent`` is False when the board has no solution;
    ``best`` is the unknown cell whose two branches fixed the most cells (the branching
    choice), or None when the board is solved.
    """
    h = board.height
    while True:
        changed = False
        best = None
        best_score = (-1, -1)
        for r, c in board.unknown_cells():
            if board.get(r, c) is not None:
                continue
            if deadline is not None and time.monotonic() > deadline:
                raise SearchTimeout(ctx.stats.solutions, 0)
            one = _branch(ctx, board, r, c, 1)
            zero = _branch(ctx, board, r, c, 0) if one is not None else None
            if one is None or zero is None:
                # a refuted value: the cell takes the other one
                value = 0 if one is None else 1
                board.set(r, c, value)
                if ctx.trace is not None:
                    ctx.trace("refuted", board, r, c, 1 - value)
                if not propagate(ctx, board, [r, h + c]):
                    return False, None
                changed = True
                continue
            dirty = []
            agreed = 0
            for i in range(h):
                nf = one.rf[i] & zero.rf[i] & ~board.rf[i]
                ne = one.re[i] & zero.re[i] & ~board.re[i]
                if nf or ne:
                    for x, v in ((nf, 1), (ne, 0)):
                        while x:
                            low = x & -x
                            board.set(i, low.bit_length() - 1, v)
                            x ^= low
                    dirty.append(i)
                    agreed += (nf | ne).bit_count()
            if dirty:
                if ctx.trace is not None:
                    ctx.trace("agreed", board, r, c, agreed)
                if not propagate(ctx, board, dirty):
                    return False, None
                changed = True
                continue
            known = board.known()
            g1, g0 = one.known() - known, zero.known() - known
            score = (min(g1, g0), g1 + g0)
            if score > best_score:
                best_score, best = score, (r, c)
        if not changed:
            return True, best
