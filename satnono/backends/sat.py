"""SAT backend: propagate, probe and search briefly in compiled code, then encode the
residual puzzle and enumerate with blocking clauses.

In black and white the compiled search (:mod:`satnono.logic.fast`: probing at every node,
the tournament solvers' method) goes first with a budget of work: it settles most
tournament puzzles in milliseconds, where loading a CNF alone costs more. What it cannot
settle within the budget goes to the SAT solver from the root it probed, with the solutions
it found already ruled out; the two searches together beat either alone, since some
puzzles are easy for one and very hard for the other.

One incremental solver per puzzle; each solution adds one clause over the unknown cells'
variables only, so the solver keeps what it learnt between solutions. With several
workers, as many solvers set to search differently race in child processes, and the
first to find a model enumerates the rest alone: one puzzle's time depends on luck more
than on anything else tried, and a race takes the better of two draws.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from typing import Any

from ..encode.residual import Encoding, decode_solution, residual
from ..errors import UnsupportedSolver
from ..logic.board import Board
from ..logic.context import Context, Stats
from ..logic.fast import Search, available, usable
from ..logic.presolve import presolve
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..runtime.child import race
from ..runtime.deadline import NO_DEADLINE, Deadline
from . import check_workers

DEFAULT_SOLVER = "cadical195"
#: CaDiCaL's own "sat" configuration (its ``--sat``): stay in stable mode, which suits
#: satisfiable instances. Nonograms given to the solver almost always have solutions, and
#: the hardest tournament puzzles are several times faster so (benchmarks/results/NOTES.md).
#: The effort options carry CaDiCaL 1.9.5's names (later versions call them ``elimeffort``,
#: ``subsumeeffort``): pysat passes any name on without a word, so a wrong one is silently
#: ignored. On the puzzles measured so far only ``stabilizeonly`` changes the search.
CADICAL_SAT_CONFIG = {"stabilizeonly": 1, "elimreleff": 10, "subsumereleff": 60}
#: CaDiCaL's focused mode (the mode of its "unsat" configuration): more restarts, a
#: racing worker's other kind of search (:func:`searches`)
CADICAL_FOCUSED = {"stabilizeonly": 0, "stabilize": 0}
#: pysat solvers that cannot take new clauses between solve calls
NOT_INCREMENTAL = ("kissat",)
#: the work the compiled search may spend before the SAT solver takes over, in cells of the
#: lines it solves (:attr:`satnono.logic.fast.Search.cost`; 100 million is about half a
#: second on a 25×25 puzzle): chosen on tcga2015 once the search restarted,
#: benchmarks/results/NOTES.md
BUDGET = 100_000_000


def check_solver(name: str, enumerating: bool) -> None:
    from pysat.solvers import SolverNames

    known = [n for n in vars(SolverNames) if not n.startswith("_")]
    if name not in known:
        raise UnsupportedSolver(f"unknown SAT solver {name!r} (pysat offers: "
                                + ", ".join(sorted(known)) + ")")
    if enumerating and name.startswith(NOT_INCREMENTAL):
        raise UnsupportedSolver(f"{name} is not incremental, so it cannot enumerate solutions "
                                "with blocking clauses; use it with --limit 1, or pick "
                                f"another solver (default {DEFAULT_SOLVER})")


def solutions(puzzle: Puzzle, *, ctx: Context, deadline: Deadline, limit: int | None,
              solver: str = DEFAULT_SOLVER, workers: int = 1, probing: bool = True,
              search: int | None = None, budget: int | None = None) -> Iterator[Solution]:
    """Propagate and probe at the root; in black and white search in compiled code for up
    to ``budget`` work (:data:`BUDGET` unless given; 0: none); then enumerate the residual
    CNF's models, less the solutions already found. ``workers`` > 1 races that many
    differently set solvers (:func:`searches`) in child processes; the first to find a
    model goes on alone. ``search`` runs only that one of the racers' settings (a race
    whose racers run on other machines). Without ``probing`` neither the root nor the
    search probes."""
    check_solver(solver, enumerating=limit != 1)
    searches(workers)
    settings = None if search is None else [searches(search + 1)[search]]
    board: Board | None = None
    found: list[Solution] = []
    probed = False
    budget = BUDGET if budget is None else budget
    if probing and budget and usable(puzzle):
        board, found, probed = yield from _search_first(ctx, limit, budget, deadline)
        if board is None and probed:
            return
    res = residual(ctx, probing=probing and not probed, deadline=deadline,
                   workers=workers, board=board)
    enc = res.encoding
    if res.board is None:
        return
    if enc is None:
        if not found:
            yield res.board.to_solution()
        return
    for sol in found:  # already given: rule them out
        enc.clauses.append([-v if sol.filled(r, c) else v for (r, c), v in enc.cells.items()])
    left = None if limit is None else limit - len(found)
    for true in models(enc, solver, left, workers, deadline, ctx.stats, settings):
        yield decode_solution(enc, true)


def _search_first(ctx: Context, limit: int | None, budget: int, deadline: Deadline
                  ) -> Generator[Solution, None, tuple[Board | None, list[Solution], bool]]:
    """Line logic (in Python: it settles the easy puzzles without loading the compiled
    code, whose first load costs half a second; once that is loaded, as ``bench``,
    ``batch`` and ``serve`` do before they fork, the compiled code does the line logic
    too, several times faster), then the compiled probing and search, yielding what they
    find; returns the root board for the SAT solver, the solutions given so far (no board
    when nothing is left to do), and whether the board was probed (not when the compiled
    code is unavailable: :func:`~satnono.logic.fast.available`)."""
    stats = ctx.stats
    start = None
    if "satnono.logic.kernel" not in sys.modules:
        pre = presolve(ctx, probing=False, deadline=deadline)
        if pre.board is None:
            return None, [], True
        if pre.board.solved():
            sol = pre.board.to_solution()
            yield sol
            return None, [sol], True
        start = pre.board
    if not available():
        return start, [], False
    dfs = Search(ctx.puzzle, start)
    found: list[Solution] = []
    if start is None:
        with stats.timing("line"):
            dfs.lines_only()
    with stats.timing("probe"):
        dfs.root_only(deadline)
    root = dfs.root()
    stats.fixed = stats.cells if root is None else root.known()
    try:
        if root is not None:
            for sol in stats.timed("search", dfs.solutions(limit, budget, deadline)):
                found.append(sol)
                yield sol
    finally:  # closed at its limit too: what the search did is in the stats
        dfs.count_into(stats)
    if root is None or dfs.done or (limit is not None and len(found) >= limit):
        return None, found, True
    return root, found, True


def models(enc: Encoding, solver: str, limit: int | None, workers: int, deadline: Deadline,
           stats: Stats | None = None,
           settings: list[tuple[int | None, bool | None, bool]] | None = None
           ) -> Iterator[set[int]]:
    """The true cell variables of each model of the residual CNF, up to ``limit``, found by
    ``workers`` racing searches (or the ``settings`` given); the time loading and searching
    take go into ``stats``."""
    stats = stats or Stats()
    settings = settings or searches(workers)
    cells = list(enc.cells.values())
    # loaded here, once; each racer (a fork) steers its own copy. Loading it in each child
    # made each child copy the Python clause lists it read, which on large CNFs cost more
    # time and memory than the search (benchmarks/results/NOTES.md)
    with stats.timing("load"):
        base = new_solver(solver, enc.clauses, deadline=deadline)
    with base:
        jobs = [(_steered, (base, solver, cells, limit) + s) for s in settings]
        # in a child even alone: a solver busy in C hears no signal, a child can be killed
        found = race(jobs, deadline, what="SAT solver", size=enc.size(), always=True)
        for true in stats.timed("search", found):
            yield set(true)


def searches(workers: int) -> list[tuple[int | None, bool | None, bool]]:
    """``(seed, forced phase, focused)`` of each of ``workers`` racing solvers. Worker 0
    is the one-worker search (saved phases, stable mode); worker 1 decides every variable
    true first, always (CaDiCaL's forced phases), in CaDiCaL's focused mode; worker 2
    every variable false, stable; later ones are worker 0 with other seeds. No setting
    is best everywhere, and nothing measured tells in advance which will be: worker 1
    takes the hardest survey puzzles' first solutions, worker 2 most of the hard
    tournament puzzles that worker 0 is slow on (benchmarks/results/NOTES.md)."""
    check_workers(workers)
    first = [(None, None, False), (None, True, True), (None, False, False)]
    return [first[i] if i < 3 else (i - 2, None, False) for i in range(workers)]


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
        s.configure(dict(CADICAL_SAT_CONFIG))
    for start in range(0, len(clauses), LOAD_CHUNK):
        if start:
            try:
                deadline.check()
            except BaseException:
                s.delete()
                raise
        s.append_formula(clauses[start:start + LOAD_CHUNK])
    steer(s, name, seed, forced, focused)
    return s


def steer(s, name: str, seed: int | None = None, forced: bool | None = None,
          focused: bool = False) -> None:
    """``seed`` (CaDiCaL only) picks another of its equally good searches: what the
    benchmarks use to show the spread one puzzle's time has. ``forced`` (True or False)
    makes every decision take that value first and ``focused`` (CaDiCaL only) leaves
    stable mode (racing workers, :func:`searches`). All work on a loaded solver not yet
    solved, so that racers can share one load (:func:`solutions`)."""
    if name == "cadical195":
        if seed is not None:
            s.configure({"seed": seed})
        if focused:
            s.configure(dict(CADICAL_FOCUSED))
    if forced is not None:
        sign = 1 if forced else -1
        s.set_phases([sign * v for v in range(1, s.nof_vars() + 1)])


def _enumerate(solver: str, clauses: list[list[int]], cells: list[int], limit: int | None,
               tuned: bool = True, seed: int | None = None, forced: bool | None = None,
               focused: bool = False) -> Iterator[set[int]]:
    """True cell variables of each model; one solver, one blocking clause per model.
    With ``forced`` (True or False) the phases are forced: all that value for the first
    model, then each model's own, so that the next model is looked for beside it (as
    the saved phases do unforced; kept all false, the second models of the hard
    tournament puzzles took many times the conflicts)."""

    with new_solver(solver, clauses, tuned, seed, forced, focused) as s:
        yield from _models(s, cells, limit, forced is not None)


def _models(s, cells: list[int], limit: int | None, forced: bool) -> Iterator[set[int]]:
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


def _steered(s, name: str, cells: list[int], limit: int | None, seed: int | None = None,
             forced: bool | None = None, focused: bool = False) -> Iterator[list[int]]:
    """A racer: steer the loaded solver ``s`` (its own copy, in a child) and enumerate;
    what :func:`race` yields (in the order found; a list, sent back from a child)."""
    steer(s, name, seed, forced, focused)
    for true in _models(s, cells, limit, forced is not None):
        yield sorted(true)

