"""SAT backend: from the probed root, search briefly in compiled code, then encode the
residual puzzle and enumerate with blocking clauses (the SAT side: :mod:`.solver`).

In black and white the compiled search (:mod:`satnono.logic.compiled`: probing at every node,
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

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

from ..encode.residual import decode_solution, residual
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.solution import Solution
from ..runtime.deadline import Deadline
from .solver import DEFAULT_SOLVER, models, searches

if TYPE_CHECKING:
    from ..logic.compiled import Search

#: the work the compiled search may spend before the SAT solver takes over, in cells of the
#: lines it solves (:attr:`satnono.logic.compiled.Search.cost`; 100 million is about half a
#: second on a 25×25 puzzle): chosen on tcga2015 once the search restarted,
#: benchmarks/results/NOTES.md
BUDGET = 100_000_000


def solutions(start: Presolved, *, ctx: Context, deadline: Deadline, limit: int | None,
              solver: str = DEFAULT_SOLVER, workers: int = 1, probing: bool = True,
              search: int | None = None, budget: int | None = None) -> Iterator[Solution]:
    """From the presolved root: where the compiled engine probed it (black and white),
    search on in compiled code for up to ``budget`` work (:data:`BUDGET` unless given; 0:
    none); then enumerate the residual CNF's models, less the solutions already found.
    ``workers`` > 1 races that many differently set solvers (:func:`.solver.searches`) in
    child processes; the first to find a model goes on alone. ``search`` runs only that
    one of the racers' settings (a race whose racers run on other machines). Without
    ``probing`` (the root was not probed) the compiled search is not used either."""
    settings = None if search is None else [searches(search + 1)[search]]
    found: list[Solution] = []
    budget = BUDGET if budget is None else budget
    if start.search is not None:
        found, done = yield from _search(start.search, ctx, limit, budget, deadline)
        if done:
            return
    res = residual(ctx, start, deadline)
    enc = res.encoding
    if enc is None:  # the root was solved or contradicted: the pipeline saw to it
        return
    for sol in found:  # already given: rule them out
        enc.clauses.append([-v if sol.filled(r, c) else v for (r, c), v in enc.cells.items()])
    left = None if limit is None else limit - len(found)
    for true in models(enc, solver, left, workers, deadline, ctx.stats, settings):
        yield decode_solution(enc, true)


def _search(dfs: Search, ctx: Context, limit: int | None, budget: int, deadline: Deadline
            ) -> Generator[Solution, None, tuple[list[Solution], bool]]:
    """The compiled search from the root it probed, yielding what it finds within
    ``budget``; returns the solutions given and whether nothing is left to look for."""
    found: list[Solution] = []
    try:
        if budget:
            for sol in ctx.stats.timed("search", dfs.solutions(limit, budget, deadline)):
                found.append(sol)
                yield sol
    finally:  # closed at its limit too: what the search did is in the stats
        dfs.count_into(ctx.stats)
    return found, dfs.done or (limit is not None and len(found) >= limit)
