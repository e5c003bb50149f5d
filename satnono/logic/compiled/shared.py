"""What the black-and-white and the colour searches share on the Python side: the stream of
solutions a search gives slice by slice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.solution import Solution
from ...runtime.deadline import Deadline


def stream(search: Any, limit: int | None, budget: int | None, deadline: Deadline,
           slice_: int) -> Iterator[Solution]:
    """A search's solutions (:class:`.Search`, :class:`.ColourSearch`) in
    turn, up to ``limit`` given in all, its work (``cost``) spent ``slice_`` at a time
    with the clock looked at between slices, until ``budget``."""
    while limit is None or search.given < limit:
        if search.pending is not None:
            sol, search.pending = search.pending, None
            search.given += 1
            yield sol
            continue
        if search.done or (budget is not None and search.cost >= budget):
            return
        deadline.check()
        end = search.cost + slice_
        search._step(end if budget is None else min(end, budget))
