"""The native backtracker: propagate, probe, branch — no SAT solver, every solution, lazily.

Two searches, both driven by the complete line solver alone:

* by default, propagation and probing at the root, then conflict-driven search with
  clause learning (:mod:`satnono.learn`) — what validates puzzles like 9-Dom, where
  plain backtracking meets the same dead ends millions of times;
* with ``learning=False``, the plain depth-first search below: probing at every node,
  branching on the cell whose probes fixed most, over board copies with an explicit stack
  (a puzzle with 10^15 solutions goes deeper than Python's recursion limit). It is the
  simplest thing that can be right, so the tests hold the learning search against it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...errors import SearchTimeout
from ...logic.board import Board
from ...logic.presolve import deadline_of, presolve
from ...logic.probe import probe
from ...logic.propagate import Context, propagate
from ...model.puzzle import Puzzle, Solution, is_solution
from .cdcl import search_learning


def _pick(board: Board) -> tuple[int, int]:
    """Without probing: an unknown cell of the row with the fewest unknown cells."""
    full = (1 << board.width) - 1
    best = None
    for r, (f, e) in enumerate(zip(board.rf, board.re)):
        u = full & ~(f | e)
        if u and (best is None or u.bit_count() < best[0]):
            best = (u.bit_count(), r, (u & -u).bit_length() - 1)
    assert best is not None
    return best[1], best[2]


def search(ctx: Context, board: Board | None = None, *, probing: bool = True,
           deadline: float | None = None) -> Iterator[Solution]:
    """Yield every solution below ``board`` (the empty board when None).

    Branches try "filled" before "empty", so the order is deterministic (the seed's
    two-solution example comes out in the order it prints).
    """
    puzzle = ctx.puzzle
    start = board if board is not None else Board(puzzle.width, puzzle.height)
    stack: list[tuple[Board, list[int] | None, int]] = [(start, None, 0)]
    stats = ctx.stats
    while stack:
        if deadline is not None and time.monotonic() > deadline:
            raise SearchTimeout(stats.solutions, 0)
        board, dirty, depth = stack.pop()
        stats.nodes += 1
        stats.max_depth = max(stats.max_depth, depth)
        if ctx.trace is not None and dirty:
            r, c = dirty[0], dirty[1] - board.height
            ctx.trace("branch", board, r, c, board.get(r, c), depth)
        if not propagate(ctx, board, dirty):
            if ctx.trace is not None:
                ctx.trace("backtrack", board, depth)
            continue
        if board.solved():
            sol = board.to_solution()
            if not is_solution(puzzle, sol):  # pragma: no cover - a solver bug, never data
                raise AssertionError(f"native search produced a non-solution for {puzzle.title}")
            stats.solutions += 1
            if ctx.trace is not None:
                ctx.trace("solution", board, stats.solutions)
            yield sol
            continue
        if probing:
            ok, cell = probe(ctx, board, deadline)
            if not ok:
                if ctx.trace is not None:
                    ctx.trace("backtrack", board, depth)
                continue
            if cell is None:
                # probing fixed every cell: the board is solved, look again on the next pop
                stack.append((board, [], depth))
                continue
        else:
            cell = _pick(board)
        r, c = cell
        dirty = [r, board.height + c]
        zero = board.copy()
        zero.set(r, c, 0)
        board.set(r, c, 1)
        stack.append((zero, dirty, depth + 1))
        stack.append((board, dirty, depth + 1))


def solve_native(puzzle: Puzzle, *, probing: bool = True, learning: bool = True,
                 timeout: float | None = None, ctx: Context | None = None
                 ) -> Iterator[Solution]:
    """Every solution of ``puzzle`` (validated first), lazily; raises SearchTimeout."""
    ctx = ctx or Context(puzzle)
    deadline = deadline_of(timeout)
    try:
        if learning:
            board = presolve(ctx, probing=probing, deadline=deadline, timeout=timeout)
            if board is not None:
                yield from search_learning(ctx, board, deadline=deadline)
        else:
            yield from search(ctx, probing=probing, deadline=deadline)
    except SearchTimeout as exc:
        raise SearchTimeout(ctx.stats.solutions, timeout or 0) from exc
