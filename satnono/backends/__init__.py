"""Solving backends behind one small interface: ``solutions(puzzle, ...)`` yields grids.

Heavy solver libraries are imported inside the backend that needs them, so importing
satnono (or running ``satnono --help``) stays instant.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..puzzle import Puzzle, Solution

BACKENDS = ("native", "sat", "cpsat", "plain-sat", "plain-cpsat")


def solutions(puzzle: Puzzle, backend: str = "native", *, timeout: float | None = None,
              limit: int | None = None, **options: object) -> Iterator[Solution]:
    """Every solution of ``puzzle`` from the chosen backend, lazily and unverified."""
    if backend == "native":
        from ..native import solve_native

        return solve_native(puzzle, timeout=timeout, **options)  # type: ignore[arg-type]
    if backend == "sat":
        from .sat import solutions as sat_solutions

        return sat_solutions(puzzle, timeout=timeout, limit=limit, **options)  # type: ignore[arg-type]
    if backend == "cpsat":
        from .cpsat import solutions as cpsat_solutions

        return cpsat_solutions(puzzle, timeout=timeout, limit=limit, **options)  # type: ignore[arg-type]
    if backend in ("plain-sat", "plain-cpsat"):
        from . import plain

        run = plain.sat_solutions if backend == "plain-sat" else plain.cpsat_solutions
        return run(puzzle, timeout=timeout, limit=limit, **options)  # type: ignore[arg-type]
    raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
