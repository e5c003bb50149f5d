"""Counting the residual CNF: blocking-clause enumeration for few solutions, projected
model counting (Ganak, through pyganak) for many — what :func:`satnono.analyze.count.count`
and the split count (:mod:`satnono.analyze.split`) both run on a puzzle or a part of one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..encode.residual import Residual, decode_solution
from ..errors import CounterMissing, Interrupted, SearchTimeout, UsageError
from ..logic.board import Board
from ..logic.compiled import DISABLE
from ..logic.context import Stats
from ..model.puzzle import Puzzle
from ..model.verdict import CountMethod
from ..pipeline import check, residual
from ..runtime.child import stream
from ..runtime.deadline import Deadline

#: auto switches from enumeration to Ganak after this many solutions
THRESHOLD = 1000
#: the backend whose residual CNF is enumerated and counted here (the others enumerate
#: through :func:`satnono.solve`)
CNF_BACKEND = "sat"
#: auto gives the compiled counter this share of a time limit (or, with none, this many
#: seconds); enumeration and Ganak get what is left if it has not finished. On a sample of
#: 38 of tcga2015's slow counts the counter finished 33 in at most 13 s each; the five it
#: had not finished in 30 s (four of 10^7 to 10^8 solutions, one whose search tree is
#: deep) Ganak counts in 80-170 s, which a 300 s limit leaves it
AUTO_SHARE = 0.3
AUTO_ALONE = 60.0
#: what a count by the compiled counter says it was
COMPILED = "compiled counter"
#: parts per process when a count is split without saying into how many: enough that a
#: process that drew easy parts takes more, few enough that splitting stays cheap
PARTS_PER_WORKER = 8


@dataclass
class CountResult:
    """``count`` is exact when ``complete``; otherwise it is a lower bound (what
    enumeration had found when the time ran out)."""

    count: int
    complete: bool
    method: str  # "propagation", "compiled counter", "enumerate (<backend>)" or "ganak"
    seconds: float
    unknown_cells: int = 0  # cells left for the solver after propagation and probing
    variables: int = 0
    clauses: int = 0



def count_residual(puzzle: Puzzle, method: CountMethod, clock: Clock, threshold: int,
                   board: Board | None = None) -> CountResult:
    """The sat count in one process: presolve (from ``board`` when given), then the
    compiled counter (``method`` compiled, or auto on black and white), or the residual CNF
    enumerated, or counted by Ganak (``method``, as :func:`count` takes it); more processes
    split the count instead (:mod:`.split`)."""
    if compiled_counts(puzzle, method):
        return _count_compiled_first(puzzle, method, clock, threshold, board)
    return _count_cnf(puzzle, method, clock, threshold, board)


def _count_cnf(puzzle: Puzzle, method: CountMethod, clock: Clock, threshold: int,
               board: Board | None) -> CountResult:
    """The residual CNF's count: enumerated, counted by Ganak, or auto (enumerated up to
    ``threshold`` solutions, then Ganak)."""
    try:
        res = residual(puzzle, deadline=clock.deadline, board=board)
    except SearchTimeout:
        return clock.result(0, False, "ganak" if method is CountMethod.GANAK
                            else "enumerate (sat)")
    if res.encoding is None:  # logic decided it
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    if method is CountMethod.GANAK:
        return count_by_ganak(res, clock, found=0)
    return _enumerate_residual(puzzle, res, clock, method, threshold)


def compiled_counts(puzzle: Puzzle, method: CountMethod) -> bool:
    """Whether the compiled counter counts ``puzzle``: asked for (refused in colour), or
    auto on a black-and-white puzzle where the compiled code runs."""
    from ..logic.compiled import available, usable

    if method is CountMethod.COMPILED:
        if not puzzle.palette.black_and_white:
            raise UsageError("the compiled counter counts black-and-white puzzles; count "
                             "this one with --method auto, enumerate or ganak")
        return True
    return method is CountMethod.AUTO and usable(puzzle) and available()


def _count_compiled_first(puzzle: Puzzle, method: CountMethod, clock: Clock,
                          threshold: int, board: Board | None) -> CountResult:
    """Presolve, then the compiled counter; auto goes on to enumeration and Ganak on the
    same board for the time left when the counter has not finished in its share."""
    from ..logic.context import Context
    from ..model.verdict import Depth
    from ..pipeline import presolved

    ctx = Context(puzzle)
    how = COMPILED if method is CountMethod.COMPILED else "enumerate (sat)"
    try:
        start = presolved(ctx, Depth.PROBED, clock.deadline, board=board)
    except SearchTimeout:
        return clock.result(0, False, how)
    if start.board is None or start.solved:
        return clock.result(0 if start.board is None else 1, True, "propagation")
    if method is CountMethod.COMPILED:
        return count_compiled(puzzle, start.board, clock)
    counted = count_compiled(puzzle, start.board, clock.share(AUTO_SHARE, AUTO_ALONE))
    if counted.complete or clock.deadline.passed():
        counted.seconds = time.monotonic() - clock.started
        return counted
    return _count_cnf(puzzle, method, clock, threshold, start.board)


class Clock:
    """The deadline and the start time, and results stamped with the time taken."""

    def __init__(self, deadline: Deadline):
        self.deadline = deadline
        self.started = time.monotonic()

    def share(self, fraction: float, alone: float) -> Clock:
        """A clock from the same start whose deadline is ``fraction`` of the time left, or
        ``alone`` seconds from now with no deadline."""
        left = self.deadline.remaining()
        out = Clock(Deadline.after(alone if left is None else fraction * left))
        out.started = self.started
        return out

    def result(self, n: int, complete: bool, method: str, stats: Stats | None = None,
               res: Residual | None = None, cells: int = 0) -> CountResult:
        out = CountResult(n, complete, method, time.monotonic() - self.started, cells)
        enc = res.encoding if res is not None else None
        if enc is not None:
            out.unknown_cells, out.variables, out.clauses = (len(enc.cells), enc.variables,
                                                             len(enc.clauses))
        elif stats is not None and stats.variables:
            out.unknown_cells, out.variables, out.clauses = (stats.unknown, stats.variables,
                                                             stats.clauses)
        return out


def _enumerate_residual(puzzle: Puzzle, res: Residual, clock: Clock, method: CountMethod,
                        threshold: int) -> CountResult:
    """The sat backend's enumeration on a residual already built, then Ganak on the same
    residual past the threshold."""
    from ..backends.solver import DEFAULT_SOLVER, models

    enc = res.encoding
    assert enc is not None
    limit = None if method is CountMethod.ENUMERATE else threshold + 1
    found = 0
    try:
        for true in models(enc, DEFAULT_SOLVER, limit, 1, clock.deadline):
            check(puzzle, decode_solution(enc, true), CNF_BACKEND)
            found += 1
    except SearchTimeout:
        return clock.result(found, False, "enumerate (sat)", res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, "enumerate (sat)", clock) from None
    if limit is None or found < limit:
        return clock.result(found, True, "enumerate (sat)", res=res)
    return count_by_ganak(res, clock, found)


def count_compiled(puzzle: Puzzle, board: Board, clock: Clock) -> CountResult:
    """The compiled counter (:func:`satnono.logic.compiled.count_solutions`) on a presolved
    black-and-white ``board``, in a child killed at the deadline (a call into compiled code
    cannot be stopped otherwise, not even by Ctrl-C); an incomplete result counts 0."""
    from ..logic.compiled import counting

    if not counting():
        raise CounterMissing("the compiled counter needs Numba, and it does not load here "
                             f"(or {DISABLE} is set)")
    open_cells = puzzle.width * puzzle.height - board.known()
    try:
        (counted,) = list(stream(_compiled_count, (puzzle, board), clock.deadline,
                                 what="compiled counter", always=True))
    except SearchTimeout:
        return clock.result(0, False, COMPILED, cells=open_cells)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, 0, "the compiled counter", clock) from None
    if counted.count is None:  # past 2^63 - 1
        return clock.result(0, False, COMPILED, cells=open_cells)
    return clock.result(counted.count, True, COMPILED, cells=open_cells)


def _compiled_count(puzzle: Puzzle, board: Board) -> Iterator[Any]:
    from ..logic.compiled import count_solutions

    yield count_solutions(puzzle, board)


def count_by_ganak(res: Residual, clock: Clock, found: int) -> CountResult:
    """Ganak's exact count of the residual CNF, projected on the unknown cells."""
    enc = res.encoding
    if enc is None:
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    try:
        import pyganak  # noqa: F401
    except ImportError:  # pragma: no cover - pyganak is a dependency
        raise CounterMissing("exact counting of many solutions needs pyganak "
                             "(pip install pyganak)") from None
    args = (enc.variables, enc.clauses, sorted(enc.cells.values()))
    try:
        (n,) = list(stream(_count_models, args, clock.deadline, what="model counter",
                           size=enc.size(), always=True))
    except SearchTimeout:
        return clock.result(found, False, "ganak", res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, "Ganak counting", clock) from None
    return clock.result(n, True, "ganak", res=res)


def stopped_count(exc: KeyboardInterrupt, found: int, how: str, clock: Clock) -> Interrupted:
    """Ctrl-C (or SIGTERM) while counting, saying how far the count got."""
    return Interrupted.saying(exc, f"at least {found:,} solution(s) found ({how}, "
                              f"{time.monotonic() - clock.started:.1f} s); the count is "
                              "incomplete")


def _count_models(variables: int, clauses: list[list[int]], sampling: list[int]
                  ) -> Iterator[int]:
    import os
    import sys

    from pyganak import Counter

    counter = Counter()
    counter.new_vars(variables)
    counter.add_clauses(clauses)
    counter.set_sampling_set(sampling)
    # Ganak reports progress ("c o intermediate count") on standard output when a count
    # runs long; standard output is the count's, so its writes go nowhere meanwhile
    sys.stdout.flush()
    saved = os.dup(1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 1)
        n = counter.count()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(quiet)
    yield n
