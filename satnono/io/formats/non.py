"""Steve Simpson's ``.non`` as extended by mikix and Nonny: ``key value`` lines, clue lists."""

from __future__ import annotations

import html
import re

from ...errors import InvalidPuzzle, ParseError
from ...model.puzzle import BLACK_AND_WHITE, Block, Palette, Puzzle
from ._common import checked, clue, colour_clue, lines_of, number, palette_of, rgb_of

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


def _clue_tokens(line: str, path: str | None, lineno: int, key: str, count: int, k: int,
                 colours: dict[str, str]) -> list[str]:
    first = line.split(maxsplit=1)[0].lower() if line.strip() else ""
    if first in _KEYS:  # the next section began: this one is short
        raise ParseError(f"expected {count} {key[:-1]} clues (the {_SIZE[key]}), found {k} "
                         f"before '{first}'", path, lineno)
    toks = [t for t in re.split(r"[,\s]+", line.strip()) if t]
    for t in toks:
        if not t.isdigit() and t not in colours:
            m = re.fullmatch(r"[0-9]+(\D\S*)", t)
            if m and m.group(1) in colours:
                continue
            if m or t.isalpha():
                raise ParseError(f"the colour {(m.group(1) if m else t)!r} is not declared "
                                 "(a 'color' line declares it)", path, lineno)
            raise ParseError(f"expected a {key[:-1]} clue (block lengths), got "
                             f"{line.strip()[:40]!r}", path, lineno)
    return toks


def _blocks(toks: list[str], path: str | None, lineno: int, colours: dict[str, str]
            ) -> tuple[Block, ...] | tuple[int, ...]:
    """Black and white: the lengths. In colour, Nonny names a colour before the lengths it
    applies to (``red 1 green 2``), mikix puts its letter after each (``1r,2g``)."""
    if not colours:
        return clue(toks, path, lineno)
    out: list[str] = []
    current = "black"
    for t in toks:
        if t in colours:
            current = colours[t]
        elif t.isdigit():
            out.append(f"{t}@{current}")
        else:
            m = re.fullmatch(r"([0-9]+)(\D\S*)", t)
            assert m is not None
            out.append(f"{m.group(1)}@{colours[m.group(2)]}")
    names = {f"@{name}": name for name in colours.values()} | {"@black": "black"}
    return tuple(colour_clue(out, path, lineno, names))


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


def _section(lines: list[str], i: int, key: str, count: int, colours: dict[str, str],
             path: str | None) -> tuple[list, list[int], int]:
    """The ``count`` clues of a section starting at ``lines[i]``, their file lines, and where
    the section ends. Simpson's empty clue is ``0``; a blank line is spacing, unless the
    section's lines up to the next key come to ``count`` only with the blank ones counted,
    as pbnsolve reads them (so a missing clue line is an error, not a silent empty clue)."""
    found: list[int] = []
    j = i
    while len(found) < count and j < len(lines):
        text = lines[j].strip()
        if text and text.split(maxsplit=1)[0].lower() in _KEYS:
            break
        if text:
            found.append(j)
        j += 1
    if len(found) < count:
        stop = j
        while stop > i and not lines[stop - 1].strip():
            stop -= 1
        if stop - i == count:  # blank lines as empty clues, and the counts still match
            found = list(range(i, stop))
        else:
            where = (f"before '{lines[j].split(maxsplit=1)[0]}'" if j < len(lines)
                     else "before the end of the file")
            raise ParseError(f"expected {count} {key[:-1]} clues (the {_SIZE[key]}), found "
                             f"{len(found)} {where} (a blank line is not an empty clue: "
                             "write 0)", path, j + 1 if j < len(lines) else i)
    clues: list[tuple[Block, ...] | tuple[int, ...]] = []
    for n in found:
        toks = _clue_tokens(lines[n], path, n + 1, key, count, len(clues), colours)
        clues.append(_blocks(toks, path, n + 1, colours))
    return clues, [n + 1 for n in found], found[-1] + 1 if found else i


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = lines_of(text)
    meta: dict[str, str] = {}
    width = height = None
    declared: list[tuple[str, str, str, str | None]] = []  # (key, name, rgb, char)
    colours: dict[str, str] = {}  # what a clue calls a colour -> its name
    sections: dict[str, tuple[list, list]] = {}
    goal: list[list[str]] | None = None
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
            if sections:
                raise ParseError("'color' comes after the clues that would use it", path, i)
            declared.append(_colour(value, path, i))
        elif key in ("rows", "columns"):
            if declared and not colours:
                colours = {k: name for k, name, _, _ in declared}
            count = height if key == "rows" else width
            if count is None:
                need = "height" if key == "rows" else "width"
                raise ParseError(f"'{key}' comes before '{need}'", path, i)
            clues, where, i = _section(lines, i, key, count, colours, path)
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
            goal = _goal(cells, width, height, declared, path, i)
        # any other line is ignored, as the format asks
    for key in ("rows", "columns"):
        if key not in sections:
            raise ParseError(f"no '{key}' section", path, None)
    palette = BLACK_AND_WHITE
    if declared:
        entries = [(name, char, rgb) for _, name, rgb, char in declared]
        if "black" not in (e[0] for e in entries) and any(
                b.colour == "black" for c in sections["rows"][0] for b in c):
            entries.insert(0, ("black", "#", "000000"))  # numbers with no colour named
        palette = palette_of(entries, path)
    p = Puzzle(tuple(sections["rows"][0]), tuple(sections["columns"][0]),
               title=meta.get("title"), author=meta.get("by"),
               copyright=meta.get("copyright"), source=meta.get("catalogue"),
               goal=_chars(goal, palette, path) if goal else None,
               row_lines=tuple(sections["rows"][1]), col_lines=tuple(sections["columns"][1]),
               palette=palette)
    return [checked(p, path)]


def _colour(value: str, path: str | None, lineno: int) -> tuple[str, str, str, str | None]:
    """A ``color`` line: Nonny's ``color <name> <RRGGBB> <char>`` or mikix's
    ``color <letter> #rrggbb``; returns (what clues call it, name, rgb, char)."""
    toks = value.split()
    if len(toks) == 3:
        return toks[0], toks[0].lower(), rgb_of(toks[1], path, lineno), toks[2]
    if len(toks) == 2:
        return toks[0], toks[0], rgb_of(toks[1], path, lineno), toks[0][:1]
    raise ParseError("expected 'color <name> <RRGGBB> <char>' or 'color <letter> #rrggbb'",
                     path, lineno)


def _goal(cells: str, width: int, height: int, declared: list[tuple[str, str, str, str | None]],
          path: str | None, lineno: int) -> list[list[str]]:
    """The goal's rows, each cell as its colour's name: ``1`` black (filled), ``0`` the
    background, or a declared colour's letter."""
    if len(cells) != width * height:
        raise ParseError(f"the goal has {len(cells)} cells, expected "
                         f"{width}x{height}={width * height}", path, lineno)
    names = {key: name for key, name, _, _ in declared}
    bad = set(cells) - set(names) - {"0", "1"}
    if bad:
        what = sorted(bad)[0]
        if what.isalpha() and not declared:
            raise ParseError("the goal holds colour letters but no 'color' line declares "
                             "them", path, lineno)
        raise ParseError(f"the goal holds {what!r}, which is neither 0, 1 nor a declared "
                         "colour", path, lineno)
    return [[names.get(ch, "white" if ch == "0" else "black")
             for ch in cells[r * width:(r + 1) * width]] for r in range(height)]


def _chars(goal: list[list[str]], palette: Palette, path: str | None) -> tuple[str, ...]:
    char = {c.name: c.char for c in palette.colours}
    try:
        return tuple("".join([char[name] for name in row]) for row in goal)
    except KeyError as missing:  # a colour the palette does not have: the palette says so
        try:
            palette.index(missing.args[0])
        except InvalidPuzzle as exc:
            raise ParseError(str(exc), path, None) from None
        raise


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
