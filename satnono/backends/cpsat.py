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
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import SolverFailed
from ..logic.board import Board
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..runtime.deadline import Deadline

if TYPE_CHECKING:
    from ..plan import Plan

_DONE = object()


def solutions(start: Presolved, *, ctx: Context, deadline: Deadline, limit: int | None,
              plan: Plan) -> Iterator[Solution]:
    """CP-SAT on the lines that propagation left open (the plain baseline: on every
    line, when ``start`` is the open board), with the plan's workers (default one)."""
    from ..runtime.child import stream

    # in a child: CP-SAT's time limit is loose (its presolve of hundreds of automata runs
    # seconds past it) and it stops late when asked to, so only a process that can be
    # killed keeps a time limit or Ctrl-C to the second. OR-Tools is imported there too
    # (half a second that no signal interrupts, which ran past a time limit here); batch,
    # bench and serve import it once before they fork (Backend.warm)
    workers = plan.workers or 1
    return stream(automata, (ctx.puzzle, start.board, deadline, limit, workers), deadline,
                  what="CP-SAT solver", always=True)


def automata(puzzle: Puzzle, board: Board, deadline: Deadline, limit: int | None,
             workers: int) -> Iterator[Solution]:
    """The CP-SAT model of the puzzle's cells still open on ``board``, enumerated."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    variables, grid, exclude = _model(model, puzzle, board)
    if workers > 1:
        yield from _one_by_one(model, variables, workers, limit, deadline, grid, exclude)
        return
    solver = _solver(1)  # its enumeration is complete only with one worker
    solver.parameters.enumerate_all_solutions = True
    _time_limit(solver, deadline)
    handoff: queue.Queue[tuple[int, ...] | object] = queue.Queue(maxsize=64)
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

    status_box: list[Any] = []

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
            try:  # CP-SAT's own time limit is loose: its presolve may run past it
                item = handoff.get(timeout=deadline.remaining())
            except queue.Empty:
                raise deadline.expired(found) from None
            if not isinstance(item, tuple):  # the end
                break
            found += 1
            yield grid(item)
            if limit is not None and found >= limit:
                return
    finally:
        stop.set()
        solver.stop_search()  # the search may be between solutions for a long time
        while worker.is_alive():
            try:
                handoff.get(timeout=0.05)
            except queue.Empty:
                pass
        worker.join()
    status = status_box[0] if status_box else None
    if status is not None and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        _unfinished(solver, deadline, found)


Grid = Callable[[Sequence[Any]], Solution]
Exclude = Callable[[Sequence[Any]], None]


def _model(model: Any, puzzle: Puzzle, board: Board) -> tuple[list[Any], Grid, Exclude]:
    """An integer per unknown cell over the colours it may still take (in black and white,
    0 or 1: what CP-SAT makes of a Boolean), one automaton per open line: the colour
    automaton (:func:`satnono.encode.colour.colour_automaton`), and in black and white,
    its fast path, the two-symbol one (:func:`satnono.encode.automaton.automaton`), with
    which the random and survey suites ran 7 % faster (benchmarks/results/NOTES.md, "One
    line-solver seam")."""
    from ortools.sat.python import cp_model

    from ..encode.automaton import automaton
    from ..encode.colour import colour_automaton
    from ..model.grid import ROW

    layers = board.may[ROW]
    cells = {}
    for r, c in board.unknown_cells():
        options = [k for k in range(board.colours + 1) if layers[k][r] >> c & 1]
        cells[(r, c)] = model.new_int_var_from_domain(
            cp_model.Domain.from_values(options), f"x{r}_{c}")
    constant = [model.new_constant(k) for k in range(board.colours + 1)]

    def known(cell: tuple[int, int]) -> Any:
        """The constant of a cell logic fixed (one with no variable)."""
        value = board.get(*cell)
        assert value is not None
        return constant[value]

    for line in puzzle.lines():
        positions = range(board.length(line))
        if any(line.cell(i) in cells for i in positions):
            if board.colours == 1:  # the black-and-white automaton: the fast path (NOTES)
                bw = automaton(puzzle.lengths[line.axis][line.index])
                accept, transitions = [bw.length], bw.transitions()
            else:
                a = colour_automaton(puzzle.indexed[line.axis][line.index])
                accept, transitions = sorted(a.accept), a.transitions()
            model.add_automaton([cells[cell] if cell in cells else known(cell)
                                 for cell in map(line.cell, positions)],
                                0, accept, transitions)
    keys = list(cells)
    variables = [cells[k] for k in keys]
    boolean = [list(v.proto.domain) == [0, 1] for v in variables]  # two colours left

    def grid(values: Sequence[Any]) -> Solution:
        solved = board.copy()
        for (r, c), val in zip(keys, values):
            solved.set(r, c, int(val))
        return solved.to_solution()

    def exclude(values: Sequence[Any]) -> None:
        """Some cell differs: a literal of a cell with two colours left, a reified
        inequality of one with more."""
        differs = []
        for v, val, two in zip(variables, values, boolean):
            if two:
                differs.append(v.Not() if val else v)
                continue
            b = model.new_bool_var("")
            model.add(v != int(val)).only_enforce_if(b)
            differs.append(b)
        model.add_bool_or(differs)

    return variables, grid, exclude


def _one_by_one(model: Any, variables: list[Any], workers: int, limit: int | None,
                deadline: Deadline, grid: Grid, exclude: Exclude) -> Iterator[Solution]:
    """One parallel solve per solution; each found solution is then excluded."""
    from ortools.sat.python import cp_model

    found = 0
    while limit is None or found < limit:
        solver = _solver(workers)
        _time_limit(solver, deadline)
        status = _solve_in_thread(solver, model)
        if status == cp_model.INFEASIBLE:
            return
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            _unfinished(solver, deadline, found)
        values = [solver.value(v) for v in variables]
        found += 1
        yield grid(values)
        exclude(values)


def _solver(workers: int) -> Any:
    """A CP-SAT solver with ``workers`` workers that leaves Ctrl-C to Python (CP-SAT's own
    handler stops the search and then aborts the process), so that an interrupted run
    stops its search and says so like every other backend."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.catch_sigint_signal = False
    return solver


def _solve_in_thread(solver: Any, model: Any) -> Any:
    """``solver.solve(model)`` in a thread this one waits on, so that Ctrl-C reaches Python
    at once and stops the search instead of waiting for it."""
    status: list[Any] = []
    thread = threading.Thread(target=lambda: status.append(solver.solve(model)), daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.1)
    except BaseException:
        solver.stop_search()
        thread.join()
        raise
    return status[0]


def _time_limit(solver: Any, deadline: Deadline) -> None:
    left = deadline.left()
    if left is not None:
        solver.parameters.max_time_in_seconds = left


def _unfinished(solver: Any, deadline: Deadline, found: int) -> None:
    """A search that stopped before it was done: the time limit, or a failure."""
    if deadline.limited:
        raise deadline.expired(found)
    raise SolverFailed(f"CP-SAT stopped without finishing: {solver.status_name()}")
