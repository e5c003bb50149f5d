"""What propagation, probing and search share while they work on one puzzle."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from ..model.grid import COLUMN, ROW, Line
from ..model.puzzle import Puzzle
from ..tuning import TUNING, Tuning
from .board import Board
from .events import Observer
from .line import LineCache, LineLogic, line_logic


@dataclass
class Stats:
    """What a run took, counted as it goes: the rating, ``count``, ``bench`` and the
    library's :class:`satnono.pipeline.Run` read these.

    ``fixed`` is how many cells propagation and probing fixed before any solver ran (None
    when the backend does not presolve); ``variables`` and ``clauses`` the size of the residual
    CNF handed to a SAT solver or counter (0 when none was built), ``unknown`` its cells.
    ``seconds`` says where the time went, by stage: ``line`` (propagation), ``probe``,
    ``encode`` (the residual CNF), ``load`` (handing it to the solver), ``search``.
    ``racers`` are the searches raced on several cores once the compiled search's budget
    was spent (none: it ran on one), ``winner`` the one whose solutions were taken.
    """

    line_solves: int = 0
    probes: int = 0
    nodes: int = 0  # search decisions
    max_depth: int = 0
    conflicts: int = 0
    solutions: int = 0
    cells: int = 0
    fixed: int | None = None
    unknown: int = 0
    variables: int = 0
    clauses: int = 0
    racers: tuple[str, ...] = ()
    winner: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)

    def racing(self) -> str:
        """The race in words: ``Kissat and the compiled search on 2 cores``."""
        names = list(self.racers)
        said = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
        return f"{said} on {len(names)} cores"

    @contextmanager
    def timing(self, stage: str) -> Iterator[None]:
        """Add the time the ``with`` block takes to ``seconds[stage]``."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = (self.seconds.get(stage, 0.0)
                                   + time.perf_counter() - started)

    def timed(self, stage: str, items: Iterator[T]) -> Iterator[T]:
        """``items``, with the time spent waiting for each added to ``seconds[stage]``
        (a search that yields solutions as it finds them)."""
        while True:
            with self.timing(stage):
                try:
                    item = next(items)
                except StopIteration:
                    return
            yield item


T = TypeVar("T")


@dataclass
class Context:
    """One puzzle's line cache, line solver, counters and observer.

    ``logic`` is the puzzle's line solver, chosen once (:class:`~satnono.logic.line.LineLogic`:
    the two-mask fast path in black and white, the colour solver otherwise); ``clues`` its
    clues, ``clues[axis][i]`` line ``(axis, i)``'s in the form the solver takes;
    ``sizes[axis]`` how many cells a line of that axis has, and ``lines[axis][i]`` the line
    itself (made once: propagation queues them by the million).
    """

    puzzle: Puzzle
    cache: LineCache = field(default_factory=LineCache)
    stats: Stats = field(default_factory=Stats)
    #: called with each solving step when set (``solve --trace``)
    observer: Observer | None = None
    #: the colour line solver even in black and white (what the fast path is held to)
    general: bool = False
    #: the measured numbers the stages read (:class:`satnono.tuning.Tuning`)
    tuning: Tuning = TUNING

    def __post_init__(self) -> None:
        self.logic: LineLogic = line_logic(self.puzzle, self.cache, self.general)
        #: how many block colours (1: black and white, and the fast path)
        self.colours = self.logic.colours
        self.clues = self.logic.clues
        self.sizes = (self.puzzle.width, self.puzzle.height)
        self.lines = (tuple(Line(ROW, r) for r in range(self.puzzle.height)),
                      tuple(Line(COLUMN, c) for c in range(self.puzzle.width)))
        self.stats.cells = self.puzzle.width * self.puzzle.height

    def board(self) -> Board:
        """A board of this puzzle's size and colours with every cell still open."""
        return Board(self.puzzle.width, self.puzzle.height, self.colours)
