"""Solutions out: the seed's ``japan.sol``, text grids, PBM, JSON, ``.non`` with its goal.

Writers work on an open stream and a sequence of solutions so that enumeration can feed
them as solutions are found; what must be written atomically is the CLI's business.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO

from ..model.puzzle import Puzzle, Solution
from .formats import non
from .formats.picture import pbm_write

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
    """Seed 000's format: ``*``/``.`` grids, ``<next>`` between them, ``<end>`` after the last,
    ``<no solutions>`` when there are none. ``<next>`` is written when the next solution
    arrives, so solutions stream out as they are found (as the seed's program does)."""
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
