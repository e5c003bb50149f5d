"""pynogram's text format and nonogrid's TOML form: a ``[clues]`` section with
``columns =`` and ``rows =`` lists (items split by commas and/or new lines).

Colour puzzles declare their colours in a ``[colors]`` section, ``name = (colour) char``
(or TOML's ``defs = ['name = (colour) char', …]``), the colour an SVG name, ``r, g, b`` or
``RRGGBB``; a block carries the colour's name after its length (``2g``), a length alone
being black."""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import BLACK_AND_WHITE, Puzzle
from ._common import checked, colour_clue, lines_of, palette_of, rgb_of

NAME = "pynogram"
EXTENSIONS = (".toml",)

_KEY = re.compile(r"^\s*(columns|rows)\s*=(.*)$", re.I)
_OTHER_KEY = re.compile(r"^\s*[A-Za-z_][\w-]*\s*=")
_COLOUR = re.compile(r"([A-Za-z]\w*)\s*=\s*\(([^)]*)\)\s*([^\s,'\"\]])?")


def sniff(text: str) -> bool:
    return bool(re.search(r"^\s*\[clues\]", text, re.M)) or (
        bool(re.search(r"^\s*columns\s*=", text, re.M | re.I))
        and bool(re.search(r"^\s*rows\s*=", text, re.M | re.I)))


def _strip_comment(line: str) -> str:
    # '#' and ';' start a comment unless inside quotes
    out, quote = [], None
    for ch in line:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "#;":
            break
        out.append(ch)
    return "".join(out)


def read(text: str, path: str | None = None) -> list[Puzzle]:
    section = None
    current = None
    items: dict[str, list[tuple[int, str]]] = {}
    declared: list[tuple[int, str, str, str | None]] = []
    for i, raw in enumerate(lines_of(text), 1):
        line = _strip_comment(raw).replace('"""', "").replace("'''", "")
        stripped = line.strip()
        if re.fullmatch(r"\[[^\]]*\]", stripped):
            section = stripped[1:-1].strip().lower()
            current = None
            continue
        if section == "colors":  # name = (colour) char, or TOML's defs = ['name = …', …]
            for found in _COLOUR.finditer(line):
                declared.append((i, found.group(1), found.group(2), found.group(3) or None))
            continue
        if section not in (None, "clues"):
            continue
        m = _KEY.match(line)
        if m:
            current = m.group(1).lower()
            if current in items:
                raise ParseError(f"'{current}' is given twice", path, i)
            items[current] = []
            line = m.group(2)
        elif _OTHER_KEY.match(line):
            current = None
            continue
        if current is None:
            if stripped:
                raise ParseError(f"unexpected text {stripped[:40]!r} outside 'rows =' and "
                                 "'columns ='", path, i)
            continue
        for part in line.split(","):
            part = part.strip().strip("'\"").strip()
            if part:
                items[current].append((i, part))
    for key in ("rows", "columns"):
        if key not in items:
            raise ParseError(f"no '{key} =' list", path, None)
    palette = BLACK_AND_WHITE
    names: dict[str, str] = {}
    if declared:
        entries = [(name, char, rgb_of(spec, path, lineno))
                   for lineno, name, spec, char in declared]
        if "black" not in (e[0] for e in entries):
            entries.insert(0, ("black", "#", "000000"))  # what a length alone is
        palette = palette_of(entries, path)
        names = {name: name for _, name, _, _ in declared}
    parsed = {}
    for key, lst in items.items():
        clues = []
        for lineno, part in lst:
            clues.append((lineno, tuple(colour_clue(part.split(), path, lineno, names))))
        parsed[key] = clues
    rows, cols = parsed["rows"], parsed["columns"]
    p = Puzzle(tuple(c for _, c in rows), tuple(c for _, c in cols),
               row_lines=tuple(i for i, _ in rows), col_lines=tuple(i for i, _ in cols),
               palette=palette)
    return [checked(p, path)]


def write(puzzle: Puzzle) -> str:
    if not puzzle.palette.black_and_white:
        from ...errors import UnsupportedOutput

        raise UnsupportedOutput("satnono writes pynogram files in black and white only; "
                                "write a colour puzzle as json or webpbn")

    def block(clues: tuple) -> str:
        return "\n".join("    " + (" ".join(map(str, c)) if c else "0") for c in clues)

    head = f"# {puzzle.title}\n" if puzzle.title else ""
    return (f"{head}[clues]\ncolumns =\n{block(puzzle.columns)}\n\n"
            f"rows =\n{block(puzzle.rows)}\n")
