"""Exact solution counts: blocking-clause enumeration for few solutions, projected model
counting (Ganak, through pyganak) for many.

Both count the same residual CNF: propagation and probing fix what they can, the unknown
cells' variables are the sampling set, and the automaton variables are existential (they
are functions of the cells anyway, so the projection only spares Ganak the work of
noticing). ``auto`` enumerates up to a threshold and only then pays for Ganak, so puzzles
with a handful of solutions are instant and ones with 10^15 still get an exact number.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import SatnonoError, SearchTimeout
from ..logic.presolve import deadline_of
from ..logic.propagate import Context
from ..model.puzzle import Puzzle, validate

METHODS = ("auto", "enumerate", "ganak")
#: auto switches from enumeration to Ganak after this many solutions
THRESHOLD = 1000


@dataclass
class CountResult:
    """``count`` is exact when ``complete``; otherwise it is a lower bound (what
    enumeration had found when the time ran out)."""

    count: int
    complete: bool
    method: str  # "propagation", "enumerate" (with the backend) or "ganak"
    seconds: float
    unknown_cells: int = 0  # cells left for the solver after propagation and probing
    variables: int = 0
    clauses: int = 0

    def describe(self) -> str:
        if not self.complete:
            return (f"at least {self.count} solution(s): time limit reached "
                    f"({self.method}, {self.seconds:.2f} s); count incomplete")
        how = f"by {self.method}"
        if self.method == "propagation":  # no solver ran: the board settled it
            how = ("line logic and probing refute the clues" if self.count == 0 else
                   "line logic and probing leave one picture")
        residual = (f"; {self.unknown_cells} cells left after propagation, "
                    f"{self.variables} variables, {self.clauses} clauses"
                    if self.variables else "")
        return f"{self.count} solution(s), exact, {how} [{self.seconds:.2f} s{residual}]"


class CounterMissing(SatnonoError):
    pass


def count(puzzle: Puzzle, method: str = "auto", *, backend: str = "sat",
          timeout: float | None = None, threshold: int = THRESHOLD,
          workers: int = 1) -> CountResult:
    """Count every solution of ``puzzle`` exactly (or raise nothing and return a lower
    bound marked incomplete when ``timeout`` runs out). ``workers`` goes to an
    enumerating sat or cpsat backend (:func:`satnono.solve`)."""
    if method not in METHODS:
        raise ValueError(f"unknown counting method {method!r} (known: {', '.join(METHODS)})")
    validate(puzzle)
    started = time.monotonic()
    deadline = deadline_of(timeout)
    if method == "ganak":
        return _ganak_result(Context(puzzle), started, deadline, timeout, found=0,
                             workers=workers)
    from ..pipeline import solve

    ctx = Context(puzzle)
    found = 0
    limit = None if method == "enumerate" else threshold + 1
    options: dict = {"ctx": ctx} if backend in ("sat", "native") else {}
    if workers != 1:
        options["workers"] = workers
    try:
        for _ in solve(puzzle, backend, limit=limit, timeout=timeout, **options):
            found += 1
    except SearchTimeout:
        return CountResult(found, False, f"enumerate ({backend})", time.monotonic() - started,
                           *_size(ctx))
    if limit is None or found < limit:
        how = f"enumerate ({backend})" if ctx.encoding is not None or backend != "sat" \
            else "propagation"
        return CountResult(found, True, how, time.monotonic() - started, *_size(ctx))
    return _ganak_result(ctx, started, deadline, timeout, found, workers)


def _size(ctx: Context) -> tuple[int, int, int]:
    enc = ctx.encoding
    if enc is None:
        return (0, 0, 0)
    return (len(enc.cells), enc.variables, len(enc.clauses))  # type: ignore[attr-defined]


def _ganak_result(ctx: Context, started: float, deadline: float | None,
                  timeout: float | None, found: int, workers: int = 1) -> CountResult:
    try:
        import pyganak  # noqa: F401
    except ImportError:  # pragma: no cover - pyganak is a dependency
        raise CounterMissing("exact counting of many solutions needs pyganak "
                             "(pip install pyganak)") from None
    enc = ctx.encoding
    if enc is None:
        from ..encode.residual import residual

        try:
            board, enc = residual(ctx, deadline=deadline, timeout=timeout, workers=workers)
        except SearchTimeout:
            return CountResult(found, False, "ganak", time.monotonic() - started)
        if board is None:
            return CountResult(0, True, "propagation", time.monotonic() - started, *_size(ctx))
        if enc is None:
            return CountResult(1, True, "propagation", time.monotonic() - started)
    sampling = sorted(enc.cells.values())
    args = (enc.variables, enc.clauses, sampling)
    try:
        from ..runtime.child import stream

        (n,) = list(stream(_ganak, args, deadline, timeout, what="model counter",
                           size=enc.size()))
    except SearchTimeout:
        return CountResult(found, False, "ganak", time.monotonic() - started, *_size(ctx))
    return CountResult(n, True, "ganak", time.monotonic() - started, *_size(ctx))


def _ganak(variables: int, clauses: list[list[int]], sampling: list[int]) -> Iterator[int]:
    from pyganak import Counter

    counter = Counter()
    counter.new_vars(variables)
    counter.add_clauses(clauses)
    counter.set_sampling_set(sampling)
    yield counter.count()
