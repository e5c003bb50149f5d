"""What the page asks the server to do, as plain functions of JSON-ready values: each runs
in a process of its own (:mod:`satnono.web.app`), and returns a dict for the page or raises
a :class:`~satnono.errors.SatnonoError` whose one line the page shows.

The page holds a puzzle as satnono's JSON (:mod:`satnono.io.formats.jsonfmt`), the same
text ``satnono convert --to json`` writes; everything it shows comes back as row strings
in the palette's characters.
"""

from __future__ import annotations

import base64
import time
from typing import Any

from ..errors import SearchTimeout, UsageError
from ..io.formats import jsonfmt, read_bytes, write_puzzle
from ..model.puzzle import Puzzle


def _within(p: Puzzle, max_cells: int) -> Puzzle:
    """``p``, unless it has more cells than the server takes."""
    if p.width * p.height > max_cells:
        raise UsageError(f"the puzzle is {p.size}: this server takes at most {max_cells} "
                         "cells (satnono serve --max-cells N)")
    return p


def _puzzle(text: str, max_cells: int) -> Puzzle:
    (p,) = read_bytes(text.encode("utf-8"), "puzzle.json", fmt="json")[:1]
    return _within(p, max_cells)


def described(p: Puzzle) -> dict[str, Any]:
    """The puzzle as the page draws it: its JSON, size and palette."""
    return {"json": jsonfmt.write(p), "width": p.width, "height": p.height,
            "title": p.title or "",
            "palette": [{"name": c.name, "char": c.char, "rgb": c.rgb}
                        for c in p.palette.colours],
            "rows": [[[b.length, p.palette.index(b.colour)] for b in clue] for clue in p.rows],
            "columns": [[[b.length, p.palette.index(b.colour)] for b in clue]
                        for clue in p.columns],
            "goal": list(p.goal) if p.goal else None}


def open_file(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """A puzzle file in any format satnono reads, or a picture (what ``make`` takes):
    ``name`` and its bytes in base64, ``data``."""
    from ..io.image import looks_like_image

    name = fields["name"]
    try:
        data = base64.b64decode(fields["data"], validate=True)
    except ValueError:
        raise UsageError(f"{name}: the upload is not base64") from None
    many = 1
    if looks_like_image(data):
        from ..io.image import read_image
        from ..model.puzzle import puzzle_from_picture

        p = puzzle_from_picture(read_image(name, data=data))
    else:
        puzzles = read_bytes(data, name)
        p, many = puzzles[0], len(puzzles)
    out = described(_within(p, max_cells))
    if many > 1:
        out["note"] = f"the file holds {many} puzzles; the first is open"
    return out


def check(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The verdict, two solutions, the ambiguous cells, the goal's switches, the rating."""
    from ..analyze.check import check as run_check

    p = _puzzle(fields["puzzle"], max_cells)
    c = run_check(p, timeout=timeout)
    chars = p.palette.chars
    u = c.uniqueness
    return {"verdict": None if u is None else u.verdict.value,
            "timeout": c.timeout,
            "complete": u is not None and u.complete,
            "solutions": [] if u is None else [s.strings(chars=chars) for s in u.solutions[:2]],
            "ambiguous": [] if u is None else [list(cell) for cell in u.ambiguous],
            "switches": [list(cell) for cell in c.switches or []],
            "rating": None if c.rating is None else c.rating.describe(),
            "report": "\n".join(c.lines("the puzzle")),
            "seconds": round(c.seconds, 3)}


#: the most steps a replay keeps (the page gets the first ones and the end)
MAX_STEPS = 3000


def solve(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The native solver's steps with the board after each (the ``--trace`` events),
    and the solution."""
    from ..logic.board import Board
    from ..logic.events import Event
    from ..pipeline import solve as run_solve

    p = _puzzle(fields["puzzle"], max_cells)
    chars = p.palette.chars
    steps: list[dict[str, Any]] = []
    dropped = 0

    def observe(event: Event, board: Board) -> None:
        nonlocal dropped
        if len(steps) >= MAX_STEPS:
            dropped += 1
            return
        line = event.line
        steps.append({"text": event.describe(), "kind": type(event).__name__,
                      "line": None if line is None else [line.axis, line.index],
                      "board": board.strings(chars=chars)})

    started = time.monotonic()
    run = run_solve(p, "native", limit=2, timeout=timeout, observer=observe)
    found = []
    try:
        for sol in run:
            found.append(sol.strings(chars=chars))
    except SearchTimeout:
        pass
    return {"solutions": found, "ending": run.ending.value if run.ending else None,
            "verdict": run.verdict.value if run.verdict else None, "steps": steps,
            "dropped": dropped, "seconds": round(time.monotonic() - started, 3)}


def count(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The exact count and how it was obtained."""
    from ..analyze.count import count as run_count

    p = _puzzle(fields["puzzle"], max_cells)
    res = run_count(p, timeout=timeout)
    return {"count": str(res.count), "complete": res.complete, "method": res.method,
            "describe": res.describe(), "seconds": round(res.seconds, 3)}


#: what the page offers under Export, besides the written formats
PICTURES = ("blank.svg", "solution.svg", "blank.png", "solution.png")


def export(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The puzzle in a written format, or a picture: the blank sheet or the solution
    (``what``), as SVG or PNG (base64, ``"base64": true``)."""
    from ..io import draw
    from ..io.formats import PUZZLE_WRITERS

    p = _puzzle(fields["puzzle"], max_cells)
    what = fields["what"]
    if what in PICTURES:
        kind, ext = what.split(".")
        grid = None
        if kind == "solution":
            from ..pipeline import solve as run_solve

            sols = list(run_solve(p, limit=1, timeout=timeout))
            if not sols:
                raise UsageError("the puzzle has no solution to draw")
            grid = draw.solution_grid(sols[0])
        name = f"{'puzzle' if kind == 'blank' else 'solution'}.{ext}"
        if ext == "svg":
            return {"name": name, "type": "image/svg+xml", "text": draw.svg(p, grid)}
        return {"name": name, "type": "image/png", "base64": True,
                "text": base64.b64encode(draw.png(p, grid)).decode()}
    if what not in PUZZLE_WRITERS:
        raise UsageError(f"unknown export {what!r} (known: "
                         f"{', '.join(list(PUZZLE_WRITERS) + list(PICTURES))})")
    ext = {"json": "json", "non": "non", "taai": "txt", "simple": "txt"}.get(what, what)
    return {"name": f"puzzle.{ext}", "type": "text/plain", "text": write_puzzle(p, what)}
