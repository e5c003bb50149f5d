"""The compiled logic (:mod:`.kernel`) for a puzzle: its arrays, a board in and out, and the
search as a stream of solutions that stops at a budget of work.

The search is cheap where logic nearly settles a puzzle and hopeless where the solutions
are too many or the logic too weak; its budget is what hands those to a SAT solver. Every
solution it gives is one of the puzzle's (a grid every line solver accepts), so the stage
after it only needs to rule out what was already found (:class:`Search`).

>>> from satnono.model.puzzle import Puzzle
>>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> [sol.strings() for sol in s.solutions(limit=None)], s.done
([['#.', '.#'], ['.#', '#.']], True)
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from ...model.grid import ROW
from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime.deadline import NO_DEADLINE, Deadline
from ...runtime.interrupt import heard, swallowed_interrupts
from ..board import Board
from ..context import Stats
from .shared import count_work, masks, stream

if TYPE_CHECKING:
    from .colour import ColourSearch
    from .engine_search import EngineColourSearch, EngineSearch

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


#: set (to anything but empty or 0) to run the Python logic instead of the compiled code,
#: as when Numba is missing: slower, the same answers
DISABLE = "SATNONO_NO_COMPILED"
#: seconds of loading after which the first load says that it is compiling
NOTICE_AFTER = 1.5
_loaded: dict[str, bool] = {}


def usable(puzzle: Puzzle) -> bool:
    """Black and white, or colour of up to :data:`.colour.MAX_COLOURS` block colours, and
    the compiled code not turned off. Whether it loads is :func:`ready`'s to say, asked
    only once line logic has not settled the puzzle, so that an easy puzzle never loads
    (or, on a new installation, compiles) it."""
    from .colour import fits

    return (puzzle.palette.black_and_white or fits(puzzle)) and not _turned_off()


def engine_built() -> bool:
    """Whether the searches of the engine compiled at install (:mod:`satnono.engine`) are
    here and not turned off: then a puzzle needs nothing loaded or compiled to search
    (:mod:`.engine_search`)."""
    if "engine" not in _loaded:
        from .engine_search import built

        _loaded["engine"] = not _turned_off() and built()
    return _loaded["engine"]


def ready(puzzle: Puzzle) -> bool:
    """Whether the compiled code for ``puzzle`` (black and white, or colour) runs in this
    process, loading it on the first call (:func:`available`)."""
    if puzzle.palette.black_and_white or engine_built():
        return engine_built() or available()
    if "colour" not in _loaded:
        # the colour code alone: a colour puzzle need not load the black-and-white search
        # (about a quarter of a second of a fresh process)
        _loaded["colour"] = _loaded.get("ok", True) and _load(_warm_colour)
        if not _loaded["colour"]:  # what failed to load colour would fail black and white
            _loaded["ok"] = False
    return _loaded["colour"]


AnySearch = Union["Search", "EngineSearch", "ColourSearch", "EngineColourSearch"]


def search_for(puzzle: Puzzle, board: Board | None = None) -> AnySearch:
    """The compiled search for ``puzzle`` from ``board``: the engine's where it was built
    (:class:`.engine_search.EngineSearch`, :class:`.engine_search.EngineColourSearch`), else
    the Numba kernel's (:class:`Search`, :class:`.colour.ColourSearch`: its code loaded by
    :func:`ready`)."""
    if puzzle.palette.black_and_white:
        if engine_built():
            from .engine_search import EngineSearch

            return EngineSearch(puzzle, board)
        return Search(puzzle, board)
    if engine_built():
        from .engine_search import EngineColourSearch

        return EngineColourSearch(puzzle, board)
    from .colour import ColourSearch

    return ColourSearch(puzzle, board)


#: puzzles up to this many cells are left to the Python logic and the SAT solver in a
#: process that has not loaded the compiled code yet (:func:`cold`): there, line logic in
#: Python and a CNF (the sat backend's; other callers probe in Python as well) cost less
#: than loading the compiled code (about 0.4 s: importing Numba and reading its cache)
COLD_CELLS = 1024


def cold(puzzle: Puzzle) -> bool:
    """Whether this process should keep away from the compiled code for ``puzzle`` for now:
    a small puzzle, the code usable but not loaded. A single ``satnono solve`` then costs
    what its puzzle needs, not the load; the SAT backend still turns to the compiled
    search if its CNF does not settle quickly (:data:`satnono.backends.sat.COLD_CNF`).
    ``batch``, ``bench`` and ``serve`` load the code before they fork, so their puzzles
    never take this path."""
    return (puzzle.width * puzzle.height <= COLD_CELLS and not loaded(puzzle)
            and usable(puzzle))


def _turned_off() -> bool:
    """:data:`DISABLE` is set."""
    return os.environ.get(DISABLE, "") not in ("", "0")


def available() -> bool:
    """Whether the compiled code runs in this process, loading it on the first call.

    Numba compiles the kernel the first time it runs on an installation (20-40 s; each later
    process reads it from Numba's cache in about 0.3 s): past :data:`NOTICE_AFTER` seconds
    one line on stderr says so. If Numba is missing or broken, or :data:`DISABLE` is set,
    the Python logic stands in (one line on stderr says so when it was not asked for).
    """
    if "ok" not in _loaded:
        _loaded["ok"] = _load(_warm)
    return _loaded["ok"]


def counting() -> bool:
    """Whether the compiled counter (:mod:`.counter`) runs in this process, loading it (and
    the search it is built on) on the first call, as :func:`available` does; a process
    that only solves never loads it."""
    if engine_built():
        return True
    if "count" not in _loaded:
        _loaded["count"] = available() and _load(_warm_counter)
    return _loaded["count"]


def _load(warm_up: Any) -> bool:
    if _turned_off():
        return False
    start = time.monotonic()
    notice = threading.Timer(NOTICE_AFTER, lambda: print(
        "satnono: compiling the search engine, once per installation (20-40 s; later runs "
        "load it in under a second) ...", file=sys.stderr, flush=True))
    notice.daemon = True
    notice.start()
    # a Ctrl-C that lands in one of LLVM's callbacks while Numba compiles is swallowed there
    # (Python prints "Exception ignored ... Traceback" and the compile goes on): kept quiet,
    # and raised again once the callback has returned, which stops the compile. Outside the
    # main thread (no signals there), it is raised when the compile is over.
    hook = sys.unraisablehook
    try:
        with swallowed_interrupts() as swallowed:
            warm_up()
    except KeyboardInterrupt:
        _quiet_llvm_leftovers(hook)
        raise
    except Exception as exc:  # Numba missing, or failing to compile on this platform
        notice.cancel()
        if swallowed:  # the failure is what the Ctrl-C left of the compile
            _quiet_llvm_leftovers(hook)
            raise swallowed[0] from None
        stop = heard()
        if stop is not None:  # a Ctrl-C or SIGTERM that an extension's loader turned into
            raise stop from None  # an error of its own ("ImportError: "): not a failure
        why = f"{type(exc).__name__}: {exc}".splitlines()[0][:160]
        print(f"satnono: the compiled search is unavailable ({why}); using the Python logic "
              "instead (slower, the same answers)", file=sys.stderr, flush=True)
        return False
    finally:
        notice.cancel()
    if swallowed:
        _quiet_llvm_leftovers(hook)
        raise swallowed[0]
    if time.monotonic() - start > NOTICE_AFTER:
        print(f"satnono: compiled in {time.monotonic() - start:.0f} s; kept for later runs",
              file=sys.stderr, flush=True)
    return True


def _quiet_llvm_leftovers(hook: Any) -> None:
    """After a Ctrl-C stopped a compile, keep quiet about llvmlite's half-built objects.

    An interrupt that lands inside one of llvmlite's constructors leaves an object without
    its handle; when it is collected (at exit, usually) its ``__del__`` fails with
    ``AttributeError`` and Python prints "Exception ignored ... Traceback". The process is
    stopping anyway, so those, and only those, are dropped; anything else still reaches the
    hook that was there before.
    """
    def quiet(unraisable: Any) -> None:
        where = getattr(type(unraisable.object), "__module__", "") or ""
        name = getattr(unraisable.object, "__module__", "") or ""
        if where.startswith("llvmlite") or name.startswith("llvmlite") or \
                isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        hook(unraisable)

    sys.unraisablehook = quiet


def loaded(puzzle: Puzzle | None = None) -> bool:
    """Whether this process has loaded the compiled code already (so using it costs
    nothing more): for ``puzzle``'s kind (black and white, or colour) when given."""
    if engine_built():
        return True
    if puzzle is not None and not puzzle.palette.black_and_white:
        return _loaded.get("colour", False)
    return _loaded.get("ok", False)


def warm() -> None:
    """Load the compiled code now, black and white and colour (:func:`available`,
    :func:`ready`), so that a process that forks one child per puzzle does it once (the
    engine built at install needs no loading: only the colour search is loaded then)."""
    if not engine_built() and available():
        ready(_colour_warm())


def _warm() -> None:
    """Call every entry point a search uses, since each loads (or compiles) on its first
    call (about 10 ms each from the cache, in every forked child if not done before)."""
    s = Search(Puzzle(rows=((1,),), columns=((1,),)))
    s.lines_only()
    for _ in s.solutions(limit=None):
        pass
    s.implications(Board(1, 1))  # else compiled at its first use, past a time limit


def _colour_warm() -> Puzzle:
    """A puzzle of two colours and one solution, for loading the colour search."""
    from ...model.puzzle import BLACK_AND_WHITE, Colour, Palette

    palette = Palette(BLACK_AND_WHITE.colours + (Colour("red", "r", "ff0000"),))
    return Puzzle(rows=(((1, "black"), (1, "red")),), columns=(((1, "black"),), ((1, "red"),)),
                  palette=palette)


def _warm_colour() -> None:
    """:func:`_warm` for the colour search."""
    from .colour import ColourSearch

    s = ColourSearch(_colour_warm())
    s.lines_only()
    for _ in s.solutions(limit=None):
        pass


def _warm_counter() -> None:
    count_solutions(Puzzle(rows=((1,),), columns=((1,),)))


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


def count_solutions(puzzle: Puzzle, board: Board | None = None) -> Counted:
    """The number of solutions of ``puzzle`` from ``board`` (or an open board) by the
    compiled counter (:mod:`.counter`: the search's probing, parts counted apart and
    multiplied, parts met before remembered); black and white. It cannot be stopped but by
    ending its process (:func:`satnono.analyze.counting.count_compiled` runs it in one).

    >>> count_solutions(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)).count
    24
    """
    if engine_built():
        from .engine_search import engine_count

        return engine_count(puzzle, board, COUNT_CACHE, PROBE_PARTS)
    import numpy as np

    from . import counter, kernel

    s = Search(puzzle, board)
    work = np.zeros(counter.HITS + 1, np.int64)
    n = counter.count(s.stack[0], s.height, s.width, s.clues, s.starts, s.counts, work,
                      s.tmp, COUNT_CACHE, PROBE_PARTS)
    return Counted(int(n) if n >= 0 else None, int(work[kernel.NODES]),
                   int(work[counter.HITS]))


class Search:
    """One puzzle's compiled search: the root is the given board (or an open one),
    propagated and probed to a fixpoint when the search starts."""

    def __init__(self, puzzle: Puzzle, board: Board | None = None):
        import numpy as np

        from . import kernel

        self.kernel = kernel
        self.height, self.width = puzzle.height, puzzle.width
        lines = [tuple(b.length for b in clue) for clue in puzzle.rows + puzzle.columns]
        self.counts = np.array([len(c) for c in lines], np.int64)
        self.starts = np.zeros(len(lines), np.int64)
        self.starts[1:] = np.cumsum(self.counts)[:-1]
        self.clues = np.array([x for c in lines for x in c] or [0], np.int64)
        cells = self.height * self.width
        self.queue = np.zeros(len(lines), np.int64)
        self.queued = np.ones(len(lines), np.bool_)
        self.work = np.zeros(5, np.int64)
        self.score = np.zeros(cells, np.int64)
        self.solution = np.zeros(cells, np.uint8)
        levels = min(cells + 1, LEVELS)
        self.stack = np.full((levels, cells), kernel.OPEN, np.uint8)
        self.branch = np.zeros(levels, np.int64)
        self.other = np.zeros(levels, np.uint8)
        self.state = np.array([0, 1, 0, 0, 0, 0, 0, 0x2545F4914F6CDD1D], np.int64)
        words = (len(lines) + 63) // 64
        self.memo = (np.zeros(cells, np.int64), np.zeros((cells, words), np.uint64),
                     np.zeros(len(lines), np.int64), np.ones(1, np.int64))
        self.tmp = kernel.scratch(self.height, self.width, self.counts)
        # what probing remembers at each level, for as many levels as MEMORY allows
        self.keep = max(0, MEMORY // (8 * (cells * (2 + words) + len(lines))))
        kept = min(levels, self.keep)
        self.saved = (np.zeros((kept, cells), np.int64), np.zeros((kept, cells, words), np.uint64),
                      np.zeros((kept, len(lines)), np.int64), np.zeros((kept, cells), np.int64))
        if board is not None:
            self.stack[0] = _grid(board)
        self.done = False
        self.given = 0
        self.pending: Solution | None = None
        self.seen: set[bytes] = set()

    @property
    def lines(self) -> int:
        """Line solves so far."""
        return int(self.work[self.kernel.LINES])

    @property
    def cost(self) -> int:
        """Work so far, in cells of the lines solved (times one more than their machine
        words past 63 cells): the unit of slices and budgets."""
        return int(self.work[self.kernel.COST])

    def solutions(self, limit: int | None, budget: int | None = None,
                  deadline: Deadline = NO_DEADLINE) -> Iterator[Solution]:
        """Each solution in turn, up to ``limit`` in all; stops early (``done`` False) when
        ``budget`` work (:attr:`cost`) has been spent. The clock is looked at between slices.
        Looking for one or two solutions the search restarts (:data:`RESTARTS`); looking for
        more it goes through the tree once, since every restart would find the same ones
        first again."""
        self.state[self.kernel.RESTART] = (RESTARTS if limit is not None and limit <= 2
                                           else 0)
        return stream(self, limit, budget, deadline, SLICE)

    def _grow(self) -> None:
        """Twice the levels (the search never needs more than one per cell)."""
        import numpy as np

        def more(a: Any) -> Any:
            out = np.zeros((2 * len(a),) + a.shape[1:], a.dtype)
            out[:len(a)] = a
            return out

        self.stack, self.branch, self.other = (more(self.stack), more(self.branch),
                                               more(self.other))
        if len(self.saved[self.kernel.PROBED_AT]) < self.keep:
            self.saved = tuple(more(a)[:self.keep] for a in self.saved)

    def levels(self) -> int:
        """How many levels the stack has room for now."""
        return len(self.stack)

    def lines_only(self) -> None:
        """Line logic at the root, before any probing (what the stages' times call "line"
        rather than "probe"); a contradiction ends the search."""
        k = self.kernel
        if self.state[k.LEVEL] != 0 or self.state[k.PHASE] != 1 or self.work[k.ROOT]:
            return
        if not k.settle_lines(self.stack[0], self.height, self.width, self.clues, self.starts,
                              self.counts, self.queue, self.queued, self.work, self.tmp):
            self.work[k.ROOT] = 2
            self.done = True

    def root_only(self, deadline: Deadline = NO_DEADLINE) -> None:
        """Propagate and probe the root, in slices with the clock looked at between them
        (the slice that ends the root may go on a little below it; a solution found so is
        kept for :meth:`solutions`)."""
        while not self.work[self.kernel.ROOT] and not self.done and self.pending is None:
            deadline.check()
            self._step(self.cost + SLICE)

    def _step(self, end: int) -> None:
        k = self.kernel
        while True:
            status = k.search(self.stack, self.branch, self.other, self.state, self.height,
                              self.width, self.clues, self.starts, self.counts, self.queue,
                              self.queued, self.work, self.score, self.solution, end,
                              self.memo, self.saved, self.tmp)
            if status != k.GROW:
                break
            self._grow()
        if status == k.FOUND:
            key = self.solution.tobytes()
            if key not in self.seen:  # a run after a restart may meet it again
                self.seen.add(key)
                self.pending = _solution(self.solution, self.width, self.height)
            if self.state[k.LEVEL] < 0:
                self.done = True
        elif status == k.DONE:
            self.done = True

    def root(self) -> Board | None:
        """The root's board after propagation and probing (None: the clues contradict);
        what a SAT solver starts from when the search hands over."""
        if self.work[self.kernel.ROOT] == 2:
            return None
        return _board(self.stack[0], self.width, self.height)

    def root_known(self) -> int:
        """Cells the root has decided (0 after a contradiction, where :meth:`root` is
        None): what its board would count, without building the board."""
        k = self.kernel
        if self.work[k.ROOT] == 2:
            return 0
        g = self.stack[0]
        return int(((g == k.EMPTY) | (g == k.FILLED)).sum())

    def count_into(self, stats: Stats) -> None:
        count_work(self.work, stats)

    def implications(self, board: Board, limit: int = IMPLICATIONS) -> Any:
        """What probing ``board``'s open cells implies (:func:`.kernel.implications`): an
        array of rows (a, b), "literal a implies literal b", a literal being 2 × cell + 1
        for filled and 2 × cell for empty (cells row by row), b = -1 where a contradicts;
        at most ``limit`` rows. Every solution satisfies them, so they may be added to a
        CNF of ``board`` as binary clauses; its own search is not touched.

        >>> s = Search(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
        >>> sorted(s.implications(Board(2, 2)).tolist())[:2]  # (0, 0) empty: (0, 1), (1, 0) filled
        [[0, 3], [0, 5]]
        """
        import numpy as np

        k = self.kernel
        out = np.empty((limit, 2), np.int64)
        lines = len(self.counts)
        n = k.implications(_grid(board), self.height, self.width, self.clues, self.starts,
                           self.counts, np.zeros(lines, np.int64), np.zeros(lines, np.bool_),
                           np.zeros(len(self.work), np.int64),
                           k.scratch(self.height, self.width, self.counts), out)
        return out[:n]


def _grid(board: Board) -> Any:
    import numpy as np

    may = board.may[ROW]
    g = np.empty(board.height * board.width, np.uint8)
    for r in range(board.height):
        e, f = may[0][r], may[1][r]
        for c in range(board.width):
            g[r * board.width + c] = (e >> c & 1) | (f >> c & 1) << 1
    return g


def _board(g: Any, width: int, height: int) -> Board | None:
    grid = g.reshape(height, width)
    if not grid.all():
        return None
    b = Board(width, height)
    for colour, bit in ((0, 1), (1, 2)):
        layer = (grid & bit) != 0
        b.may[ROW][colour][:] = masks(layer)
        b.may[ROW.other][colour][:] = masks(layer.T)
    return b


def _solution(g: Any, width: int, height: int) -> Solution:
    return Solution(width, tuple(masks(g.reshape(height, width) == 2)))
