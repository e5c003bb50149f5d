"""Steve Simpson's ``.non`` as extended by mikix and Nonny: ``key value`` lines, clue lists."""

from __future__ import annotations

import html
import re

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of, no_colour, number

NAME = "non"
EXTENSIONS = (".non",)

_KEYS = ("catalogue", "title", "by", "copyright", "license", "width", "height", "rows",
         "columns", "goal", "color", "collection")


def sniff(text: str) -> bool:
    keys = {ln.split(maxsplit=1)[0].lower() for ln in lines_of(text) if ln.strip()}
    return {"width", "height"} <= keys and ("rows" in keys or "columns" in keys)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return html.unescape(value)


_CLUE = re.compile(r"[0-9][0-9,\s]*")


def _clue_tokens(line: str, path: str | None, lineno: int, key: str, count: int, k: int
                 ) -> list[str]:
    first = line.split(maxsplit=1)[0].lower() if line.strip() else ""
    if first in _KEYS:  # the next section began: this one is short
        raise ParseError(f"expected {count} {key[:-1]} clues (the {_SIZE[key]}), found {k} "
                         f"before '{first}'", path, lineno)
    toks = [t for t in re.split(r"[,\s]+", line.strip()) if t]
    for t in toks:
        if not t.isdigit():
            if re.fullmatch(r"[0-9]+[A-Za-z]", t):
                raise no_colour(path, lineno)
            raise ParseError(f"expected a {key[:-1]} clue (block lengths), got "
                             f"{line.strip()[:40]!r}", path, lineno)
    return toks


_SIZE = {"rows": "height", "columns": "width"}


def _extra(lines: list[str], i: int, key: str, count: int, path: str | None) -> None:
    """A clue line after a section's last clue, before the next key, is one too many."""
    for j in range(i, len(lines)):
        ln = lines[j].strip()
        if not ln:
            continue
        if _CLUE.fullmatch(ln):
            raise ParseError(f"more {key[:-1]} clues than the {_SIZE[key]} {count}", path, j + 1)
        return


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = lines_of(text)
    meta: dict[str, str] = {}
    width = height = None
    sections: dict[str, tuple[list, list]] = {}
    goal: list[str] | None = None
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        i += 1
        if not raw:
            continue
        key, _, value = raw.partition(" ")
        key = key.lower()
        if key in ("width", "height"):
            n = number(value.strip(), path, i, f"a {key}")
            if key == "width":
                width = n
            else:
                height = n
        elif key in ("title", "by", "copyright", "catalogue", "license", "collection"):
            meta[key] = _unquote(value)
        elif key == "color":
            raise no_colour(path, i)
        elif key in ("rows", "columns"):
            count = height if key == "rows" else width
            if count is None:
                need = "height" if key == "rows" else "width"
                raise ParseError(f"'{key}' comes before '{need}'", path, i)
            clues, where = [], []
            for k in range(count):
                if i >= len(lines):
                    raise ParseError(f"expected {count} {key} clues, the file ends after {k}",
                                     path, i)
                toks = _clue_tokens(lines[i], path, i + 1, key, count, k)
                clues.append(clue(toks, path, i + 1))
                where.append(i + 1)
                i += 1
            _extra(lines, i, key, count, path)
            sections[key] = (clues, where)
        elif key == "goal":
            if width is None or height is None:
                raise ParseError("'goal' comes before 'width' and 'height'", path, i)
            value = value.strip()
            if value:
                cells = _unquote(value).replace(" ", "")
            else:  # pbnsolve's variant: the goal on the next H lines
                cells = "".join(ln.strip() for ln in lines[i:i + height])
                i += height
            if len(cells) != width * height or set(cells) - set("01"):
                if set(cells) - set("01"):
                    raise no_colour(path, i) if re.search(r"[a-zA-Z]", cells) else ParseError(
                        "the goal holds characters other than 0 and 1", path, i)
                raise ParseError(f"the goal has {len(cells)} cells, expected "
                                 f"{width}x{height}={width * height}", path, i)
            goal = [cells[r * width:(r + 1) * width].replace("1", "#").replace("0", ".")
                    for r in range(height)]
        # any other line is ignored, as the format asks
    for key in ("rows", "columns"):
        if key not in sections:
            raise ParseError(f"no '{key}' section", path, None)
    p = Puzzle(tuple(sections["rows"][0]), tuple(sections["columns"][0]),
               title=meta.get("title"), author=meta.get("by"),
               copyright=meta.get("copyright"), source=meta.get("catalogue"),
               goal=tuple(goal) if goal else None,
               row_lines=tuple(sections["rows"][1]), col_lines=tuple(sections["columns"][1]))
    return [checked(p, path)]


def _quote(s: str) -> str:
    return '"' + s.replace('"', "'").replace("\n", " ") + '"'


def write(puzzle: Puzzle) -> str:
    out = []
    for key, value in (("catalogue", puzzle.source), ("title", puzzle.title),
                       ("by", puzzle.author), ("copyright", puzzle.copyright)):
        if value:
            out.append(f"{key} {_quote(value)}")
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.columns]
    if puzzle.goal:
        out += ["", "goal " + _quote("".join(r.replace("#", "1").replace(".", "0")
                                            for r in puzzle.goal))]
    return "\n".join(out) + "\n"
