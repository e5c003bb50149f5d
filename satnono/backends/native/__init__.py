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
from typing import TYPE_CHECKING

from ...logic.context import Context
from ...logic.presolve import Presolved
from ...model.solution import Solution
from ...runtime.deadline import Deadline
from .colour_theory import search_colour
from .line_theory import search_learning
from .search import search

if TYPE_CHECKING:
    from ...plan import Plan


def solutions(start: Presolved, *, ctx: Context, deadline: Deadline, limit: int | None,
              plan: Plan) -> Iterator[Solution]:
    """Every solution below the presolved root, lazily, by the plan's search (learning,
    or depth-first with probing or without); SearchTimeout when ``deadline`` passes."""
    if plan.learning:
        learn = search_colour if ctx.colours > 1 else search_learning
        found = learn(ctx, start.board, deadline=deadline)
    else:
        found = search(ctx, start.board, probing=plan.probing, deadline=deadline)
    yield from ctx.stats.timed("search", found)


__all__ = ["search", "search_colour", "search_learning", "solutions"]
