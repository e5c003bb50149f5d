"""satnono's JSON: ``{"title": …, "rows": [[…], …], "columns": [[…], …]}`` (a list for several).

A colour puzzle adds its palette and background, and gives each block of another colour
than black as a ``[length, "colour"]`` pair::

    {"palette": {"white": {"char": ".", "rgb": "ffffff"},
                 "black": {"char": "#", "rgb": "000000"},
                 "red": {"char": "r", "rgb": "ff0000"}},
     "background": "white",
     "rows": [[[2, "red"], 1], …], "columns": …}
"""

from __future__ import annotations

import json

from ...errors import InvalidPuzzle, ParseError
from ...model.puzzle import BLACK, BLACK_AND_WHITE, Block, Clue, Palette, Puzzle
from ._common import checked, palette_of, rgb_of

NAME = "json"
EXTENSIONS = (".json",)


def sniff(text: str) -> bool:
    head = text.lstrip()[:1]
    return head in ("{", "[") and '"rows"' in text and '"columns"' in text


def _block(b: object, where: str, path: str | None) -> Block:
    """A plain length (black), or a ``[length, "colour"]`` pair."""
    if isinstance(b, list) and len(b) == 2:
        length, colour = b
        if not isinstance(colour, str):
            raise ParseError(f"{where}: a block's colour is a name, not {colour!r}", path, None)
    else:
        length, colour = b, BLACK
    if isinstance(length, bool) or not isinstance(length, int):
        raise ParseError(f"{where} must hold whole numbers or [length, \"colour\"] pairs",
                         path, None)
    if length < 1:
        raise ParseError(f"{where}: block lengths must be at least 1", path, None)
    return Block(length, colour)


def _clues(value: object, key: str, path: str | None) -> tuple[tuple[Block, ...], ...]:
    if not isinstance(value, list):
        raise ParseError(f"'{key}' must be a list of clues", path, None)
    out = []
    for i, c in enumerate(value):
        if isinstance(c, int) and not isinstance(c, bool):
            c = [c]
        if not isinstance(c, list):
            raise ParseError(f"{key}[{i}] must be a list of blocks", path, None)
        if c == [0]:
            c = []
        out.append(tuple(_block(b, f"{key}[{i}]", path) for b in c))
    return tuple(out)


def _palette(obj: dict, path: str | None) -> Palette:
    """``"palette": {name: {"char": …, "rgb": …}}`` with ``"background"`` naming one."""
    colours = obj.get("palette")
    if colours is None:
        return BLACK_AND_WHITE
    if not isinstance(colours, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("char", "?"), str)
            and isinstance(v.get("rgb", "000"), str) for v in colours.values()):
        raise ParseError("'palette' must map each colour's name to {\"char\": …, \"rgb\": …}",
                         path, None)
    background = obj.get("background", "white")
    if background not in colours:
        raise ParseError(f"the background {background!r} is not in the palette", path, None)
    entries = [(name, v.get("char"), rgb_of(v.get("rgb", "000000"), path, None))
               for name, v in colours.items()]
    bg = next(e for e in entries if e[0] == background)
    return palette_of([e for e in entries if e[0] != background], path, bg)


def _one(obj: object, path: str | None) -> Puzzle:
    if not isinstance(obj, dict):
        raise ParseError("expected an object with 'rows' and 'columns'", path, None)
    for key in ("rows", "columns"):
        if key not in obj:
            raise ParseError(f"missing '{key}'", path, None)
    meta: dict[str, str | None] = {}
    for key in ("title", "author", "copyright", "source"):
        v = obj.get(key)
        if v is not None and not isinstance(v, str):
            raise ParseError(f"'{key}' must be a string", path, None)
        meta[key] = v
    goal = obj.get("goal")
    if goal is not None:
        if not (isinstance(goal, list) and all(isinstance(r, str) for r in goal)):
            raise ParseError("'goal' must be a list of row strings", path, None)
        goal = tuple(goal)
    try:
        p = Puzzle(_clues(obj["rows"], "rows", path), _clues(obj["columns"], "columns", path),
                   title=meta["title"], author=meta["author"], copyright=meta["copyright"],
                   source=meta["source"], goal=goal, palette=_palette(obj, path))
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), path, None) from None
    return checked(p, path)


def read(text: str, path: str | None = None) -> list[Puzzle]:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        raise ParseError(f"not valid JSON ({getattr(exc, 'msg', exc)})", path, line) from None
    except ValueError as exc:  # a number of thousands of digits, refused by int()
        raise ParseError(f"a number too long to read ({str(exc)[:60]})", path, None) from None
    if isinstance(data, list):
        if not data:
            raise ParseError("an empty list holds no puzzle", path, None)
        return [_one(x, path) for x in data]
    return [_one(data, path)]


def as_dict(puzzle: Puzzle) -> dict:
    d: dict = {}
    for key in ("title", "author", "copyright", "source"):
        if getattr(puzzle, key):
            d[key] = getattr(puzzle, key)
    if not puzzle.palette.black_and_white:
        d["palette"] = {c.name: {"char": c.char, "rgb": c.rgb} for c in puzzle.palette.colours}
        d["background"] = puzzle.palette.background.name
    d["rows"] = [_clue_json(c) for c in puzzle.rows]
    d["columns"] = [_clue_json(c) for c in puzzle.columns]
    if puzzle.goal:
        d["goal"] = list(puzzle.goal)
    return d


def _clue_json(clue: Clue) -> list:
    """Black blocks as plain lengths; other colours as [length, colour] pairs."""
    return [b.length if b.colour == BLACK else [b.length, b.colour] for b in clue]


def write(puzzle: Puzzle) -> str:
    return json.dumps(as_dict(puzzle), indent=1) + "\n"
