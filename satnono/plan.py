"""What a run does, decided once: :func:`plan_for` reads the backend's row and the options
before any work, :meth:`Plan.at_root` adds what depends on the board presolving left, and
the pipeline (:func:`satnono.pipeline.stages`) passes the plan down to the backend, which
reads it and decides nothing of its own.

The numbers the choices rest on are one :class:`~satnono.tuning.Tuning` (in
:mod:`satnono.tuning`, below every stage that reads it); each was measured, and its
history (the sets, the alternatives, the times) is in benchmarks/results/NOTES.md. A
caller that wants other numbers (a test, an experiment) passes its own ``Tuning`` to
:func:`satnono.solve`; nothing reads a module global.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from .errors import UsageError
from .model.verdict import Depth
from .tuning import TUNING, Tuning

if TYPE_CHECKING:
    from .logic.board import Board

#: the pysat solver the sat backend, counting and check use unless told otherwise
DEFAULT_SOLVER = "cadical195"


class BackendRow(Protocol):
    """What a plan reads of a backend's row (:class:`satnono.backends.Backend`): the
    plan comes before the backends, which read it, so it names no backend type."""

    @property
    def name(self) -> str: ...

    @property
    def compiled(self) -> bool: ...

    def check_options(self, options: dict[str, object]) -> None: ...

    def depth_with(self, options: dict[str, object]) -> Depth: ...




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
    implications: bool = True
    kissat_first: bool = False
    inform_rounds: int = 0
    tuning: Tuning = field(default=TUNING, compare=False)

    @property
    def presolve_workers(self) -> int:
        """Processes the Python probing may share (the compiled engine probes in one)."""
        return self.workers or 1

    def at_root(self, board: Board, black_and_white: bool, limit: int | None = 2,
                kissat: bool = False) -> Plan:
        """The sat backend's choices for the root presolving left (``board``, open): Kissat
        first past :attr:`Tuning.kissat_cells` open choices (the default solver, a Kissat
        program present: ``kissat``, not one racer of a race run elsewhere: ``search``),
        the compiled search's budget unless one was given, and, looking for one or two
        solutions
        (``limit``) with first values, belief propagation's passes for the search's first
        values (``inform_rounds``); first values at all (``phases``) and probing's
        implications as clauses (``implications``) in black and white, in colour only as
        :attr:`Tuning.colour_phases` and :attr:`Tuning.colour_implications` say. Other
        backends: unchanged."""
        if self.backend != "sat":
            return self
        kissat_first = self.search is None and self.solver == DEFAULT_SOLVER and \
            kissat and choices(board) > self.tuning.kissat_cells
        budget = self.budget
        if budget is None:
            budget = self.tuning.large_budget if kissat_first else \
                self.tuning.budget if black_and_white else self.tuning.colour_budget
        phases = self.phases and (black_and_white or self.tuning.colour_phases)
        inform = self.tuning.inform_rounds if phases and budget and \
            limit is not None and limit <= 2 else 0
        return replace(self, kissat_first=kissat_first, budget=budget, inform_rounds=inform,
                       phases=phases,
                       implications=black_and_white or self.tuning.colour_implications)


def plan_for(row: BackendRow, options: dict[str, object], *, observed: bool = False,
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


__all__ = ["DEFAULT_SOLVER", "TUNING", "BackendRow", "Plan", "Tuning", "choices", "plan_for"]
