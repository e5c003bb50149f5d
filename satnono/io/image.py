"""Pictures in, grids out: PNG, GIF, BMP, JPEG, … through Pillow, thresholded to black and
white (dark is filled) or reduced to a few colours (the lightest is the background),
optionally scaled down first. PBM and text grids need no Pillow."""

from __future__ import annotations

import io
import os
from typing import Any

from ..errors import ParseError, UsageError
from ..model.puzzle import MAX_SIDE, Colour, Palette
from ..model.solution import Solution

IMAGE_EXTENSIONS = (".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".tif", ".tiff")


#: how the formats Pillow reads begin, for pictures that arrive without a file name
_SIGNATURES = (b"\x89PNG", b"GIF8", b"BM", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")


def looks_like_image(data: bytes) -> bool:
    return data.startswith(_SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 30x20") from None
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise UsageError(f"--size {text!r}: each side must be 1..{MAX_SIDE}")
    return w, h


#: images claiming more pixels than this are refused before they are decoded
MAX_PIXELS = 64_000_000


def _read_bounded(path: str) -> bytes:
    from .formats import max_bytes

    limit = max_bytes()
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except OSError as exc:
        raise ParseError(f"cannot read the file ({exc.strerror or exc})", path) from None
    if len(data) > limit:
        raise ParseError(f"the file is larger than the {limit:,} bytes accepted", path)
    return data


#: an image larger than this many cells a side is scaled down to it unless --size says
#: otherwise: a photo of 800×600 pixels made a puzzle no one solves, that took the check
#: past its time limit; the puzzles people solve are up to about a hundred a side
FIT = 100


def default_size(path: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where ``path`` is an image larger than :data:`FIT` cells a side: its size and the
    size that fits, the aspect kept (read from the header: nothing is decoded)."""
    if path == "-" or not is_image(path):
        return None
    try:
        from PIL import Image

        with Image.open(path) as img:
            w, h = img.size
    except Exception:  # unreadable: the read itself says why
        return None
    if max(w, h) <= FIT:
        return None
    scale = FIT / max(w, h)
    return (w, h), (max(1, round(w * scale)), max(1, round(h * scale)))


def _open(path: str, mode: str, size: tuple[int, int] | None, data: bytes | None) -> Any:
    """The image in ``mode`` ("L" or "RGB"), transparent pixels white, scaled to ``size``."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:  # pragma: no cover - Pillow is a dependency
        raise ParseError("reading images needs Pillow (pip install pillow)", path) from None
    if data is None:
        data = _read_bounded(path)
    try:
        with Image.open(io.BytesIO(data)) as img:
            w, h = img.size  # from the header: nothing decoded yet
            if w * h > MAX_PIXELS:
                raise ParseError(f"the image claims {w}x{h} pixels, more than the "
                                 f"{MAX_PIXELS:,} satnono decodes", path)
            img.load()
            if img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info:
                rgba = img.convert("RGBA")
                white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                img = Image.alpha_composite(white, rgba)
            out = img.convert(mode)
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ParseError(f"not a readable image ({exc})", path) from None
    if size is not None and size != out.size:
        out = out.resize(size, Image.Resampling.BOX)
    w, h = out.size
    if w > MAX_SIDE or h > MAX_SIDE:
        raise ParseError(f"the image is {w}x{h}; scale it down with --size (at most "
                         f"{MAX_SIDE} a side)", path)
    return out


def read_image(path: str, *, threshold: int = 128, invert: bool = False,
               size: tuple[int, int] | None = None, data: bytes | None = None) -> Solution:
    """Cells darker than ``threshold`` (0..255) are filled; transparent pixels are empty.
    ``data``: the image's bytes, read already (``path`` then only names it)."""
    grey = _open(path, "L", size, data)
    w, h = grey.size
    px = grey.load()
    rows = []
    for y in range(h):
        m = 0
        for x in range(w):
            dark = px[x, y] < threshold
            if dark != invert:
                m |= 1 << x
        rows.append(m)
    return Solution(w, tuple(rows))


#: names for the colours a picture is reduced to: the nearest of these names each
_NAMED = {"black": (0, 0, 0), "white": (255, 255, 255), "grey": (128, 128, 128),
          "silver": (192, 192, 192), "red": (220, 20, 20), "maroon": (128, 0, 0),
          "orange": (255, 140, 0), "yellow": (250, 220, 0), "olive": (128, 128, 0),
          "green": (0, 160, 0), "lime": (120, 230, 60), "teal": (0, 128, 128),
          "cyan": (0, 220, 220), "blue": (20, 40, 220), "navy": (0, 0, 128),
          "purple": (128, 0, 128), "pink": (255, 150, 190), "magenta": (230, 0, 230),
          "brown": (130, 80, 30), "beige": (240, 220, 170)}


def _palette(rgbs: list[tuple[int, int, int]]) -> Palette:
    """A palette of these colours (the background first): each named after the nearest
    named colour (a number added when two share it) and drawn as the name's first free
    letter (``.`` the background, ``#`` black)."""
    names: list[str] = []
    chars: list[str] = []
    for i, rgb in enumerate(rgbs):
        near = min(_NAMED, key=lambda n: sum((a - b) ** 2 for a, b in zip(_NAMED[n], rgb)))
        name, k = near, 2
        while name in names:
            name, k = f"{near}{k}", k + 1
        names.append(name)
        wanted = "." if i == 0 else "#" if name == "black" else ""
        pool = wanted + near + "abcdefghijklmnopqrstuvwxyz0123456789"
        chars.append(next(ch for ch in pool if ch not in chars))
    return Palette(tuple(Colour(n, ch, "".join(f"{v:02x}" for v in rgb))
                         for n, ch, rgb in zip(names, chars, rgbs)))


def read_colour_image(path: str, colours: int, *, size: tuple[int, int] | None = None,
                      data: bytes | None = None) -> tuple[list[list[int]], Palette]:
    """The picture reduced to at most ``colours`` block colours and a background (median
    cut, no dithering: a nonogram wants flat areas): a palette index per cell, and the
    palette, whose background is the lightest colour. The colours are chosen at full
    resolution; scaled to ``size``, a cell takes the colour most of its pixels have, so
    that edges do not blend into colours of their own."""
    from PIL import Image

    rgb = _open(path, "RGB", None, data)
    quant = rgb.quantize(colors=colours + 1, method=Image.Quantize.MEDIANCUT,
                         dither=Image.Dither.NONE)
    flat = quant.getpalette() or []
    if size is None or size == quant.size:
        w, h = quant.size
        cells = list(quant.tobytes())  # one byte a pixel in mode P
    else:  # each colour's share of every cell, and the largest share wins
        w, h = size
        shares = [quant.point([255 if v == k else 0 for v in range(256)], "L")
                  .resize(size, Image.Resampling.BOX).tobytes()
                  for k in range(len(flat) // 3)]
        cells = [max(range(len(shares)), key=[s[i] for s in shares].__getitem__)
                 for i in range(w * h)]
    used = sorted(set(cells))
    entries = {i: (flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in used}
    light = max(used, key=lambda i: sum(entries[i]))
    order = [light] + [i for i in used if i != light]
    index = {old: new for new, old in enumerate(order)}
    grid = [[index[cells[y * w + x]] for x in range(w)] for y in range(h)]
    if len(order) < 2:
        order.append(-1)  # a picture of one colour: an unused block colour
        entries[-1] = (0, 0, 0)
    return grid, _palette([entries[i] for i in order])


def load_colour_picture(path: str, colours: int, *, fmt: str | None = None,
                        size: tuple[int, int] | None = None
                        ) -> tuple[list[list[int]], Palette]:
    """A colour picture from a file (``-``: standard input): an image reduced to
    ``colours`` block colours (:func:`read_colour_image`), or a puzzle file's goal picture
    in its own palette."""
    from ..errors import UsageError
    from .formats import STDIN, read_bytes, read_file, read_stdin, shown

    data = read_stdin() if path == "-" else None
    if is_image(path) or (data is not None and looks_like_image(data)):
        return read_colour_image(shown(path), colours, size=size, data=data)
    if size is not None:
        raise UsageError("--size scales images (PNG, GIF, …); puzzle files are used as is")
    puzzles = (read_bytes(data, STDIN, fmt) if data is not None else
               read_file(path, fmt or picture_format(path)))
    if len(puzzles) != 1 or not puzzles[0].goal:
        raise UsageError(f"{shown(path)}: not a picture (an image, or a puzzle file with its "
                         "goal picture)")
    puzzle = puzzles[0]
    goal = puzzle.goal_solution()
    assert goal is not None
    grid = [[goal.colour(r, c) for c in range(goal.width)] for r in range(goal.height)]
    return grid, puzzle.palette


def is_image(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in IMAGE_EXTENSIONS


def picture_format(path: str) -> str | None:
    """The picture format an extension names (PBM, a text grid), if any."""
    ext = os.path.splitext(path)[1].lower()
    return {".pbm": "pbm", ".txt": "grid"}.get(ext)


def load_picture(path: str, *, fmt: str | None = None, threshold: int = 128,
                 invert: bool = False, size: tuple[int, int] | None = None) -> Solution:
    """A black-and-white picture from a file (``-``: standard input): an image (PNG, GIF,
    BMP, JPEG, …; dark pixels filled, ``size`` scales it first), a PBM or a text grid of
    ``#``/``.``. ``invert`` fills the light cells instead."""
    from ..errors import UsageError
    from .formats import STDIN, read_bytes, read_file, read_stdin, shown

    data = read_stdin() if path == "-" else None
    if is_image(path) or (data is not None and looks_like_image(data)):
        return read_image(shown(path), threshold=threshold, invert=invert, size=size,
                          data=data)
    if size is not None:
        raise UsageError("--size scales images (PNG, GIF, …); PBM and text grids are used as is")
    puzzles = (read_bytes(data, STDIN, fmt) if data is not None else
               read_file(path, fmt or picture_format(path)))
    if len(puzzles) != 1 or not puzzles[0].goal:
        raise UsageError(f"{shown(path)}: not a picture (PBM, a text grid of #/., or an image)")
    if not puzzles[0].palette.black_and_white:
        raise UsageError(f"{shown(path)}: a colour picture; --colours keeps its colours")
    pic = Solution.from_strings(puzzles[0].goal)
    if invert:
        full = (1 << pic.width) - 1
        pic = Solution(pic.width, tuple(full & ~m for m in pic.rows))
    return pic
