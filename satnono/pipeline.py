"""The pipeline, top to bottom: validate → presolve → encode → solve → verify.

::

    puzzle = satnono.load("cup.non")     # parse (satnono.io.formats), validated on the way in
    run = satnono.solve(puzzle)          # validate, pick the backend, start it lazily:
                                         #   presolve (propagate, probe)   satnono.logic
                                         #   encode what is left           satnono.encode
                                         #   search                        satnono.backends
    for solution in run: ...             # each solution verified against the clues here
    run.ending, run.stats                # why the list ended, what it took

Every consumer — the command line, ``count``, ``check``, ``bench``, the native
cross-check — goes through :func:`solve`, so no solution reaches anyone unchecked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import TracebackType

from .backends import DEFAULT
from .backends import backend as backend_row
from .errors import InvalidPuzzle, SearchTimeout, UsageError, WrongSolution
from .logic.context import Context, Stats
from .logic.events import Observer
from .model.puzzle import Puzzle, is_solution, validate
from .model.solution import Solution
from .model.verdict import Ending, Verdict
from .runtime.deadline import Deadline

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
        #: when the time limit started (before the backend loaded its solver library)
        self._started = time.monotonic() if started is None else started
        self._stopped: float | None = None

    @property
    def stats(self) -> Stats:
        """Counters of the run: cells fixed before any solver, the residual CNF's size,
        line solves, probes, search nodes."""
        return self._ctx.stats

    def known(self) -> str:
        """What is known so far, in words (for a status line while the run goes on)."""
        fixed, cells = self.stats.fixed, self.stats.cells
        logic = f", logic decided {fixed} of {cells} cells" if fixed >= 0 else ""
        return f"{self.found} solution(s) found{logic}"

    @property
    def seconds(self) -> float:
        return (self._stopped or time.monotonic()) - self._started

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
        if self._stopped is not None:
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
            check(self.puzzle, sol, self.backend)
        except WrongSolution:
            self._end(None)
            raise
        self.found += 1
        return sol

    def _end(self, ending: Ending | None) -> None:
        self.ending = ending
        self._stopped = time.monotonic()
        close = getattr(self._solutions, "close", None)
        if close is not None:
            close()

    def close(self) -> None:
        """Stop the search (and any solver process) now."""
        if self._stopped is None:
            self._end(Ending.LIMIT if self.found else None)

    def __enter__(self) -> Run:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def check(puzzle: Puzzle, sol: Solution, source: str) -> Solution:
    """``sol`` if it has exactly the puzzle's clues, else :class:`WrongSolution` (a bug):
    the check every solution passes before it leaves the library."""
    if not is_solution(puzzle, sol):
        raise WrongSolution(f"the {source} backend returned a grid that breaks the clues: "
                            "a bug in satnono, please report it with the puzzle")
    return sol


def require_solvable(puzzle: Puzzle, backend_name: str = DEFAULT) -> Puzzle:
    """Validate ``puzzle`` and refuse what the backend does not solve."""
    validate(puzzle)
    if not backend_row(backend_name).handles(puzzle):
        raise InvalidPuzzle(f"the {backend_name} backend solves black-and-white puzzles "
                            "only, and this one is in colour")
    return puzzle


def check_limit(limit: object) -> int | None:
    """A limit on solutions is a whole number from 1, or None for all of them."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise UsageError(f"limit is a whole number of solutions from 1 (or None for all), "
                         f"not {limit!r}")
    return limit


def solve(puzzle: Puzzle, backend: str = DEFAULT, *, limit: int | None = None,
          timeout: float | None = None, observer: Observer | None = None,
          **options: object) -> Run:
    """Solve ``puzzle``: a :class:`Run` that yields up to ``limit`` solutions (all when
    None), each checked against the clues.

    ``backend`` is a row of :data:`satnono.backends.BACKENDS` (``sat``, the default,
    ``cpsat``, ``native``, or a ``plain-`` baseline) and ``options`` are that backend's
    (``solver`` and ``probing`` for sat, ``workers`` for sat and cpsat, ``probing`` and
    ``learning`` for native). ``observer`` is called with each step of the native solver
    (:mod:`satnono.logic.events`). Raises :class:`~satnono.errors.SearchTimeout` when
    ``timeout`` seconds run out; the solutions given before it are real.

    >>> from satnono import Puzzle
    >>> sorted(s.strings() for s in solve(Puzzle(((1,), (1,)), ((1,), (1,)))))
    [['#.', '.#'], ['.#', '#.']]
    >>> run = solve(Puzzle(((1,), (1,)), ((1,), (1,))), limit=1)
    >>> len(list(run)), run.ending.value
    (1, 'limit reached')
    """
    chosen = backend_row(backend)
    limit = check_limit(limit)
    require_solvable(puzzle, chosen.name)
    chosen.check_options(options)
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    ctx = Context(puzzle, observer=observer)
    solutions = chosen.run(puzzle, ctx=ctx, deadline=deadline, limit=limit, **options)
    return Run(puzzle, chosen.name, solutions, ctx, limit, deadline, started)


def summary(found: int, limit: int | None, ending: Ending | None) -> str:
    """What a run's solutions say, in the words ``satnono solve`` uses."""
    if ending is Ending.TIME_LIMIT or ending is None:
        return f"search incomplete: {found} solution(s) found before the time limit"
    if found == 0:
        return "no solution"
    if ending is Ending.ALL_FOUND or limit is None or found < limit:
        return "unique solution" if found == 1 else f"{found} solutions (all found)"
    if limit == UNIQUENESS_LIMIT and found == UNIQUENESS_LIMIT:
        return "not unique: at least 2 solutions (showing the first)"
    return f"{found} solution(s) shown (limit reached; there may be more)"
