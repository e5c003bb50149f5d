"""A solved grid, and the clue a line of cells has.

A grid is kept as bit masks, one per row: ``rows[r]`` has bit ``c`` set when cell (r, c)
takes the first block colour (black). Colour grids add ``layers``: for each further block
colour (palette index 2, 3, …) its cells, as row masks again. Black and white needs nothing
more, so its solutions stay a tuple of ints: cheap to hash, compare and block.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Solution:
    """A filled grid: bit ``c`` of ``rows[r]`` is set when cell (r, c) is filled.

    >>> s = Solution.from_strings(["#.", ".#"])
    >>> s.rows, s.strings("*", ".")
    ((1, 2), ['*.', '.*'])
    """

    width: int
    rows: tuple[int, ...]
    #: colour grids: the cells of block colours 2, 3, …, each as a tuple of row masks
    layers: tuple[tuple[int, ...], ...] = ()

    @property
    def height(self) -> int:
        return len(self.rows)

    def filled(self, r: int, c: int) -> bool:
        return bool(self.rows[r] >> c & 1)

    def colour(self, r: int, c: int) -> int:
        """The palette index of cell (r, c): 0 background, 1 the first block colour, …"""
        if self.rows[r] >> c & 1:
            return 1
        for k, layer in enumerate(self.layers):
            if layer[r] >> c & 1:
                return k + 2
        return 0

    def strings(self, fill: str = "#", blank: str = ".", chars: str | None = None
                ) -> list[str]:
        """Each row as text; ``chars`` (a palette's characters, background first) for a
        colour grid, else ``fill`` and ``blank``."""
        if chars is not None and len(chars) == 2 and not self.layers:
            blank, fill = chars[0], chars[1]
        elif chars is not None or self.layers:
            table = chars or (blank + fill + "".join(str(k + 2) for k in range(len(self.layers))))
            return ["".join(table[self.colour(r, c)] for c in range(self.width))
                    for r in range(self.height)]
        cells = str.maketrans("01", blank + fill)
        return [_bits(m, self.width).translate(cells) for m in self.rows]

    @classmethod
    def from_strings(cls, lines: Sequence[str], fill: str = "#*1X") -> Solution:
        width = len(lines[0]) if lines else 0
        return cls(width, tuple(sum(1 << c for c, ch in enumerate(s) if ch in fill)
                                for s in lines))

    @classmethod
    def from_chars(cls, lines: Sequence[str], chars: str) -> Solution:
        """A grid from rows of a palette's characters (``chars[k]`` draws colour k, the
        background first); a character not in it counts as background."""
        k = len(chars)
        width = len(lines[0]) if lines else 0
        masks = [[sum(1 << c for c, ch in enumerate(s) if ch == chars[colour]) for s in lines]
                 for colour in range(1, k)]
        return cls(width, tuple(masks[0]) if masks else (),
                   tuple(tuple(m) for m in masks[1:]))

    @classmethod
    def from_cells(cls, grid: Iterable[Sequence[bool]]) -> Solution:
        """A black-and-white grid from rows of truth values (True = filled)."""
        from ..errors import InvalidPuzzle

        given = list(grid) if isinstance(grid, Iterable) and not isinstance(
            grid, (str, bytes)) else None
        if given is None or any(isinstance(r, (str, bytes)) or not isinstance(r, Iterable)
                                for r in given):
            raise InvalidPuzzle(f"a picture is rows of truth values, not {grid!r:.60}")
        cells = [list(r) for r in given]
        width = len(cells[0]) if cells else 0
        if any(len(r) != width for r in cells):
            raise InvalidPuzzle("picture rows differ in length")
        return cls(width, tuple(sum(1 << c for c, v in enumerate(r) if v) for r in cells))

    def columns(self) -> list[int]:
        """The grid transposed: bit ``r`` of ``columns()[c]`` is cell (r, c)."""
        return transpose(self.rows, self.width)


def _bits(mask: int, length: int) -> str:
    """A line's cells as '0'/'1' text, cell 0 first (bit i is cell i): string work in C,
    a hundred times a loop over the bits on a line of thousands of cells.

    >>> _bits(0b1101, 5)
    '10110'
    """
    return format(mask, f"0{length}b")[::-1] if length else ""


def transpose(rows: Sequence[int], width: int) -> list[int]:
    """Row masks to column masks (bit r of column c = bit c of row r).

    >>> transpose([0b01, 0b11], 2)
    [3, 2]
    """
    if not rows:
        return [0] * width
    lines = [_bits(m, width) for m in rows]
    return [int("".join(column)[::-1], 2) for column in zip(*lines)]


def canonical_order(solutions: Iterable[Solution]) -> list[Solution]:
    """Solutions sorted as the olympiad's ``japan.sol`` lists them — row by row, a filled cell
    before an empty one — so that a file of all solutions is the same whichever backend
    found them, in whatever order."""
    return sorted(solutions, key=lambda s: s.strings("*", "."))


def line_clue(mask: int, length: int) -> tuple[int, ...]:
    """The run lengths of one line given as a bit mask (bit i = cell i).

    >>> line_clue(0b1101, 4)
    (1, 2)
    """
    return tuple(map(len, filter(None, _bits(mask, length).split("0"))))
