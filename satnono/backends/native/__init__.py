"""The native backend: propagate, probe, search — no solver library, every solution, lazily.

Two searches, both driven by the complete line solver alone:

* by default, propagation and probing at the root, then conflict-driven search with
  clause learning (:mod:`.cdcl`, with the line solver as its theory, :mod:`.line_theory`;
  in colour, :mod:`.colour_theory`)
  — what validates puzzles like 9-Dom, where plain backtracking meets the same dead ends
  millions of times;
* with ``learning=False``, the plain depth-first search of :mod:`.search`, probing at
  every node: the simplest thing that can be right, which the tests hold the other to.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...logic.context import Context
from ...logic.presolve import presolve
from ...model.puzzle import Puzzle
from ...model.solution import Solution
from ...runtime.deadline import Deadline
from .colour_theory import search_colour
from .line_theory import search_learning
from .search import search


def solutions(puzzle: Puzzle, *, ctx: Context, deadline: Deadline, limit: int | None,
              probing: bool = True, learning: bool = True) -> Iterator[Solution]:
    """Every solution of ``puzzle``, lazily; SearchTimeout when ``deadline`` passes."""
    if learning:
        pre = presolve(ctx, probing=probing, deadline=deadline)
        if pre.board is not None:
            learn = search_colour if ctx.colours > 1 else search_learning
            yield from ctx.stats.timed("search", learn(ctx, pre.board, deadline=deadline))
    else:
        yield from ctx.stats.timed("search", search(ctx, probing=probing, deadline=deadline))


__all__ = ["search", "search_colour", "search_learning", "solutions"]
