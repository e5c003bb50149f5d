"""Exact solution counts: blocking-clause enumeration for few solutions, projected model
counting (Ganak, through pyganak) for many.

Both count the same residual CNF: propagation and probing fix what they can, the unknown
cells' variables are the sampling set, and the automaton variables are existential (they
are functions of the cells anyway, so the projection only spares Ganak the work of
noticing). ``auto`` enumerates up to a threshold and only then pays for Ganak, so puzzles
with a handful of solutions are instant and ones with 10^15 still get an exact number.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..backends import backend as backend_row
from ..encode.residual import Residual, decode_solution, residual
from ..errors import CounterMissing, Interrupted, SearchTimeout, UsageError
from ..logic.board import Board
from ..logic.context import Context, Stats
from ..model.puzzle import Puzzle
from ..model.verdict import CountMethod
from ..pipeline import check, require_solvable, solve
from ..runtime.child import stream
from ..runtime.deadline import Deadline

METHODS = tuple(m.value for m in CountMethod)
#: auto switches from enumeration to Ganak after this many solutions
THRESHOLD = 1000


@dataclass
class CountResult:
    """``count`` is exact when ``complete``; otherwise it is a lower bound (what
    enumeration had found when the time ran out)."""

    count: int
    complete: bool
    method: str  # "propagation", "enumerate (<backend>)" or "ganak"
    seconds: float
    unknown_cells: int = 0  # cells left for the solver after propagation and probing
    variables: int = 0
    clauses: int = 0

    def describe(self) -> str:
        if not self.complete:
            return (f"at least {self.count} solution(s): time limit reached "
                    f"({self.method}, {self.seconds:.2f} s); count incomplete")
        how = f"by {self.method}"
        if self.method == "propagation":  # no solver ran: the board settled it
            how = ("line logic and probing refute the clues" if self.count == 0 else
                   "line logic and probing leave one picture")
        size = (f"; {self.unknown_cells} cells left after propagation, "
                f"{self.variables} variables, {self.clauses} clauses"
                if self.variables else "")
        return f"{self.count} solution(s), exact, {how} [{self.seconds:.2f} s{size}]"


def count(puzzle: Puzzle, method: CountMethod | str = CountMethod.AUTO, *,
          backend: str = "sat", timeout: float | None = None, threshold: int = THRESHOLD,
          workers: int = 1) -> CountResult:
    """Count every solution of ``puzzle`` exactly (or, when ``timeout`` runs out, return a
    lower bound marked incomplete). ``backend`` enumerates (the sat backend's residual is
    then what Ganak counts too); ``workers`` goes to it as to :func:`satnono.solve`.

    >>> from satnono import Puzzle
    >>> count(Puzzle(((1,),) * 4, ((1,),) * 4)).count  # the 4! permutation matrices
    24
    """
    try:
        method = CountMethod(method)
    except ValueError:
        raise UsageError(f"unknown counting method {method!r} (known: "
                         f"{', '.join(METHODS)})") from None
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise UsageError(f"threshold is a whole number of solutions from 1, not {threshold!r}")
    row = backend_row(backend)
    require_solvable(puzzle, row.name)
    options: dict[str, Any] = {} if workers == 1 else {"workers": workers}
    row.check_options(options)
    clock = _Clock(Deadline.after(timeout))
    if method is CountMethod.GANAK or row.name == "sat":
        return count_residual(puzzle, method, clock, threshold, workers)
    limit = None if method is CountMethod.ENUMERATE else threshold + 1
    found = 0
    run = solve(puzzle, row.name, limit=limit, timeout=timeout, **options)
    try:
        for _ in run:
            found += 1
    except SearchTimeout:
        return clock.result(found, False, f"enumerate ({row.name})", run.stats)
    except KeyboardInterrupt as exc:
        raise _stopped(exc, found, f"enumerate ({row.name})", clock) from None
    if limit is None or found < limit:
        return clock.result(found, True, f"enumerate ({row.name})", run.stats)
    try:
        res = residual(Context(puzzle), deadline=clock.deadline, workers=workers)
    except SearchTimeout:
        return clock.result(found, False, "ganak")
    return _ganak(res, clock, found)


def count_residual(puzzle: Puzzle, method: CountMethod, clock: _Clock, threshold: int,
                   workers: int = 1, board: Board | None = None) -> CountResult:
    """The sat count: presolve (from ``board`` when given), then the residual CNF
    enumerated, or counted by Ganak (``method``, as :func:`count` takes it)."""
    ctx = Context(puzzle)
    try:
        res = residual(ctx, deadline=clock.deadline, workers=workers, board=board)
    except SearchTimeout:
        return clock.result(0, False, "ganak" if method is CountMethod.GANAK
                            else "enumerate (sat)")
    if res.encoding is None:  # logic decided it
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    if method is CountMethod.GANAK:
        return _ganak(res, clock, found=0)
    return _enumerate_residual(puzzle, res, clock, method, threshold, workers)


class _Clock:
    """The deadline and the start time, and results stamped with the time taken."""

    def __init__(self, deadline: Deadline):
        self.deadline = deadline
        self.started = time.monotonic()

    def result(self, n: int, complete: bool, method: str, stats: Stats | None = None,
               res: Residual | None = None) -> CountResult:
        out = CountResult(n, complete, method, time.monotonic() - self.started)
        enc = res.encoding if res is not None else None
        if enc is not None:
            out.unknown_cells, out.variables, out.clauses = (len(enc.cells), enc.variables,
                                                             len(enc.clauses))
        elif stats is not None and stats.variables:
            out.unknown_cells, out.variables, out.clauses = (stats.unknown, stats.variables,
                                                             stats.clauses)
        return out


def _enumerate_residual(puzzle: Puzzle, res: Residual, clock: _Clock, method: CountMethod,
                        threshold: int, workers: int) -> CountResult:
    """The sat backend's enumeration on a residual already built, then Ganak on the same
    residual past the threshold."""
    from ..backends.sat import DEFAULT_SOLVER, models

    enc = res.encoding
    assert enc is not None
    limit = None if method is CountMethod.ENUMERATE else threshold + 1
    found = 0
    try:
        for true in models(enc, DEFAULT_SOLVER, limit, workers, clock.deadline):
            check(puzzle, decode_solution(enc, true), "sat")
            found += 1
    except SearchTimeout:
        return clock.result(found, False, "enumerate (sat)", res=res)
    except KeyboardInterrupt as exc:
        raise _stopped(exc, found, "enumerate (sat)", clock) from None
    if limit is None or found < limit:
        return clock.result(found, True, "enumerate (sat)", res=res)
    return _ganak(res, clock, found)


def _ganak(res: Residual, clock: _Clock, found: int) -> CountResult:
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
        raise _stopped(exc, found, "Ganak counting", clock) from None
    return clock.result(n, True, "ganak", res=res)


def _stopped(exc: KeyboardInterrupt, found: int, how: str, clock: _Clock) -> Interrupted:
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
