"""How hard is the puzzle for a person? Rated by the weakest reasoning that solves it.

``line``: iterated line logic alone (each row and column on its own);
``probe``: line logic plus one-cell contradiction probing — no guessing, what a patient
human can do; ``search``: needs branching. The numbers behind the level come with it, so
that puzzles within a level compare too: the share of the picture line logic fixes, then
probing; for ``search``, the share left to guess (what a person must branch on) and the
effort of the search that settled it.

Two ways to the same levels. Where the engine runs, the rating is read off the proof
itself (:func:`rating_of`): the engine's line logic and probing to their fixpoints, then
the SAT stage's calls for the verdict — a ``check`` pays for one proof, not two, and
rates 12-Dom in the time ``solve`` takes. Without the engine, the native conflict-driven
search in Python (the line solver its only propagator) gives the search's nodes and depth
(:attr:`Rating.rated_by` says which). Line logic and probing reach one fixpoint however
they are run, so both give the same level.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from ..backends import backend
from ..errors import SearchTimeout
from ..logic.compiled import usable
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..logic.probe import probe
from ..logic.propagate import propagate
from ..model.puzzle import Puzzle
from ..model.verdict import Level, RatedBy, Verdict
from ..pipeline import require_solvable
from ..plan import plan_for
from ..runtime.deadline import Deadline
from .uniqueness import Uniqueness, uniqueness

LEVELS = tuple(level.value for level in Level)


@dataclass
class Rating:
    """The level, whether it was finished, and the numbers behind it."""

    level: Level
    cells: int
    by_line: int  # cells fixed by line logic alone
    by_probe: int  # further cells fixed by probing
    line_solves: int
    probes: int
    nodes: int = 0  # search nodes (0 unless the level is search)
    max_depth: int = 0
    solutions_seen: int = 0
    contradiction: bool = False  # the clues were refuted (no solution) at this level
    seconds: float = 0.0
    #: False when the time ran out first: the puzzle needs at least ``level``, and the
    #: numbers are what was done by then
    finished: bool = True
    #: the SAT stage's calls for the verdict (the engine's way; 0 otherwise)
    sat_calls: int = 0
    #: which search measured a ``search`` level: the engine and the SAT stage, or the
    #: native search in Python (``nodes``, ``max_depth``)
    rated_by: RatedBy = RatedBy.NATIVE

    @property
    def open_after_probing(self) -> int:
        """Cells neither line logic nor probing fixed: what must be guessed."""
        return self.cells - self.by_line - self.by_probe

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["level"] = self.level.value
        d["rated_by"] = self.rated_by.value
        return d


def rating_of(puzzle: Puzzle, u: Uniqueness, seconds: float) -> Rating:
    """The rating a uniqueness proof already holds: the level from its logic (line logic,
    then probing, to their fixpoints), the search's effort from its SAT stage. Nothing is
    solved again."""
    cells = puzzle.width * puzzle.height
    done = u.presolved
    by_line = done.by_line if done is not None else 0
    by_probe = done.by_probe if done is not None else 0
    refuted = done.refuted_by if done is not None else None
    if refuted is not None:
        level = refuted
    elif by_line == cells:
        level = Level.LINE
    elif by_line + by_probe == cells:
        level = Level.PROBE
    else:
        level = Level.SEARCH
    return Rating(level, cells, by_line, by_probe, u.line_solves, u.probes,
                  solutions_seen=len(u.solutions),
                  contradiction=refuted is not None or u.verdict is Verdict.NONE,
                  seconds=seconds, sat_calls=u.sat_calls, rated_by=RatedBy.ENGINE)


def rate(puzzle: Puzzle, *, timeout: float | None = None, **unknown: object) -> Rating:
    """Rate ``puzzle``; never raises on a timeout: an unfinished rating says the level
    reached, with ``finished`` False.

    >>> from satnono import Puzzle
    >>> rate(Puzzle(((2,), (1,)), ((2,), (1,)))).level.value
    'line'
    """
    if unknown:
        from ..errors import UnknownOption

        raise UnknownOption(f"rate takes no option {', '.join(map(repr, unknown))} "
                            "(its options: timeout)")
    require_solvable(puzzle, "native")
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    if usable(puzzle):  # the engine and the SAT stage, as check rates
        try:
            u = uniqueness(puzzle, timeout=deadline.left(), ambiguity=False)
        except SearchTimeout:
            pass  # unfinished: the Python logic says how far it gets in what is left
        else:
            return rating_of(puzzle, u, time.monotonic() - started)
    ctx = Context(puzzle)
    board = ctx.board()
    cells = puzzle.width * puzzle.height
    st = ctx.stats

    def result(level: Level, by_line: int, by_probe: int, contradiction: bool = False,
               finished: bool = True) -> Rating:
        return Rating(level, cells, by_line, by_probe, st.line_solves, st.probes, st.nodes,
                      st.max_depth, st.solutions, contradiction, time.monotonic() - started,
                      finished)

    try:
        consistent = propagate(ctx, board, deadline=deadline)
    except SearchTimeout:
        return result(Level.LINE, board.known(), 0, finished=False)
    if not consistent:
        return result(Level.LINE, 0, 0, True)
    by_line = board.known()
    if board.solved():
        return result(Level.LINE, by_line, 0)
    try:
        consistent, _ = probe(ctx, board, deadline)
    except SearchTimeout:
        return result(Level.PROBE, by_line, board.known() - by_line, finished=False)
    if not consistent:
        return result(Level.PROBE, by_line, 0, True)
    by_probe = board.known() - by_line
    if board.solved():
        return result(Level.PROBE, by_line, by_probe)
    found = 0
    try:
        # the native backend's search from the probed board: the reference, no solver library
        native = backend("native")
        for _ in native.run(Presolved(board, by_line, by_probe), ctx=ctx,
                            deadline=deadline, limit=2, plan=plan_for(native, {})):
            found += 1
            if found >= 2:
                break
    except SearchTimeout:
        return result(Level.SEARCH, by_line, by_probe, finished=False)
    return result(Level.SEARCH, by_line, by_probe, contradiction=found == 0)
