"""Puzzles and solutions as pictures, PNG (Pillow) or SVG: the printable blank puzzle with
its clues in the margins, the solved grid, or the state line logic leaves (unknown cells
shaded). A colour puzzle's cells take their palette colours, and each clue number sits in a
square of its block's colour, as printed colour puzzles have.

One layout serves both outputs: a square slot per clue number, as printed puzzles have, so
long clues widen the margins instead of overflowing them; every fifth grid line is heavy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.puzzle import Puzzle

FILLED, EMPTY, UNKNOWN = 1, 0, None
INK, PAPER, SHADE, RULE, FAINT = "#111111", "#ffffff", "#b8b8b8", "#222222", "#9a9a9a"


def inks(puzzle: Puzzle) -> list[str]:
    """The colour each palette index is drawn in (black a little soft, as print is)."""
    if puzzle.palette.black_and_white:
        return [PAPER, INK]
    return ["#" + c.rgb for c in puzzle.palette.colours]


def on(rgb: str) -> str:
    """Dark or light text, whichever reads better on ``rgb``."""
    r, g, b = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else PAPER


@dataclass
class Layout:
    cell: int
    left: int  # pixels left of the grid (row clues)
    top: int  # pixels above the grid (column clues)
    width: int
    height: int


def layout(puzzle: Puzzle, cell: int | None, clues: bool) -> Layout:
    """Where the grid and the clues go. Without ``cell``: big enough to read a clue when
    clues are drawn, a picture of about 1000 px else, and smaller where that would pass
    :data:`MAX_PIXELS` (a 1000×1000 puzzle's sheet at 14 px is 14,000 px a side)."""
    if cell is not None:
        return _layout(puzzle, cell, clues)
    w, h = puzzle.width, puzzle.height
    cell = max(14, min(28, 900 // max(w, h))) if clues else max(2, min(24, 1000 // max(w, h)))
    lay = _layout(puzzle, cell, clues)
    while lay.width * lay.height > MAX_PIXELS and cell > 1:  # at most 27 steps down
        cell -= 1
        lay = _layout(puzzle, cell, clues)
    return lay


def _layout(puzzle: Puzzle, cell: int, clues: bool) -> Layout:
    w, h = puzzle.width, puzzle.height
    pad = cell // 2 + 2
    left = (max((len(c) for c in puzzle.rows), default=0) * cell + pad) if clues else pad
    top = (max((len(c) for c in puzzle.columns), default=0) * cell + pad) if clues else pad
    return Layout(cell, left, top, left + w * cell + pad, top + h * cell + pad)


#: drawings larger than this are refused before any pixel is drawn
MAX_PIXELS = 100_000_000


def check_size(puzzle: Puzzle, cell: int | None, clues: bool) -> None:
    """Refuse a drawing that would not fit in memory, with its size, before drawing it."""
    from ..errors import UsageError

    lay = layout(puzzle, cell, clues)
    if lay.width * lay.height > MAX_PIXELS:
        raise UsageError(f"the drawing would be {lay.width}x{lay.height} pixels, more than the "
                         f"{MAX_PIXELS:,} satnono draws; give a smaller --cell")


def _cells(puzzle: Puzzle, grid: list[list[int | None]] | None):
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            v = grid[r][c] if grid is not None else EMPTY
            if v != EMPTY:
                yield r, c, v


#: the smallest clue font that reads, in pixels
READABLE = 6


def _text_width(size: int, digits: int) -> float:
    """About how wide ``digits`` digits are at font ``size``: a digit is 0.6 em in DejaVu
    Sans and Pillow's default font, and a pixel more for the glyphs' sides."""
    return digits * 0.6 * size + 1


def _font_size(cell: int, text: str) -> int:
    """A clue number's font: large in a large cell, and never wider than its cell less a
    pixel each side (two-digit column clues in 8-pixel cells ran into each other)."""
    size = max(READABLE, int(cell * (0.62 if len(text) <= 2 else 0.48 if len(text) == 3
                                     else 0.38)))
    while size > 3 and _text_width(size, len(text)) > cell - 2:
        size -= 1
    return size


def readable_cell(puzzle: Puzzle) -> int:
    """The smallest cell in which every clue number gets a readable font."""
    digits = max((len(str(n)) for line in (*puzzle.rows, *puzzle.columns) for n in line),
                 default=1)
    return math.ceil(_text_width(READABLE, digits)) + 2


def _rules(puzzle: Puzzle, lay: Layout):
    """Grid lines as (x0, y0, x1, y1, heavy)."""
    w, h, s = puzzle.width, puzzle.height, lay.cell
    thin = s >= 5
    fifths = s >= 4  # finer than that, rules would hide the picture: the border only
    for c in range(w + 1):
        heavy = (c % 5 == 0 and fifths) or c in (0, w)
        if heavy or thin:
            x = lay.left + c * s
            yield x, lay.top, x, lay.top + h * s, heavy
    for r in range(h + 1):
        heavy = (r % 5 == 0 and fifths) or r in (0, h)
        if heavy or thin:
            y = lay.top + r * s
            yield lay.left, y, lay.left + w * s, y, heavy


def _clue_texts(puzzle: Puzzle, lay: Layout):
    """(x centre, y centre, text, colour index) of every clue number."""
    s = lay.cell
    index = {c.name: i for i, c in enumerate(puzzle.palette.colours)}
    for r, clue in enumerate(puzzle.rows):
        for k, n in enumerate(reversed(clue)):
            yield (lay.left - (k + 1) * s + s // 2 - 2, lay.top + r * s + s // 2, str(n),
                   index[n.colour])
    for c, clue in enumerate(puzzle.columns):
        for k, n in enumerate(reversed(clue)):
            yield (lay.left + c * s + s // 2, lay.top - (k + 1) * s + s // 2 - 2, str(n),
                   index[n.colour])


def png(puzzle: Puzzle, grid: list[list[int | None]] | None, *, clues: bool = True,
        cell: int | None = None) -> bytes:
    """``grid`` is None for the blank puzzle; else rows of FILLED / EMPTY / UNKNOWN."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    lay = layout(puzzle, cell, clues)
    img = Image.new("RGB", (lay.width, lay.height), PAPER)
    d = ImageDraw.Draw(img)
    s = lay.cell
    ink = inks(puzzle)
    colour = not puzzle.palette.black_and_white
    for r, c, v in _cells(puzzle, grid):
        x, y = lay.left + c * s, lay.top + r * s
        d.rectangle((x, y, x + s - 1, y + s - 1), fill=SHADE if v is None else ink[v])
    for x0, y0, x1, y1, heavy in _rules(puzzle, lay):
        d.line((x0, y0, x1, y1), fill=RULE if heavy else FAINT,
               width=2 if heavy and s >= 8 else 1)
    if clues:
        fonts: dict[int, ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}
        for x, y, text, k in _clue_texts(puzzle, lay):
            size = _font_size(s, text)
            if size not in fonts:
                fonts[size] = ImageFont.load_default(size=size)
            if colour:
                half = s // 2 - 1
                d.rectangle((x - half, y - half, x + half, y + half), fill=ink[k],
                            outline=FAINT)
            d.text((x, y), text, fill=on(ink[k]) if colour else INK, font=fonts[size],
                   anchor="mm")
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def svg(puzzle: Puzzle, grid: list[list[int | None]] | None, *, clues: bool = True,
        cell: int | None = None) -> str:
    from xml.sax.saxutils import escape

    lay = layout(puzzle, cell, clues)
    s = lay.cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
           f'viewBox="0 0 {lay.width} {lay.height}">',
           f"<title>{escape(puzzle.title or 'nonogram')} ({puzzle.size})</title>",
           f'<rect width="100%" height="100%" fill="{PAPER}"/>']
    ink = inks(puzzle)
    colour = not puzzle.palette.black_and_white
    for r, c, v in _cells(puzzle, grid):
        out.append(f'<rect x="{lay.left + c * s}" y="{lay.top + r * s}" width="{s}" '
                   f'height="{s}" fill="{SHADE if v is None else ink[v]}"/>')
    for x0, y0, x1, y1, heavy in _rules(puzzle, lay):
        out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" '
                   f'stroke="{RULE if heavy else FAINT}" '
                   f'stroke-width="{2 if heavy and s >= 8 else 1}"/>')
    if clues:
        out.append('<g font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle" '
                   f'dominant-baseline="central" fill="{INK}">')
        for x, y, text, k in _clue_texts(puzzle, lay):
            if colour:
                half = s // 2 - 1
                out.append(f'<rect x="{x - half}" y="{y - half}" width="{2 * half}" '
                           f'height="{2 * half}" fill="{ink[k]}" stroke="{FAINT}"/>')
            fill = f' fill="{on(ink[k])}"' if colour else ""
            out.append(f'<text x="{x}" y="{y}" font-size="{_font_size(s, text)}"{fill}>'
                       f'{text}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def board_grid(board) -> list[list[int | None]]:
    return [[board.get(r, c) for c in range(board.width)] for r in range(board.height)]


def solution_grid(sol) -> list[list[int | None]]:
    """Rows of palette indices (FILLED and EMPTY in black and white)."""
    if sol.layers:
        return [[sol.colour(r, c) for c in range(sol.width)] for r in range(sol.height)]
    return [[FILLED if m >> c & 1 else EMPTY for c in range(sol.width)] for m in sol.rows]
