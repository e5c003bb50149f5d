"""Solutions out: the olympiad's ``japan.sol``, text grids, PBM, JSON, ``.non`` with its goal.

The writers work on an open stream and a sequence of solutions, so that enumeration can
feed them as solutions are found; :func:`write_solutions` puts the solutions of one or
more puzzles into a file, atomically.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from ..model.puzzle import Puzzle
from ..model.solution import Solution, canonical_order
from .formats import non
from .formats.picture import pbm_write
from .output import atomic_output

#: Output formats for solutions, with the file extensions that select them.
SOLUTION_FORMATS = {"sol": (".sol",), "text": (".txt",), "pbm": (".pbm",), "json": (".json",),
                    "non": (".non",)}


def format_for(path: str | None) -> str | None:
    if path is None:
        return None
    low = path.lower()
    for name, exts in SOLUTION_FORMATS.items():
        if low.endswith(exts):
            return name
    return None


def write_sol(out: IO[str], solutions: Iterable[Solution]) -> int:
    """The olympiad problem's format: ``*``/``.`` grids, ``<next>`` between them,
    ``<end>`` after the last, ``<no solutions>`` when there are none. ``<next>`` is
    written when the next solution arrives, so solutions stream out as they are found (as
    the olympiad's reference program does)."""
    n = 0
    for sol in solutions:
        if n:
            out.write("<next>\n")
        out.write("\n".join(sol.strings("*", ".")) + "\n")
        n += 1
    out.write("<end>\n" if n else "<no solutions>\n")
    return n


def write_text(out: IO[str], solutions: Iterable[Solution]) -> int:
    n = 0
    for sol in solutions:
        if n:
            out.write("\n")
        out.write("\n".join(sol.strings()) + "\n")
        n += 1
    return n


def json_solutions(solutions: list[Solution], complete: bool, **extra: object) -> dict:
    return {**extra, "solutions": [sol.strings() for sol in solutions], "complete": complete}


def write_json(out: IO[str], solutions: list[Solution], complete: bool) -> None:
    json.dump(json_solutions(solutions, complete), out, indent=1)
    out.write("\n")


def pbm(solutions: Iterable[Solution]) -> bytes:
    """One P4 image per solution, concatenated (netpbm reads such multi-image files)."""
    return b"".join(pbm_write(s) for s in solutions)


def non_with_goal(puzzle: Puzzle, sol: Solution) -> str:
    from dataclasses import replace

    return non.write(replace(puzzle, goal=tuple(sol.strings())))


@dataclass
class Solved:
    """The solutions found for one puzzle of a file (``index`` from 1), and whether the
    search was complete."""

    index: int
    puzzle: Puzzle
    solutions: list[Solution]
    complete: bool


def write_solutions(path: str | None, fmt: str, results: list[Solved], show_all: bool
                    ) -> str | None:
    """Write the solutions in ``fmt`` to ``path`` (None or ``-``: standard output), all of
    them or only each puzzle's first. Returns why nothing was written, if it was not: the
    search is incomplete and the format cannot say so, or there is nothing to draw. The
    olympiad's ``.sol`` lists its solutions in :func:`canonical_order`."""
    where = path or "the output"
    if fmt == "json":
        several = len(results) > 1
        items = [json_solutions(r.solutions, r.complete,
                                **({"index": r.index, "title": r.puzzle.title} if several
                                   else {})) for r in results]
        with atomic_output(path) as out:
            json.dump(items if several else items[0], out, indent=1)
            out.write("\n")
        return None
    if any(not r.complete for r in results):
        return (f"not writing {where}: the search is incomplete and {fmt} cannot say so "
                "(use --to json)")
    if fmt == "sol":
        (only,) = results
        with atomic_output(path) as out:
            write_sol(out, canonical_order(only.solutions))
    elif fmt == "text":
        with atomic_output(path) as out:
            for r in results:
                if len(results) > 1:
                    out.write(f"== puzzle {r.index}"
                              f"{': ' + r.puzzle.title if r.puzzle.title else ''}\n")
                write_text(out, r.solutions if show_all else r.solutions[:1])
    elif fmt in ("pbm", "non"):
        (only,) = results
        if not only.solutions:
            return f"not writing {where}: there is no solution to draw"
        if fmt == "pbm":
            with atomic_output(path, binary=True) as out:
                out.write(pbm(only.solutions if show_all else only.solutions[:1]))
        else:
            with atomic_output(path) as out:
                out.write(non_with_goal(only.puzzle, only.solutions[0]))
    return None
