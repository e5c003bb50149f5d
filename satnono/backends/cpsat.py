"""CP-SAT backend: one ``add_automaton`` per line over the unknown cells, known cells fixed.

CP-SAT reports solutions through a callback while it searches; a worker thread runs the
search and hands solutions over a queue, so this generator still yields them lazily and
closing it stops the search. With several workers the same grid can be reported twice:
solutions are deduplicated.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

from ..automaton import automaton
from ..board import Board
from ..errors import SearchTimeout
from ..presolve import deadline_of, time_left
from ..propagate import Context, propagate
from ..puzzle import Puzzle, Solution

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

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.enumerate_all_solutions = True
    if deadline is not None:
        solver.parameters.max_time_in_seconds = time_left(deadline)
    handoff: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()
    keys = list(cells)
    variables = [cells[k] for k in keys]

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
    seen: set[tuple] = set()
    try:
        while True:
            item = handoff.get()
            if item is _DONE:
                break
            if item in seen:
                continue
            seen.add(item)
            rows = list(board.rf)
            for (r, c), val in zip(keys, item):
                if val:
                    rows[r] |= 1 << c
            yield Solution(w, tuple(rows))
            if limit is not None and len(seen) >= limit:
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
        raise SearchTimeout(len(seen), timeout or (time.monotonic() - started))
