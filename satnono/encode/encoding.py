"""The residual CNF as it is built: its clauses, its variable pool and the map from cells to
variables (:class:`Encoding`), shared by the encoders of a line (:mod:`.residual`,
:mod:`.order`, :mod:`.colour`) and the solvers that read it."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..logic.board import Board
from ..model.verdict import LineCode

if TYPE_CHECKING:
    from pysat.formula import IDPool


def _pool() -> IDPool:
    # pysat is imported when a CNF is first built, not with this module
    from pysat.formula import IDPool

    return IDPool()


@dataclass
class Encoding:
    """Clauses plus the map back to cells. ``cells[(r, c)]`` is the variable of an unknown
    cell (true = filled); in colour ``cells[(r, c, colour)]`` the literal "cell (r, c) has
    that colour". ``board`` holds the known cells."""

    board: Board
    pool: IDPool = field(default_factory=_pool)
    clauses: list[list[int]] = field(default_factory=list)
    cells: dict[tuple[int, ...], int] = field(default_factory=dict)
    infeasible: bool = False
    aux_per_line: dict[Hashable, int] = field(default_factory=dict)
    #: how the black-and-white lines were encoded (colour lines are always automata)
    code: LineCode = LineCode.AUTOMATON
    #: the order encoding's variables of each line it encoded (:mod:`.order`): per block,
    #: its first and last possible start and the variable of "starts at or before the
    #: first" (those of the later starts follow it in order)
    orders: dict[Hashable, list[tuple[int, int, int]]] = field(default_factory=dict)
    #: where a SAT solver's first decisions go, as literals (:func:`.phases.phases`): empty
    #: for none
    phases: list[int] = field(default_factory=list)

    @property
    def variables(self) -> int:
        return self.pool.top

    def new_var(self) -> int:
        """A fresh anonymous variable (an automaton's node: nothing reads it back)."""
        self.pool.top += 1
        return self.pool.top

    def size(self) -> str:
        """For messages: how big the CNF is (what a solver that ran out of memory held)."""
        return (f"the residual CNF has {self.variables:,} variables and "
                f"{len(self.clauses):,} clauses")
