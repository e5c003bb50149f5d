"""What the black-and-white and the colour compiled searches share: how their hot functions
are compiled, and on the Python side the stream of solutions a search gives slice by slice,
its work counters, a grid's rows as masks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from ...model.solution import Solution
from ...runtime.deadline import Deadline
from ..context import Stats

F = TypeVar("F", bound=Callable[..., Any])


def hot(fn: F) -> F:
    """Compile a function a search runs millions of times: cached, without the interpreter's
    lock, and without Numba's reference counting (``_nrt=False``, the switch behind its
    ``nrt`` option). Such a function may not allocate an array or copy one by slice
    assignment (a loop does); every array it sees is its caller's for the whole call.
    Otherwise each array handed to a call or sliced costs an atomic increment and
    decrement: on tcga2015's slowest puzzles that was 60 % of the search's time (136
    against 55 ns a line solve)."""
    from numba import njit

    return cast(F, njit(cache=True, nogil=True, _nrt=False)(fn))  # type: ignore[call-overload]


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
