"""The partial grid: known-filled and known-empty cells, kept for rows and columns alike."""

from __future__ import annotations

from operator import or_

from ..model.puzzle import Solution


class Board:
    """Four lists of bit masks; rows and columns always describe the same cells.

    ``rf[r]``/``re[r]``: known filled / empty cells of row r (bit c = column c);
    ``cf[c]``/``ce[c]``: the same cells seen from column c (bit r = row r).
    Copying is four list copies, which is what makes search and probing cheap.
    """

    __slots__ = ("width", "height", "rf", "re", "cf", "ce")

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.rf = [0] * height
        self.re = [0] * height
        self.cf = [0] * width
        self.ce = [0] * width

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.width = self.width
        b.height = self.height
        b.rf = self.rf[:]
        b.re = self.re[:]
        b.cf = self.cf[:]
        b.ce = self.ce[:]
        return b

    def get(self, r: int, c: int) -> int | None:
        """1 filled, 0 empty, None unknown."""
        if self.rf[r] >> c & 1:
            return 1
        if self.re[r] >> c & 1:
            return 0
        return None

    def set(self, r: int, c: int, value: int) -> None:
        if value:
            self.rf[r] |= 1 << c
            self.cf[c] |= 1 << r
        else:
            self.re[r] |= 1 << c
            self.ce[c] |= 1 << r

    def unset(self, r: int, c: int) -> None:
        """Forget a cell's value (search that undoes assignments instead of copying)."""
        mr, mc = ~(1 << c), ~(1 << r)
        self.rf[r] &= mr
        self.re[r] &= mr
        self.cf[c] &= mc
        self.ce[c] &= mc

    def known(self) -> int:
        # map over C functions: probing asks this three times per probed cell
        return sum(map(int.bit_count, map(or_, self.rf, self.re)))

    def unknown(self) -> int:
        return self.width * self.height - self.known()

    def solved(self) -> bool:
        full = (1 << self.width) - 1
        return all((f | e) == full for f, e in zip(self.rf, self.re))

    def unknown_cells(self) -> list[tuple[int, int]]:
        full = (1 << self.width) - 1
        out = []
        for r, (f, e) in enumerate(zip(self.rf, self.re)):
            u = full & ~(f | e)
            while u:
                low = u & -u
                out.append((r, low.bit_length() - 1))
                u ^= low
        return out

    def to_solution(self) -> Solution:
        return Solution(self.width, tuple(self.rf))

    @classmethod
    def from_solution(cls, sol: Solution) -> Board:
        """The fully known board of a grid."""
        b = cls(sol.width, sol.height)
        full = (1 << sol.width) - 1
        for r, m in enumerate(sol.rows):
            b.rf[r], b.re[r] = m, full & ~m
        for c, m in enumerate(sol.columns()):
            b.cf[c], b.ce[c] = m, ((1 << sol.height) - 1) & ~m
        return b

    def strings(self, fill: str = "#", blank: str = ".", unknown: str = "?") -> list[str]:
        return ["".join(fill if f >> c & 1 else blank if e >> c & 1 else unknown
                        for c in range(self.width)) for f, e in zip(self.rf, self.re)]
