"""Solving backends behind one small interface: ``solutions(puzzle, ...)`` yields grids.

Heavy solver libraries are imported inside the backend that needs them, so importing
satnono (or running ``satnono --help``) stays instant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..model.puzzle import Puzzle, Solution

BACKENDS = ("native", "sat", "cpsat", "plain-sat", "plain-cpsat")
#: the backends that take ``workers``
WORKER_BACKENDS = ("sat", "cpsat", "plain-cpsat")


def solutions(puzzle: Puzzle, backend: str = "sat", *, timeout: float | None = None,
              limit: int | None = None, **options: object) -> Iterator[Solution]:
    """Every solution of ``puzzle`` from the chosen backend, lazily and unverified."""
    if backend == "native":
        from .native import solve_native

        _check_options(backend, solve_native, options)
        return solve_native(puzzle, timeout=timeout, **options)  # type: ignore[arg-type]
    if backend == "sat":
        from .sat import solutions as run
    elif backend == "cpsat":
        from .cpsat import solutions as run
    elif backend in ("plain-sat", "plain-cpsat"):
        from . import plain

        run = plain.sat_solutions if backend == "plain-sat" else plain.cpsat_solutions
    else:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    _check_options(backend, run, options)
    return run(puzzle, timeout=timeout, limit=limit, **options)  # type: ignore[arg-type]


#: keyword arguments that are not options: the call's own, or passed by satnono itself
_NOT_OPTIONS = ("puzzle", "timeout", "limit", "ctx")


def _check_options(backend: str, run: Callable, options: dict) -> None:
    """An option the backend does not know is a mistake worth naming (``workers`` goes to
    cpsat, ``solver`` to sat), not a TypeError from deep inside."""
    import inspect

    params = inspect.signature(run).parameters
    for name in options:
        if name not in params or name == "puzzle":
            takes = [p for p in params if p not in _NOT_OPTIONS]
            raise ValueError(f"the {backend} backend has no option {name!r} (its options: "
                             + (", ".join(takes) or "none") + ")")
