"""Baselines: what a user would write first, kept to measure satnono against.

``plain-sat``: the whole puzzle, no propagation, one variable per (block, start) — each
block starts exactly once, blocks keep their order with a gap, a cell is filled exactly
when some block covering it starts where it must — solved by CaDiCaL.
``plain-cpsat``: one CP-SAT automaton per line over every cell, no propagation.
Both enumerate with blocking clauses over the cells and are checked like every backend.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ..puzzle import Puzzle, Solution


def block_start_cnf(puzzle: Puzzle) -> tuple[list[list[int]], dict[tuple[int, int], int], int]:
    """Clauses, the cell variables, and the number of variables."""
    from pysat.formula import IDPool

    pool = IDPool()
    h, w = puzzle.height, puzzle.width
    cells = {(r, c): pool.id(("x", r, c)) for r in range(h) for c in range(w)}
    clauses: list[list[int]] = []
    lines = [(("r", r), clue, [cells[(r, c)] for c in range(w)])
             for r, clue in enumerate(puzzle.rows)]
    lines += [(("c", c), clue, [cells[(r, c)] for r in range(h)])
              for c, clue in enumerate(puzzle.columns)]
    for lid, clue, xs in lines:
        n = len(xs)
        if not clue:
            clauses.extend([-x] for x in xs)
            continue
        # block j may start from the room the blocks before it need up to the room the
        # blocks after it leave: plain bounds, no line solving
        lo = [sum(clue[:j]) + j for j in range(len(clue))]
        last = [n - (sum(clue[j:]) + len(clue) - j - 1) for j in range(len(clue))]
        starts = [{p: pool.id(("s", lid, j, p)) for p in range(lo[j], last[j] + 1)}
                  for j in range(len(clue))]
        covering: dict[int, list[int]] = {i: [] for i in range(n)}
        for j, length in enumerate(clue):
            vs = list(starts[j].values())
            clauses.append(vs)  # at least one start
            clauses.extend([-a, -b] for a, b in itertools.combinations(vs, 2))  # at most one
            for p, s in starts[j].items():
                for i in range(p, p + length):
                    clauses.append([-s, xs[i]])
                    covering[i].append(s)
                if j + 1 < len(clue):  # the next block starts after a gap
                    clauses.append([-s] + [t for q, t in starts[j + 1].items()
                                           if q >= p + length + 1])
        for i, x in enumerate(xs):
            clauses.append([-x] + covering[i])
    return clauses, cells, pool.top


def sat_solutions(puzzle: Puzzle, *, solver: str = "cadical195", timeout: float | None = None,
                  limit: int | None = None) -> Iterator[Solution]:
    from ..child import stream
    from ..presolve import deadline_of

    # encoding included: with a deadline the whole baseline runs where it can be stopped
    rows = stream(_rows, (puzzle, solver, limit), deadline_of(timeout), timeout,
                  what="SAT solver")
    for masks in rows:
        yield Solution(puzzle.width, tuple(masks))


def _rows(puzzle: Puzzle, solver: str, limit: int | None) -> Iterator[list[int]]:
    """Row masks of each model of the block-start CNF."""
    from .sat import _enumerate

    clauses, cells, _ = block_start_cnf(puzzle)
    # CaDiCaL as it comes (tuned=False): the baseline is what a user would write first
    for true in _enumerate(solver, clauses, list(cells.values()), limit, tuned=False):
        yield [sum(1 << c for c in range(puzzle.width) if cells[(r, c)] in true)
               for r in range(puzzle.height)]


def cpsat_solutions(puzzle: Puzzle, *, timeout: float | None = None, limit: int | None = None,
                    workers: int = 1) -> Iterator[Solution]:
    from .cpsat import solutions

    return solutions(puzzle, timeout=timeout, limit=limit, workers=workers, propagation=False)
