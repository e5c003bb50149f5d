"""SAT backend: from the probed root, search briefly in compiled code, then encode the
residual puzzle and enumerate with blocking clauses (the SAT side: :mod:`.solver`).

The compiled search (:mod:`satnono.logic.compiled`: probing at every node, the tournament
solvers' method) goes first with a budget of work (the plan's: :mod:`satnono.plan`): it settles most
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

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..encode.phases import phases
from ..encode.residual import add_implications, decode_solution, residual
from ..logic.compiled import Search, beliefs
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..runtime.child import CpuSample, Job, free_cores
from ..runtime.deadline import Deadline
from . import kissat
from .solver import Setting, loaded_race, models, searches, steered

if TYPE_CHECKING:
    from ..encode.encoding import Encoding
    from ..plan import Plan


@dataclass
class Found:
    """The solutions the phases have given so far (the CNF stage rules them out), and
    whether a phase proved there are no more: what each phase reads and adds to, the one
    convention between them."""

    solutions: list[Solution] = field(default_factory=list)
    complete: bool = False


def solutions(start: Presolved, *, ctx: Context, deadline: Deadline, limit: int | None,
              plan: Plan) -> Iterator[Solution]:
    """From the presolved root, in phases that each yield what they find and add it to
    one :class:`Found`: where the compiled engine probed the root, its search goes on for
    the plan's budget (:func:`_searched`); then the residual CNF (:func:`_encoded`) is
    searched for the rest (:func:`_cnf_stage`), less the solutions already found.

    What is not settled within the budget is raced on the plan's workers (default: the
    free cores, measured while the budget was spent:
    :func:`~satnono.runtime.child.free_cores`) by the searches of :func:`portfolio`, the
    first to find a solution going on alone; on one core the CNF stage runs alone. The
    plan's ``search`` runs only that one of :func:`.solver.searches`' settings (a race
    whose racers run on other machines)."""
    setting = None if plan.search is None else searches(plan.search + 1)[plan.search]
    # how busy the machine is, measured over the compiled search's budget (workers None)
    sample = CpuSample.now() if plan.workers is None and setting is None else None
    found = Found()
    dfs = start.search
    if dfs is not None:
        yield from _searched(dfs, ctx, limit, plan, deadline, found)
        if found.complete:
            return
    enc = _encoded(ctx, start, deadline, plan)
    if enc is None:  # the root was solved or contradicted: the pipeline saw to it
        return
    cores = 1 if setting is not None else plan.workers or free_cores(sample)
    racers = portfolio(cores, plan.kissat_first and not found.solutions, dfs is not None)
    yield from _cnf_stage(enc, racers, dfs, ctx, plan, setting, limit, deadline, found)


def _encoded(ctx: Context, start: Presolved, deadline: Deadline, plan: Plan
             ) -> Encoding | None:
    """The residual CNF in the plan's line code, with what probing the root implies as
    binary clauses where the engine probed it (add_implications says why); None where
    nothing is left to encode."""
    enc = residual(ctx, start, deadline, plan.tuning.code).encoding
    dfs = start.search
    if enc is not None and dfs is not None and start.board is not None and plan.implications:
        with ctx.stats.timing("encode"):
            ctx.stats.clauses += add_implications(
                enc, dfs.implications(start.board, deadline=deadline))
    if enc is not None and start.board is not None and plan.phases and \
            plan.tuning.bp_rounds > 0:
        with ctx.stats.timing("phases"):
            found = dfs.beliefs if dfs is not None else None
            if found is None or not found.finished or plan.tuning.bp_rounds > \
                    plan.inform_rounds:
                found = beliefs(ctx.puzzle, start.board, plan.tuning.bp_rounds,
                                plan.tuning.bp_tolerance, deadline)
            if found is not None:
                enc.phases = phases(enc, found)
    return enc


def _cnf_stage(enc: Encoding, racers: list[Racer], dfs: Search | None, ctx: Context,
               plan: Plan, setting: Setting | None, limit: int | None, deadline: Deadline,
               found: Found) -> Iterator[Solution]:
    """The CNF's models less the solutions ``found`` already: Kissat's first (and a 2×2
    swap) then CaDiCaL beside it, where Kissat goes first on one core; the ``racers``
    raced, where there are several; else one pysat solver (``setting``, or the one-core
    search) alone."""
    first_values = enc.phases or None
    if not found.solutions and limit != 0 and len(racers) == 1 and \
            racers[0].kind is Kind.KISSAT:
        kissat_model: list[int] = []
        for sol in ctx.stats.timed("search", _kissat_first(enc, ctx.puzzle, limit, deadline,
                                                           model=kissat_model)):
            found.solutions.append(sol)
            yield sol
        if not found.solutions:
            return
        first_values = kissat_model  # the next solution is looked for beside the first
    for i, sol in enumerate(found.solutions):  # already given: rule them out
        enc.clauses.append(_blocking(enc, sol))
        if i % 1024 == 1023:  # the search may have listed hundreds of thousands
            deadline.check()
    left = None if limit is None else limit - len(found.solutions)
    if left == 0:
        return
    if len(racers) > 1:
        yield from _raced(racers, enc, dfs, ctx, plan.solver, left, found.solutions, deadline)
        return
    for true in models(enc, plan.solver, left, deadline, ctx.stats, setting, first_values):
        yield decode_solution(enc, true)


class Kind(Enum):
    """A racing search of the CNF stage (:func:`portfolio`)."""

    KISSAT = "Kissat"
    CADICAL = "CaDiCaL"
    SEARCH = "the compiled search"


@dataclass(frozen=True)
class Racer:
    """One racer: its kind and how it is set: ``seed`` (Kissat's or CaDiCaL's), and for
    CaDiCaL ``forced`` phases and ``focused`` mode (:func:`.solver.searches`)."""

    kind: Kind
    seed: int | None = None
    forced: bool | None = None
    focused: bool = False

    def __str__(self) -> str:
        how = ["focused"] if self.focused else []
        if self.forced is not None:
            how.append(f"all {str(self.forced).lower()} first")
        if self.seed is not None:
            how.append(f"seed {self.seed}")
        return self.kind.value + (f" ({', '.join(how)})" if how else "")


def portfolio(cores: int, by_kissat: bool, searching: bool) -> list[Racer]:
    """The searches raced on ``cores`` cores for what the budget left open, in order: the
    one-core choice (Kissat where it goes first, else CaDiCaL), the same solver with
    another seed, the compiled search going on without a budget (where there is one:
    ``searching``), then CaDiCaL's other settings (:func:`.solver.searches`). One
    solver's time on one puzzle swings with its seed more than between its settings, so
    a second draw of the better solver gains most; the compiled search settles some of
    the random 40×40s in a second where Kissat takes ten (benchmarks/results/NOTES.md).

    >>> [str(r) for r in portfolio(3, True, True)]
    ['Kissat', 'Kissat (seed 1)', 'the compiled search']
    >>> [str(r) for r in portfolio(3, False, False)]
    ['CaDiCaL', 'CaDiCaL (seed 1)', 'CaDiCaL (focused, all true first)']
    """
    first = Kind.KISSAT if by_kissat else Kind.CADICAL
    racers = [Racer(first), Racer(first, seed=1)]
    if searching:
        racers.append(Racer(Kind.SEARCH))
    for how in searches(cores + 3)[1:]:
        racer = Racer(Kind.CADICAL, how.seed, how.forced, how.focused)
        if racer not in racers:
            racers.append(racer)
    return racers[:max(cores, 1)]


def _raced(racers: list[Racer], enc: Encoding, dfs: Search | None, ctx: Context,
           solver: str, left: int | None, given: list[Solution], deadline: Deadline
           ) -> Iterator[Solution]:
    """Race ``racers`` (each in a child); the first to find a solution goes on alone, up
    to ``left`` more than the solutions ``given`` (which the CNF already rules out).
    What ran and which won go into the stats (the status line and the summary say
    them)."""
    cells = list(enc.cells.values())
    ctx.stats.racers = tuple(str(r) for r in racers)

    def jobs(base: Any) -> list[Job]:
        made: list[Job] = []
        for i, racer in enumerate(racers):
            if racer.kind is Kind.SEARCH:
                made.append((_tagged, (i, _searching, (dfs, left, set(given), deadline))))
            elif racer.kind is Kind.KISSAT:
                made.append((_tagged, (i, _kissat_then, (base, solver, enc, ctx.puzzle,
                                                         cells, left, deadline, racer.seed))))
            else:
                made.append((_tagged, (i, steered, (base, solver, cells, left, racer.seed,
                                                    racer.forced, racer.focused,
                                                    bool(enc.phases)))))
        return made

    for i, item in loaded_race(enc, solver, deadline, jobs, ctx.stats, enc.phases or None,
                               what="racing search"):
        ctx.stats.winner = ctx.stats.racers[i]
        yield item if isinstance(item, Solution) else decode_solution(enc, set(item))


def _tagged(index: int, fn: Callable[..., Iterator[Any]], args: tuple[Any, ...]
            ) -> Iterator[tuple[int, Any]]:
    """A racer's items, each with the racer's place in the race (which one won)."""
    for item in fn(*args):
        yield index, item


def _searching(dfs: Search, left: int | None, given: set[Solution], deadline: Deadline
               ) -> Iterator[Solution]:
    """A racer: the compiled search on from where its budget stopped it, with no budget."""
    found = 0
    for sol in dfs.solutions(None, None, deadline):
        if sol in given:
            continue
        yield sol
        found += 1
        if left is not None and found >= left:
            return


def _kissat_then(base: Any, solver: str, enc: Encoding, puzzle: Puzzle, cells: list[int],
                 left: int | None, deadline: Deadline, seed: int | None = None
                 ) -> Iterator[Solution | list[int]]:
    """A racer: the one-core path's order (:func:`_kissat_first`), then CaDiCaL
    (``base``, this child's copy) beside the first solution for the rest."""
    given = []
    model: list[int] = []
    for sol in _kissat_first(enc, puzzle, left, deadline, seed, model):
        given.append(sol)
        yield sol
    if not given or left is not None and left <= len(given):
        return
    for sol in given:
        base.add_clause(_blocking(enc, sol))
    base.set_phases(model)
    yield from steered(base, solver, cells, None if left is None else left - len(given),
                       follow=True)


def _kissat_first(enc: Encoding, puzzle: Puzzle, limit: int | None, deadline: Deadline,
                  seed: int | None = None, model: list[int] | None = None
                  ) -> Iterator[Solution]:
    """Kissat's first solution (from the CNF's first values, where it has them), then,
    where more than one is wanted, one a 2×2 swap away (black and white): it costs nothing
    to find (nonosolve's trick); else CaDiCaL looks beside the first, where the next one
    usually is: ``model`` gets the first's every literal, CaDiCaL's first values for it
    (with the cells' alone the second solution of Knotty took 22–36 thousand conflicts;
    with every variable's, one)."""
    first = kissat.first_model(enc.clauses, enc.variables, deadline, seed, enc.phases or None)
    if first is None:
        return
    if model is not None:
        model[:] = first
    sol = decode_solution(enc, first)
    yield sol
    other = swapped(puzzle, sol) if limit != 1 and puzzle.palette.black_and_white else None
    if other is not None:
        yield other


def _phases(enc: Encoding, sol: Solution) -> list[int]:
    """The cell variables' literals in ``sol``: where CaDiCaL starts looking for the next
    solution."""
    if enc.board.colours == 1:
        return [v if sol.filled(r, c) else -v for (r, c), v in enc.cells.items()]
    return [v if sol.colour(r, c) == colour else -v for (r, c, colour), v in enc.cells.items()]


def swapped(puzzle: Puzzle, sol: Solution) -> Solution | None:
    """Another solution that differs from ``sol`` in four cells, the corners of a
    rectangle whose filled corners trade places, or None. Each of the four lines moves one
    filled cell in a way that keeps its clue (:func:`_moves`), so the result needs no
    search: the moves that keep each row's clue are matched against those that keep each
    column's.

    >>> from satnono.model.puzzle import Puzzle
    >>> two = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> swapped(two, Solution(2, (0b01, 0b10))).rows
    (2, 1)
    """
    height, width = puzzle.height, puzzle.width
    row_moves = {(r, a, b) for r in range(height)
                 for a, b in _moves([sol.filled(r, c) for c in range(width)])}
    column_moves = {(c, a, b) for c in range(width)
                    for a, b in _moves([sol.filled(r, c) for r in range(height)])}
    by_column: dict[tuple[int, int], list[int]] = {}
    for c, a, b in column_moves:
        by_column.setdefault((c, a), []).append(b)
    for r1, c1, c2 in sorted(row_moves):  # row r1: its filled cell c1 goes to c2
        for r2 in sorted(by_column.get((c1, r1), ())):  # column c1: r1 goes to r2
            if (r2, c2, c1) in row_moves and (c2, r2, r1) in column_moves:
                rows = list(sol.rows)
                rows[r1] ^= 1 << c1 | 1 << c2
                rows[r2] ^= 1 << c1 | 1 << c2
                return Solution(sol.width, tuple(rows))
    return None


def _moves(line: list[bool]) -> Iterator[tuple[int, int]]:
    """(from, to): every way to move one filled cell of ``line`` to an empty one and keep
    its clue. There are two: a block shifted by one, and a block of one moved to an empty
    cell with no filled neighbour, over blocks of one only (moving a cell from one block to
    another, or splitting one block while joining two, changes the clue)."""
    n = len(line)
    blocks = []
    i = 0
    while i < n:
        if line[i]:
            j = i
            while j < n and line[j]:
                j += 1
            blocks.append((i, j - 1))
            i = j
        else:
            i += 1
    for k, (a, e) in enumerate(blocks):
        if k + 1 == len(blocks) and e + 1 < n or k + 1 < len(blocks) and e + 2 < blocks[k + 1][0]:
            yield a, e + 1  # shifted right
        if a and (k == 0 or blocks[k - 1][1] + 2 < a):
            yield e, a - 1  # shifted left
        if a == e:
            left = k  # the blocks of one on either side it may pass
            while left and blocks[left - 1][0] == blocks[left - 1][1]:
                left -= 1
            right = k
            while right + 1 < len(blocks) and blocks[right + 1][0] == blocks[right + 1][1]:
                right += 1
            lo = blocks[left - 1][1] + 2 if left else 0
            hi = blocks[right + 1][0] - 2 if right + 1 < len(blocks) else n - 1
            for c in range(lo, hi + 1):
                if abs(c - a) > 1 and not line[c] and (c == 0 or not line[c - 1]) and \
                        (c == n - 1 or not line[c + 1]):
                    yield a, c


def _blocking(enc: Encoding, sol: Solution) -> list[int]:
    """The clause that rules ``sol`` out."""
    return [-lit for lit in _phases(enc, sol)]


def _searched(dfs: Search, ctx: Context, limit: int | None, plan: Plan,
              deadline: Deadline, found: Found) -> Iterator[Solution]:
    """The compiled search from the root it probed, for up to the plan's budget, yielding
    what it finds but the solutions ``found`` already and adding them there;
    ``found.complete`` when it proved nothing is left. Looking for two solutions in black
    and white, when the second has not come :attr:`~satnono.plan.Tuning.neighbour_after`
    work after the first, a 2×2 swap of the first (:func:`swapped`) is tried before the
    search goes on."""
    budget = plan.budget or 0
    after = plan.tuning.neighbour_after
    if plan.inform_rounds:
        with ctx.stats.timing("phases"):
            dfs.inform(plan.inform_rounds, 1e-3, deadline)
    seen = set(found.solutions)
    # looking for the first solution with a 2×2 swap to follow, then a little further,
    # then on as usual
    first, near, on = range(3)
    step = first if limit == 2 and not seen and after > 0 and \
        ctx.puzzle.palette.black_and_white else on
    cap = budget
    try:
        while budget:
            for sol in ctx.stats.timed("search", dfs.solutions(limit, cap, deadline)):
                if sol in seen:
                    continue
                seen.add(sol)
                found.solutions.append(sol)
                yield sol
                if limit is not None and len(seen) >= limit:
                    found.complete = True
                    return
                if step == first:
                    step, cap = near, min(budget, dfs.cost + after)
                    break
            else:  # the search ended, or stopped at its cap
                if step != near or dfs.done or cap >= budget:
                    break
                other = swapped(ctx.puzzle, found.solutions[-1])
                if other is not None and other not in seen:
                    found.solutions.append(other)
                    found.complete = True
                    yield other
                    return
                step, cap = on, budget
    finally:  # closed at its limit too: what the search did is in the stats
        dfs.count_into(ctx.stats)
    found.complete = dfs.done
