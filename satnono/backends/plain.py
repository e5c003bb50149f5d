"""Baselines: what a user would write first, kept to measure satnono against.

``plain-sat``: the whole puzzle, no propagation, one variable per (block, start) — each
block starts exactly once, blocks keep their order with a gap, a cell is filled exactly
when some block covering it starts where it must — solved by CaDiCaL.
``plain-cpsat``: one CP-SAT automaton per line over every cell, no propagation.
Both enumerate with blocking clauses over the cells and are checked like every backend.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..encode.block_start import block_start_cnf
from ..logic.context import Context
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..runtime.deadline import Deadline


def sat_solutions(puzzle: Puzzle, *, ctx: Context, deadline: Deadline, limit: int | None,
                  solver: str = "cadical195") -> Iterator[Solution]:
    from ..runtime.child import stream
    from .sat import check_solver

    check_solver(solver, enumerating=limit != 1)
    # encoding included: with a deadline the whole baseline runs where it can be stopped
    for masks in stream(_rows, (puzzle, solver, limit), deadline, what="SAT solver"):
        yield Solution(puzzle.width, tuple(masks))


def _rows(puzzle: Puzzle, solver: str, limit: int | None) -> Iterator[list[int]]:
    """Row masks of each model of the block-start CNF."""
    from .sat import _enumerate

    clauses, cells, _ = block_start_cnf(puzzle)
    # CaDiCaL as it comes (tuned=False): the baseline is what a user would write first
    for true in _enumerate(solver, clauses, list(cells.values()), limit, tuned=False):
        yield [sum(1 << c for c in range(puzzle.width) if cells[(r, c)] in true)
               for r in range(puzzle.height)]


def cpsat_solutions(puzzle: Puzzle, *, ctx: Context, deadline: Deadline, limit: int | None,
                    workers: int = 1) -> Iterator[Solution]:
    from .cpsat import isolated

    return isolated(puzzle, deadline, limit, workers, propagation=False)
