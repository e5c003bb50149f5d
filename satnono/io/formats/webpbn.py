"""webpbn.com's XML format (Jan Wolter, "XML Format for Paint-by-Number Puzzles", v0.3), as
webpbn exports it and pbnsolve reads it, in black and white or colour.

A file is a ``<puzzleset>`` of ``<puzzle type="grid">`` (or one bare ``<puzzle>``)::

    <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
    <title>…</title>
    <color name="white" char=".">FFFFFF</color>
    <color name="black" char="X">000000</color>
    <clues type="columns"><line><count>2</count><count color="red">1</count></line>…</clues>
    <clues type="rows">…</clues>
    <solution type="goal"><image>|.XX..|…</image></solution>
    </puzzle>

A ``<count>`` without ``color`` is in the puzzle's ``defaultcolor`` (black unless it says
otherwise); ``backgroundcolor`` (white unless it says otherwise) is the background. White
and black need no ``<color>`` element (pbnsolve supplies them too). Element names are
matched without regard to case, as pbnsolve does. Files written by satnono before 0.2 named
the clue sections ``<clue>``; they still open.

>>> p = read('<puzzle><clues type="rows"><line><count>1</count></line></clues>'
...          '<clues type="columns"><line><count>1</count></line></clues></puzzle>')[0]
>>> p.size
'1x1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from xml.parsers import expat

from ...errors import ParseError
from ...model.puzzle import BLACK_AND_WHITE, Block, Palette, Puzzle
from ._common import checked, number, palette_of, rgb_of

NAME = "webpbn"
EXTENSIONS = (".xml", ".pbn")

#: the colours pbnsolve knows without a ``<color>`` element: (char, rgb)
_IMPLICIT = {"white": (".", "ffffff"), "black": ("X", "000000")}


def sniff(text: str) -> bool:
    head = text.lstrip()[:2000]
    return head.startswith("<") and ("<puzzleset" in head or "<puzzle" in head)


@dataclass
class _El:
    """An element of the file with the line it starts on, so that every error names it."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[_El] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def findall(self, *tags: str) -> list[_El]:
        return [c for c in self.children if c.tag in tags]

    def find(self, tag: str) -> _El | None:
        found = self.findall(tag)
        return found[0] if found else None

    def value(self) -> str | None:
        """The element's text, stripped; None when empty."""
        return self.text.strip() or None


def _parse(text: str, path: str | None) -> _El:
    """The document as a tree of :class:`_El` (expat: no DTD or external entity is loaded,
    and the tree is built without recursion, so deep nesting cannot exhaust the stack)."""
    if "<!ENTITY" in text:
        raise ParseError("XML entity declarations are not accepted", path, None)
    parser = expat.ParserCreate()
    root: list[_El] = []
    stack: list[_El] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        el = _El(tag.lower(), attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(el)
        stack.append(el)

    def end(tag: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        if stack:
            stack[-1].parts.append(chunk)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise ParseError(f"not well-formed XML ({expat.errors.messages[exc.code]}, column "
                         f"{exc.offset + 1})", path, exc.lineno) from None
    if not root:
        raise ParseError("no XML element", path, None)
    return root[0]


def read(text: str, path: str | None = None) -> list[Puzzle]:
    top = _parse(text, path)
    if top.tag == "puzzle":
        puzzle_els, set_source = [top], None
    elif top.tag == "puzzleset":
        puzzle_els = top.findall("puzzle")
        set_source = _meta(top, "source")
    else:
        raise ParseError(f"the document is a <{top.tag}>, expected <puzzleset> or <puzzle>",
                         path, top.line)
    if not puzzle_els:
        raise ParseError("no <puzzle> element in the <puzzleset>", path, top.line)
    return [_puzzle(pel, path, set_source) for pel in puzzle_els]


def _puzzle(pel: _El, path: str | None, set_source: str | None) -> Puzzle:
    kind = pel.get("type", "grid")
    if (kind or "").lower() != "grid":
        raise ParseError(f"puzzle type {kind!r} is not supported (only \"grid\")", path,
                         pel.line)
    background = pel.get("backgroundcolor") or "white"
    default = pel.get("defaultcolor") or "black"
    declared = _declared(pel, path)
    sections: dict[str, _El] = {}
    for sec in pel.findall("clues", "clue"):
        which = (sec.get("type") or "").lower()
        if which not in ("rows", "columns"):
            raise ParseError(f"<{sec.tag} type={sec.get('type')!r}>: expected type=\"rows\" "
                             "or type=\"columns\"", path, sec.line)
        if which in sections:
            raise ParseError(f"a second <clues type=\"{which}\">", path, sec.line)
        sections[which] = sec
    missing = [w for w in ("rows", "columns") if w not in sections]
    if missing:
        raise ParseError(f"no <clues type=\"{missing[0]}\"> in the puzzle (expected "
                         "<clues type=\"rows\"> and <clues type=\"columns\">)", path, pel.line)
    used: dict[str, int] = {}
    clues: dict[str, list[tuple[Block, ...]]] = {}
    where: dict[str, tuple[int, ...]] = {}
    for which, sec in sections.items():
        lines = []
        line_els = sec.findall("line")
        for lel in line_els:
            blocks = []
            for cnt in lel.findall("count"):
                colour = cnt.get("color") or default
                if colour == background:
                    raise ParseError(f"<count> in the background colour {colour!r} (a block "
                                     "needs a colour of its own)", path, cnt.line)
                if colour not in declared and colour not in _IMPLICIT:
                    raise ParseError(f"<count color={colour!r}>: not a colour of the puzzle "
                                     "(a <color> element declares it)", path, cnt.line)
                used.setdefault(colour, cnt.line)
                length = number(cnt.text.strip(), path, cnt.line, "a block length")
                if length == 0:
                    raise ParseError("a block of length 0", path, cnt.line)
                blocks.append(Block(length, colour))
            lines.append(tuple(blocks))
        clues[which] = lines
        where[which] = tuple(lel.line for lel in line_els)
    palette = _palette(declared, background, used, path)
    if palette.black_and_white:
        clues = {k: [tuple(Block(b.length) for b in c) for c in v] for k, v in clues.items()}
    source = _meta(pel, "source") or set_source
    ident = _meta(pel, "id")
    if ident:
        source = f"{source} {ident}" if source else ident
    p = Puzzle(clues["rows"], clues["columns"], title=_meta(pel, "title"),
               author=_meta(pel, "author"), copyright=_meta(pel, "copyright"), source=source,
               goal=_goal(pel, declared, background, palette, len(clues["rows"]),
                          len(clues["columns"]), path),
               palette=palette, row_lines=where["rows"], col_lines=where["columns"])
    return checked(p, path, pel.line)


def _meta(pel: _El, tag: str) -> str | None:
    """The text of ``pel``'s first ``<tag>``, stripped; None when there is none."""
    el = pel.find(tag)
    return el.value() if el is not None else None


def _declared(pel: _El, path: str | None) -> dict[str, tuple[str | None, str, int]]:
    """The ``<color>`` elements: name → (char, rgb, file line), in file order."""
    out: dict[str, tuple[str | None, str, int]] = {}
    for cel in pel.findall("color"):
        name = cel.get("name")
        if not name:
            raise ParseError("<color> without a name attribute", path, cel.line)
        if name in out:
            raise ParseError(f"the colour {name!r} is declared twice", path, cel.line)
        rgb = cel.text.strip()
        rgb = rgb_of(rgb, path, cel.line) if rgb else _IMPLICIT.get(name, ("", "808080"))[1]
        out[name] = (cel.get("char"), rgb, cel.line)
    return out


def _palette(declared: dict[str, tuple[str | None, str, int]], background: str,
             used: dict[str, int], path: str | None) -> Palette:
    """The puzzle's colours, the background first, then the declared ones and any implicit
    black the clues use; only black besides the background is black and white."""
    def entry(name: str) -> tuple[str, str | None, str]:
        char, rgb, _ = declared.get(name) or (*_IMPLICIT[name], 0)
        return name, char, rgb

    names = [n for n in declared if n != background]
    names += [n for n in used if n not in declared]
    if names == ["black"] or not names:
        return BLACK_AND_WHITE
    return palette_of([entry(n) for n in names], path, entry(background)
                      if background in declared or background in _IMPLICIT
                      else (background, ".", "ffffff"))


def _goal(pel: _El, declared: dict[str, tuple[str | None, str, int]], background: str,
          palette: Palette, height: int, width: int, path: str | None
          ) -> tuple[str, ...] | None:
    """The first ``<solution type="goal">`` picture, in the palette's characters (the file's
    own may differ); other solutions (``solution``, ``saved``) are not goals."""
    for sel in pel.findall("solution"):
        if (sel.get("type") or "goal").lower() != "goal":
            continue
        img = sel.find("image")
        if img is None:
            raise ParseError("<solution> without an <image>", path, sel.line)
        theirs = {(ch or _IMPLICIT.get(name, ("",))[0]): name
                  for name, (ch, _, _) in declared.items()}
        for name, (ch, _) in _IMPLICIT.items():
            theirs.setdefault(ch, name)
        mine = {c.name: c.char for c in palette.colours}
        mine.setdefault(background, palette.chars[0])
        rows = []
        for k, raw in enumerate(img.text.split("\n")):
            row = raw.strip()
            if not row:
                continue
            line = img.line + k
            if len(row) < 2 or row[0] != "|" or row[-1] != "|":
                raise ParseError("a row of the goal image must be written |…|", path, line)
            out = []
            for ch in row[1:-1]:
                colour = theirs.get(ch)
                if colour is None or colour not in mine:
                    raise ParseError(f"the goal image has {ch!r}, which is not the char of a "
                                     "colour of the puzzle", path, line)
                out.append(mine[colour])
            if len(out) != width:
                raise ParseError(f"a goal image row of {len(out)} cells, the puzzle has "
                                 f"{width} columns", path, line)
            rows.append("".join(out))
        if len(rows) != height:
            raise ParseError(f"the goal image has {len(rows)} rows, the puzzle has {height}",
                             path, img.line)
        return tuple(rows)
    return None


def quoteattr(value: str) -> str:
    """An XML attribute value in double quotes (``html.escape``: ``xml.sax.saxutils`` would
    import ``urllib`` and ``http`` into every command that reads a puzzle)."""
    return f'"{escape(value)}"'


def write(puzzle: Puzzle) -> str:
    """The puzzle as webpbn exports one, element names and order from the format's own
    sample; pbnsolve reads it. Colour characters that pbnsolve would skip in an image (a
    space) are never written, since the palette has none."""
    palette = puzzle.palette
    default = palette.colours[1].name
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           f'<puzzle type="grid" defaultcolor={quoteattr(default)} '
           f'backgroundcolor={quoteattr(palette.background.name)}>']
    for tag, value in (("title", puzzle.title), ("author", puzzle.author),
                       ("copyright", puzzle.copyright), ("source", puzzle.source)):
        if value:
            out.append(f"<{tag}>{escape(value, quote=False)}</{tag}>")
    out += [f'<color name={quoteattr(c.name)} char={quoteattr(c.char)}>{c.rgb}</color>'
            for c in palette.colours]
    for kind, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        for c in clues:
            out.append("<line>" + "".join(
                f"<count>{b.length}</count>" if b.colour == default else
                f"<count color={quoteattr(b.colour)}>{b.length}</count>" for b in c) + "</line>")
        out.append("</clues>")
    if puzzle.goal:
        img = "\n".join("|" + r + "|" for r in puzzle.goal)
        out.append(f'<solution type="goal">\n<image>\n{img}\n</image>\n</solution>')
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
