"""Exact counts split into independent parts ("cubes", as in cube-and-conquer: Heule,
Kullmann, Wieringa and Biere, "Cube and Conquer", 2011), counted side by side.

A part is the puzzle with some cells given a value. The cells are chosen by lookahead:
probing already scores every unknown cell by how many cells its values fix, and the best
one splits the work most evenly and shrinks each side most. The largest open part is split
on its best cell, each value's branch propagated and probed; a branch that contradicts is
dropped (no solutions), one that logic solves is one solution, the rest are parts. The
parts' solution sets are disjoint (they differ in a cell) and cover every solution (every
value of each split cell is tried), so the count is the sum of theirs.

Nothing passes between parts while they are counted, which is why this is the count that
pays on a cluster: :func:`count_split` takes the function that counts a list of parts, on
local processes by default (:func:`local_parts`), or on Dask workers from the command line.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..backends import check_workers
from ..errors import SearchTimeout, UsageError
from ..logic.board import Board
from ..logic.context import Context
from ..logic.probe import probe
from ..logic.propagate import propagate
from ..model.grid import COLUMN, ROW, Cell, Line
from ..model.puzzle import Puzzle
from ..model.verdict import CountMethod
from ..pipeline import check, require_solvable
from ..runtime.deadline import NO_DEADLINE, Deadline
from ..tuning import TUNING
from .counters import (
    CNF_BACKEND,
    Clock,
    CountResult,
    count_residual,
)


@dataclass(frozen=True)
class Part:
    """The cells a part fixes, as ``(row, column, colour)`` (black and white: 1 filled,
    0 empty); everything else is the counter's."""

    fixed: tuple[tuple[int, int, int], ...]


@dataclass
class Split:
    """What splitting gives: the open ``parts``, the ``solved`` branches (one solution
    each, checked), how many branches contradicted (``dropped``) and the split cells'
    count (``splits``)."""

    parts: list[Part]
    solved: int = 0
    dropped: int = 0
    splits: int = 0
    seconds: float = 0.0


def _presolve_part(ctx: Context, board: Board, deadline: Deadline, lines: list[Line] | None = None
            ) -> tuple[bool, Cell | None]:
    """Propagate (from ``lines``, or every line) and probe ``board`` in place:
    (consistent, the cell to split on next)."""
    if not propagate(ctx, board, lines, deadline):
        return False, None
    if board.solved():
        return True, None
    return probe(ctx, board, deadline)


def _options(board: Board, r: int, c: int) -> list[int]:
    return [k for k in range(board.colours + 1) if board.may[ROW][k][r] >> c & 1]


def split(puzzle: Puzzle, parts: int, deadline: Deadline = NO_DEADLINE) -> Split:
    """Split ``puzzle`` into at least ``parts`` open parts where it has that many (fewer
    when logic settles branches first), largest first.

    >>> s = split(Puzzle(((1,),) * 4, ((1,),) * 4), 4)
    >>> len(s.parts) >= 4, s.solved, s.dropped
    (True, 0, 0)
    """
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise UsageError(f"parts is a whole number from 1, not {parts!r}")
    started = time.monotonic()
    ctx = Context(puzzle)
    out = Split([])
    # open parts, the one with the most unknown cells on top (ties: oldest first)
    heap: list[tuple[int, int, tuple[tuple[int, int, int], ...], Board, Cell]] = []
    order = itertools.count()

    def place(board: Board, fixed: tuple[tuple[int, int, int], ...],
              lines: list[Line] | None) -> None:
        """Settle a branch: dropped, solved (one solution, checked) or an open part."""
        ok, best = _presolve_part(ctx, board, deadline, lines)
        if not ok:
            out.dropped += 1
        elif best is None:
            check(puzzle, board.to_solution(), "split")
            out.solved += 1
        else:
            heapq.heappush(heap, (-board.unknown(), next(order), fixed, board, best))

    place(ctx.board(), (), None)
    while heap and len(heap) < parts:
        _, _, fixed, board, (r, c) = heapq.heappop(heap)
        out.splits += 1
        for k in _options(board, r, c):
            branch = board.copy()
            branch.set(r, c, k)
            place(branch, fixed + ((r, c, k),), [ctx.lines[ROW][r], ctx.lines[COLUMN][c]])
    out.parts = [Part(fixed) for _, _, fixed, _, _ in sorted(heap)]
    out.seconds = time.monotonic() - started
    return out


def count_part(puzzle: Puzzle, part: Part, method: CountMethod | str = CountMethod.AUTO,
               timeout: float | None = None, threshold: int = TUNING.threshold
               ) -> CountResult:
    """The exact count of one part (a lower bound marked incomplete when ``timeout``
    runs out): its cells set, then what :func:`satnono.analyze.count.count` does with the
    sat backend (presolve, the residual CNF enumerated or counted by Ganak)."""
    clock = Clock(Deadline.after(timeout))
    board = Context(puzzle).board()
    for r, c, k in part.fixed:
        board.set(r, c, k)
    return count_residual(puzzle, CountMethod(method), clock, threshold, board=board)


#: seconds a part's process gets past its time limit to report what it has
GRACE = 5.0

#: counts a list of parts by a wall-clock end (``time.time()``, None for no limit: parts
#: that start late get only what is left, on whichever machine), yielding (part, result)
#: pairs as they finish
PartCounter = Callable[[list[Part], Puzzle, str, "float | None", int],
                       Iterator[tuple[Part, CountResult]]]


def _left(until: float | None) -> float | None:
    return None if until is None else until - time.time()


def count_parts(parts: list[Part], puzzle: Puzzle, method: str, until: float | None,
                threshold: int) -> list[tuple[Part, CountResult]]:
    """``parts`` counted one after another here, each in what is left of the time until
    ``until`` (what a cluster worker runs). A part with no time left is not started: it
    counts as an incomplete zero."""
    from ..runtime.child import allow_children

    allow_children()  # Ganak, and an enumeration with a time limit, run in children
    out = []
    for part in parts:
        left = _left(until)
        if left is not None and left <= 0:
            out.append((part, CountResult(0, False, "not started", 0.0)))
        else:
            out.append((part, count_part(puzzle, part, method, left, threshold)))
    return out


def _count_one(puzzle: Puzzle, part: Part, method: str, until: float | None,
               threshold: int) -> Iterator[CountResult]:
    ((_, res),) = count_parts([part], puzzle, method, until, threshold)
    yield res


def local_parts(workers: int) -> PartCounter:
    """Count parts ``workers`` at a time, each in a process of its own, killed a little
    after the time limit if its counter ignores it."""
    from ..runtime.child import stream

    def run(parts: list[Part], puzzle: Puzzle, method: str, until: float | None,
            threshold: int) -> Iterator[tuple[Part, CountResult]]:
        # the part's own clock stops its count; this one, a little later, its process
        left = _left(until)
        hard = Deadline.after(None if left is None else max(left, 0) + GRACE)

        def one(part: Part) -> tuple[Part, CountResult]:
            started = time.monotonic()
            try:
                (res,) = stream(_count_one, (puzzle, part, method, until, threshold), hard,
                                what="part counter", always=True)
            except SearchTimeout:
                res = CountResult(0, False, method, time.monotonic() - started)
            return part, res

        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(one, parts)

    return run


@dataclass
class SplitCount:
    """The sum of the parts' counts, and how it was made."""

    result: CountResult
    split: Split
    parts: list[tuple[Part, CountResult]]


def count_split(puzzle: Puzzle, parts: int, method: CountMethod | str = CountMethod.AUTO, *,
                timeout: float | None = None, threshold: int = TUNING.threshold,
                counter: PartCounter | None = None, workers: int = 2) -> SplitCount:
    """Split ``puzzle`` into about ``parts`` parts (:func:`split`) and add up their counts,
    made by ``counter`` (default: ``workers`` local processes). Exact when every part's
    count is; otherwise a lower bound.

    >>> count_split(Puzzle(((1,),) * 5, ((1,),) * 5), 4).result.count  # 5!
    120
    """
    try:
        method = CountMethod(method)
    except ValueError:
        raise UsageError(f"unknown counting method {method!r}") from None
    require_solvable(puzzle, CNF_BACKEND)
    check_workers(workers)
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise UsageError(f"parts is a whole number from 1, not {parts!r}")
    clock = Clock(Deadline.after(timeout))
    try:
        cut = split(puzzle, parts, clock.deadline)
    except SearchTimeout:
        return SplitCount(clock.result(0, False, "split"), Split([]), [])
    run = counter or local_parts(workers)
    left = clock.deadline.remaining()
    until = None if left is None else time.time() + left
    done = list(run(cut.parts, puzzle, method.value, until, threshold))
    total = cut.solved + sum(r.count for _, r in done)
    exact = sum(r.complete for _, r in done)
    methods = sorted({r.method for _, r in done if r.complete})
    how = (f"split into {len(cut.parts)} part(s) on {cut.splits} cell(s) "
           f"({cut.solved} solved and {cut.dropped} refuted by logic while splitting), "
           f"parts counted by {', '.join(methods) or 'nothing'}")
    if exact < len(done):
        how += f"; {exact} of {len(done)} parts counted exactly"
    complete = exact == len(done)
    return SplitCount(clock.result(total, complete, how), cut, done)
