"""What a run does, decided once: :func:`plan_for` reads the backend's row and the options
before any work, :meth:`Plan.at_root` adds what depends on the board presolving left, and
the pipeline (:func:`satnono.pipeline.stages`) passes the plan down to the backend, which
reads it and decides nothing of its own.

The numbers the sat backend's choices rest on are one :class:`Tuning`; each was measured,
and its history (the sets, the alternatives, the times) is in benchmarks/results/NOTES.md.
A caller that wants other numbers (a test, an experiment) passes its own ``Tuning`` to
:func:`satnono.solve`; nothing reads a module global.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .backends import Backend
from .backends.solver import DEFAULT_SOLVER
from .errors import UsageError
from .model.verdict import Depth, LineCode

if TYPE_CHECKING:
    from .logic.board import Board


@dataclass(frozen=True)
class Tuning:
    """The sat backend's measured numbers.

    ``budget``: the work (:attr:`satnono.logic.compiled.Search.cost`, in cells of the
    lines it solves; 200 million is about half a second on a 25×25) the compiled search
    may spend in black and white before the CNF stage takes over: chosen on tcga2015,
    taai2011 and icga2023, each puzzle with every budget in turn. ``colour_budget``: the
    same in colour. ``large_budget``: the same where Kissat follows (past
    ``kissat_cells``): the 40×40s spent the whole of a larger one before they were handed
    over. ``kissat_cells``: open choices (:func:`choices`) past which Kissat looks for the
    first solution; on fewer, starting a program and loading the CNF twice costs more than
    it saves. ``neighbour_after``: the work the compiled search looks on for a second
    solution before a 2×2 swap of the first is tried. ``code``: how the CNF stage gets the
    lines (the order encoding takes CaDiCaL to a first solution in half the automaton's
    time on what the compiled search hands over). ``inform_rounds``: belief propagation
    over the probed root, at most this many passes (until no message moves by 0.001),
    sets the value the compiled search tries first at each cell, looking for one or two
    solutions (0: none); tournament sets take two thirds of the time with 20 to 50, more
    passes cost more than they save (benchmarks/results/NOTES.md). ``bp_rounds`` and
    ``bp_tolerance``: belief propagation for the SAT solver's first values, run to the
    tolerance, at most that many passes (0: no first values); Knotty's messages settle in
    146 passes, and from 25 on its first solution takes 1,044 conflicts or none, against
    14,410 after 20 and nothing in 20 s after 10.
    """

    budget: int = 200_000_000
    colour_budget: int = 100_000_000
    large_budget: int = 25_000_000
    kissat_cells: int = 1024
    neighbour_after: int = 2_000_000
    code: LineCode = LineCode.ORDER
    inform_rounds: int = 30
    bp_rounds: int = 200
    bp_tolerance: float = 1e-4


#: the numbers every run uses unless given others
TUNING = Tuning()


@dataclass(frozen=True)
class Plan:
    """One run's decisions. From the options: the ``backend``, how deep presolving goes
    (``depth``) and whether the compiled engine does it (``compiled``), and the backend's
    options (:data:`satnono.backends.OPTIONS`; ``workers`` None means the free cores,
    measured, for sat and one for CP-SAT). From the presolved root (:meth:`at_root`, the
    sat backend): the compiled search's ``budget``, whether Kissat looks for the first
    solution (``kissat_first``) and belief propagation's passes for the compiled search's
    first values (``inform_rounds``, 0: none)."""

    backend: str
    depth: Depth = Depth.PROBED
    compiled: bool = False
    solver: str = DEFAULT_SOLVER
    workers: int | None = None
    probing: bool = True
    learning: bool = True
    search: int | None = None
    budget: int | None = None
    phases: bool = True
    kissat_first: bool = False
    inform_rounds: int = 0
    tuning: Tuning = field(default=TUNING, compare=False)

    @property
    def presolve_workers(self) -> int:
        """Processes the Python probing may share (the compiled engine probes in one)."""
        return self.workers or 1

    def at_root(self, board: Board, black_and_white: bool, limit: int | None = 2) -> Plan:
        """The sat backend's choices for the root presolving left (``board``, open): Kissat
        first past :attr:`Tuning.kissat_cells` open choices (the default solver, a Kissat
        program present, not one racer of a race run elsewhere: ``search``), the compiled
        search's budget unless one was given, and, looking for one or two solutions
        (``limit``) with first values, belief propagation's passes for the search's first
        values (``inform_rounds``). Other backends: unchanged."""
        if self.backend != "sat":
            return self
        kissat_first = self.search is None and self.solver == DEFAULT_SOLVER and \
            choices(board) > self.tuning.kissat_cells and _kissat_present()
        budget = self.budget
        if budget is None:
            budget = self.tuning.large_budget if kissat_first else \
                self.tuning.budget if black_and_white else self.tuning.colour_budget
        inform = self.tuning.inform_rounds if self.phases and budget and \
            limit is not None and limit <= 2 else 0
        return replace(self, kissat_first=kissat_first, budget=budget, inform_rounds=inform)


def plan_for(row: Backend, options: dict[str, object], *, observed: bool = False,
             tuning: Tuning = TUNING) -> Plan:
    """The plan for ``row`` with ``options`` (each checked against the table: an option the
    backend does not take, or a value it cannot, is a :class:`~satnono.errors.UsageError`
    before any work); ``observed``: the native solver's steps are followed, which only
    the Python logic shows, so the engine does not presolve.

    >>> from satnono.backends import backend
    >>> p = plan_for(backend("sat"), {"workers": 1, "probing": False})
    >>> p.depth.name, p.compiled, p.workers, p.budget
    ('LINES', True, 1, None)
    """
    row.check_options(options)
    if not isinstance(tuning, Tuning):
        raise UsageError(f"tuning is a satnono.plan.Tuning, not {tuning!r}")
    return Plan(backend=row.name, depth=row.depth_with(options),
                compiled=row.compiled and not observed, tuning=tuning,
                **options)  # type: ignore[arg-type]  # each checked by row.check_options


def choices(board: Board) -> int:
    """The open cells, in colour each counted once per colour it may still take: the
    CNF's cell variables (a 30×30 in three colours that logic leaves open has about 2,300,
    as hard for CaDiCaL as a black-and-white 50×50).

    >>> from satnono.logic.board import Board
    >>> choices(Board(2, 1)), choices(Board(2, 1, colours=3))
    (2, 8)
    """
    from .model.grid import ROW

    if board.colours == 1:
        return board.unknown()
    rows = board.may[ROW]
    return sum(sum(layer[r] >> c & 1 for layer in rows) for r, c in board.unknown_cells())


def _kissat_present() -> bool:
    from .backends import kissat

    return kissat.program() is not None
