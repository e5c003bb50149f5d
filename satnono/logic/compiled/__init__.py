"""The engine compiled at install (:mod:`satnono.engine`) for a puzzle: its clues in the
engine's arrays, a board in and out, and the search as a stream of solutions that stops at
a budget of work; the exact counter.

The search is cheap where logic nearly settles a puzzle and hopeless where the solutions
are too many or the logic too weak; its budget is what hands those to a SAT solver. Every
solution it gives is one of the puzzle's (a grid every line solver accepts), so the stage
after it only needs to rule out what was already found (:class:`Search`). Where the engine
was not built (no C compiler at install) or is turned off (:data:`DISABLE`), the Python
logic does everything, slower, with the same answers.

>>> from satnono.model.puzzle import Puzzle
>>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> [sol.strings() for sol in s.solutions(limit=None)], s.done
([['#.', '.#'], ['.#', '#.']], True)
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from typing import Any, Union

from ...model.grid import COLUMN, ROW
from ...model.puzzle import Puzzle
from ...model.solution import Solution, transpose
from ...runtime.deadline import NO_DEADLINE, Deadline
from ..board import Board
from ..context import Stats

#: work between two looks at the clock, in cells of the lines solved (a line solve costs
#: about its length, times one more than its machine words past 63 cells): a few
#: milliseconds
SLICE = 250_000
#: levels the search stack starts with; it doubles when the search goes deeper
LEVELS = 64
#: looking for one or two solutions, the search starts again from the root after this many
#: nodes times the next term of Luby's sequence (1 1 2 1 1 2 4 …), from the third run on
#: with its branching shaken and each run trying the other value first: a search's time
#: has a heavy tail, which restarts cut (Gomes, Selman & Kautz, "Boosting combinatorial
#: search through randomization", AAAI 1998; Luby, Sinclair & Zuckerman, 1993). Each run
#: goes through the whole tree if it is let, so a run that ends it has found every
#: solution; one a run meets again is not given twice. 300 as in nonosolve; chosen on
#: tcga2015 against 100, 500 and 1,000 (benchmarks/results/NOTES.md)
RESTARTS = 300
#: bytes for what probing remembers at each level of the stack (a level without it probes
#: every open cell again when the search comes back to it): the first 64 levels fit up to
#: 128×128
MEMORY = 64 << 20
#: at most this many implications of probing are handed to a SAT solver
#: (:meth:`Search.implications`; 16 bytes each here): Gettys, 99×59, has 96,560
IMPLICATIONS = 1 << 22


#: block colours the colour search takes (a cell's colours are one machine word)
MAX_COLOURS = 62
#: work between two looks at the clock in colour, in cells of the lines solved times one
#: more than their blocks (the unit the colour budget was chosen in): a few milliseconds
COLOUR_SLICE = 250_000
#: set (to anything but empty or 0) to run the Python logic instead of the engine, as where
#: it was not built: slower, the same answers
DISABLE = "SATNONO_NO_COMPILED"
_built: dict[str, bool] = {}


def available() -> bool:
    """Whether the engine is here (built at install) and not turned off (:data:`DISABLE`).
    The first time it is asked and the engine is missing without being turned off, one
    line on stderr says that the Python logic stands in."""
    if os.environ.get(DISABLE, "") not in ("", "0"):
        return False
    if "engine" not in _built:
        from ...engine import part

        _built["engine"] = all(part(name) is not None
                               for name in ("line", "search", "colour_line", "colour", "counter"))
        if not _built["engine"]:
            print(f"satnono: {_why_no_engine()}; using the Python logic instead (slower, the "
                  "same answers)", file=sys.stderr, flush=True)
    return _built["engine"]


def _why_no_engine() -> str:
    """Why the engine's modules are missing: not built at install, or a source tree (where
    they are built only by ``pip install -e .``) imported in place of the installed copy."""
    from ... import engine

    if os.path.exists(os.path.join(os.path.dirname(engine.__file__), "search.pyx")):
        return ("the compiled engine is not built in this source tree "
                f"({os.path.dirname(os.path.dirname(engine.__file__))}: 'pip install -e .' "
                "builds it there, or run from another folder)")
    return "the compiled engine was not built at install (no C compiler?)"


def usable(puzzle: Puzzle) -> bool:
    """Black and white, or colour of up to :data:`MAX_COLOURS` block colours, and the
    engine here."""
    return (puzzle.palette.black_and_white or fits(puzzle)) and available()


def fits(puzzle: Puzzle) -> bool:
    """Whether the colour search takes ``puzzle``: colour, up to :data:`MAX_COLOURS` block
    colours."""
    return 2 < len(puzzle.palette.colours) <= MAX_COLOURS + 1


def counting() -> bool:
    """Whether the engine's counter runs here (:func:`count_solutions`)."""
    return available()


AnySearch = Union["Search", "ColourSearch"]


def search_for(puzzle: Puzzle, board: Board | None = None, general: bool = False
               ) -> AnySearch:
    """The engine's search for ``puzzle`` from ``board``. The engine's general search is
    :class:`ColourSearch`, a cell a set of colours, black and white a palette of one
    colour; a black-and-white puzzle takes the fast path, :class:`Search` (a cell two bits,
    a line two machine words; the counter, the tests and ``general`` hold it to the general
    search), chosen here once per puzzle because it pays: of tcga2015's 1,000 puzzles it
    settles 981 within the search's budget against the general search's 892, and those
    both settle in a third of the time (``python -m benchmarks.search_rate --general``)."""
    if _fast_path(puzzle, general):
        return Search(puzzle, board)
    return ColourSearch(puzzle, board)


def _fast_path(puzzle: Puzzle, general: bool) -> bool:
    """Whether ``puzzle`` runs on the black-and-white fast path (unless ``general``)."""
    return puzzle.palette.black_and_white and not general


@dataclass
class Counted:
    """What the compiled counter did: ``count`` is exact, or None when the count passed
    2^63 - 1; ``nodes`` are the parts it counted by search, ``cached`` those it had counted
    before."""

    count: int | None
    nodes: int
    cached: int


#: entries of the compiled counter's memory of parts already counted (a power of two:
#: 24 MB)
COUNT_CACHE = 1 << 20
#: parts of at least this many open cells are probed before they branch; smaller ones
#: only propagate (probing them costs more than the nodes it saves: tcga2015 #400 and #469,
#: 0.8 and 7.7 s against 1.1 and 9.9 s probing every part)
PROBE_PARTS = 12


def count_solutions(puzzle: Puzzle, board: Board | None = None, general: bool = False
                    ) -> Counted:
    """The number of solutions of ``puzzle`` from ``board`` (or an open board) by the
    engine's counter (:mod:`satnono.engine.counter`: the search's probing, parts counted
    apart and multiplied, parts met before remembered), black and white or colour (up to
    :data:`MAX_COLOURS` block colours; ``general``: black and white on the general
    engine, as :func:`search_for` takes it). It cannot be stopped but by ending its
    process (:func:`satnono.analyze.counters.count_compiled` runs it in one).

    >>> count_solutions(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)).count
    24
    """
    from ...engine.counter import count

    fresh = fresh_engine(puzzle, levels=1, memory=0, general=general, board=board)
    n, hits = count(fresh, COUNT_CACHE, PROBE_PARTS)
    return Counted(int(n) if n >= 0 else None, int(fresh.nodes), int(hits))


def fresh_engine(puzzle: Puzzle, levels: int, memory: int | None = None,
                 general: bool = False, board: Board | None = None) -> Any:
    """A fresh engine for ``puzzle`` whose root is ``board`` (or an open board), its stack
    ``levels`` deep to start with (it grows): :class:`~satnono.engine.colour.ColourEngine`,
    the general one, or in black and white unless ``general`` the fast path,
    :class:`~satnono.engine.search.Engine` (``memory`` bytes for what probing remembers at
    each level, :data:`MEMORY` unless given)."""
    if _fast_path(puzzle, general):
        from ...engine.search import Engine

        clues, starts, counts = _lines(puzzle)
        engine = Engine(puzzle.height, puzzle.width, clues, starts, counts, levels,
                        MEMORY if memory is None else memory)
        if board is not None:
            engine.set_root(grid_of(board))
        return engine
    from ...engine.colour import ColourEngine

    blocks = [*puzzle.indexed[ROW], *puzzle.indexed[COLUMN]]
    counts = [len(c) for c in blocks]
    flat = [b for c in blocks for b in c] or [(0, 1)]
    engine = ColourEngine(puzzle.height, puzzle.width, len(puzzle.palette.colours) - 1,
                          [b[0] for b in flat], [b[1] for b in flat], _starts(counts),
                          counts, levels)
    if board is not None:
        engine.set_root(colour_grid_of(board))
    return engine


def _lines(puzzle: Puzzle) -> tuple[list[int], list[int], list[int]]:
    """Every line's block lengths in one list, rows first, each line's start in it and its
    number of blocks: the engine's clues."""
    rows, columns = puzzle.lengths  # computed once a puzzle
    lines = rows + columns
    counts = list(map(len, lines))
    return list(chain.from_iterable(lines)) or [0], _starts(counts), counts


def _seconds_left(deadline: Deadline) -> float:
    """What the engine's ``limit_time`` takes: the seconds left, never 0 once there is a
    limit (0 is none)."""
    left = deadline.remaining()
    return 0.0 if left is None else max(left, 1e-6)


def _starts(counts: list[int]) -> list[int]:
    """Where each line's blocks start in the flat array of all of them."""
    starts = [0] * len(counts)
    for i in range(1, len(counts)):
        starts[i] = starts[i - 1] + counts[i - 1]
    return starts


class _Searching:
    """What both searches are on the Python side: an engine (black and white or colour)
    stepped slice by slice, its counters, its root's line logic and probing. A subclass
    makes ``engine``, reads its solutions (``_step``) and its root (``root``)."""

    engine: Any
    #: work between two looks at the clock
    slice_ = SLICE

    def __init__(self, puzzle: Puzzle) -> None:
        self.height, self.width = puzzle.height, puzzle.width
        self.done = False
        self.given = 0
        self.pending: Solution | None = None

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.engine.lines)

    @property
    def cost(self) -> int:
        """Work so far, the unit of slices and budgets (each engine says what it counts)."""
        return int(self.engine.cost)

    def restarts(self, limit: int | None) -> None:
        """Set up the search's restarts for ``limit`` solutions (none by default)."""

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, up to ``limit`` in all; stops early (``done`` False) when
        ``budget`` work (:attr:`cost`) has been spent. The clock is looked at between
        slices."""
        self.restarts(limit)
        return self._stream(limit, budget, deadline)

    def _stream(self, limit: int | None, budget: int | None, deadline: Deadline
                ) -> Iterator[Solution]:
        """The solutions in turn, up to ``limit`` given in all, the work spent
        :attr:`slice_` at a time with the clock looked at between slices, until
        ``budget``."""
        while limit is None or self.given < limit:
            if self.pending is not None:
                sol, self.pending = self.pending, None
                self.given += 1
                yield sol
                continue
            if self.done or (budget is not None and self.cost >= budget):
                return
            deadline.check()
            end = self.cost + self.slice_
            with self._timed(deadline):
                self._step(end if budget is None else min(end, budget))

    def levels(self) -> int:
        """How many levels the stack has room for now."""
        return int(self.engine.levels)

    def lines_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Line logic at the root, before any probing, in slices with the clock looked at
        between them (a 4000×4000 picture's lines take seconds); a contradiction ends the
        search."""
        e = self.engine
        if e.level != 0 or e.phase != 1 or e.root:
            return
        with self._timed(deadline):
            ended = self._line_slice(True)
        while ended == STOPPED:
            deadline.check()
            with self._timed(deadline):
                ended = self._line_slice(False)
        if ended == CONTRADICTION:
            e.root = 2
            self.done = True

    def _line_slice(self, first: bool) -> int:
        raise NotImplementedError

    @contextmanager
    def _timed(self, deadline: Deadline) -> Iterator[None]:
        """One call into the engine, which keeps ``deadline`` itself (a slice's work can
        take seconds on a huge colour picture); past it the engine's state is no longer a
        search's, so this search is over: SearchTimeout now and on every later call."""
        e = self.engine
        if e.expired:
            raise deadline.expired(self.given)
        e.limit_time(_seconds_left(deadline))
        try:
            yield
        finally:
            e.limit_time(0.0)
        if e.expired:
            self.pending = None
            raise deadline.expired(self.given)

    def root_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Propagate and probe the root, in slices with the clock looked at between them
        (a solution found on the way is kept for :meth:`solutions`)."""
        while not self.engine.root and not self.done and self.pending is None:
            deadline.check()
            with self._timed(deadline):
                self._step(self.cost + self.slice_)

    def _step(self, end: int) -> None:
        raise NotImplementedError

    def count_into(self, stats: Stats) -> None:
        e = self.engine
        stats.line_solves += int(e.lines)
        stats.nodes += int(e.nodes)
        stats.max_depth = max(stats.max_depth, int(e.depth))


class Search(_Searching):
    """One black-and-white puzzle's search (:mod:`satnono.engine.search`): the root is the
    given board (or an open one), propagated and probed to a fixpoint when the search
    starts; looking for one or two solutions it restarts (:data:`RESTARTS`), looking for
    more it goes through the tree once, since every restart would find the same ones first
    again. Its cost counts cells of the lines solved, times one more than their machine
    words past 63 cells."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        super().__init__(puzzle)
        self.puzzle = puzzle  # what a fresh engine is made of (implications)
        self.engine = fresh_engine(puzzle, min(self.height * self.width + 1, LEVELS),
                                   board=board)
        self.seen: set[bytes] = set()

    def restarts(self, limit: int | None) -> None:
        self.engine.restart = RESTARTS if limit is not None and limit <= 2 else 0

    def _line_slice(self, first: bool) -> int:
        # the black-and-white engine keeps its queue between calls itself
        return int(self.engine.line_logic(self.slice_))

    def _step(self, end: int) -> None:
        e = self.engine
        status = e.search(end)
        if status == FOUND:
            key = e.solution_grid
            if key not in self.seen:  # a run after a restart may meet it again
                self.seen.add(key)
                self.pending = solution_of(key, self.width)
            if e.level < 0:
                self.done = True
        elif status == DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.engine.root == 2:
            return None
        return board_of(self.engine.root_grid, self.width, self.height)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        grid: bytes = self.engine.root_grid
        return len(grid) - grid.count(OPEN)

    def implications(self, board: Board, limit: int = IMPLICATIONS,
                     deadline: Deadline = NO_DEADLINE) -> list[tuple[int, int]]:
        """What probing ``board``'s open cells implies: pairs (a, b), "literal a implies
        literal b", a literal being 2 × cell + 1 for filled and 2 × cell for empty (cells
        row by row), b = -1 where a contradicts; at most ``limit`` pairs. Every solution
        satisfies them, so they may be added to a CNF of ``board`` as binary clauses
        (nonosolve's "probe clauses"); its own search is not touched. A round of probing
        takes about a second on a random 150×150, so it runs in slices of :data:`SLICE`
        work with the ``deadline`` looked at between them.

        >>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
        >>> sorted(s.implications(Board(2, 2)))[:2]  # (0, 0) empty: (0, 1), (1, 0) filled
        [(0, 3), (0, 5)]
        """
        fresh = fresh_engine(self.puzzle, levels=1, memory=0)
        grid = grid_of(board)
        flat = array("q")
        cell = 0
        fresh.limit_time(_seconds_left(deadline))
        while cell < len(grid) and len(flat) < 2 * limit:
            deadline.check()
            chunk, cell = fresh.implications(grid, limit - len(flat) // 2, cell, SLICE)
            if fresh.expired:
                raise deadline.expired()
            flat.frombytes(chunk)
        return list(zip(flat[::2], flat[1::2]))


#: the engine's values of a cell, and what its searches return
EMPTY, FILLED, OPEN = 1, 2, 3
FOUND, DONE = 1, 2
#: how line logic at the root ended (``line_logic``)
CONTRADICTION, SETTLED, STOPPED = 0, 1, 2

#: a grid's bytes as text digits: a cell filled in some solution ("may be filled": 2, 3)
_FILLABLE = bytes.maketrans(b"\x00\x01\x02\x03", b"0011")
_EMPTIABLE = bytes.maketrans(b"\x00\x01\x02\x03", b"0101")
_FILLED = bytes.maketrans(b"\x00\x01\x02\x03", b"0010")


def grid_of(board: Board) -> bytes:
    """The engine's grid of ``board``: a byte a cell, row by row, 1 "may be empty" + 2
    "may be filled"."""
    may = board.may[ROW]
    w = board.width
    out = bytearray()
    for r in range(board.height):
        e = format(may[0][r], f"0{w}b")[::-1] if w else ""
        f = format(may[1][r], f"0{w}b")[::-1] if w else ""
        out += bytes(int(a) + 2 * int(b) for a, b in zip(e, f))
    return bytes(out)


def _rows(grid: bytes, width: int, table: bytes) -> list[int]:
    """Each row of ``grid`` as a mask of the cells ``table`` marks '1'."""
    text = grid.translate(table)
    return [int(text[i:i + width][::-1], 2) for i in range(0, len(text), width)]


def solution_of(grid: bytes, width: int) -> Solution:
    """The solution a solved grid is."""
    return Solution(width, tuple(_rows(grid, width, _FILLED)))


def board_of(grid: bytes, width: int, height: int) -> Board | None:
    """The board of a grid (None where a cell can be neither: a contradiction)."""
    if 0 in grid:
        return None
    b = Board(width, height)
    for value, table in ((0, _EMPTIABLE), (1, _FILLABLE)):
        rows = _rows(grid, width, table)
        b.may[ROW][value][:] = rows
        b.may[ROW.other][value][:] = transpose(rows, width)
    return b


class ColourSearch(_Searching):
    """One puzzle's search on the general engine (:mod:`satnono.engine.colour`), in colour
    or black and white (a palette of one colour): the root is the given board (or an open
    one), propagated and probed to a fixpoint when the search starts. Its cost counts cells
    of the lines solved times one more than their blocks."""

    slice_ = COLOUR_SLICE

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        super().__init__(puzzle)
        self.colours = len(puzzle.palette.colours) - 1
        self.engine = fresh_engine(puzzle, min(self.height * self.width + 1, LEVELS),
                                   general=True, board=board)

    def _line_slice(self, first: bool) -> int:
        return int(self.engine.line_logic(first, self.slice_))

    def _step(self, end: int) -> None:
        status = self.engine.search(end)
        if status == FOUND:
            self.pending = colour_solution_of(self.engine.solution_grid, self.width,
                                              self.colours)
        elif status == DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.engine.root == 2:
            return None
        return colour_board_of(self.engine.root_grid, self.width, self.height, self.colours)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        return sum(1 for m in self.engine.root_grid if m & (m - 1) == 0)


def colour_grid_of(board: Board) -> list[int]:
    """The engine's colour grid of ``board``: a cell's colours as bits, row by row."""
    w = board.width
    g = [0] * (board.height * w)
    for colour, layer in enumerate(board.may[ROW]):
        bit = 1 << colour
        for r, mask in enumerate(layer):
            while mask:
                low = mask & -mask
                g[r * w + low.bit_length() - 1] |= bit
                mask ^= low
    return g


def colour_board_of(grid: list[int], width: int, height: int, colours: int) -> Board | None:
    """The board of a colour grid (None where a cell can take no colour)."""
    if 0 in grid:
        return None
    b = Board(width, height, colours)
    for colour in range(colours + 1):
        rows = _layer(grid, width, 1 << colour)
        b.may[ROW][colour][:] = rows
        b.may[ROW.other][colour][:] = transpose(rows, width)
    return b


def _layer(grid: list[int], width: int, bit: int) -> list[int]:
    """Each row's mask of the cells whose colours include ``bit``."""
    out = []
    for start in range(0, len(grid), width):
        mask = 0
        for c, m in enumerate(grid[start:start + width]):
            if m & bit:
                mask |= 1 << c
        out.append(mask)
    return out


def colour_solution_of(grid: list[int], width: int, colours: int) -> Solution:
    """The solution a solved colour grid is: a layer per block colour."""
    layers = []
    for colour in range(1, colours + 1):
        bit = 1 << colour
        layers.append(tuple(sum(1 << c for c, m in enumerate(grid[s:s + width]) if m == bit)
                            for s in range(0, len(grid), width)))
    return Solution(width, layers[0], tuple(layers[1:]))
