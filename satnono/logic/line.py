"""The complete line solver: every cell a line forces, or a contradiction.

The contract, for a line of ``n`` cells (bit i = cell i): given, per colour, the cells that
may still take it, return per colour the cells that take it in at least one placement of
the clue's blocks consistent with what is known — or ``None`` when there is no such
placement. For black and white the colours are two, background and black, so a line is two
masks: ``may_empty`` and ``may_fill`` (a known-filled cell may not be empty, and so on).
That is the complete line solver of the automaton papers (Posov's "Solving Japanese
crosswords with finite automata"; Batenburg & Kosters' "Solving nonograms by combining
relaxations" for the dynamic programme): it extracts everything one line knows.

Two implementations share that contract:

* :func:`narrow` is bit-parallel. Positions 0..n are bits of one Python int. For each
  block it needs a handful of shifts and ANDs plus one subtraction, whose borrow runs across
  a stretch of "may be empty" cells — that is the automaton's "skip any number of empty
  cells" loop done for all positions at once. Forward on the line and forward on the
  reversed line give, per block, the starts whose prefix and suffix can both be completed.
* :func:`satnono.logic.line_reference.solve_line_reference` is the plain O(n·k) dynamic
  programme, kept as the reference the property tests hold the fast one to (and both to
  brute force).

:func:`solve_line` gives the same answer in terms of known cells (filled, empty) with each
block's feasible starts, for readers and tests.

>>> r = solve_line((4, 1), 7)  # cells 2-4 are filled whichever way the blocks go
>>> f"{r.filled:07b}"[::-1], f"{r.empty:07b}"[::-1]
('0111000', '0000000')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..model.puzzle import Puzzle


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


def _narrow(clue: Sequence[int], n: int, can_empty: int, can_fill: int
            ) -> tuple[int, int, list[int]] | None:
    """(cells that may be empty, cells that may be filled, each block's feasible starts)
    after line solving, or None."""
    fwd = _forward(clue, n, can_empty, can_fill)
    if fwd is None:
        return None
    bwd = _forward(clue[::-1], n, _reverse(can_empty, n), _reverse(can_fill, n))
    if bwd is None:  # cannot happen when fwd succeeded; kept for safety
        return None
    f_starts, f_free = fwd
    b_starts, b_free = bwd
    k = len(clue)
    full = (1 << n) - 1
    starts = []
    may_fill = 0
    for j, b in enumerate(clue):
        s = f_starts[j] & (_reverse(b_starts[k - 1 - j], n) >> (b - 1))
        starts.append(s)
        may_fill |= _smear(s, b)
    may_empty = 0
    for j in range(k + 1):
        may_empty |= f_free[j] & _reverse(b_free[k - j] & full, n)
    return may_empty & can_empty, may_fill, starts


def narrow(clue: Sequence[int], n: int, may_empty: int, may_fill: int
           ) -> tuple[int, int] | None:
    """The black-and-white line solver (bit-parallel): ``(may_empty, may_fill)`` narrowed
    to the cells that take each value in some placement, or None for a contradiction.

    >>> narrow((2,), 3, 0b111, 0b111)  # the middle cell is filled in every placement
    (5, 7)
    """
    r = _narrow(clue, n, may_empty, may_fill)
    return None if r is None else (r[0], r[1])


def solve_line(clue: Sequence[int], n: int, filled: int = 0, empty: int = 0
               ) -> LineResult | None:
    """Everything the line forces, in known cells, or ``None`` for a contradiction."""
    full = (1 << n) - 1
    r = _narrow(clue, n, full & ~filled, full & ~empty)
    if r is None:
        return None
    may_empty, may_fill, starts = r
    return LineResult(full & ~may_empty, full & ~may_fill, tuple(starts))


ColourClue = tuple[tuple[int, int], ...]
"""A colour line's blocks as (length, colour index) pairs; colour 0 is the background."""


def _forward_colour(blocks: ColourClue, n: int, may: Sequence[int]
                    ) -> tuple[list[int], list[int]] | None:
    """:func:`_forward` over colours: block j may start where its cells may all take its
    colour; between two blocks of the same colour a background cell is needed, between
    blocks of different colours it is not."""
    can_empty = may[0]
    blockers = ((~can_empty) & ((1 << n) - 1)) | (1 << n)
    ready = ((blockers - (1 & can_empty)) ^ blockers) | 1
    free = [ready]
    starts = []
    last = len(blocks) - 1
    for j, (b, colour) in enumerate(blocks):
        s = ready & _windows(may[colour], b)
        if not s:
            return None
        starts.append(s)
        ends = s << b
        after = ((blockers - (ends & can_empty)) ^ blockers) | ends
        free.append(after)
        if j < last and blocks[j + 1][1] != colour:
            ready = after  # the next block may touch this one
        else:
            seeds = (ends & can_empty) << 1
            ready = ((blockers - (seeds & can_empty)) ^ blockers) | seeds
    if not free[-1] >> n & 1:
        return None
    return starts, free


def narrow_colour(blocks: ColourClue, n: int, may: Sequence[int]) -> tuple[int, ...] | None:
    """The colour line solver (bit-parallel): ``may[c]`` are the cells that may still take
    colour c (0 the background); the answer narrows each to the cells that take it in some
    placement of the blocks consistent with ``may``, or None for a contradiction.

    >>> # a red 2 and a black 1 (colours 2 and 1) touch or not in 4 cells
    >>> [f"{m:04b}"[::-1] for m in narrow_colour(((2, 2), (1, 1)), 4, (15, 15, 15))]
    ['1011', '0011', '1110']
    """
    fwd = _forward_colour(blocks, n, may)
    if fwd is None:
        return None
    bwd = _forward_colour(blocks[::-1], n, [_reverse(m, n) for m in may])
    if bwd is None:  # cannot happen when fwd succeeded; kept for safety
        return None
    f_starts, f_free = fwd
    b_starts, b_free = bwd
    k = len(blocks)
    full = (1 << n) - 1
    out = [0] * len(may)
    for j, (b, colour) in enumerate(blocks):
        s = f_starts[j] & (_reverse(b_starts[k - 1 - j], n) >> (b - 1))
        out[colour] |= _smear(s, b)
    background = 0
    for j in range(k + 1):
        background |= f_free[j] & _reverse(b_free[k - j] & full, n)
    out[0] = background & may[0]
    return tuple(out)


def feasible_colour(blocks: ColourClue, n: int, may: Sequence[int]) -> bool:
    """Whether any placement of the blocks agrees with ``may``."""
    return _forward_colour(blocks, n, may) is not None


def feasible(clue: Sequence[int], n: int, may_empty: int, may_fill: int) -> bool:
    """Whether any placement agrees with what is known: the forward half of :func:`narrow`
    alone (what explaining a deduction asks, many times over)."""
    return _forward(clue, n, may_empty, may_fill) is not None


def line_feasible(clue: Sequence[int], n: int, filled: int = 0, empty: int = 0) -> bool:
    """:func:`feasible` in terms of known cells."""
    full = (1 << n) - 1
    return _forward(clue, n, full & ~filled, full & ~empty) is not None


K = TypeVar("K")
V = TypeVar("V")


def remember(table: dict[K, V], key: K, value: V, max_entries: int) -> None:
    """Store in a memo table, emptying it first when full: a long search must not let
    its memo tables grow without bound, and recent entries are the ones reused."""
    if len(table) >= max_entries:
        table.clear()
    table[key] = value


Key = tuple[tuple[int, ...], int, int, int]
"""A line as the cache knows it: (block lengths, length, may be empty, may be filled)."""


class LineCache:
    """Memoised :func:`narrow` and :func:`feasible`, keyed by (clue, length, what is known).

    Search revisits the same partial lines again and again; large puzzles see most line
    solves answered here. Each table is cleared when it reaches ``max_entries``.
    """

    __slots__ = ("table", "colour_table", "feasibility", "max_entries", "hits", "misses")

    def __init__(self, max_entries: int = 1_000_000):
        self.table: dict[Key, tuple[int, int] | None] = {}
        self.feasibility: dict[Key, bool] = {}
        self.colour_table: dict[tuple[ColourClue, int, tuple[int, ...]],
                                tuple[int, ...] | None] = {}
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0

    def solve(self, clue: tuple[int, ...], n: int, may_empty: int, may_fill: int
              ) -> tuple[int, int] | None:
        key = (clue, n, may_empty, may_fill)
        try:
            r = self.table[key]
        except KeyError:
            self.misses += 1
            r = narrow(clue, n, may_empty, may_fill)
            remember(self.table, key, r, self.max_entries)
            return r
        self.hits += 1
        return r

    def solve_colour(self, blocks: ColourClue, n: int, may: tuple[int, ...]
                     ) -> tuple[int, ...] | None:
        """Memoised :func:`narrow_colour`."""
        key = (blocks, n, may)
        try:
            r = self.colour_table[key]
        except KeyError:
            self.misses += 1
            r = narrow_colour(blocks, n, may)
            remember(self.colour_table, key, r, self.max_entries)
            return r
        self.hits += 1
        return r

    def solve_layers(self, clue: tuple[int, ...], n: int, may: tuple[int, ...]
                     ) -> tuple[int, ...] | None:
        """:meth:`solve` with the line as its may-masks ``(may_empty, may_fill)``: the
        black-and-white solver behind the seam every colour solver also fits
        (:class:`LineLogic`)."""
        return self.solve(clue, n, may[0], may[1])

    def feasible_layers(self, clue: tuple[int, ...], n: int, may: Sequence[int]) -> bool:
        """:meth:`feasible` with the line as its may-masks ``(may_empty, may_fill)``."""
        return self.feasible(clue, n, may[0], may[1])

    def feasible(self, clue: tuple[int, ...], n: int, may_empty: int, may_fill: int) -> bool:
        """Memoised :func:`feasible`, answered from the solve table when it can be."""
        key = (clue, n, may_empty, may_fill)
        r = self.table.get(key, False)
        if r is not False:
            return r is not None
        try:
            return self.feasibility[key]
        except KeyError:
            ok = feasible(clue, n, may_empty, may_fill)
            remember(self.feasibility, key, ok, self.max_entries)
            return ok


LineClue = tuple[int, ...] | ColourClue
"""A line's clue as its solver takes it: block lengths in black and white, (length, colour
index) pairs in colour."""


@dataclass(frozen=True)
class LineLogic:
    """The line solver of one puzzle, chosen once: the seam propagation, probing and the
    native backend's theories all solve lines through.

    ``narrow(clue, n, may)`` takes a line as one may-mask per colour (the background first)
    and returns them narrowed, or None for a contradiction; ``feasible(clue, n, may)`` says
    whether any placement agrees with them; ``clues[axis][i]`` is line ``(axis, i)``'s clue
    in the form they take. Every palette can be solved by :func:`narrow_colour` (black and
    white is a palette of one colour: ``general``); black and white is solved by the
    two-mask solver :func:`narrow`, its fast path: 1.1× the colour solver's lines per
    second on black-and-white lines (``python -m benchmarks.bench_line``), the Python
    presolve of tcga2015's first 150 puzzles 8 % faster (benchmarks/results/NOTES.md, "One
    line-solver seam").
    """

    clues: tuple[tuple[Any, ...], tuple[Any, ...]]  # each a LineClue
    narrow: Callable[[Any, int, tuple[int, ...]], tuple[int, ...] | None]
    feasible: Callable[[Any, int, Sequence[int]], bool]
    colours: int  # block colours: 1 in black and white


def line_logic(puzzle: Puzzle, cache: LineCache, general: bool = False) -> LineLogic:
    """The puzzle's line solver and its clues in the solver's form; ``general``: the colour
    solver even in black and white (what the fast path is measured and tested against)."""
    colours = len(puzzle.palette.colours) - 1
    if colours == 1 and not general:
        return LineLogic(puzzle.lengths, cache.solve_layers, cache.feasible_layers, 1)
    return LineLogic(puzzle.indexed, cache.solve_colour, feasible_colour, colours)
