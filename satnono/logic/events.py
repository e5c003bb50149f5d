"""What the solver does, step by step, for whoever watches (``solve --trace``, a replay).

Propagation, probing and the native search report each step as one of these events to an
observer: any callable taking the event and the board as it is right after the step. The
solving code calls it only when one is set, so watching costs nothing when nobody does.
Each event says in words what happened (:meth:`describe`); a tracer draws the board too.

>>> from satnono.model.grid import ROW, Line
>>> LineSolved(Line(ROW, 2), filled=3, empty=1).describe()
'row 3: 3 filled, 1 empty'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.grid import Cell, Line

if TYPE_CHECKING:
    from .board import Board


def _cell(cell: Cell) -> str:
    return f"cell ({cell[0] + 1}, {cell[1] + 1})"


def _value(colour: int) -> str:
    return "empty" if colour == 0 else "filled" if colour == 1 else f"colour {colour}"


def _indent(depth: int) -> str:
    return "  " * max(depth - 1, 0)


@dataclass(frozen=True)
class Event:
    """One step of the solving."""

    def describe(self) -> str:
        raise NotImplementedError

    @property
    def line(self) -> Line | None:
        """The line the step was about, if any (a tracer highlights it)."""
        return None


@dataclass(frozen=True)
class LineSolved(Event):
    """The line solver fixed cells of a line: ``filled`` to a block colour, ``empty`` to
    the background; in colour, ``narrowed`` more lost a colour but may still take two."""

    at: Line
    filled: int
    empty: int
    narrowed: int = 0

    @classmethod
    def of(cls, at: Line, removed: int, new: tuple[int, ...]) -> LineSolved:
        """The step that took the colours in ``removed`` (a mask of the line's cells) away,
        leaving the line's may-masks ``new`` (one per colour, the background first)."""
        seen = multi = 0
        for m in new:
            multi |= seen & m
            seen |= m
        known = removed & ~multi
        return cls(at, (known & ~new[0]).bit_count(), (known & new[0]).bit_count(),
                   (removed & multi).bit_count())

    @property
    def line(self) -> Line:
        return self.at

    def describe(self) -> str:
        return f"{self.at}: {self.filled} filled, {self.empty} empty" + (
            f", {self.narrowed} narrowed" if self.narrowed else "")


@dataclass(frozen=True)
class Contradiction(Event):
    """A line has no placement left: this branch (or the puzzle) has no solution."""

    at: Line

    @property
    def line(self) -> Line:
        return self.at

    def describe(self) -> str:
        return f"{self.at}: contradiction"


@dataclass(frozen=True)
class Refuted(Event):
    """Probing: giving ``cell`` the colour ``colour`` contradicts, so it takes another."""

    cell: Cell
    colour: int
    #: the one colour the cell is left with, if only one is left
    rest: int | None = None

    def describe(self) -> str:
        then = "" if self.rest is None else f", so it is {_value(self.rest)}"
        return f"probe: {_cell(self.cell)} {_value(self.colour)} is refuted{then}"


@dataclass(frozen=True)
class Agreed(Event):
    """Probing: every value of ``cell`` fixes the same ``fixed`` cells, so they are fixed."""

    cell: Cell
    fixed: int

    def describe(self) -> str:
        return f"probe: both values of {_cell(self.cell)} fix the same {self.fixed} cell(s)"


@dataclass(frozen=True)
class Branch(Event):
    """Search: assume ``cell`` takes ``colour`` (or, ``ruled_out``, that it does not: the
    colour search decides one colour of a cell at a time), ``depth`` decisions deep."""

    cell: Cell
    colour: int
    depth: int
    ruled_out: bool = False

    def describe(self) -> str:
        what = f"is not {_value(self.colour)}" if self.ruled_out else _value(self.colour)
        return (f"{_indent(self.depth)}branch (depth {self.depth}): assume {_cell(self.cell)} "
                f"{what}")


@dataclass(frozen=True)
class Backtrack(Event):
    """Plain search: a dead end at ``depth``; the next branch is tried."""

    depth: int

    def describe(self) -> str:
        return f"{_indent(self.depth)}dead end at depth {self.depth}: back up"


@dataclass(frozen=True)
class Learnt(Event):
    """Conflict-driven search: a dead end at ``depth`` became a clause of ``size`` cells,
    and the search jumped back to depth ``back``."""

    depth: int
    size: int
    back: int

    def describe(self) -> str:
        return (f"{_indent(self.depth)}dead end at depth {self.depth}: learnt a clause of "
                f"{self.size} cell(s), back to depth {self.back}")


@dataclass(frozen=True)
class Blocked(Event):
    """Conflict-driven search: solution ``number`` is excluded by a clause over its
    ``size`` decisions, and the search goes on from depth ``back``."""

    number: int
    size: int
    back: int

    def describe(self) -> str:
        return (f"solution {self.number} blocked by a clause over its {self.size} decision(s), "
                f"back to depth {self.back}")


@dataclass(frozen=True)
class Found(Event):
    """A solution: the board is complete."""

    number: int

    def describe(self) -> str:
        return f"solution {self.number} found"


Observer = Callable[[Event, "Board"], None]
"""Whoever watches the solving: called with each event and the board right after it."""
