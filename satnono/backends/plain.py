"""Baselines: what a user would write first, kept to measure satnono against.

``plain-sat``: the whole puzzle, no propagation, one variable per (block, start) — each
block starts exactly once, blocks keep their order with a gap, a cell is filled exactly
when some block covering it starts where it must — solved by CaDiCaL; in colour, the
automaton CNF of every line over every cell (a literal per cell and colour).
``plain-cpsat``: one CP-SAT automaton per line over every cell, no propagation.
Both enumerate with blocking clauses over the cells and are checked like every backend.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..encode.block_start import block_start_cnf
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..runtime.deadline import Deadline
from .solver import enumerate_models

if TYPE_CHECKING:
    from ..plan import Plan


def sat_solutions(start: Presolved, *, ctx: Context, deadline: Deadline,
                  limit: int | None, plan: Plan) -> Iterator[Solution]:
    from ..runtime.child import stream

    solver = plan.solver

    # encoding included: with a deadline the whole baseline runs where it can be stopped
    make = _colour_grids if ctx.colours > 1 else _grids
    yield from stream(make, (ctx, solver, limit), deadline, what="SAT solver", always=True)


def _grids(ctx: Context, solver: str, limit: int | None) -> Iterator[Solution]:
    puzzle = ctx.puzzle
    for masks in _rows(puzzle, solver, limit):
        yield Solution(puzzle.width, tuple(masks))


def _colour_grids(ctx: Context, solver: str, limit: int | None) -> Iterator[Solution]:
    """Colour: the automaton CNF of every line over every cell (no propagation, no
    probing), solved by CaDiCaL as it comes."""
    from ..encode.residual import decode_solution, encode

    enc = encode(ctx.puzzle, ctx.board())
    if enc.infeasible:
        return
    for true in enumerate_models(solver, enc.clauses, list(enc.cells.values()), limit, tuned=False):
        yield decode_solution(enc, true)


def _rows(puzzle: Puzzle, solver: str, limit: int | None) -> Iterator[list[int]]:
    """Row masks of each model of the block-start CNF."""
    clauses, cells, _ = block_start_cnf(puzzle)
    # CaDiCaL as it comes (tuned=False): the baseline is what a user would write first
    for true in enumerate_models(solver, clauses, list(cells.values()), limit, tuned=False):
        yield [sum(1 << c for c in range(puzzle.width) if cells[(r, c)] in true)
               for r in range(puzzle.height)]


def cpsat_solutions(start: Presolved, *, ctx: Context, deadline: Deadline,
                    limit: int | None, plan: Plan) -> Iterator[Solution]:
    """CP-SAT's model over every cell: the cpsat backend from the open board."""
    from .cpsat import solutions

    return solutions(start, ctx=ctx, deadline=deadline, limit=limit, plan=plan)
