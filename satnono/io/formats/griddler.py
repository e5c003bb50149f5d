"""Olšák's griddler ``.g``: free text, then ``:``-sections of row and column clues.

A colour puzzle declares its colours first, in a ``#d`` section: one line per colour,
``<letter>:<character>  <colour name or #RRGGBB>``, ``0`` the background and ``1`` the
default colour; its clues carry the letter after each length (``3r 1g``), a length alone
being the default colour.
"""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import BLACK_AND_WHITE, Palette, Puzzle
from ._common import checked, colour_clue, lines_of, palette_of, rgb_of

NAME = "g"
EXTENSIONS = (".g",)

_DECLARATION = re.compile(r"^\s*(\S):(\S?)\s+(\S+)")


def sniff(text: str) -> bool:
    return sum(1 for ln in lines_of(text) if ln.startswith(":")) >= 2


def _palette(declared: list[tuple[int, str, str, str]], path: str | None
             ) -> tuple[Palette, dict[str, str], str]:
    """The palette, the colour name of each clue letter, and the default colour's name."""
    background = ("white", ".", "ffffff")
    entries: list[tuple[str, str | None, str]] = []
    letters: dict[str, str] = {}
    default = "black"
    for lineno, letter, char, spec in declared:
        if letter in "/\\" or "/" in spec or "\\" in spec:
            raise ParseError("triangle cells (half-filled cells) are not supported", path,
                             lineno)
        # a colour named by a word keeps the word; one given as #RRGGBB its letter
        name = spec.lower() if re.fullmatch(r"[A-Za-z][\w-]*", spec) else letter
        rgb = rgb_of(spec, path, lineno)
        if letter == "0":
            background = (name, char, rgb)
            continue
        entries.append((name, char, rgb))
        letters[letter] = name
        if letter == "1":
            default = name
    if not entries or "1" not in letters:  # the default colour when not declared
        entries.insert(0, ("black", "#", "000000"))
        letters.setdefault("1", "black")
    return palette_of(entries, path, background), letters, default


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = lines_of(text)
    title = None
    sections: list[list[tuple[int, str]]] = []
    declared: list[tuple[int, str, str, str]] = []
    declaring = False
    started = False
    for i, raw in enumerate(lines, 1):
        if raw.startswith(":"):
            if len(sections) == 2:
                break  # the closing colon: everything after it is ignored
            started = True
            sections.append([])
            continue
        if not started:
            low = raw.strip().lower()
            if low.startswith("#t"):
                raise ParseError("triddlers (hexagonal grids) are not supported", path, i)
            if low.startswith("#d"):
                declaring = True
                continue
            if declaring and raw.strip():
                m = _DECLARATION.match(raw)
                if not m:
                    raise ParseError(f"expected a colour declaration '<letter>:<character> "
                                     f"<colour>', got {raw.strip()[:40]!r}", path, i)
                declared.append((i, m.group(1), m.group(2), m.group(3)))
                continue
            if raw.strip() and title is None and not raw.startswith("#"):
                title = raw.strip()
            continue
        if raw.strip():
            sections[-1].append((i, raw.strip()))
    sections = [s for s in sections if s]
    if len(sections) != 2:
        raise ParseError(f"expected two ':' sections (rows, then columns), found "
                         f"{len(sections)}", path, None)
    palette, letters, default = (_palette(declared, path) if declared else
                                 (BLACK_AND_WHITE, {}, "black"))
    out = []
    for sec in sections:
        clues, where = [], []
        for lineno, ln in sec:
            clues.append(tuple(colour_clue(ln.split(), path, lineno, letters, default)))
            where.append(lineno)
        out.append((tuple(clues), tuple(where)))
    (rows, rl), (cols, cl) = out
    return [checked(Puzzle(rows, cols, title=title, row_lines=rl, col_lines=cl,
                           palette=palette), path)]


def write(puzzle: Puzzle) -> str:
    if not puzzle.palette.black_and_white:
        from ...errors import UnsupportedOutput

        raise UnsupportedOutput("satnono writes .g files in black and white only; write a "
                                "colour puzzle as json or webpbn")
    out = [(puzzle.title or "satnono puzzle").replace("\n", " ").lstrip(":#"), ": rows"]
    out += [" ".join(map(str, c)) if c else "0" for c in puzzle.rows]
    out.append(": columns")
    out += [" ".join(map(str, c)) if c else "0" for c in puzzle.columns]
    out.append(":")
    return "\n".join(out) + "\n"
