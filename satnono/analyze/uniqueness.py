"""``satnono check``: is the puzzle unique, and if not, where is the ambiguity?

The verdict is proven by a complete SAT search (a second solution, or none). The ambiguous
cells are the complement of the backbone — the cells that take both values across *all*
solutions, not only across the two shown — found by the iterative backbone algorithm:
keep asking the solver for a solution that differs from the first one on at least one
still-undecided cell; each answer frees the cells it differs on, and "no such solution"
proves the rest fixed. Every call reuses one incremental solver.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial

from ..backends.solver import DEFAULT_SOLVER
from ..encode.residual import decode_solution
from ..errors import SearchTimeout
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.grid import Cell
from ..model.puzzle import Puzzle, colour_runs
from ..model.solution import Solution
from ..model.verdict import Verdict
from ..pipeline import check, require_solvable, residual
from ..runtime.deadline import Deadline


@dataclass
class Uniqueness:
    """The proven verdict, up to two solutions, and (when multiple) the ambiguous cells."""

    verdict: Verdict
    solutions: list[Solution] = field(default_factory=list)  # up to two
    ambiguous: list[Cell] = field(default_factory=list)  # (row, col), from 0
    #: the colours (palette indices) each ambiguous cell takes across all solutions
    takes: dict[Cell, tuple[int, ...]] = field(default_factory=dict)
    sat_calls: int = 0
    #: False when the time ran out after the verdict was proven, while looking for more
    #: ambiguous cells: ``ambiguous`` is then only those found
    complete: bool = True
    #: what logic did before the SAT stage (cells fixed by line logic, then by probing;
    #: where the clues were refuted) and its work: the rating's numbers (a check rates
    #: the puzzle from its own proof, :func:`satnono.analyze.difficulty.rating_of`)
    presolved: Presolved | None = None
    line_solves: int = 0
    probes: int = 0


def uniqueness(puzzle: Puzzle, *, timeout: float | None = None,
               solver: str = DEFAULT_SOLVER, workers: int = 1, ambiguity: bool = True,
               **unknown: object) -> Uniqueness:
    """Prove ``puzzle`` unique, multiple or unsolvable, and find every ambiguous cell
    (``ambiguity`` False: stop at the verdict, two solutions or none).

    Raises SearchTimeout when the time runs out before the verdict is proven; when it runs
    out later, the ambiguous cells found so far come back marked incomplete. ``workers``
    > 1 races that many differently set searches for the first solution (as the sat
    backend does); the first to find one computes the backbone alone.

    >>> from satnono import Puzzle
    >>> u = uniqueness(Puzzle(((1,), (1,)), ((1,), (1,))))
    >>> u.verdict.value, u.ambiguous
    ('multiple', [(0, 0), (0, 1), (1, 0), (1, 1)])
    """
    if unknown:
        from ..errors import UnknownOption

        raise UnknownOption(f"uniqueness takes no option {', '.join(map(repr, unknown))} "
                            "(its options: timeout, solver, workers, ambiguity)")
    from ..backends.solver import check_solver, deleted, new_solver, searches
    from ..runtime.child import race

    settings = searches(workers)
    check_solver(solver, enumerating=True)
    require_solvable(puzzle)
    deadline = Deadline.after(timeout)
    ctx = Context(puzzle)
    res = residual(ctx, deadline=deadline, workers=workers)
    enc = res.encoding
    if res.presolved.search is not None:  # the engine's work at the root, not yet counted
        res.presolved.search.count_into(ctx.stats)
    # what logic did comes with every verdict
    found = partial(Uniqueness, presolved=res.presolved, line_solves=ctx.stats.line_solves,
                    probes=ctx.stats.probes)
    if res.board is None:
        return found(Verdict.NONE)
    if enc is None:
        return found(Verdict.UNIQUE, [check(puzzle, res.board.to_solution(), "sat")])
    cells = sorted(enc.cells.items())
    complete = True
    models: list = []
    try:
        # loaded once, shared by the racers
        with deleted(new_solver(solver, enc.clauses, deadline=deadline)) as base:
            args = (base, solver, [v for _, v in cells], enc.variables, ambiguity)
            jobs = [(_backbone, args + s) for s in settings]
            for item in race(jobs, deadline, what="SAT solver", size=enc.size(),
                             always=True):
                models.append(item)
    except SearchTimeout:
        if len(models) < 2:  # the verdict is not proven: let it out
            raise
        complete = False  # two solutions prove it; only the ambiguity is unfinished
        calls = len(models)
    else:
        *models, calls = models
    sols = [check(puzzle, decode_solution(enc, set(m)), "sat")
            for m in models[:2]]
    if not sols:
        return found(Verdict.NONE, sat_calls=calls)
    if len(sols) == 1:
        return found(Verdict.UNIQUE, sols, sat_calls=calls)
    first, others = set(models[0]), [set(m) for m in models[1:]]
    # a cell is ambiguous when some model's value differs from the first model's
    # (the keys of colour literals are (row, column, colour): the cell is their first two)
    ambiguous = sorted({(key[0], key[1]) for key, v in cells
                        if any((v in first) != (v in m) for m in others)})
    return found(Verdict.MULTIPLE, sols, ambiguous, _takes(cells, models, ambiguous), calls,
                 complete and ambiguity)


def _takes(cells: list, models: list, ambiguous: list[Cell]) -> dict[Cell, tuple[int, ...]]:
    """The colours each ambiguous cell takes in the models found. The backbone search
    goes on until every literal has flipped in some model or is proven fixed, so these
    are all the colours the cell takes in any solution (a lower bound when the time ran
    out)."""
    wanted = set(ambiguous)
    seen: dict[Cell, set[int]] = {cell: set() for cell in ambiguous}
    sets = [set(m) for m in models]
    for key, v in cells:
        cell = (key[0], key[1])
        if cell not in wanted:
            continue
        if len(key) == 3:  # a colour literal: the colour is the key's third part
            if any(v in m for m in sets):
                seen[cell].add(key[2])
        else:  # black and white: one literal, filled when true
            seen[cell].update(1 if v in m else 0 for m in sets)
    return {cell: tuple(sorted(ks)) for cell, ks in seen.items()}


def _backbone(s, name: str, cells: list[int], top: int, ambiguity: bool = True,
              seed: int | None = None, forced: bool | None = None, focused: bool = False
              ) -> Iterator[list[int] | int]:
    """Yield the true cell variables of each model found, then the number of calls; ``s``
    is the loaded solver (its own copy, in a racing child), steered here. Without
    ``ambiguity`` it stops at a second model."""
    from ..backends.solver import solve_call, steer

    steer(s, name, seed, forced, focused)
    calls = 1
    if not solve_call(s):
        yield calls
        return
    model = s.get_model()
    if forced is not None:
        s.set_phases(model)  # look for the next solutions beside the first
    first = {v: model[v - 1] > 0 for v in cells}
    yield [v for v in cells if first[v]]
    undecided = dict(first)
    seconds = 0
    while undecided and (ambiguity or not seconds):
        top += 1
        act = top
        # some undecided cell differs from the first solution
        s.add_clause([-act] + [-v if val else v for v, val in undecided.items()])
        calls += 1
        if not solve_call(s, [act]):
            break
        model = s.get_model()
        seconds += 1
        yield [v for v in cells if model[v - 1] > 0]
        for v in [v for v, val in undecided.items() if (model[v - 1] > 0) != val]:
            del undecided[v]
        s.add_clause([-act])
    yield calls


def switches(goal: Solution) -> list[Cell]:
    """Top-left corners of the 2×2 checkerboards in ``goal`` that flip without changing a
    clue (the puzzle maker's old rule of thumb): a picture holding one is never unique. The
    two colours of a checkerboard swap places (in black and white, filled and empty)."""
    w, h = goal.width, goal.height
    grid = [[goal.colour(r, c) for c in range(w)] for r in range(h)]
    out = []
    for r in range(h - 1):
        for c in range(w - 1):
            a, b = grid[r][c], grid[r][c + 1]
            if a == b or grid[r + 1][c] != b or grid[r + 1][c + 1] != a:
                continue
            top, bottom = grid[r], grid[r + 1]
            left = [row[c] for row in grid]
            right = [row[c + 1] for row in grid]
            if all(colour_runs(line[:at] + [line[at + 1], line[at]] + line[at + 2:])
                   == colour_runs(line)
                   for line, at in ((top, c), (bottom, c), (left, r), (right, r))):
                out.append((r, c))
    return out


def ambiguity_grid(sol: Solution, ambiguous: list[Cell], chars: str = ".#") -> list[str]:
    """The first solution (in the palette's ``chars``) with every ambiguous cell drawn as
    '?'."""
    grid = [list(row) for row in sol.strings(chars=chars)]
    for r, c in ambiguous:
        grid[r][c] = "?"
    return ["".join(row) for row in grid]
