"""webpbn.com's XML export (``<puzzleset><puzzle>…``), black and white puzzles."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, no_colour, number

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
        colours = [c.get("name") for c in pel.findall("color")]
        default = pel.get("defaultcolor", "black")
        if len([c for c in colours if c not in ("white", None)]) > 1:
            raise no_colour(path, None)
        clues: dict[str, tuple] = {}
        for cel in pel.findall("clue"):
            kind = cel.get("type")
            if kind not in ("rows", "columns"):
                raise ParseError(f"<clue type={kind!r}>: expected rows or columns", path, None)
            lines = []
            for lel in cel.findall("line"):
                blocks = []
                for cnt in lel.findall("count"):
                    if cnt.get("color", default) != default:
                        raise no_colour(path, None)
                    blocks.append(number((cnt.text or "").strip(), path, None, "a block length"))
                if 0 in blocks:
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
                    goal = tuple("".join("." if ch in ".0 " else "#" for ch in r) for r in rows)
        p = Puzzle(clues["rows"], clues["columns"], title=_text(pel.find("title")),
                   author=_text(pel.find("author")), copyright=_text(pel.find("copyright")),
                   source=_text(pel.find("source")) or _text(pel.find("id")), goal=goal)
        out.append(checked(p, path))
    return out


def write(puzzle: Puzzle) -> str:
    out = ['<?xml version="1.0"?>', "<puzzleset>", '<puzzle type="grid" defaultcolor="black">',
           '<color name="white" char=".">fff</color>',
           '<color name="black" char="X">000</color>']
    for tag, value in (("source", puzzle.source), ("title", puzzle.title),
                       ("author", puzzle.author), ("copyright", puzzle.copyright)):
        if value:
            out.append(f"<{tag}>{escape(value)}</{tag}>")
    for kind, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clue type="{kind}">')
        for c in clues:
            out.append("<line>" + "".join(f"<count>{b}</count>" for b in c) + "</line>")
        out.append("</clue>")
    if puzzle.goal:
        img = "\n".join("|" + r.replace("#", "X") + "|" for r in puzzle.goal)
        out.append(f'<solution type="goal"><image>\n{img}\n</image></solution>')
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
