"""The library's front door: validate, run a backend, verify every solution it returns."""

from __future__ import annotations

from collections.abc import Iterator

from .backends import solutions
from .model.puzzle import Puzzle, Solution, is_solution, validate


class WrongSolution(AssertionError):
    """A backend returned a grid that does not match the clues: a bug, never bad input."""


def solve(puzzle: Puzzle, backend: str = "sat", *, limit: int | None = None,
          timeout: float | None = None, **options: object) -> Iterator[Solution]:
    """Yield up to ``limit`` solutions (all when None), each checked against the clues.
    ``backend``: ``sat`` (the default, as on the command line), ``cpsat``, ``native``, or a
    ``plain-`` baseline.

    >>> from satnono import Puzzle
    >>> sorted(s.strings() for s in solve(Puzzle(((1,), (1,)), ((1,), (1,)))))
    [['#.', '.#'], ['.#', '#.']]

    Raises :class:`~satnono.errors.SearchTimeout` when ``timeout`` seconds run out; the
    solutions yielded before it are real.
    """
    validate(puzzle)
    if limit is not None and limit <= 0:
        return
    seen = 0
    for sol in solutions(puzzle, backend, timeout=timeout, limit=limit, **options):
        if not is_solution(puzzle, sol):
            raise WrongSolution(f"backend {backend} returned a grid that breaks the clues")
        yield sol
        seen += 1
        if limit is not None and seen >= limit:
            return
