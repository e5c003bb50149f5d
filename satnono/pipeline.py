"""The pipeline, top to bottom: parse → validate → presolve → encode → search → verify.

::

    puzzle = satnono.load("cup.non")     # parse (satnono.io.formats), validated on the way in
    run = satnono.solve(puzzle)          # validate, pick the backend; then, lazily (stages):
                                         #   presolve: propagate, probe    satnono.logic
                                         #   search what is left           satnono.backends
                                         #     (encoding it as it needs:   satnono.encode)
    for solution in run: ...             # each solution verified against the clues here
    run.ending, run.stats                # why the list ended, what it took

The search stage encodes, not the pipeline: the sat backend's compiled search settles
most puzzles before a CNF is worth building, and CP-SAT takes a model, not a CNF. The
consumers that want the CNF itself (``count``, ``check``, ``satnono encode``) get it from
:func:`residual`: the same presolve, then the encoding. The command line, ``count``,
``check``, ``bench`` and the native cross-check go through :func:`solve` or
:func:`residual`, and every solution they report passes :func:`check`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING

from .backends import DEFAULT
from .backends import backend as backend_row
from .errors import SearchTimeout, UsageError, WrongSolution
from .logic.board import Board
from .logic.context import Context, Stats
from .logic.events import Found, Observer
from .model.puzzle import Puzzle, Verifier, is_solution, validate
from .model.solution import Solution
from .model.verdict import Depth, Ending, LineCode, Verdict
from .plan import TUNING, Plan, Tuning, plan_for
from .runtime.deadline import NO_DEADLINE, Deadline

if TYPE_CHECKING:
    from .encode.residual import Residual
    from .logic.presolve import Presolved

#: solutions looked for when the caller wants to know whether a puzzle is unique
UNIQUENESS_LIMIT = 2


class Run(Iterator[Solution]):
    """A solving run: iterate it for solutions (each checked against the clues), then read
    why it ended (:attr:`ending`) and what it took (:attr:`stats`, :attr:`seconds`).

    The search starts on the first ``next()`` and stops when the run is closed, garbage
    collected, or has given ``limit`` solutions; solver processes die with it.
    """

    def __init__(self, puzzle: Puzzle, backend_name: str, solutions: Iterator[Solution],
                 ctx: Context, limit: int | None, deadline: Deadline,
                 started: float | None = None):
        self.puzzle = puzzle
        self.backend = backend_name
        self.limit = limit
        self.deadline = deadline
        self.found = 0
        #: None while the run goes on
        self.ending: Ending | None = None
        self._solutions = solutions
        self._ctx = ctx
        self._verify = Verifier(puzzle)
        #: when the time limit started (before the backend loaded its solver library)
        self._started = time.monotonic() if started is None else started
        self.stopped_count: float | None = None

    @property
    def stats(self) -> Stats:
        """Counters of the run: cells fixed before any solver, the residual CNF's size,
        line solves, probes, search nodes."""
        return self._ctx.stats

    def known(self) -> str:
        """What is known so far, in words (for a status line while the run goes on)."""
        fixed, cells = self.stats.fixed, self.stats.cells
        logic = f", logic decided {fixed} of {cells} cells" if fixed is not None else ""
        racing = f", racing {self.stats.racing()}" if self.stats.racers else ""
        return f"{self.found} solution(s) found{logic}{racing}"

    @property
    def seconds(self) -> float:
        return (self.stopped_count or time.monotonic()) - self._started

    @property
    def verdict(self) -> Verdict | None:
        """What the solutions found prove: None while the run has not ended, or when the
        time ran out before two solutions or the end of the search."""
        if self.ending is None:
            return None
        if self.found >= 2:
            return Verdict.MULTIPLE
        if self.ending is Ending.ALL_FOUND:
            return Verdict.of(self.found)
        return None

    def __iter__(self) -> Run:
        return self

    def __next__(self) -> Solution:
        if self.stopped_count is not None:
            raise StopIteration
        if self.limit is not None and self.found >= self.limit:
            self._end(Ending.LIMIT)
            raise StopIteration
        try:
            sol = next(self._solutions)
        except StopIteration:
            self._end(Ending.ALL_FOUND)
            raise
        except SearchTimeout as exc:
            self._end(Ending.TIME_LIMIT)
            raise SearchTimeout(self.found, exc.seconds) from None
        except BaseException:
            self._end(None)
            raise
        try:
            check(self.puzzle, sol, self.backend, self._verify)
        except WrongSolution:
            self._end(None)
            raise
        self.found += 1
        return sol

    def _end(self, ending: Ending | None) -> None:
        self.ending = ending
        self.stopped_count = time.monotonic()
        close = getattr(self._solutions, "close", None)
        if close is not None:
            close()

    def close(self) -> None:
        """Stop the search (and any solver process) now."""
        if self.stopped_count is None:
            self._end(Ending.LIMIT if self.found else None)

    def __enter__(self) -> Run:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def check(puzzle: Puzzle, sol: Solution, source: str,
          verify: Callable[[Solution], bool] | None = None) -> Solution:
    """``sol`` if it has exactly the puzzle's clues, else :class:`WrongSolution` (a bug):
    the check every solution passes before it leaves the library. A stream of solutions
    passes its own ``verify`` (a :class:`~satnono.model.puzzle.Verifier` of the puzzle),
    which checks each one where it differs from the last."""
    if not (verify(sol) if verify is not None else is_solution(puzzle, sol)):
        raise WrongSolution(f"the {source} backend returned a grid that breaks the clues: "
                            "a bug in satnono, please report it with the puzzle")
    return sol


def require_solvable(puzzle: Puzzle, backend_name: str = DEFAULT) -> Puzzle:
    """Validate ``puzzle`` and look the backend up (an unknown name is refused before any
    work); every backend solves every palette."""
    validate(puzzle)
    backend_row(backend_name)
    return puzzle


def check_limit(limit: object) -> int | None:
    """A limit on solutions is a whole number from 1, or None for all of them."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise UsageError(f"limit is a whole number of solutions from 1 (or None for all), "
                         f"not {limit!r}")
    return limit


def backend_for(backend: str | None, observer: object = None) -> str:
    """The backend a run uses: the one asked for, else the native solver when its steps are
    to be followed (an ``observer``; ``solve --trace``), else :data:`~satnono.backends.DEFAULT`.
    Only the native solver's steps can be followed: an observer with another backend is a
    :class:`~satnono.errors.UsageError`.

    >>> backend_for(None), backend_for(None, print), backend_for("cpsat")
    ('sat', 'native', 'cpsat')
    """
    if backend is None:
        return "native" if observer is not None else DEFAULT
    if observer is not None and backend != "native":
        raise UsageError(f"the steps followed are the native solver's; the {backend} backend "
                         "has none to show (use the native backend)")
    return backend


def solve(puzzle: Puzzle, backend: str | None = None, *, limit: int | None = None,
          timeout: float | None = None, observer: Observer | None = None,
          tuning: Tuning = TUNING, **options: object) -> Run:
    """Solve ``puzzle``: a :class:`Run` that yields up to ``limit`` solutions (all when
    None), each checked against the clues.

    ``backend`` is a row of :data:`satnono.backends.BACKENDS` (``sat``, the default,
    ``cpsat``, ``native``, or a ``plain-`` baseline; :func:`backend_for` picks it when None)
    and ``options`` are that backend's (:data:`satnono.backends.OPTIONS`: ``solver``,
    ``probing``, ``workers`` and ``budget`` for sat, ``workers`` for cpsat, ``probing`` and
    ``learning`` for native). ``observer`` is called with each step of the native solver
    (:mod:`satnono.logic.events`). ``tuning`` holds the sat backend's measured numbers
    (:class:`satnono.plan.Tuning`; the defaults unless given). Raises
    :class:`~satnono.errors.SearchTimeout` when ``timeout`` seconds run out; the
    solutions given before it are real.

    >>> from satnono import Puzzle
    >>> sorted(s.strings() for s in solve(Puzzle(((1,), (1,)), ((1,), (1,)))))
    [['#.', '.#'], ['.#', '#.']]
    >>> run = solve(Puzzle(((1,), (1,)), ((1,), (1,))), limit=1)
    >>> len(list(run)), run.ending.value
    (1, 'limit reached')
    """
    chosen = backend_row(backend_for(backend, observer))
    limit = check_limit(limit)
    require_solvable(puzzle, chosen.name)
    plan = plan_for(chosen, options, observed=observer is not None, tuning=tuning)
    chosen.check_limit(limit, plan)
    if observer is not None and not callable(observer):
        raise UsageError(f"observer is a function called with each step, not {observer!r}")
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    ctx = Context(puzzle, observer=observer, tuning=tuning)
    return Run(puzzle, chosen.name, stages(plan, ctx, deadline, limit), ctx, limit, deadline,
               started)


def stages(plan: Plan, ctx: Context, deadline: Deadline, limit: int | None
           ) -> Iterator[Solution]:
    """The stages after validation, run as the solutions are asked for: presolve as deep
    as the plan says, the plan completed for the root it left (:meth:`Plan.at_root`),
    then the backend's search over what is left (:class:`Run` verifies)."""
    start = presolved(ctx, plan.depth, deadline, compiled=plan.compiled,
                      workers=plan.presolve_workers)
    if start.board is None:
        return  # the clues contradict
    if start.board.solved():  # logic alone: no search needed
        ctx.stats.solutions += 1
        if ctx.observer is not None:
            ctx.observer(Found(1), start.board)
        yield start.board.to_solution()
        return
    from .backends import kissat

    plan = plan.at_root(start.board, ctx.puzzle.palette.black_and_white, limit,
                        kissat.program() is not None)
    yield from backend_row(plan.backend).run(start, ctx=ctx, deadline=deadline, limit=limit,
                                             plan=plan)


def presolved(ctx: Context, depth: Depth, deadline: Deadline = NO_DEADLINE, *,
              compiled: bool = True, workers: int = 1, board: Board | None = None
              ) -> Presolved:
    """The presolve stage: logic to ``depth`` from ``board`` (or an open board), in the
    engine where ``compiled`` allows and it runs, else in Python with probing shared by
    ``workers`` processes (:func:`satnono.logic.presolve.presolve`)."""
    from .logic.presolve import Presolved, presolve

    if depth is Depth.OPEN:
        return Presolved(board if board is not None else ctx.board())
    return presolve(ctx, probing=depth is Depth.PROBED, deadline=deadline,
                    workers=workers, board=board, compiled=compiled and ctx.observer is None)


def residual(puzzle: Puzzle | Context, *, deadline: Deadline = NO_DEADLINE,
             workers: int = 1, board: Board | None = None, depth: Depth = Depth.PROBED,
             code: LineCode = LineCode.AUTOMATON, tuning: Tuning = TUNING) -> Residual:
    """Presolve, then encode what is left as CNF: the residual every CNF consumer (the
    sat backend's handover, ``count``, ``check``, ``satnono encode``) works on.

    >>> from satnono import Puzzle
    >>> res = residual(Puzzle(((1,), (1,)), ((1,), (1,))))
    >>> len(res.encoding.cells), res.contradiction
    (4, False)
    """
    from .encode.residual import residual as encode_residual

    ctx = puzzle if isinstance(puzzle, Context) else Context(puzzle, tuning=tuning)
    start = presolved(ctx, depth, deadline, workers=workers, board=board)
    return encode_residual(ctx, start, deadline, code)
