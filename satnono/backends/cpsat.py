"""CP-SAT backend: one ``add_automaton`` per line over the unknown cells, known cells fixed.

With one worker, CP-SAT enumerates in one search and reports solutions through a callback;
a worker thread runs the search and hands solutions over a queue, so this generator still
yields them lazily and closing it stops the search. With several workers CP-SAT's own
enumeration loses solutions (OR-Tools 9.15, the 720 permutation matrices of a 6×6
puzzle: 545 found with 2 workers, 134 with 8, and the status still says the search was
complete), so then each solution is one parallel solve, with the solutions before it
excluded by a clause over the unknown cells.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

from ..encode.automaton import automaton
from ..errors import SearchTimeout
from ..logic.board import Board
from ..logic.presolve import deadline_of, time_left
from ..logic.propagate import Context, propagate
from ..model.puzzle import Puzzle, Solution

_DONE = object()


def solutions(puzzle: Puzzle, *, workers: int = 1, timeout: float | None = None,
              limit: int | None = None, ctx: Context | None = None,
              propagation: bool = True) -> Iterator[Solution]:
    """``propagation=False`` is the plain baseline: every cell a variable."""
    started = time.monotonic()
    deadline = deadline_of(timeout)  # propagation and building the model count against it
    from ortools.sat.python import cp_model

    ctx = ctx or Context(puzzle)
    board = Board(puzzle.width, puzzle.height)
    if propagation and not propagate(ctx, board):
        return
    if board.solved():
        yield board.to_solution()
        return
    model = cp_model.CpModel()
    cells: dict[tuple[int, int], cp_model.IntVar] = {}
    for r, c in board.unknown_cells():
        cells[(r, c)] = model.new_bool_var(f"x{r}_{c}")
    one, zero = model.new_constant(1), model.new_constant(0)

    def cell(r: int, c: int):
        v = board.get(r, c)
        return cells[(r, c)] if v is None else (one if v else zero)

    h, w = puzzle.height, puzzle.width
    for r in range(h):
        if any((r, c) in cells for c in range(w)):
            a = automaton(puzzle.rows[r])
            model.add_automaton([cell(r, c) for c in range(w)], 0, [a.length], a.transitions())
    for c in range(w):
        if any((r, c) in cells for r in range(h)):
            a = automaton(puzzle.columns[c])
            model.add_automaton([cell(r, c) for r in range(h)], 0, [a.length], a.transitions())

    keys = list(cells)
    variables = [cells[k] for k in keys]

    def grid(values) -> Solution:
        rows = list(board.rf)
        for (r, c), val in zip(keys, values):
            if val:
                rows[r] |= 1 << c
        return Solution(w, tuple(rows))

    if workers > 1:
        yield from _one_by_one(model, variables, workers, limit, deadline, timeout, started,
                               grid)
        return
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # its enumeration is complete only with one worker
    solver.parameters.enumerate_all_solutions = True
    if deadline is not None:
        solver.parameters.max_time_in_seconds = time_left(deadline)
    handoff: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if stop.is_set():
                self.stop_search()
                return
            values = tuple(self.value(v) for v in variables)
            while not stop.is_set():
                try:
                    handoff.put(values, timeout=0.1)
                    return
                except queue.Full:
                    continue
            self.stop_search()

    status_box: list = []

    def run() -> None:
        try:
            status_box.append(solver.solve(model, Collect()))
        finally:
            handoff.put(_DONE)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    found = 0
    try:
        while True:
            item = handoff.get()
            if item is _DONE:
                break
            found += 1
            yield grid(item)
            if limit is not None and found >= limit:
                return
    finally:
        stop.set()
        while worker.is_alive():
            try:
                handoff.get(timeout=0.05)
            except queue.Empty:
                pass
        worker.join()
    status = status_box[0] if status_box else None
    if status is not None and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise SearchTimeout(found, timeout or (time.monotonic() - started))


def _one_by_one(model, variables: list, workers: int, limit: int | None,
                deadline: float | None, timeout: float | None, started: float,
                grid) -> Iterator[Solution]:
    """One parallel solve per solution; each found solution is then excluded."""
    from ortools.sat.python import cp_model

    found = 0
    while limit is None or found < limit:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if deadline is not None:
            solver.parameters.max_time_in_seconds = time_left(deadline)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SearchTimeout(found, timeout or (time.monotonic() - started))
        values = [solver.boolean_value(v) for v in variables]
        found += 1
        yield grid(values)
        model.add_bool_or([v.Not() if val else v for v, val in zip(variables, values)])
