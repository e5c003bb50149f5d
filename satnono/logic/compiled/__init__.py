"""The engine compiled at install (:mod:`satnono.engine`) for a puzzle: its clues in the
engine's arrays, a board in and out, and the search as a stream of solutions that stops at
a budget of work; the exact counter.

The search is cheap where logic nearly settles a puzzle and hopeless where the solutions
are too many or the logic too weak; its budget is what hands those to a SAT solver. Every
solution it gives is one of the puzzle's (a grid every line solver accepts), so the stage
after it only needs to rule out what was already found (:class:`Search`). Where the engine
was not built (no C compiler at install) or is turned off
(:data:`~satnono.engine.DISABLE`), the Python logic does everything, slower, with the same
answers.

>>> from satnono.model.puzzle import Puzzle
>>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> [sol.strings() for sol in s.solutions(limit=None)], s.done
([['#.', '.#'], ['.#', '#.']], True)
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...engine import turned_off
from ...errors import OutOfMemory
from ...model.grid import COLUMN, ROW, Line
from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime import crash
from ...runtime.deadline import NO_DEADLINE, Deadline
from ...runtime.memory import ensure_engine_room
from ...tuning import TUNING, Tuning
from ..board import Board
from ..context import Stats

#: block colours the engine takes (a cell's colours are one machine word)
MAX_COLOURS = 62
_built: dict[str, bool] = {}


def available() -> bool:
    """Whether the engine is here (built at install) and not turned off
    (:data:`~satnono.engine.DISABLE`).
    The first time it is asked and the engine is missing without being turned off, one
    line on stderr says that the Python logic stands in."""
    if turned_off():
        return False
    if "engine" not in _built:
        from ...engine import built

        _built["engine"] = built()
        if not _built["engine"]:
            print(f"satnono: {_why_no_engine()}; using the Python logic instead (slower, the "
                  "same answers)", file=sys.stderr, flush=True)
    return _built["engine"]


def _why_no_engine() -> str:
    """Why the engine's modules are missing, in the build's own words."""
    from ...engine import why_not

    return f"the compiled engine is {why_not()}"


def usable(puzzle: Puzzle) -> bool:
    """Up to :data:`MAX_COLOURS` block colours, and the engine here."""
    return fits(puzzle) and available()


def fits(puzzle: Puzzle) -> bool:
    """Whether the engine takes ``puzzle``: up to :data:`MAX_COLOURS` block colours."""
    return len(puzzle.palette.colours) <= MAX_COLOURS + 1


def counting() -> bool:
    """Whether the engine's counter runs here (:func:`count_solutions`)."""
    return available()


def search_for(puzzle: Puzzle, board: Board | None = None, general: bool = False,
               tuning: Tuning = TUNING) -> Search:
    """The engine's search for ``puzzle`` from ``board``: one search for every palette,
    black and white a palette of one colour. Black and white takes its fast path — a cell
    a byte, a line two machine words and their own line solver — unless ``general``
    (the colour representation, which the tests hold the fast path to): of tcga2015's
    1,000 puzzles the fast path settles each in a third of the time
    (``python -m benchmarks.search_rate --general``)."""
    return Search(puzzle, board, general, tuning)


@dataclass
class Counted:
    """What the compiled counter did: ``count`` is exact, or None when the count passed
    2^63 - 1; ``nodes`` are the parts it counted by search, ``cached`` those it had counted
    before. Stopped at its time limit (``complete`` False), ``count`` is a lower bound:
    the branches counted to the end, added up (a part the limit cut counts what it had)."""

    count: int | None
    nodes: int
    cached: int
    complete: bool = True




def count_solutions(puzzle: Puzzle, board: Board | None = None, general: bool = False,
                    tuning: Tuning = TUNING, seconds: float | None = None) -> Counted:
    """The number of solutions of ``puzzle`` from ``board`` (or an open board) by the
    engine's counter (:mod:`satnono.engine.counter`: the search's probing, parts counted
    apart and multiplied, parts met before remembered; its cache and which parts are
    probed from ``tuning``), any palette up to
    :data:`MAX_COLOURS` block colours. Given ``seconds``, it stops that soon with what it
    has counted, a lower bound (its line logic looks at the clock about every
    millisecond, and once it has given up every branch left counts 0, so what comes back
    is the sum of the branches finished before); a signal's handler (Ctrl-C) stops it the
    same way and its exception is raised.

    >>> count_solutions(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)).count
    24
    """
    from ...engine.counter import count

    fresh = fresh_engine(puzzle, board, general=general, tuning=tuning)
    if seconds is not None:
        fresh.limit_time(max(seconds, 1e-6))
    n, hits = count(fresh, tuning.count_cache, tuning.probe_parts)
    return Counted(int(n) if n >= 0 else None, int(fresh.nodes), int(hits),
                   complete=not fresh.expired)


def fresh_engine(puzzle: Puzzle, board: Board | None = None, cache: int | None = None,
                 general: bool = False, tuning: Tuning = TUNING) -> Any:
    """A fresh engine (:class:`satnono.engine.search.Engine`) for ``puzzle`` whose root is
    ``board`` (or an open board). A puzzle whose engine would not fit the memory left is
    refused first (:class:`~satnono.errors.OutOfMemory`, with the numbers), as is one past
    the engine's 2^32 cells."""
    from ...engine.search import Engine, footprint

    colours = len(puzzle.palette.colours) - 1
    if cache is None:
        cache = tuning.line_cache
    ensure_engine_room(puzzle, footprint(puzzle.height, puzzle.width, colours, cache))
    crash.engine_for(puzzle.size)
    blocks = [*puzzle.indexed[ROW], *puzzle.indexed[COLUMN]]
    counts = [len(c) for c in blocks]
    flat = [b for c in blocks for b in c]
    try:
        engine = Engine(puzzle.height, puzzle.width, colours, [b[0] for b in flat],
                        [b[1] for b in flat], _starts(counts), counts, cache, general)
    except MemoryError as exc:
        raise OutOfMemory(f"out of memory: the engine for a {puzzle.size} puzzle: "
                          f"{exc or 'no memory left for it'}") from None
    if board is not None:
        engine.set_root(board.may[ROW])
    engine.noise = tuning.noise
    return engine


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


class Search:
    """One puzzle's search on the engine (:mod:`satnono.engine.search`), any palette,
    stepped slice by slice: the root is the given board (or an open one), propagated and
    probed to a fixpoint when the search starts; looking for one or two solutions it
    restarts (:attr:`~satnono.tuning.Tuning.restarts`), looking for more it goes through
    the tree once, since every restart would find the same ones first again (Gomes, Selman
    & Kautz, "Boosting combinatorial search through randomization", AAAI 1998: a search's
    time has a heavy tail, which restarts cut; each run goes through the whole tree if it
    is let, so a run that ends it has found every solution; one a run meets again is not
    given twice). Its cost counts cells of the lines
    solved (times one more than their machine words past 63 cells in black and white,
    than their blocks in colour)."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None, general: bool = False,
                 tuning: Tuning = TUNING):
        self.puzzle = puzzle  # what a fresh engine is made of (implications)
        self.tuning = tuning
        self.height, self.width = puzzle.height, puzzle.width
        self.colours = len(puzzle.palette.colours) - 1
        self.done = False
        self.given = 0
        self.pending: Solution | None = None
        self.seen: set[bytes] = set()
        self.engine = fresh_engine(puzzle, board, general=general, tuning=tuning)
        #: work between two looks at the clock
        self.slice_ = tuning.slice_work if self.engine.bw else tuning.colour_slice_work
        #: what belief propagation found at the root, once it ran (:meth:`inform`)
        self.beliefs: Beliefs | None = None

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.engine.lines)

    @property
    def cost(self) -> int:
        """Work so far, the unit of slices and budgets."""
        return int(self.engine.cost)

    def restarts(self, limit: int | None) -> None:
        """Restarts for one or two solutions, none for more."""
        self.engine.restart = self.tuning.restarts if limit is not None and limit <= 2 else 0

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, up to ``limit`` in all; stops early (``done`` False) when
        ``budget`` work (:attr:`cost`) has been spent. The clock is looked at between
        slices."""
        self.restarts(limit)
        return self._stream(limit, budget, deadline)

    def _stream(self, limit: int | None, budget: int | None, deadline: Deadline
                ) -> Iterator[Solution]:
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

    def inform(self, rounds: int, tolerance: float, deadline: Deadline = NO_DEADLINE
               ) -> Beliefs | None:
        """Belief propagation over the probed root (:func:`beliefs`, at most ``rounds``
        passes), and each open cell's likelier value tried first from now on when the
        search branches on it: on tournament sets the search then settles most of the
        puzzles it handed to the SAT stage (taai2017: 53 of 1,000 to 5) in about two thirds
        of the time (benchmarks/results/NOTES.md). The beliefs are kept
        (:attr:`beliefs`)."""
        if self.beliefs is None and self.engine.root == 1:
            root = self.root()
            if root is not None:
                self.beliefs = _propagated(self.puzzle, root, rounds, tolerance, deadline)
            if self.beliefs is not None:
                values = bytearray(self.width * self.height)
                found = self.beliefs
                for cell, slot in found.slots.items():
                    shares = found.shares[slot * found.values:(slot + 1) * found.values]
                    values[cell] = max(range(found.values), key=shares.__getitem__)
                self.engine.prefer(bytes(values))
        return self.beliefs

    def levels(self) -> int:
        """How many levels the search has room for now."""
        return int(self.engine.levels)

    def lines_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Line logic at the root, before any probing, in slices with the clock looked at
        between them (a 4000×4000 picture's lines take seconds); a contradiction ends the
        search."""
        e = self.engine
        if e.level != 0 or e.phase != 1 or e.root:
            return
        with self._timed(deadline):
            ended = int(e.line_logic(self.slice_))
        while ended == STOPPED:
            deadline.check()
            with self._timed(deadline):
                ended = int(e.line_logic(self.slice_))
        if ended == CONTRADICTION:
            e.root = 2
            self.done = True

    @contextmanager
    def _timed(self, deadline: Deadline) -> Iterator[None]:
        """One call into the engine, which keeps ``deadline`` itself (a slice's work can
        take seconds on a huge picture); past it the engine's state is no longer a
        search's, so this search is over: SearchTimeout now and on every later call. Memory
        the engine could not have ends it with OutOfMemory, saying how much was open."""
        e = self.engine
        if e.expired:
            raise deadline.expired(self.given)
        e.limit_time(_seconds_left(deadline))
        try:
            yield
        except MemoryError as exc:
            raise OutOfMemory(f"out of memory: {exc or 'the engine could not have more'}"
                              ) from None
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
        e = self.engine
        status = e.search(end)
        if status == FOUND:
            key = e.solution_grid
            if key not in self.seen:  # a run after a restart may meet it again
                self.seen.add(key)
                self.pending = solution_of(e.layers(1), self.width)
            if e.level < 0:
                self.done = True
        elif status == DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict)."""
        if self.engine.root == 2:
            return None
        return board_of(self.engine, self.width, self.height, self.colours)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction)."""
        if self.engine.root == 2:
            return 0
        return self.width * self.height - int(self.engine.open_now(True))

    def count_into(self, stats: Stats) -> None:
        e = self.engine
        stats.line_solves += int(e.lines)
        stats.probes += int(e.probes)
        stats.nodes += int(e.nodes)
        stats.max_depth = max(stats.max_depth, int(e.depth))

    def implications(self, board: Board, limit: int | None = None,
                     deadline: Deadline = NO_DEADLINE) -> list[tuple[int, int]]:
        """What probing ``board``'s open cells implies: pairs (a, b), "literal a implies
        not literal b", a literal being ``cell × (colours + 1) + value`` ("the cell takes
        that value": 0 the background, c block colour c; cells row by row), b = -1 where
        a contradicts; at most ``limit`` pairs. Every solution satisfies them, so they may
        be added to a CNF of ``board`` as binary clauses (nonosolve's "probe clauses"); its
        own search is not touched; at most ``limit`` pairs (the tuning's
        ``implications`` unless given). A round of probing takes about a second on a
        random 150×150, so it runs in slices of the search's slice of work with the
        ``deadline`` looked at between them.

        >>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
        >>> sorted(s.implications(Board(2, 2)))[:2]  # (0, 0) empty: (0, 1), (1, 0) not so
        [(0, 2), (0, 4)]
        """
        if limit is None:
            limit = self.tuning.implications
        fresh = fresh_engine(self.puzzle, cache=1 << 10, tuning=self.tuning)
        flat = array("q")
        cell, cells = 0, board.width * board.height
        fresh.limit_time(_seconds_left(deadline))
        while cell < cells and len(flat) < 2 * limit:
            deadline.check()
            chunk, cell = fresh.implications(board.may[ROW], limit - len(flat) // 2, cell,
                                             self.slice_)
            if fresh.expired:
                raise deadline.expired()
            flat.frombytes(chunk)
        return list(zip(flat[::2], flat[1::2]))


#: what the engine's searches return
FOUND, DONE = 1, 2
#: how line logic at the root ended (``line_logic``)
CONTRADICTION, SETTLED, STOPPED = 0, 1, 2
#: a black-and-white cell's values as the engine keeps them
EMPTY, FILLED, OPEN = 1, 2, 3


def solution_of(layers: list[list[int]], width: int) -> Solution:
    """The solution a solved grid is, from the engine's layers (background first)."""
    return Solution(width, tuple(layers[1]), tuple(tuple(x) for x in layers[2:]))


def board_of(engine: Any, width: int, height: int, colours: int) -> Board:
    """The board of the engine's root."""
    b = Board(width, height, colours)
    rows, columns = engine.layers(0), engine.layers(0, True)
    for value in range(colours + 1):
        b.may[ROW][value][:] = rows[value]
        b.may[COLUMN][value][:] = columns[value]
    return b


@dataclass
class Beliefs:
    """What belief propagation between rows and columns says of a board's open cells
    (:func:`beliefs`): each open cell's share of each value (the background first), and
    for each line with open cells each block's share of starting at or before each
    position."""

    width: int
    height: int
    values: int
    #: an open cell's number (row by row) -> its slot in ``shares``
    slots: dict[int, int]
    shares: array[float]
    starts: dict[int, array[float]]
    #: the passes belief propagation ran, and the lines it computed
    rounds: int = 0
    work: int = 0

    @property
    def finished(self) -> bool:
        """Whether it ran to its end (not cut off by a deadline)."""
        return self.rounds >= 0

    def cell(self, r: int, c: int) -> list[float] | None:
        """Cell (r, c)'s share of each value, or None where it is not open."""
        slot = self.slots.get(r * self.width + c)
        if slot is None:
            return None
        return list(self.shares[slot * self.values:(slot + 1) * self.values])

    def at_most(self, line: Line, block: int, p: int) -> float:
        """The share in which ``block`` of ``line`` starts at or before ``p``."""
        index = line.index if line.axis is ROW else self.height + line.index
        n = self.width if line.axis is ROW else self.height
        return float(self.starts[index][block * n + p])


def beliefs(puzzle: Puzzle, board: Board, rounds: int = 100, tolerance: float = 1e-4,
            deadline: Deadline = NO_DEADLINE) -> Beliefs | None:
    """Belief propagation over ``board`` (a fixpoint of logic) on the engine
    (:func:`satnono.engine.marginals.beliefs`), until no message moves by more than
    ``tolerance`` or ``rounds`` passes; None where the engine is not here. At the
    ``deadline`` it stops with the cells' beliefs as they stand (not ``finished``: no start
    distributions); a Ctrl-C inside it is raised at once."""
    if not usable(puzzle):
        return None
    return _propagated(puzzle, board, rounds, tolerance, deadline)


def _propagated(puzzle: Puzzle, board: Board, rounds: int, tolerance: float,
                deadline: Deadline) -> Beliefs:
    """:func:`beliefs` on the engine, which is here (a :class:`Search` runs on it)."""
    from ...engine.marginals import beliefs as propagate

    engine = fresh_engine(puzzle, board, cache=1 << 10)
    cells, shares, starts, ran, work = propagate(engine, rounds, 0.5, tolerance,
                                                 deadline.left() or 0.0)
    numbers = array("q")
    numbers.frombytes(cells)
    values = array("d")
    values.frombytes(shares)
    lines = {}
    for index, raw in starts.items():
        a = array("d")
        a.frombytes(raw)
        lines[index] = a
    return Beliefs(puzzle.width, puzzle.height, len(puzzle.palette.colours),
                   {cell: slot for slot, cell in enumerate(numbers)}, values, lines, ran,
                   work)
