"""The counters of the residual CNF: blocking-clause enumeration for few solutions, projected
model counting (Ganak, through pyganak) for many — what :func:`satnono.analyze.count.count`
and the split count (:mod:`satnono.analyze.split`) both run on a puzzle or a part of one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..encode.encoding import Encoding
from ..encode.residual import Residual, decode_solution, encode
from ..engine import DISABLE
from ..errors import CounterMissing, Interrupted, SearchTimeout, UsageError
from ..logic.board import Board
from ..logic.context import Stats
from ..model.puzzle import Puzzle, Verifier
from ..model.verdict import CountMethod, LineCode
from ..pipeline import check, residual
from ..runtime.child import cores, race, stream
from ..runtime.deadline import Deadline
from ..tuning import TUNING, Tuning
from .approx import Estimate

#: the backend whose residual CNF is enumerated and counted here (the others enumerate
#: through :func:`satnono.solve`)
CNF_BACKEND = "sat"
#: what a count by the compiled counter says it was
COMPILED = "compiled counter"
#: what an estimate says made it
APPROX = "approxmc"
#: what a count by D4 says it was
D4 = "d4"


@dataclass
class CountResult:
    """``count`` is exact when ``complete``; otherwise it is a lower bound (what
    enumeration had found when the time ran out)."""

    count: int
    complete: bool
    method: str  # "propagation", "compiled counter", "enumerate (<backend>)", "ganak" or
    # "approxmc"
    seconds: float
    unknown_cells: int = 0  # cells left for the solver after propagation and probing
    variables: int = 0
    clauses: int = 0
    #: an approximate count, when the exact one was out of reach or not asked for (then
    #: ``complete`` is false and ``count`` is the lower bound known for certain)
    estimate: Estimate | None = None
    #: why auto took ``method``, in words ("" when the method was asked for)
    why: str = ""


def count_residual(puzzle: Puzzle, method: CountMethod, clock: Clock, threshold: int,
                   board: Board | None = None, tuning: Tuning = TUNING) -> CountResult:
    """The sat count in one process: presolve (from ``board`` when given), then the
    compiled counter, the residual CNF enumerated, or counted by Ganak or D4, or auto
    (``method``, as :func:`count` takes it); more processes split the count instead
    (:mod:`.split`). Ganak and D4 get the lines as the tuning's ``counter_code`` says
    (the order encoding, whose start variables they decompose and cache on better than
    the automaton's states); enumeration keeps the automaton, whose propagation is line
    logic's."""
    if method is CountMethod.COMPILED:
        return _count_compiled(puzzle, clock, board, tuning)
    by_counter = method in (CountMethod.GANAK, CountMethod.D4)
    code = tuning.counter_code if by_counter else LineCode.AUTOMATON
    try:
        res = residual(puzzle, deadline=clock.deadline, board=board, code=code, tuning=tuning)
    except SearchTimeout:
        return clock.result(0, False, method.value if by_counter else "enumerate (sat)")
    if res.encoding is None:  # logic decided it
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    if method is CountMethod.GANAK:
        return count_by_ganak(res, clock, found=0)
    if method is CountMethod.D4:
        return count_by_d4(res, clock, found=0)
    return _enumerate_residual(puzzle, res, clock, method, threshold, tuning)


def compiled_counts(puzzle: Puzzle) -> bool:
    """Whether auto hands ``puzzle`` to the compiled counter past the threshold: the
    engine runs here and takes the puzzle's palette."""
    from ..logic.compiled import usable

    return usable(puzzle)


def _count_compiled(puzzle: Puzzle, clock: Clock, board: Board | None,
                    tuning: Tuning = TUNING) -> CountResult:
    """Presolve, then the compiled counter."""
    from ..logic.compiled import MAX_COLOURS, counting, usable
    from ..logic.context import Context
    from ..model.verdict import Depth
    from ..pipeline import presolved

    if not usable(puzzle) and counting():
        raise UsageError(f"the compiled counter takes up to {MAX_COLOURS} block colours; "
                         "count this puzzle with --method auto, enumerate or ganak")
    try:
        start = presolved(Context(puzzle, tuning=tuning), Depth.PROBED, clock.deadline,
                          board=board)
    except SearchTimeout:
        return clock.result(0, False, COMPILED)
    if start.board is None or start.solved:
        return clock.result(0 if start.board is None else 1, True, "propagation")
    return count_compiled(puzzle, start.board, clock, tuning)


class Clock:
    """The deadline and the start time, and results stamped with the time taken."""

    def __init__(self, deadline: Deadline):
        self.deadline = deadline
        self.started = time.monotonic()

    def sooner(self, share: float) -> Clock:
        """This clock with its deadline brought forward by ``share`` of its time limit."""
        d = self.deadline
        out = Clock(d if d.at is None or not d.timeout else
                    Deadline(d.at - share * d.timeout, d.timeout * (1 - share)))
        out.started = self.started
        return out

    def within(self, seconds: float) -> Clock:
        """This clock with its deadline at most ``seconds`` from now."""
        at = time.monotonic() + seconds
        d = self.deadline
        out = Clock(d if d.at is not None and d.at <= at else Deadline(at, seconds))
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
                        threshold: int, tuning: Tuning = TUNING) -> CountResult:
    """The sat backend's enumeration on a residual already built; past the threshold (auto),
    Ganak on the same residual, raced by the compiled counter."""
    from ..backends.solver import DEFAULT_SOLVER, models

    enc = res.encoding
    assert enc is not None
    limit = None if method is CountMethod.ENUMERATE else threshold + 1
    found = 0
    verify = Verifier(puzzle)
    try:
        for true in models(enc, DEFAULT_SOLVER, limit, clock.deadline):
            check(puzzle, decode_solution(enc, true), CNF_BACKEND, verify)
            found += 1
    except SearchTimeout:
        return clock.result(found, False, "enumerate (sat)", res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, "enumerate (sat)", clock) from None
    if limit is None or found < limit:
        out = clock.result(found, True, "enumerate (sat)", res=res)
        if limit is not None:
            out.why = f"auto lists up to {threshold:,} solutions one by one"
        return out
    listed = res
    try:
        res = for_counter(puzzle, res, clock.deadline, tuning.counter_code)
    except SearchTimeout:
        return clock.result(found, False, "ganak", res=res)
    if res.board is None:
        return count_by_ganak(res, clock, found)
    counter = compiled_counts(puzzle)
    out = _race(puzzle, res, clock, found, listed, tuning, counter)
    if out.complete:
        others = "Ganak" + (", D4" if d4_races(tuning) else "")
        out.why = (f"past {threshold:,} solutions auto races "
                   + (f"the compiled counter, {others}" if counter else others)
                   + " and enumeration, and this came in first")
        if not counter:
            from ..logic.compiled import counting

            out.why += (f" (the compiled counter does not run here or {DISABLE} is set)"
                        if not counting() else
                        " (the compiled counter takes no puzzle of so many colours)")
    return out


def for_counter(puzzle: Puzzle, res: Residual, deadline: Deadline,
                code: LineCode = TUNING.counter_code) -> Residual:
    """``res`` with its lines encoded the way a model counter takes them best (``code``):
    the same board, the same unknown cells."""
    board = res.board
    if res.encoding is None or res.encoding.code is code or board is None \
            or board.colours > 1:
        return res
    return Residual(res.presolved, encode(puzzle, board, deadline, code))


def _race(puzzle: Puzzle, res: Residual, clock: Clock, found: int, listed: Residual,
          tuning: Tuning = TUNING, counter: bool = True) -> CountResult:
    """The compiled counter, Ganak and enumeration going on side by side, each in its own
    process, the first count to come in kept (:func:`satnono.runtime.child.race`): none
    wins everywhere (D4 a fourth, on machines of the tuning's ``d4_race_cores``). On
    tcga2015's slow counts the counter takes seconds where Ganak took minutes; on the
    survey's Center (5 × 10^15 solutions) Ganak takes seconds and the counter does not
    finish in a minute; on tcga2015 #481 (25,318 solutions under a deep search)
    enumeration takes 44 s and neither of the others finishes in 300 s.
    ``listed`` is the residual as enumeration takes it (automata). Without the
    ``counter`` (no engine here, or a palette it does not take) the others race from the
    start: enumeration's bound is then what a count cut by its limit has."""
    from ..logic.compiled import counting

    enc, cnf = res.encoding, listed.encoding
    assert enc is not None and cnf is not None and res.board is not None
    _need_ganak()
    cnf_args = (enc.variables, enc.clauses, sorted(enc.cells.values()))
    late = tuning.counter_alone if counter else 0.0
    jobs: list[tuple[Callable[..., Iterator[Any]], tuple[Any, ...]]] = []
    if counter:
        counting()  # loaded before the fork, not in the child
        jobs.append((_compiled_count,
                     (puzzle, res.board, True, tuning, own_limit(clock.deadline))))
    jobs += [
        (_after, (late, _count_models, cnf_args)),
        (_after, (late, _listed, (puzzle, cnf, tuning.listed_at_most, LISTED_EVERY)))]
    if d4_races(tuning):
        jobs.append((_after, (late, _raced_d4, cnf_args)))
    try:
        (n,) = list(race(jobs, clock.deadline, what="model counter", size=enc.size(),
                         always=True, bound=cut_short))
    except SearchTimeout as exc:
        lower, how = lower_bound(exc, found, "ganak")
        return clock.result(lower, False, how, res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, "counting", clock) from None
    if isinstance(n, Listed):
        return clock.result(n.count, True, "enumerate (sat)", res=listed)
    if isinstance(n, ByD4):
        return clock.result(n.count, True, "d4", res=res)
    if isinstance(n, int):
        return clock.result(n, True, "ganak", res=res)
    return clock.result(n.count, True, COMPILED, res=res)


def _after(seconds: float, fn: Callable[..., Iterator[Any]], args: tuple[Any, ...]
           ) -> Iterator[Any]:
    """``fn(*args)``'s items, ``seconds`` from now: a racer that joins the race late, so
    that the one that usually wins has the cores to itself first (a racer killed while it
    waits cost nothing)."""
    if seconds > 0:
        time.sleep(seconds)
    yield from fn(*args)


@dataclass(frozen=True)
class Listed:
    """How many solutions enumeration listed, to the last (a racer's answer, told apart
    from Ganak's bare number), or, not ``complete``, before its own limit: a lower bound."""

    count: int
    complete: bool = True


@dataclass(frozen=True)
class ByD4:
    """D4's count, as a racer gives it (told apart from Ganak's bare number)."""

    count: int


def _raced_d4(variables: int, clauses: list[list[int]], sampling: list[int]
              ) -> Iterator[ByD4]:
    for n in _count_d4(variables, clauses, sampling):
        yield ByD4(n)


#: seconds between two of the enumerating racer's bounds (what it has listed so far)
LISTED_EVERY = 0.5


def _listed(puzzle: Puzzle, enc: Encoding, at_most: int, every: float | None = None
            ) -> Iterator[Listed]:
    """Every model of ``enc`` by blocking clauses, each checked against the clues, counted;
    a racer, so the solver is loaded here, in the child. Past ``at_most`` it leaves the
    race without a word: each costs a blocking clause over the open cells (a quarter of a
    gigabyte by then on a 25×25), and the counters count such numbers in seconds. Every
    ``every`` seconds (looked at after a model) it says how many it has listed so far, a
    lower bound, so that the race has one however long the search for the next model
    takes when the time runs out."""
    from ..backends.solver import DEFAULT_SOLVER, each_model, new_solver

    cells = sorted(enc.cells.values())
    n = 0
    verify = Verifier(puzzle)
    report = time.monotonic()
    with new_solver(DEFAULT_SOLVER, enc.clauses) as s:
        for true in each_model(s, cells, None, False):
            check(puzzle, decode_solution(enc, true), CNF_BACKEND, verify)
            n += 1
            if n > at_most:  # out of the race, without a word
                os._exit(0)
            if every is not None and time.monotonic() >= report:
                yield Listed(n, complete=False)
                report = time.monotonic() + every
    yield Listed(n)


def count_compiled(puzzle: Puzzle, board: Board, clock: Clock, tuning: Tuning = TUNING
                   ) -> CountResult:
    """The compiled counter (:func:`satnono.logic.compiled.count_solutions`) on a presolved
    ``board``, in a child killed at the deadline (a call into compiled code
    cannot be stopped otherwise, not even by Ctrl-C). The counter stops itself a little
    before (:func:`own_limit`) with the branches it finished, so an incomplete result
    still has a lower bound (0 when the child did not get to say it)."""
    from ..logic.compiled import counting

    if not counting():
        raise CounterMissing("the compiled counter needs the engine, which was not built here "
                             f"(or {DISABLE} is set)")
    open_cells = puzzle.width * puzzle.height - board.known()
    try:
        (counted,) = list(stream(_compiled_count,
                                 (puzzle, board, False, tuning, own_limit(clock.deadline)),
                                 clock.deadline, what="compiled counter", always=True,
                                 bound=cut_short))
    except SearchTimeout as exc:
        return clock.result(lower_bound(exc, 0, COMPILED)[0], False, COMPILED,
                            cells=open_cells)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, 0, "the compiled counter", clock) from None
    if counted.count is None:  # past 2^63 - 1
        return clock.result(0, False, COMPILED, cells=open_cells)
    return clock.result(counted.count, True, COMPILED, cells=open_cells)


def _compiled_count(puzzle: Puzzle, board: Board, racing: bool = False,
                    tuning: Tuning = TUNING, seconds: float | None = None
                    ) -> Iterator[Any]:
    from ..logic.compiled import count_solutions

    counted = count_solutions(puzzle, board, tuning=tuning, seconds=seconds)
    if racing and counted.count is None:  # past 2^63 - 1: out of the race, without a word
        os._exit(0)
    yield counted


def own_limit(deadline: Deadline) -> float | None:
    """The seconds the compiled counter gets of what is left before ``deadline``: a tenth
    less, a second at most, so that its lower bound reaches the parent before the child
    is killed."""
    left = deadline.left()
    return None if left is None else left - min(1.0, left / 10)


def cut_short(item: object) -> bool:
    """Whether a racer's answer is a lower bound, stopped at its own limit, not a count."""
    from ..logic.compiled import Counted

    return isinstance(item, (Counted, Listed)) and not item.complete


def lower_bound(exc: SearchTimeout, found: int, how: str) -> tuple[int, str]:
    """The best lower bound known when the time ran out, and the method that has it:
    ``found`` (solutions listed before, by ``how``) or what a racer stopped at its limit
    had counted (the compiled counter) or listed so far (enumeration going on)."""
    from ..logic.compiled import Counted

    best = (found, how)
    for b in exc.bounds:
        if not isinstance(b, (Counted, Listed)) or b.complete or b.count is None:
            continue
        if b.count > best[0]:
            best = (b.count, "enumerate (sat)" if isinstance(b, Listed) else COMPILED)
    return best


def count_by_ganak(res: Residual, clock: Clock, found: int) -> CountResult:
    """Ganak's exact count of the residual CNF, projected on the unknown cells."""
    return _counted_in_child(res, clock, found, _need_ganak, _count_models, "ganak",
                             "model counter", "Ganak counting")


def count_by_d4(res: Residual, clock: Clock, found: int) -> CountResult:
    """D4's exact count of the residual CNF, projected on the unknown cells (through the
    file's ``c p show`` line, the one way D4 takes a projection), in a child killed at the
    deadline (D4 has no time limit of its own)."""
    return _counted_in_child(res, clock, found, need_d4, _count_d4, D4,
                             "model counter (D4)", "D4 counting")


def _counted_in_child(res: Residual, clock: Clock, found: int, need: Callable[[], None],
                      job: Callable[..., Iterator[Any]], method: str, what: str,
                      doing: str) -> CountResult:
    """A model counter's (``job``'s) exact count of the residual CNF projected on the
    unknown cells, in a child stopped at the clock's deadline; ``need`` says, before
    anything starts, when the counter is not installed."""
    enc = res.encoding
    if enc is None:
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    need()
    args = (enc.variables, enc.clauses, sorted(enc.cells.values()))
    try:
        (n,) = list(stream(job, args, clock.deadline, what=what, size=enc.size(),
                           always=True))
    except SearchTimeout:
        return clock.result(found, False, method, res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, doing, clock) from None
    return clock.result(n, True, method, res=res)


def d4_races(tuning: Tuning = TUNING) -> bool:
    """Whether auto's race takes D4 in: installed, on a machine of the tuning's
    ``d4_race_cores`` (on fewer, a fourth process slows the three that usually win)."""
    return cores() >= tuning.d4_race_cores and d4_here()


def d4_here() -> bool:
    """Whether D4 (the d4solver wheel, import ``py_d4``) is installed here: found, not
    imported (it is loaded in the child that counts; loaded here, its bindings would
    report their objects as leaked when the process ends)."""
    from importlib.util import find_spec

    return find_spec("py_d4") is not None


def need_d4() -> None:
    """CounterMissing, in one line, unless D4 imports."""
    if not d4_here():
        raise CounterMissing("counting with D4 needs the d4solver package (pip install "
                             "d4solver; its wheels are for Linux and Windows on x86-64)")


def _count_d4(variables: int, clauses: list[list[int]], sampling: list[int]
              ) -> Iterator[int]:
    import sys
    import tempfile

    from py_d4 import Solver

    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write(f"p cnf {variables} {len(clauses)}\n")
        f.write("c p show " + " ".join(map(str, sampling)) + " 0\n")
        for i in range(0, len(clauses), 10_000):
            f.write("".join(" ".join(map(str, c)) + " 0\n" for c in clauses[i:i + 10_000]))
        path = f.name
    # D4 writes its progress ("c ...") on standard output, which is the count's
    sys.stdout.flush()
    saved = os.dup(1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 1)
        n = int(Solver(path).count().getIntResult())
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(quiet)
        os.unlink(path)
    yield n


def estimate_count(puzzle: Puzzle, clock: Clock, epsilon: float, delta: float, seed: int,
                   found: int = 0) -> CountResult:
    """ApproxMC's estimate of the residual's count (:mod:`.approx`) in a child killed at the
    deadline; ``found`` (solutions already enumerated) is a lower bound known for certain.
    Past the deadline, the result is that bound alone, with no estimate."""
    from .approx import approx_models, need_approxmc

    try:
        res = residual(puzzle, deadline=clock.deadline)
    except SearchTimeout:
        return clock.result(found, False, APPROX)
    enc = res.encoding
    if enc is None:  # logic decided it
        return clock.result(0 if res.contradiction else 1, True, "propagation")
    need_approxmc()
    args = (enc.clauses, sorted(enc.cells.values()), epsilon, delta, seed)
    try:
        (n,) = list(stream(approx_models, args, clock.deadline, what="approximate counter",
                           size=enc.size(), always=True))
    except SearchTimeout:
        return clock.result(found, False, APPROX, res=res)
    except KeyboardInterrupt as exc:
        raise stopped_count(exc, found, "ApproxMC", clock) from None
    if n == 0:  # no model at all: that is proven, not estimated
        return clock.result(0, True, APPROX, res=res)
    out = clock.result(found, False, APPROX, res=res)
    out.estimate = Estimate.of(n, epsilon, delta, at_least=found)
    return out


def stopped_count(exc: KeyboardInterrupt, found: int, how: str, clock: Clock) -> Interrupted:
    """Ctrl-C (or SIGTERM) while counting, saying how far the count got."""
    return Interrupted.saying(exc, f"at least {found:,} solution(s) found ({how}, "
                              f"{time.monotonic() - clock.started:.1f} s); the count is "
                              "incomplete")


def _need_ganak() -> None:
    """CounterMissing unless pyganak imports (before any child is forked to run it)."""
    try:
        import pyganak  # noqa: F401
    except ImportError:  # pragma: no cover - pyganak is a dependency
        raise CounterMissing("exact counting of many solutions needs pyganak "
                             "(pip install pyganak)") from None


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
