"""SAT backend: propagate, encode the residual puzzle, enumerate with blocking clauses.

One incremental solver per puzzle; each solution adds one clause over the unknown cells'
variables only, so the solver keeps what it learnt between solutions.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..board import Board
from ..encode import decode, encode
from ..errors import SatnonoError, SearchTimeout
from ..probe import probe
from ..propagate import Context, propagate
from ..puzzle import Puzzle, Solution

DEFAULT_SOLVER = "cadical195"
#: pysat solvers that cannot take new clauses between solve calls
NOT_INCREMENTAL = ("kissat",)


class UnsupportedSolver(SatnonoError):
    pass


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


def solutions(puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER, timeout: float | None = None,
              limit: int | None = None, probing: bool = True, ctx: Context | None = None
              ) -> Iterator[Solution]:
    """Propagate (and probe) at the root, then enumerate the residual CNF's models."""
    check_solver(solver, enumerating=limit != 1)
    ctx = ctx or Context(puzzle)
    deadline = None if timeout is None else time.monotonic() + timeout
    board = Board(puzzle.width, puzzle.height)
    if not propagate(ctx, board):
        return
    if probing and not board.solved():
        try:
            consistent, _ = probe(ctx, board, deadline)
        except SearchTimeout:
            raise SearchTimeout(0, timeout or 0) from None
        if not consistent:
            return
    if board.solved():
        yield board.to_solution()
        return
    enc = encode(puzzle, board)
    ctx.encoding = enc
    if enc.infeasible:
        return
    cells = list(enc.cells.values())
    if deadline is None:
        for true in _enumerate(solver, enc.clauses, cells, limit):
            yield Solution(puzzle.width, tuple(decode(enc, true)))
        return
    yield from (Solution(puzzle.width, tuple(decode(enc, true)))
                for true in _enumerate_with_deadline(solver, enc.clauses, cells, limit,
                                                     deadline, timeout or 0))


def _enumerate(solver: str, clauses: list[list[int]], cells: list[int], limit: int | None
               ) -> Iterator[set[int]]:
    """True cell variables of each model; one solver, one blocking clause per model."""
    from pysat.solvers import Solver

    found = 0
    with Solver(name=solver, bootstrap_with=clauses) as s:
        while s.solve():
            model = s.get_model()
            true = {v for v in cells if model[v - 1] > 0}
            found += 1
            yield true
            if limit is not None and found >= limit:
                return
            s.add_clause([-v if v in true else v for v in cells])


def _child(conn, solver: str, clauses: list[list[int]], cells: list[int],
           limit: int | None) -> None:
    try:
        for true in _enumerate(solver, clauses, cells, limit):
            conn.send(sorted(true))
        conn.send(None)
    except BaseException as exc:  # pragma: no cover - reported to the parent
        conn.send(("error", repr(exc)))
    finally:
        conn.close()


def _enumerate_with_deadline(solver: str, clauses: list[list[int]], cells: list[int],
                             limit: int | None, deadline: float, timeout: float
                             ) -> Iterator[set[int]]:
    """The same enumeration in a forked process that is killed at the deadline: most
    pysat solvers (CaDiCaL among them) cannot be interrupted inside one solve call."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, solver, clauses, cells, limit), daemon=True)
    proc.start()
    child.close()
    found = 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not parent.poll(left):
                raise SearchTimeout(found, timeout)
            try:
                item = parent.recv()
            except EOFError:
                raise SatnonoError("the SAT solver process ended unexpectedly") from None
            if item is None:
                return
            if isinstance(item, tuple):
                raise SatnonoError(f"the SAT solver failed: {item[1]}")
            found += 1
            yield set(item)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
