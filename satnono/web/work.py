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

from ..errors import SearchTimeout, UnknownFormat, UsageError
from ..io.formats import jsonfmt, read_bytes, write_puzzle
from ..model.grid import COLUMN, ROW
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
            # each block as [length, colour index], read from the puzzle's own pairs
            "rows": [[list(b) for b in clue] for clue in p.indexed[ROW]],
            "columns": [[list(b) for b in clue] for clue in p.indexed[COLUMN]],
            "goal": list(p.goal) if p.goal else None}


#: at most this many of a file's puzzles are offered by title (a tournament file holds
#: 1,000; the rest are reached by number)
MAX_LISTED = 5000


def open_file(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """A puzzle file in any format satnono reads, or a picture (what ``make`` takes):
    ``name`` and its bytes in base64, ``data``; of a file of several puzzles, the one
    numbered ``index`` (from 1; the first by default), with the titles of all of them
    (``puzzles``) for the page to offer."""
    from ..io.image import looks_like_image

    name = fields["name"]
    try:
        data = base64.b64decode(fields["data"], validate=True)
    except ValueError:
        raise UsageError(f"{name}: the upload is not base64") from None
    if looks_like_image(data):
        opened = _picture(name, data, max_cells, fields.get("fit") == "yes")
        if isinstance(opened, dict):
            return opened
        puzzles = [opened]
    else:
        try:
            puzzles = read_bytes(data, name)
        except UnknownFormat as exc:
            raise exc.hinted("the page reads puzzle files in those formats, and pictures "
                             "(PNG, GIF, BMP, JPEG)") from None
    many = len(puzzles)
    k = _index(fields.get("index"), many, name)
    out = described(_within(puzzles[k - 1], max_cells))
    if many > 1:
        out["index"] = k
        out["puzzles"] = [f"{i}: {q.title or q.size}"
                          for i, q in enumerate(puzzles[:MAX_LISTED], 1)]
        out["note"] = f"the file holds {many} puzzles; number {k} is open"
    return out


def _index(given: str | None, many: int, name: str) -> int:
    """Which of a file's ``many`` puzzles, from 1: ``given`` (text), else the first."""
    if given is None:
        return 1
    if not given.isdigit() or not 1 <= int(given) <= many:
        raise UsageError(f"{name}: there is no puzzle {given!r} in it: it holds {many}, "
                         f"numbered from 1")
    return int(given)


def check(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The verdict, two solutions, the ambiguous cells, the goal's switches, the rating."""
    from ..analyze.check import check as run_check
    from ..io.words import check_report, rating_words

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
            "rating": None if c.rating is None else rating_words(c.rating),
            "report": "\n".join(check_report(c, "the puzzle")),
            "seconds": round(c.seconds, 3)}


#: a replay keeps its first steps and its last, and one step that bridges the two: at most
#: this many steps, and about this many cell changes in all (each a few bytes of JSON),
#: so that the answer for the largest puzzle the server takes stays well under 2 MB
MAX_STEPS = 3000
LAST_STEPS = 300
MAX_CHANGES = 120_000


#: the most block colours a picture is reduced to when it opens in colour
PICTURE_COLOURS = 8


def _picture(name: str, data: bytes, max_cells: int, fit: bool) -> Puzzle | dict[str, Any]:
    """A picture's puzzle: in colour when it has colours (as ``make --colours K`` with K
    the colours it has, at most :data:`PICTURE_COLOURS`), else black and white. Larger
    than the server takes, it is scaled to fit when ``fit``; else the answer is an error
    that offers the size it would be scaled to (``fit``: [width, height])."""
    import io

    from PIL import Image

    from ..io.image import read_colour_image, read_image
    from ..model.puzzle import puzzle_from_colours, puzzle_from_picture

    try:
        with Image.open(io.BytesIO(data)) as img:
            w, h = img.size
            colours = _colours(img)
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise UsageError(f"{name}: not a picture that can be read ({exc})") from None
    size = None
    if w * h > max_cells:
        scale = (max_cells / (w * h)) ** 0.5
        fw, fh = max(1, int(w * scale)), max(1, int(h * scale))
        if not fit:
            return {"error": f"{name}: the picture is {w}×{h} ({w * h:,} cells); this server "
                             f"takes at most {max_cells:,} cells", "fit": [fw, fh]}
        size = (fw, fh)
    if colours:
        grid, palette = read_colour_image(name, min(colours, PICTURE_COLOURS), size=size,
                                          data=data)
        return puzzle_from_colours(grid, palette)
    return puzzle_from_picture(read_image(name, size=size, data=data))


def _colours(img: Any) -> int:
    """How many block colours a picture has: 0 when it is black, white and grey (it opens
    in black and white), else its distinct colours less the lightest (the background),
    :data:`PICTURE_COLOURS` + 1 for a photograph's thousands."""
    rgb = img.convert("RGBA")
    white = rgb.copy()
    white.paste((255, 255, 255, 255), (0, 0, *rgb.size))
    white.alpha_composite(rgb)
    flat = white.convert("RGB")
    found = flat.getcolors(maxcolors=4096)
    if found is None:
        return PICTURE_COLOURS + 1 if any(max(p) - min(p) > 48 for p in flat.getdata()) else 0
    if not any(max(c) - min(c) > 48 for _, c in found):
        return 0
    return max(1, len(found) - 1)


#: the replay of the native solver's steps runs after the answer for half as long as the
#: answer took (the page answers within 1.5 times ``satnono solve``'s time), and at least
#: this many seconds: tracing every step costs far more than solving (9-dom: the answer
#: 0.7 s, all 67,000 steps traced 16 s), so the replay is bounded and the answer never
#: waits for it
REPLAY_LEAST = 0.2
#: the replay's share of the answer's time
REPLAY_SHARE = 0.5


def solve(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """Up to two solutions, found as ``satnono solve`` finds them (the default backend and
    the compiled engine), then a replay: the native solver's steps (the ``--trace``
    events), each with the cells it changed (``[row, column, before, after]``, a palette
    index or -1 for unknown), within :data:`REPLAY_LEAST` or :data:`REPLAY_SHARE` of the
    answer's own time, whichever is longer. ``first_found`` is the step where the
    replay's first solution was complete; when the replay ran to its end, its solutions
    are the ones given (both are right, and these match its steps)."""
    from ..pipeline import solve as run_solve
    from ..runtime.deadline import Deadline

    p = _puzzle(fields["puzzle"], max_cells)
    deadline = Deadline.after(timeout)
    started = time.monotonic()
    run = run_solve(p, limit=2, timeout=timeout, workers=1)  # one core a request
    found = []
    try:
        for sol in run:
            found.append(sol.strings(chars=p.palette.chars))
    except SearchTimeout:
        pass
    seconds = time.monotonic() - started
    left = deadline.remaining() or 0.0
    replay = _replay(p, max(REPLAY_LEAST, min(REPLAY_SHARE * seconds, left)))
    replayed = replay.pop("solutions")
    if replay["replay_complete"]:
        found = replayed
    return {"solutions": found, "ending": run.ending.value if run.ending else None,
            "verdict": run.verdict.value if run.verdict else None,
            "seconds": round(seconds, 3), **replay}


def _replay(p: Puzzle, seconds: float) -> dict[str, Any]:
    """The native solver's steps for up to ``seconds``: the first ones and the last ones
    kept (:data:`MAX_STEPS`), the steps between merged into one; ``replay_complete`` when
    it ran to its end."""
    from ..logic.board import Board
    from ..logic.events import Event
    from ..pipeline import solve as run_solve

    index = {ch: k for k, ch in enumerate(p.palette.chars)}
    before = ["?" * p.width for _ in range(p.height)]
    head: list[dict[str, Any]] = []
    tail: list[dict[str, Any]] = []
    bridge: dict[tuple[int, int], list[int]] = {}  # cell -> [before, after] of the gap
    dropped = 0
    changes = 0  # in the head
    in_tail = 0  # in the tail

    def diff(board: Board) -> list[list[int]]:
        out = []
        now = board.strings(chars=p.palette.chars)
        for r, (old, new) in enumerate(zip(before, now)):
            if old != new:
                out += [[r, c, index.get(a, -1), index.get(b, -1)]
                        for c, (a, b) in enumerate(zip(old, new)) if a != b]
        before[:] = now
        return out

    def merge(step: dict[str, Any]) -> None:
        for r, c, was, now in step["changes"]:
            if (r, c) in bridge:
                bridge[(r, c)][1] = now
            else:
                bridge[(r, c)] = [was, now]

    def observe(event: Event, board: Board) -> None:
        nonlocal dropped, changes, in_tail
        line = event.line
        changed = diff(board)
        step: dict[str, Any] = {"text": event.describe(), "kind": type(event).__name__,
                                "line": None if line is None else [line.axis, line.index],
                                "changes": changed}
        if not dropped and len(head) < MAX_STEPS - LAST_STEPS - 1 and \
                changes + len(changed) <= MAX_CHANGES // 2:
            head.append(step)
            changes += len(changed)
            return
        dropped += 1
        tail.append(step)
        in_tail += len(changed)
        if len(tail) > LAST_STEPS or in_tail > MAX_CHANGES // 2:
            oldest = tail.pop(0)
            in_tail -= len(oldest["changes"])
            merge(oldest)

    started = time.monotonic()
    run = run_solve(p, "native", limit=2, timeout=seconds, observer=observe)
    found = []
    complete = True
    try:
        for sol in run:
            found.append(sol.strings(chars=p.palette.chars))
    except SearchTimeout:
        complete = False
    gap = len(tail) < dropped  # steps between the head and the tail were merged
    steps = head
    if gap:
        skipped = dropped - len(tail)
        steps = head + [{"text": f"… {skipped} step(s) not kept, their changes in one",
                         "kind": "Gap", "line": None,
                         "changes": [[r, c, w, n] for (r, c), (w, n) in bridge.items()
                                     if w != n]}]
    steps = steps + tail
    first_found = next((i for i, st in enumerate(steps) if st["kind"] == "Found"), None)
    return {"solutions": found, "steps": steps, "dropped": dropped - len(tail),
            "first_found": first_found, "replay_complete": complete,
            "replay_seconds": round(time.monotonic() - started, 3)}


def count(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The exact count and how it was obtained (or, when the exact count ran out of time
    and ApproxMC did not, an estimate in words: ``estimate``)."""
    from ..analyze.count import count as run_count
    from ..io.words import count_words

    p = _puzzle(fields["puzzle"], max_cells)
    res = run_count(p, timeout=timeout)
    return {"count": str(res.count), "complete": res.complete, "method": res.method,
            "estimate": None if res.estimate is None else res.estimate.words(),
            "describe": count_words(res), "seconds": round(res.seconds, 3)}


#: what the page offers under Export, besides the written formats
PICTURES = ("blank.svg", "solution.svg", "blank.png", "solution.png")


def exports() -> list[dict[str, Any]]:
    """What Export offers: each written format (with the file name it gets, and whether it
    holds colour puzzles) and the pictures, which hold anything."""
    from ..io.formats import FORMATS, PUZZLE_WRITERS

    out = [{"what": name, "name": _export_name(name), "colour": FORMATS[name].writes_colour,
            "label": f"{name} ({_export_name(name)}): {FORMATS[name].description}"}
           for name in PUZZLE_WRITERS]
    return out + [{"what": pic, "name": _picture_name(pic), "colour": True,
                   "label": f"{pic.replace('.', ' as ')} picture ({_picture_name(pic)})"}
                  for pic in PICTURES]


def _stem(title: str | None) -> str:
    """A file name's stem from the puzzle's title (letters, digits, ``-`` and ``_``), else
    ``puzzle``: every export was ``puzzle.*``, and a browser saved the second as
    ``puzzle (1).txt``."""
    import re

    stem = re.sub(r"[^\w-]+", "-", title or "").strip("-_")[:60]
    return stem or "puzzle"


def _export_name(fmt: str, title: str | None = None) -> str:
    """The title's stem with the format's own extension; a format that shares its
    extension (``.dat``) or has none (``.txt``) adds its name: ``cup-japan.dat``."""
    from ..io.formats import FORMATS, PUZZLE_WRITERS

    exts = FORMATS[fmt].extensions
    shared = not exts or any(exts[0] in FORMATS[other].extensions
                             for other in PUZZLE_WRITERS if other != fmt)
    return f"{_stem(title)}{'-' + fmt if shared else ''}{exts[0] if exts else '.txt'}"


def _picture_name(what: str, title: str | None = None) -> str:
    kind, ext = what.split(".")
    return f"{_stem(title)}-{kind}.{ext}"


def export(fields: dict[str, str], max_cells: int, timeout: float) -> dict[str, Any]:
    """The puzzle in a written format, or a picture: the blank sheet or the solution
    (``what``), as SVG or PNG (base64, ``"base64": true``)."""
    from ..io import draw
    from ..io.formats import FORMATS, PUZZLE_WRITERS

    p = _puzzle(fields["puzzle"], max_cells)
    what = fields["what"]
    if what in PICTURES:
        kind, ext = what.split(".")
        grid = None
        if kind == "solution":
            from ..pipeline import solve as run_solve

            sols = list(run_solve(p, limit=1, timeout=timeout, workers=1))
            if not sols:
                raise UsageError("the puzzle has no solution to draw")
            grid = draw.solution_grid(sols[0])
        name = _picture_name(what, p.title)
        if ext == "svg":
            return {"name": name, "type": "image/svg+xml", "text": draw.svg(p, grid)}
        return {"name": name, "type": "image/png", "base64": True,
                "text": base64.b64encode(draw.png(p, grid)).decode()}
    if what not in PUZZLE_WRITERS:
        raise UsageError(f"unknown export {what!r} (known: "
                         f"{', '.join(list(PUZZLE_WRITERS) + list(PICTURES))})")
    if not p.palette.black_and_white and not FORMATS[what].writes_colour:
        raise UsageError(f"{what} holds black-and-white puzzles only; this one is in colour")
    return {"name": _export_name(what, p.title), "type": "text/plain",
            "text": write_puzzle(p, what)}
