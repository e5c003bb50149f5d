"""webpbn.com's XML export (``<puzzleset><puzzle>…``), in black and white or colour.

Colours are declared as ``<color name="red" char="r">f00</color>``; the puzzle's
``defaultcolor`` is the colour of a ``<count>`` without a ``color`` attribute and its
``backgroundcolor`` (white unless it says otherwise) the background."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

from ...errors import ParseError
from ...model.puzzle import BLACK_AND_WHITE, Block, Palette, Puzzle
from ._common import checked, number, palette_of, rgb_of

NAME = "webpbn"
EXTENSIONS = (".xml", ".pbn")


def sniff(text: str) -> bool:
    head = text.lstrip()[:2000]
    return head.startswith("<") and ("<puzzleset" in head or "<puzzle" in head)


def _text(el: ET.Element | None) -> str | None:
    return el.text.strip() if el is not None and el.text and el.text.strip() else None


def read(text: str, path: str | None = None) -> list[Puzzle]:
    if "<!ENTITY" in text:
        raise ParseError("XML entity declarations are not accepted", path, None)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise ParseError(f"not well-formed XML ({exc.msg if hasattr(exc, 'msg') else exc})",
                         path, line) from None
    puzzles_el = [root] if root.tag == "puzzle" else root.findall("puzzle")
    if not puzzles_el:
        raise ParseError("no <puzzle> element", path, None)
    out = []
    for pel in puzzles_el:
        if pel.get("type", "grid") != "grid":
            raise ParseError(f"puzzle type {pel.get('type')!r} is not supported", path, None)
        palette, default = _palette(pel, path)
        known = {c.name for c in palette.colours[1:]}
        clues: dict[str, tuple] = {}
        for cel in pel.findall("clue"):
            kind = cel.get("type")
            if kind not in ("rows", "columns"):
                raise ParseError(f"<clue type={kind!r}>: expected rows or columns", path, None)
            lines = []
            for lel in cel.findall("line"):
                blocks = []
                for cnt in lel.findall("count"):
                    colour = cnt.get("color", default)
                    if colour not in known:
                        raise ParseError(f"<count color={colour!r}>: not a colour of the "
                                         "puzzle (a <color> element declares it)", path, None)
                    length = number((cnt.text or "").strip(), path, None, "a block length")
                    blocks.append(Block(length, colour))
                if any(b.length == 0 for b in blocks):
                    raise ParseError("a block of length 0", path, None)
                lines.append(tuple(blocks))
            clues[kind] = tuple(lines)
        if set(clues) != {"rows", "columns"}:
            raise ParseError("expected <clue type=\"rows\"> and <clue type=\"columns\">", path,
                             None)
        goal = None
        for sel in pel.findall("solution"):
            if sel.get("type", "goal") == "goal":
                img = _text(sel.find("image"))
                if img:
                    rows = [r.strip().strip("|") for r in img.split("\n") if r.strip()]
                    goal = _goal(rows, pel, palette)
        p = Puzzle(clues["rows"], clues["columns"], title=_text(pel.find("title")),
                   author=_text(pel.find("author")), copyright=_text(pel.find("copyright")),
                   source=_text(pel.find("source")) or _text(pel.find("id")), goal=goal,
                   palette=palette)
        out.append(checked(p, path))
    return out


def _palette(pel: ET.Element, path: str | None) -> tuple[Palette, str]:
    """The puzzle's colours (``<color name= char=>RGB</color>``), the background first, and
    the default block colour; none declared is black and white."""
    declared = [(c.get("name") or "", c.get("char"), (c.text or "").strip())
                for c in pel.findall("color")]
    background = pel.get("backgroundcolor", "white")
    default = pel.get("defaultcolor", "black")
    names = [name for name, _, _ in declared]
    if not [n for n in names if n != background] or set(names) <= {background, "black"}:
        return BLACK_AND_WHITE, "black" if default in names or not names else default
    bg = next(((n, ch, rgb_of(rgb, path, None)) for n, ch, rgb in declared if n == background),
              ("white", ".", "ffffff"))
    entries = [(n, ch, rgb_of(rgb, path, None)) for n, ch, rgb in declared if n != background]
    return palette_of(entries, path, bg), default


def _goal(rows: list[str], pel: ET.Element, palette: Palette) -> tuple[str, ...]:
    """The goal picture in the palette's characters (the file's may differ)."""
    if palette.black_and_white:
        return tuple("".join("." if ch in ".0 " else "#" for ch in r) for r in rows)
    theirs = {c.get("char"): c.get("name") for c in pel.findall("color")}
    mine = {c.name: c.char for c in palette.colours}
    return tuple("".join(mine.get(theirs.get(ch) or "", palette.chars[0]) for ch in r)
                 for r in rows)


def write(puzzle: Puzzle) -> str:
    palette = puzzle.palette
    bg = palette.background
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           f'<puzzle type="grid" defaultcolor="{escape(palette.colours[1].name)}" '
           f'backgroundcolor="{escape(bg.name)}">']
    out += [f'<color name="{escape(c.name)}" char="{escape(c.char)}">{c.rgb}</color>'
            for c in palette.colours]
    for tag, value in (("source", puzzle.source), ("title", puzzle.title),
                       ("author", puzzle.author), ("copyright", puzzle.copyright)):
        if value:
            out.append(f"<{tag}>{escape(value)}</{tag}>")
    for kind, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clue type="{kind}">')
        for c in clues:
            out.append("<line>" + "".join(
                f"<count>{b.length}</count>" if b.colour == palette.colours[1].name else
                f'<count color="{escape(b.colour)}">{b.length}</count>' for b in c) + "</line>")
        out.append("</clue>")
    if puzzle.goal:
        img = "\n".join("|" + r + "|" for r in puzzle.goal)
        out.append(f'<solution type="goal"><image>\n{img}\n</image></solution>')
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
