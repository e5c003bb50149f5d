"""What the black-and-white and the colour compiled searches share on the Python side: the
stream of solutions a search gives slice by slice, its work counters, a grid's rows as
masks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.solution import Solution
from ...runtime.deadline import Deadline
from ..context import Stats


def stream(search: Any, limit: int | None, budget: int | None, deadline: Deadline,
           slice_: int) -> Iterator[Solution]:
    """A compiled search's solutions (:class:`.Search`, :class:`.colour.ColourSearch`) in
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


def count_work(work: Any, stats: Stats) -> None:
    """Add a compiled search's line solves, nodes and depth (``work``, the same counters
    in black and white and in colour) to ``stats``."""
    from .kernel import DEPTH, LINES, NODES

    stats.line_solves += int(work[LINES])
    stats.nodes += int(work[NODES])
    stats.max_depth = max(stats.max_depth, int(work[DEPTH]))


def masks(bits: Any) -> list[int]:
    """Each row of a boolean array as an integer, bit c for column c."""
    import numpy as np

    packed = np.packbits(bits, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]
