"""Solutions out: the olympiad's ``japan.sol``, text grids, PBM, JSON, ``.non`` with its goal.

The writers work on an open stream and a sequence of solutions, so that enumeration can
feed them as solutions are found; :func:`write_solutions` puts the solutions of one or
more puzzles into a file, atomically.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from ..errors import UsageError
from ..model.puzzle import Puzzle
from ..model.solution import Solution, canonical_order
from .formats import non
from .formats.picture import pbm_write
from .output import atomic_output
from .records import line

#: Output formats for solutions, with the file extensions that select them.
SOLUTION_FORMATS = {"sol": (".sol",), "text": (".txt",), "pbm": (".pbm",), "json": (".json",),
                    "non": (".non",)}


def solution_format(to: str | None, output: str | None, puzzles: list[Puzzle], name: str
                    ) -> str:
    """The format ``--to`` (or the output's extension) asks for, once it is known to hold
    what will be written: one puzzle's solutions unless text or json, black and white
    unless text or json."""
    fmt = to or format_for(output) or "text"
    if fmt not in SOLUTION_FORMATS:
        raise UsageError(f"--to {fmt}: solutions are written as one of "
                         + ", ".join(SOLUTION_FORMATS))
    if len(puzzles) > 1 and fmt not in ("text", "json") and output not in (None, "-"):
        raise UsageError(f"{name} holds {len(puzzles)} puzzles; pick one with "
                         f"--index to write {fmt}")
    if fmt in ("sol", "pbm", "non") and any(not p.palette.black_and_white for p in puzzles):
        raise UsageError(f"--to {fmt} holds black-and-white pictures only; write this colour "
                         "puzzle's solutions as text or json")
    return fmt


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


def drawing(puzzle: Puzzle, sol: Solution, columns: int = 80, colour: bool = False
            ) -> list[str] | None:
    """The solution as a terminal shows it: the clues in the margins, a block per filled
    cell; None when it would not fit in ``columns`` characters. In colour, with
    ``colour`` (a terminal that shows it), each block cell is painted in its palette
    colour (24-bit ANSI), each clue number written on its colour, and a background cell
    is a dim dot (a black block on a dark terminal must not look empty); without, a cell is
    drawn with its colour's character and a clue says it after the number (``3r``), so
    the two views read alike.

    >>> p = Puzzle(((2,), (1,)), ((2,), (1,)))
    >>> for line in drawing(p, Solution.from_strings(["##", "#."])):
    ...     print(line)
       2 1
    2 ████
    1 ██
    """
    palette = puzzle.palette
    plain = palette.black_and_white
    codes = [_ansi(c.rgb) for c in palette.colours]

    def clue(length: int, k: int) -> tuple[str, int]:
        """A clue number as written, and its width on the screen."""
        if plain:
            return str(length), len(str(length))
        if colour:  # on the colour, in black or white, whichever reads (a dark terminal)
            ink = "0;0;0" if _light(palette.colours[k].rgb) else "255;255;255"
            return (f"\x1b[48;2;{codes[k]};38;2;{ink}m{length}\x1b[0m", len(str(length)))
        return f"{length}{palette.colours[k].char}", len(str(length)) + 1

    rows_, cols_ = puzzle.indexed
    heads = [[clue(n, k) for n, k in c] for c in cols_]
    cell = max(2, max((w + 1 for c in heads for _, w in c), default=2))
    row_clues = [[clue(n, k) for n, k in c] for c in rows_]
    row_width = [sum(w for _, w in c) + max(len(c) - 1, 0) for c in row_clues]
    margin = max(row_width, default=0) + 1
    if margin + cell * puzzle.width > columns:
        return None
    depth = max(map(len, heads), default=0)
    out = []
    for k in range(depth):
        line = []
        for head in heads:
            i = k - (depth - len(head))
            line.append(" " * (cell - head[i][1]) + head[i][0] if i >= 0 else " " * cell)
        out.append(" " * margin + "".join(line).rstrip())
    for r, clues in enumerate(row_clues):
        text = " " * (margin - 1 - row_width[r]) + " ".join(t for t, _ in clues) + " "
        for c in range(puzzle.width):
            k = sol.colour(r, c)
            if not k:  # in colour a dim dot: a black block must not look like it
                text += (" " * (cell - 1) + "\x1b[2m·\x1b[0m" if colour and not plain
                         else " " * cell)
            elif plain:
                text += "█" * cell
            elif colour:
                text += f"\x1b[48;2;{codes[k]}m" + " " * cell + "\x1b[0m"
            else:
                text += palette.colours[k].char * cell
        out.append(text.rstrip())
    return out


def _ansi(rgb: str) -> str:
    """A palette colour's hex (``f80`` or ``ff8800``) as ANSI's ``R;G;B``."""
    full = "".join(ch * 2 for ch in rgb) if len(rgb) == 3 else rgb
    return ";".join(str(int(full[i:i + 2], 16)) for i in (0, 2, 4))


def _light(rgb: str) -> bool:
    """Whether black text reads on the colour ``rgb`` (its relative luminance, ITU-R
    BT.709's weights, above one half)."""
    r, g, b = (int(x) / 255 for x in _ansi(rgb).split(";"))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5


def shows_colour(out: IO[str]) -> bool:
    """Whether ``out`` is a terminal that shows colour: not where ``NO_COLOR`` is set
    (no-color.org) or the terminal is ``dumb``."""
    import os

    return out.isatty() and not os.environ.get("NO_COLOR") and \
        os.environ.get("TERM") != "dumb"


def show(out: IO[str], puzzle: Puzzle, sol: Solution, number: int) -> None:
    """Write one solution as it is found: drawn with its clues on a terminal that has room
    for it, as plain rows of ``#`` and ``.`` otherwise (for pipes and files). ``number``
    counts from 1; solutions after the first are set apart by a blank line."""
    import shutil

    lines = None
    if out.isatty():
        lines = drawing(puzzle, sol, shutil.get_terminal_size().columns, shows_colour(out))
    text = lines or sol.strings(chars=puzzle.palette.chars)
    out.write(("\n" if number > 1 else "") + "\n".join(text) + "\n")
    out.flush()


def write_text(out: IO[str], solutions: Iterable[Solution], chars: str = ".#") -> int:
    n = 0
    for sol in solutions:
        if n:
            out.write("\n")
        out.write("\n".join(sol.strings(chars=chars)) + "\n")
        n += 1
    return n


def pbm(solutions: Iterable[Solution]) -> bytes:
    """One P4 image per solution, concatenated (netpbm reads such multi-image files)."""
    return b"".join(pbm_write(s) for s in solutions)


def non_with_goal(puzzle: Puzzle, sol: Solution) -> str:
    from dataclasses import replace

    _black_and_white(puzzle, "a .non file with its goal")
    return non.write(replace(puzzle, goal=tuple(sol.strings())))


@dataclass
class Solved:
    """The solutions found for one puzzle of a file (``index`` from 1), whether the search
    was complete, and the machine record of it (:mod:`satnono.io.records`)."""

    index: int
    puzzle: Puzzle
    solutions: list[Solution]
    complete: bool
    record: dict[str, Any] = field(default_factory=dict)


def _black_and_white(puzzle: Puzzle, what: str) -> None:
    if not puzzle.palette.black_and_white:
        from ..errors import UnsupportedOutput

        raise UnsupportedOutput(f"{what} holds black-and-white pictures only; write this "
                                "colour puzzle's solutions as text or json")


def write_solutions(path: str | None, fmt: str, results: list[Solved], show_all: bool
                    ) -> str | None:
    """Write the solutions in ``fmt`` to ``path`` (None or ``-``: standard output), all of
    them or only each puzzle's first. Returns why nothing was written, if it was not: the
    search is incomplete and the format cannot say so, or there is nothing to draw. The
    olympiad's ``.sol`` lists its solutions in :func:`canonical_order`."""
    where = path or "the output"
    if fmt == "json":  # one record per puzzle, one per line
        with atomic_output(path) as out:
            for r in results:
                out.write(line(r.record))
        return None
    if any(not r.complete for r in results):
        return (f"not writing {where}: the search is incomplete and {fmt} cannot say so "
                "(use --to json)")
    if fmt in ("sol", "pbm"):
        for r in results:
            _black_and_white(r.puzzle, "the olympiad's .sol" if fmt == "sol" else "PBM")
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
                write_text(out, r.solutions if show_all else r.solutions[:1],
                           r.puzzle.palette.chars)
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
