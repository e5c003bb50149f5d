"""satnono's JSON: ``{"title": …, "rows": [[…], …], "columns": [[…], …]}`` (a list for several)."""

from __future__ import annotations

import json

from ...errors import ParseError
from ...model.puzzle import BLACK, Clue, Puzzle
from ._common import checked

NAME = "json"
EXTENSIONS = (".json",)


def sniff(text: str) -> bool:
    head = text.lstrip()[:1]
    return head in ("{", "[") and '"rows"' in text and '"columns"' in text


def _clues(value: object, key: str, path: str | None) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise ParseError(f"'{key}' must be a list of clues", path, None)
    out = []
    for i, c in enumerate(value):
        if isinstance(c, int) and not isinstance(c, bool):
            c = [c]
        if not isinstance(c, list) or not all(isinstance(b, int) and not isinstance(b, bool)
                                              for b in c):
            raise ParseError(f"{key}[{i}] must be a list of whole numbers", path, None)
        if c == [0]:
            c = []
        if any(b < 1 for b in c):
            raise ParseError(f"{key}[{i}]: block lengths must be at least 1", path, None)
        out.append(tuple(c))
    return tuple(out)


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
    p = Puzzle(_clues(obj["rows"], "rows", path), _clues(obj["columns"], "columns", path),
               title=meta["title"], author=meta["author"], copyright=meta["copyright"],
               source=meta["source"], goal=goal)
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
