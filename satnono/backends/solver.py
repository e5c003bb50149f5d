"""The project's SAT toolkit, over pysat: one place that knows how to load, tune, steer,
race and enumerate a SAT solver. The sat backend, counting, ``check`` (the backbone),
the plain baselines and the benchmarks all use these and nothing private.

>>> from satnono.backends.solver import enumerate_models
>>> sorted(sorted(m) for m in enumerate_models("cadical195", [[1, 2]], [1, 2], None))
[[1], [1, 2], [2]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import SearchTimeout, UnsupportedSolver
from ..logic.context import Stats
from ..plan import DEFAULT_SOLVER
from ..runtime.child import Job, race
from ..runtime.deadline import NO_DEADLINE, Deadline
from ..runtime.memory import left_to_the_end
from ..tuning import TUNING
from . import check_workers

if TYPE_CHECKING:
    from ..encode.encoding import Encoding
    from ..plan import Plan

#: pysat solvers that cannot take new clauses between solve calls
NOT_INCREMENTAL = ("kissat",)


def check_solver(name: str, enumerating: bool) -> None:
    """``name`` is a pysat solver, and an incremental one when it is to ``enumerate``
    (the default is taken as it is: pysat's solvers load only when a CNF is solved)."""
    if name != DEFAULT_SOLVER:
        from pysat.solvers import SolverNames

        known = [n for n in vars(SolverNames) if not n.startswith("_")]
    else:
        known = [name]
    if name not in known:
        raise UnsupportedSolver(f"unknown SAT solver {name!r} (pysat offers: "
                                + ", ".join(sorted(known)) + ")")
    if enumerating and name.startswith(NOT_INCREMENTAL):
        raise UnsupportedSolver(f"{name} is not incremental, so it cannot enumerate solutions "
                                "with blocking clauses; use it with --limit 1, or pick "
                                f"another solver (default {DEFAULT_SOLVER})")


def check_limit(limit: int | None, plan: Plan) -> None:
    """The backends' check before any work: the plan's solver is a pysat solver that can
    give ``limit`` solutions."""
    check_solver(plan.solver, enumerating=limit != 1)


def models(enc: Encoding, solver: str, limit: int | None, deadline: Deadline,
           stats: Stats | None = None,
           setting: Setting | None = None,
           phases: list[int] | None = None) -> Iterator[set[int]]:
    """The true cell variables of each model of the residual CNF, up to ``limit``, found by
    one search (the one-worker search of :func:`searches`, or the ``setting`` given),
    deciding the ``phases`` given first (literals: belief propagation's, or a solution
    already found, so that the next is looked for beside it), and each next one beside
    the last; the time loading and searching take go into ``stats``."""
    cells = list(enc.cells.values())
    how = setting or searches(1)[0]

    def one(base: Any) -> list[Job]:
        return [(steered, (base, solver, cells, limit, how.seed, how.forced, how.focused,
                           bool(phases)))]

    for true in loaded_race(enc, solver, deadline, one, stats, phases):
        yield set(true)


def loaded_race(enc: Encoding, solver: str, deadline: Deadline,
                jobs: Callable[[Any], list[Job]], stats: Stats | None = None,
                phases: list[int] | None = None, what: str = "SAT solver") -> Iterator[Any]:
    """Load the residual CNF into ``solver`` once (deciding ``phases`` first), then race
    the jobs ``jobs`` makes of that loaded solver, each in a child (:func:`race`): what
    the winner yields. Each racer, a fork, steers its own copy; loading it in each child
    made each child copy the Python clause lists it read, which on large CNFs cost more
    time and memory than the search (benchmarks/results/NOTES.md). The time loading and
    searching take go into ``stats``."""
    stats = stats or Stats()
    with stats.timing("load"):
        base = new_solver(solver, enc.clauses, deadline=deadline)
        if phases:
            base.set_phases(phases)
    with deleted(base):
        # in a child even alone: a solver busy in C hears no signal, a child can be killed
        found = race(jobs(base), deadline, what=what, size=enc.size(), always=True)
        yield from stats.timed("search", found)


class Setting(NamedTuple):
    """How one CaDiCaL search is set: its ``seed`` (None: CaDiCaL's own), a ``forced``
    phase for every variable (None: saved phases), and its ``focused`` mode."""

    seed: int | None
    forced: bool | None
    focused: bool


def searches(workers: int) -> list[Setting]:
    """The :class:`Setting` of each of ``workers`` racing solvers. Worker 0
    is the one-worker search (saved phases, stable mode); worker 1 decides every variable
    true first, always (CaDiCaL's forced phases), in CaDiCaL's focused mode; worker 2
    every variable false, stable; later ones are worker 0 with other seeds. No setting
    is best everywhere, and nothing measured tells in advance which will be: worker 1
    takes the hardest survey puzzles' first solutions, worker 2 most of the hard
    tournament puzzles that worker 0 is slow on (benchmarks/results/NOTES.md)."""
    check_workers(workers)
    first = [Setting(None, None, False), Setting(None, True, True),
             Setting(None, False, False)]
    return [first[i] if i < 3 else Setting(i - 2, None, False) for i in range(workers)]


#: clauses handed to the solver between two looks at the clock
LOAD_CHUNK = 100_000


def new_solver(name: str, clauses: list[list[int]], tuned: bool = True,
               seed: int | None = None, forced: bool | None = None, focused: bool = False,
               deadline: Deadline = NO_DEADLINE) -> Any:
    """A pysat solver holding ``clauses``; CaDiCaL 1.9.5 in its "sat" configuration,
    steered by ``seed``, ``forced`` and ``focused`` (:func:`steer`). A CNF of tens of
    millions of clauses takes a minute to load, so it goes in by chunks, with the deadline
    looked at between them."""
    from pysat.solvers import Solver

    from ..runtime.memory import ensure_room

    ensure_room(len(clauses), "loading the SAT solver")
    s = Solver(name=name)
    if name == "cadical195" and tuned:
        s.configure(dict(TUNING.cadical))
    for start in range(0, len(clauses), LOAD_CHUNK):
        if start:
            try:
                deadline.check()
            except BaseException as error:
                _discard(s, error)
                raise
        s.append_formula(clauses[start:start + LOAD_CHUNK])
    steer(s, name, seed, forced, focused)
    return s


@contextmanager
def deleted(s: Any) -> Iterator[Any]:
    """``s`` (a loaded solver), deleted when the block ends (:func:`_discard` when it
    ends with an error)."""
    try:
        yield s
    except BaseException as error:
        _discard(s, error)
        raise
    s.delete()


def _discard(s: Any, error: BaseException) -> None:
    """Delete ``s``, which ``error`` stopped; one holding millions of clauses takes a
    second to delete, so after a time limit ran out it is left to the process's end where
    that comes next (:func:`~satnono.runtime.memory.left_to_the_end`)."""
    if not (isinstance(error, SearchTimeout) and left_to_the_end(s)):
        s.delete()


def steer(s, name: str, seed: int | None = None, forced: bool | None = None,
          focused: bool = False) -> None:
    """``seed`` (CaDiCaL only) picks another of its equally good searches: what the
    benchmarks use to show the spread one puzzle's time has. ``forced`` (True or False)
    makes every decision take that value first and ``focused`` (CaDiCaL only) leaves
    stable mode (racing workers, :func:`searches`). All work on a loaded solver not yet
    solved, so that racers can share one load (:func:`models`)."""
    if name == "cadical195":
        if seed is not None:
            s.configure({"seed": seed})
        if focused:
            s.configure(dict(TUNING.cadical_focused))
    if forced is not None:
        sign = 1 if forced else -1
        s.set_phases([sign * v for v in range(1, s.nof_vars() + 1)])


def enumerate_models(solver: str, clauses: list[list[int]], cells: list[int], limit: int | None,
               tuned: bool = True, seed: int | None = None, forced: bool | None = None,
               focused: bool = False) -> Iterator[set[int]]:
    """True cell variables of each model; one solver, one blocking clause per model.
    With ``forced`` (True or False) the phases are forced: all that value for the first
    model, then each model's own, so that the next model is looked for beside it (as
    the saved phases do unforced; kept all false, the second models of the hard
    tournament puzzles took many times the conflicts)."""

    with new_solver(solver, clauses, tuned, seed, forced, focused) as s:
        yield from each_model(s, cells, limit, forced is not None)


def each_model(s, cells: list[int], limit: int | None, forced: bool) -> Iterator[set[int]]:
    """Each model's true cell variables, one blocking clause after each; ``forced``: the
    phases are CaDiCaL's forced ones, and each model's become the next search's."""
    found = 0
    while solve_call(s):
        model = s.get_model()
        true = {v for v in cells if model[v - 1] > 0}
        found += 1
        yield true
        if limit is not None and found >= limit:
            return
        if forced:
            s.set_phases(model)
        s.add_clause([-v if v in true else v for v in cells])


def solve_call(s: Any, assumptions: list[int] | None = None) -> bool:
    """``s.solve()``, with Ctrl-C as KeyboardInterrupt: pysat's solvers catch SIGINT
    themselves and raise an error of their own that says so."""
    try:
        return bool(s.solve(assumptions=assumptions or []))
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if "interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


def steered(s, name: str, cells: list[int], limit: int | None, seed: int | None = None,
             forced: bool | None = None, focused: bool = False, follow: bool = False
             ) -> Iterator[list[int]]:
    """A racer: steer the loaded solver ``s`` (its own copy, in a child) and enumerate;
    what :func:`race` yields (in the order found; a list, sent back from a child).
    ``follow``: first values were set, and each model's are the next search's."""
    steer(s, name, seed, forced, focused)
    for true in each_model(s, cells, limit, forced is not None or follow):
        yield sorted(true)

