"""The complete line solver (seeds 000, 003, 004): every cell a line forces, or a contradiction.

A line is ``n`` cells with two bit masks of known cells (bit i = cell i): ``filled`` and
``empty``. The answer holds the cells filled in *every* placement of the clue's blocks that
agrees with what is known, the cells empty in every such placement, and for each block the
start positions that occur in some placement (the encoders build on those).

Two implementations share that contract:

* :func:`solve_line` is bit-parallel. Positions 0..n are bits of one Python int. For each
  block it needs a handful of shifts and ANDs plus one subtraction, whose borrow runs across
  a stretch of "may be empty" cells — that is the automaton's "skip any number of empty
  cells" loop done for all positions at once. Forward on the line and forward on the
  reversed line give, per block, the starts whose prefix and suffix can both be completed.
* :func:`solve_line_reference` is the plain O(n·k) dynamic programme of seed 000, kept as
  the reference the property tests compare the fast one against (and both against brute force).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LineResult:
    """What one line forces: cells filled / empty in every placement, and feasible starts."""

    filled: int
    empty: int
    starts: tuple[int, ...]


def _windows(ok: int, b: int) -> int:
    """Bit p set iff bits p..p+b-1 of ``ok`` are all set (O(log b) operations)."""
    r = ok
    span = 1
    while span * 2 <= b:
        r &= r >> span
        span *= 2
    if span < b:
        r &= r >> (b - span)
    return r


def _smear(x: int, b: int) -> int:
    """Bits p..p+b-1 for every bit p of ``x``: the cells a block covers from its starts."""
    r = x
    span = 1
    while span * 2 <= b:
        r |= r << span
        span *= 2
    if span < b:
        r |= r << (b - span)
    return r


def _forward(clue: Sequence[int], n: int, can_empty: int, can_fill: int
             ) -> tuple[list[int], list[int]] | None:
    """Left-to-right automaton run over positions 0..n.

    Returns ``(starts, free)``: ``starts[j]`` are positions where block j may start with
    blocks 0..j-1 placed consistently before it; ``free[j]`` are positions p where j blocks
    fit in cells [0, p) and cell p may come next as an empty cell or a new block start.
    ``None`` when the line cannot be completed.
    """
    # A position p can advance to p+1 through an empty cell iff cell p may be empty. The
    # blockers stop that walk; bit n is a blocker too (there is no cell n).
    blockers = ((~can_empty) & ((1 << n) - 1)) | (1 << n)
    # "fill(seeds)", written out three times below for speed (this loop is the hottest in
    # presolve): every position reachable from a seed by stepping over may-be-empty
    # cells, ((blockers - (seeds & can_empty)) ^ blockers) | seeds — the subtraction's
    # carry runs up through each stretch of may-be-empty cells until a blocker.
    ready = ((blockers - (1 & can_empty)) ^ blockers) | 1
    free = [ready]
    starts = []
    for b in clue:  # ready: positions where the next block may start
        s = ready & _windows(can_fill, b)
        if not s:
            return None
        starts.append(s)
        ends = s << b
        free.append(((blockers - (ends & can_empty)) ^ blockers) | ends)
        seeds = (ends & can_empty) << 1
        ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    if not free[-1] >> n & 1:
        return None
    return starts, free


# every byte with its bits in reverse order, for _reverse
_REVERSED_BYTES = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse(x: int, n: int) -> int:
    """The n bits of ``x`` (which must fit in them) in reverse order. Byte-wise in C
    (little-endian bytes, each byte's bits reversed, read back big-endian): about twice as
    fast as reversing the binary string, and the line solver reverses every mask it runs
    backward."""
    nb = (n + 7) >> 3
    return int.from_bytes(x.to_bytes(nb, "little").translate(_REVERSED_BYTES),
                          "big") >> ((nb << 3) - n)


def solve_line(clue: Sequence[int], n: int, filled: int = 0, empty: int = 0
               ) -> LineResult | None:
    """Everything the line forces (bit-parallel), or ``None`` for a contradiction."""
    full = (1 << n) - 1
    can_fill = full & ~empty
    can_empty = full & ~filled
    fwd = _forward(clue, n, can_empty, can_fill)
    if fwd is None:
        return None
    bwd = _forward(clue[::-1], n, _reverse(can_empty, n), _reverse(can_fill, n))
    if bwd is None:  # cannot happen when fwd succeeded; kept for safety
        return None
    f_starts, f_free = fwd
    b_starts, b_free = bwd
    k = len(clue)
    starts = []
    may_fill = 0
    for j, b in enumerate(clue):
        s = f_starts[j] & (_reverse(b_starts[k - 1 - j], n) >> (b - 1))
        starts.append(s)
        may_fill |= _smear(s, b)
    may_empty = 0
    for j in range(k + 1):
        may_empty |= f_free[j] & _reverse(b_free[k - j] & full, n)
    may_empty &= can_empty
    return LineResult(full & ~may_empty, full & ~may_fill, tuple(starts))


def line_feasible(clue: Sequence[int], n: int, filled: int = 0, empty: int = 0) -> bool:
    """Whether any placement agrees with the known cells: the forward half of
    :func:`solve_line` alone (what explaining a deduction asks, many times over)."""
    full = (1 << n) - 1
    return _forward(clue, n, full & ~filled, full & ~empty) is not None


def remember(table: dict, key: object, value: object, max_entries: int) -> None:
    """Store in a memo table, emptying it first when full: a long search must not let
    its memo tables grow without bound, and recent entries are the ones reused."""
    if len(table) >= max_entries:
        table.clear()
    table[key] = value


class LineCache:
    """Memoised :func:`solve_line` keyed by (clue, length, known cells).

    Search revisits the same partial lines again and again; large puzzles see most line
    solves answered here. The table is cleared when it reaches ``max_entries``.
    """

    __slots__ = ("table", "feasibility", "max_entries", "hits", "misses")

    def __init__(self, max_entries: int = 1_000_000):
        self.table: dict[tuple, LineResult | None] = {}
        self.feasibility: dict[tuple, bool] = {}
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0

    def solve(self, clue: tuple[int, ...], n: int, filled: int, empty: int
              ) -> LineResult | None:
        key = (clue, n, filled, empty)
        try:
            r = self.table[key]
        except KeyError:
            self.misses += 1
            r = solve_line(clue, n, filled, empty)
            remember(self.table, key, r, self.max_entries)
            return r
        self.hits += 1
        return r

    def feasible(self, clue: tuple[int, ...], n: int, filled: int, empty: int) -> bool:
        """Memoised :func:`line_feasible`, answered from the solve table when it can be."""
        key = (clue, n, filled, empty)
        r = self.table.get(key, False)
        if r is not False:
            return r is not None
        try:
            return self.feasibility[key]
        except KeyError:
            ok = line_feasible(clue, n, filled, empty)
            remember(self.feasibility, key, ok, self.max_entries)
            return ok
