"""Where things are on a grid: a line is a row or a column, named by its axis and index.

Every stage that walks lines (propagation, probing, the learning search, the encoders, the
tracer) names them this way, so none of them keeps a numbering of its own or a twin branch
for rows and columns: the cells of line ``(ROW, r)`` cross the lines ``(COLUMN, c)``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Axis(IntEnum):
    """Rows run left to right, columns top to bottom; ``axis.other`` is the crossing one."""

    ROW = 0
    COLUMN = 1

    @property
    def other(self) -> Axis:
        return Axis.COLUMN if self is Axis.ROW else Axis.ROW


ROW, COLUMN = Axis.ROW, Axis.COLUMN


class Line(NamedTuple):
    """One row or column; ``index`` counts from 0, messages count from 1.

    >>> str(Line(ROW, 0)), str(Line(COLUMN, 4))
    ('row 1', 'column 5')
    """

    axis: Axis
    index: int  # type: ignore[assignment]  # a line's index, not tuple.index()

    def __str__(self) -> str:
        return f"{'row' if self.axis is ROW else 'column'} {self.index + 1}"

    def cell(self, position: int) -> tuple[int, int]:
        """(row, column) of the cell at ``position`` along this line."""
        return (self.index, position) if self.axis is ROW else (position, self.index)


Cell = tuple[int, int]
"""(row, column), both from 0."""
