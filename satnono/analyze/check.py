"""The whole check a puzzle maker asks for: the proven verdict, where the ambiguity is, the
switches in the goal picture, and how hard the puzzle is — in words and as data.

One time limit covers it all: the rating gets what the verdict left of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import Interrupted, SearchTimeout
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

    def lines(self, name: str) -> list[str]:
        """The report in words; ``name`` is how the puzzle is called."""
        u = self.uniqueness
        if u is None:
            return [f"{name}: no verdict — {self.timeout}"]
        out: list[str] = []
        if u.verdict is Verdict.NONE:
            out.append(f"{name}: no solution (proven)")
        elif u.verdict is Verdict.UNIQUE:
            out.append(f"{name}: unique solution (proven)")
        else:
            cells = self.puzzle.width * self.puzzle.height
            if u.complete:
                differ = f"{len(u.ambiguous)} of {cells} cells differ between solutions"
                legend = "cells that differ across all solutions ('?'; the rest is forced)"
            else:
                differ = (f"at least {len(u.ambiguous)} of {cells} cells differ between "
                          "solutions (the time limit stopped the search for more)")
                legend = ("cells found to differ ('?'; the time ran out before the rest "
                          "was proven)")
            out.append(f"{name}: NOT unique — more than one solution (proven); {differ}")
            chars = self.puzzle.palette.chars
            a, b = (s.strings(chars=chars) for s in u.solutions[:2])
            out.append("  two solutions:")
            out.extend(f"    {x}   {y}" for x, y in zip(a, b))
            out.append(f"  {legend}:")
            out.extend(f"    {row}" for row in self.ambiguity)
            if not self.puzzle.palette.black_and_white:
                names = [c.name for c in self.puzzle.palette.colours]
                listed = sorted(u.takes.items())
                out.append("  the colours each of them takes:" + "".join(
                    f"\n    row {r + 1}, column {c + 1}: {' or '.join(names[k] for k in ks)}"
                    for (r, c), ks in listed[:12]))
                if len(listed) > 12:
                    out.append(f"    and {len(listed) - 12} more (all of them in --json)")
        if self.switches:
            sw = self.switches
            where = ", ".join(f"rows {r + 1}-{r + 2} × columns {c + 1}-{c + 2}"
                              for r, c in sw[:10])
            more = f" and {len(sw) - 10} more" if len(sw) > 10 else ""
            out.append(f"  the goal picture has {len(sw)} 2×2 checkerboard(s) that flip "
                       f"without changing a clue — redraw there: {where}{more}")
        if self.rating is not None:
            out.append(f"  difficulty: {self.rating.describe()}")
        return out


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
    if rating:
        try:
            result.rating = difficulty.rate(puzzle, timeout=deadline.left())
        except KeyboardInterrupt as exc:
            raise Interrupted.saying(exc, f"{u.verdict.value} (proven); stopped while rating "
                                     "the difficulty (--no-rating skips it)") from None
    result.seconds = time.monotonic() - started
    return result
