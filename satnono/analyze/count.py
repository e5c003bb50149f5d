"""Exact solution counts: the compiled counter, blocking-clause enumeration for few
solutions, projected model counting (Ganak, through pyganak) for many.

All of them start from the board propagation and probing leave. The compiled counter
(:mod:`satnono.logic.compiled.counter`) searches it, counting independent parts apart and
remembering parts it has counted: on tcga2015's hardest counts it takes seconds where Ganak
took minutes. Enumeration and Ganak count the residual CNF: the unknown cells' variables are
the sampling set, and the lines' own variables are existential (they are functions of the
cells anyway, so the projection only spares Ganak the work of noticing). Enumeration takes
the lines as automata, whose propagation is line logic's; Ganak takes them in the order
encoding (where blocks start), on which it counts two to three times faster.

``auto`` enumerates up to a threshold (on puzzles with few solutions and a deep search,
CDCL wins: the survey's Thing, 3 solutions, 5.2 s enumerating against 14 s in the counter);
past it the compiled counter, Ganak and enumeration go on (up to 100,000 solutions) side by
side, the first count in kept (Ganak alone where the engine is not built; the counter,
which wins most, has the first seconds to itself: ``Tuning.counter_alone``): puzzles with a
handful of solutions are instant, and ones with 10^15 still get an exact number. When a
time limit is given and the exact count has not finished with a quarter of it left, that
quarter goes to ApproxMC (:mod:`.approx`): an estimate with bounds that hold with a stated
probability, marked as such everywhere, and never a count.
"""

from __future__ import annotations

from typing import Any

from ..backends import DEFAULT, check_workers, pinned
from ..backends import backend as backend_row
from ..errors import SearchTimeout, UnknownOption, UsageError
from ..model.puzzle import Puzzle
from ..model.verdict import CountMethod
from ..pipeline import require_solvable, residual, solve
from ..runtime.deadline import Deadline
from ..tuning import TUNING, Tuning
from .approx import DELTA, EPSILON, check_parameters
from .counters import (
    CNF_BACKEND,
    Clock,
    CountResult,
    count_by_ganak,
    count_residual,
    estimate_count,
    stopped_count,
)

METHODS = tuple(m.value for m in CountMethod)
__all__ = ["CNF_BACKEND", "METHODS", "CountResult", "count"]


def count(puzzle: Puzzle, method: CountMethod | str = CountMethod.AUTO, *,
          backend: str = DEFAULT, timeout: float | None = None, threshold: int | None = None,
          workers: int = 1, parts: int | None = None, epsilon: float = EPSILON,
          delta: float = DELTA, seed: int = 1, exact_first: float | None = None,
          tuning: Tuning = TUNING, **unknown: object) -> CountResult:
    """Count every solution of ``puzzle`` exactly (or, when ``timeout`` runs out, return a
    lower bound marked incomplete). ``auto`` enumerates up to ``threshold`` solutions (the
    tuning's unless given), then races the counters; with a ``timeout`` it keeps the last
    ``approx_share`` of it (the tuning's) for ApproxMC when the exact count has not
    finished by then:
    the result is still incomplete, with an :class:`~satnono.analyze.approx.Estimate` whose
    bounds hold with probability ≥ 1 − ``delta`` (``approx`` asks for the estimate alone;
    ``seed`` is ApproxMC's; the exact methods get ``exact_first`` seconds before it
    (the tuning's unless given: an exact count that comes that soon is the better answer:
    tcga2015 #400, the exact count 2.6 s, ApproxMC's estimate 9.8 s), and one that comes
    that soon is returned
    instead). ``backend`` enumerates (the sat backend's residual is then what
    Ganak counts too). ``workers`` is, as everywhere, how many processes work on the puzzle:
    with the sat backend the count is split into ``parts``
    (the tuning's ``parts_per_worker`` per worker unless given) counted
    side by side (:func:`satnono.analyze.split.count_split`; no estimate then); cpsat gives
    them to its search.

    >>> from satnono import Puzzle
    >>> count(Puzzle(((1,),) * 4, ((1,),) * 4)).count  # the 4! permutation matrices
    24
    """
    if unknown:
        raise UnknownOption(f"count takes no option {', '.join(map(repr, unknown))} "
                            "(its options: method, backend, timeout, threshold, workers, "
                            "parts, epsilon, delta, seed, exact_first)")
    try:
        method = CountMethod(method)
    except ValueError:
        raise UsageError(f"unknown counting method {method!r} (known: "
                         f"{', '.join(METHODS)})") from None
    if threshold is None:
        threshold = tuning.threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise UsageError(f"threshold is a whole number of solutions from 1, not {threshold!r}")
    row = backend_row(backend)
    require_solvable(puzzle, row.name)
    check_workers(workers)
    if parts is not None and (isinstance(parts, bool) or not isinstance(parts, int)
                              or parts < 1):
        raise UsageError(f"parts is a whole number from 1, not {parts!r}")
    check_parameters(epsilon, delta)
    cnf = row.name == CNF_BACKEND
    if method is CountMethod.COMPILED and not cnf:
        raise UsageError("the compiled counter counts on its own: leave out the backend")
    if method is CountMethod.APPROX:
        if not cnf or workers > 1 or parts:
            raise UsageError("an estimate is ApproxMC's, in one process: leave out the "
                             "backend, the workers and the parts")
        clock = Clock(Deadline.after(timeout))
        if exact_first is None:
            exact_first = tuning.exact_first
        if isinstance(exact_first, bool) or not isinstance(exact_first, (int, float)) \
                or not exact_first >= 0:
            raise UsageError(f"exact_first is a number of seconds from 0, not {exact_first!r}")
        found = 0
        if exact_first:
            exact = _exact(puzzle, CountMethod.AUTO, row.name, clock.within(exact_first),
                           threshold, {}, tuning)
            if exact.complete:
                exact.why = (f"exact: it came within the {exact_first:g} s an estimate lets "
                             "the exact methods try first")
                return exact
            found = exact.count
        return estimate_count(puzzle, clock, epsilon, delta, seed, found=found)
    if parts is not None and not cnf:
        raise UsageError(f"a count is split into parts with the {CNF_BACKEND} backend only")
    if cnf and (workers > 1 or parts):
        from .split import count_split  # what a count in one piece need not import

        return count_split(puzzle, parts or tuning.parts_per_worker * workers, method,
                           timeout=timeout, threshold=threshold, workers=workers).result
    options: dict[str, Any] = pinned(row.name, workers)
    row.check_options(options)
    clock = Clock(Deadline.after(timeout))
    if method is not CountMethod.AUTO or not clock.deadline.limited:
        return _exact(puzzle, method, row.name, clock, threshold, options, tuning)
    # auto with a time limit: the exact methods until approx_share of it is left, then an
    # estimate in that time (an estimate beats "at least 1,001")
    exact = _exact(puzzle, method, row.name, clock.sooner(tuning.approx_share), threshold,
                   options, tuning)
    if exact.complete:
        return exact
    guess = estimate_count(puzzle, clock, epsilon, delta, seed, found=exact.count)
    if guess.estimate is not None or guess.complete:
        return guess
    # the help promises the last quarter to ApproxMC: say that it had it and gave nothing
    # (both results are timed from the count's start, so the difference is ApproxMC's)
    exact.why = (f"ApproxMC gave no estimate in the last "
                 f"{guess.seconds - exact.seconds:.0f} s")
    exact.seconds = guess.seconds
    return exact


def _exact(puzzle: Puzzle, method: CountMethod, backend: str, clock: Clock, threshold: int,
           options: dict[str, Any], tuning: Tuning = TUNING) -> CountResult:
    """The exact count in one process, or a lower bound marked incomplete at the deadline."""
    if method in (CountMethod.GANAK, CountMethod.D4) or backend == CNF_BACKEND:
        return count_residual(puzzle, method, clock, threshold, tuning=tuning)
    limit = None if method is CountMethod.ENUMERATE else threshold + 1
    found = 0
    run = solve(puzzle, backend, limit=limit, timeout=clock.deadline.left(), **options)
    try:
        for _ in run:
            found += 1
    except SearchTimeout:
        return clock.result(found, False, f"enumerate ({backend})", run.stats)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, f"enumerate ({backend})", clock) from None
    if limit is None or found < limit:
        return clock.result(found, True, f"enumerate ({backend})", run.stats)
    try:
        res = residual(puzzle, deadline=clock.deadline, workers=options.get("workers", 1),
                       code=tuning.counter_code)
    except SearchTimeout:
        return clock.result(found, False, "ganak")
    out = count_by_ganak(res, clock, found)
    if out.complete:
        out.why = f"past {threshold:,} solutions auto hands the count to Ganak"
    return out
