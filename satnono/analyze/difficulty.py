"""How hard is the puzzle for a person? Rated by the weakest reasoning that solves it.

``line``: iterated line logic alone (each row and column on its own);
``probe``: line logic plus one-cell contradiction probing — no guessing, what a patient
human can do; ``search``: needs branching (the decisions and depth of the native
conflict-driven search, the line solver its only propagator, say how much). The numbers
behind the level come with it, so puzzles within a level compare too. The search is the
learning one, not plain backtracking: on the survey's 9-Dom the plain one needs 16,000 nodes
and over a minute to tell the level, which a puzzle maker checking each draft cannot wait for.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from ..backends import backend
from ..errors import SearchTimeout
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..logic.probe import probe
from ..logic.propagate import propagate
from ..model.puzzle import Puzzle
from ..model.verdict import Level
from ..pipeline import require_solvable
from ..plan import plan_for
from ..runtime.deadline import Deadline

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

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["level"] = self.level.value
        return d


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
