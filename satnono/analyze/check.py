"""The whole check a puzzle maker asks for: the proven verdict, where the ambiguity is, the
switches in the goal picture, and how hard the puzzle is — in words and as data.

One time limit covers it all: the rating gets what the verdict left of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import Interrupted, SearchTimeout
from ..logic.compiled import usable
from ..model.grid import Cell
from ..model.puzzle import Puzzle
from ..model.verdict import Verdict
from ..runtime.deadline import Deadline
from .difficulty import Rating
from .uniqueness import Uniqueness, ambiguity_grid, switches


@dataclass
class Check:
    """What :func:`check` found. ``uniqueness`` is None when the time ran out before the
    verdict was proven (``timeout`` then says so); ``switches`` are the 2×2
    checkerboards of the goal picture (None: the puzzle has no goal)."""

    puzzle: Puzzle
    uniqueness: Uniqueness | None
    timeout: str = ""
    switches: list[Cell] | None = None
    rating: Rating | None = None
    ambiguity: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def verdict(self) -> Verdict | None:
        return None if self.uniqueness is None else self.uniqueness.verdict


def check(puzzle: Puzzle, *, timeout: float | None = None, workers: int = 1,
          rating: bool = True) -> Check:
    """Prove the verdict, find the ambiguous cells and the goal's switches, and rate the
    puzzle (unless ``rating`` is False), all within one ``timeout``.

    >>> from satnono import Puzzle
    >>> c = check(Puzzle(((1,), (1,)), ((1,), (1,))), rating=False)
    >>> c.verdict.value, c.ambiguity
    ('multiple', ['??', '??'])
    """
    # looked up when called, so that each stage can be replaced on its own (tests do)
    from . import difficulty, uniqueness

    started = time.monotonic()
    deadline = Deadline.after(timeout)
    try:
        u = uniqueness.uniqueness(puzzle, timeout=timeout, workers=workers)
    except SearchTimeout as exc:
        return Check(puzzle, None, timeout=str(exc), seconds=time.monotonic() - started)
    except KeyboardInterrupt as exc:
        raise Interrupted.saying(exc, f"no verdict yet: stopped while proving it after "
                                 f"{time.monotonic() - started:.1f} s") from None
    result = Check(puzzle, u)
    if u.verdict is Verdict.MULTIPLE:
        result.ambiguity = ambiguity_grid(u.solutions[0], u.ambiguous, puzzle.palette.chars)
    goal = puzzle.goal_solution()
    if goal is not None:
        result.switches = switches(goal)
    if rating and usable(puzzle):  # the proof's own logic and effort: nothing solved again
        result.rating = difficulty.rating_of(puzzle, u, time.monotonic() - started)
    elif rating:
        try:
            result.rating = difficulty.rate(puzzle, timeout=deadline.left())
        except KeyboardInterrupt as exc:
            raise Interrupted.saying(exc, f"{u.verdict.value} (proven); stopped while rating "
                                     "the difficulty (--no-rating skips it)") from None
    result.seconds = time.monotonic() - started
    return result
