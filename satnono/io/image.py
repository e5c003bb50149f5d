"""Pictures in, grids out: PNG, GIF, BMP, JPEG, … through Pillow, thresholded to black and
white (dark is filled), optionally scaled down first. PBM and text grids need no Pillow."""

from __future__ import annotations

import io
import os

from ..errors import ParseError
from ..model.puzzle import MAX_SIDE
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
        raise ParseError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 30x20") from None
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ParseError(f"--size {text!r}: each side must be 1..{MAX_SIDE}")
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


def read_image(path: str, *, threshold: int = 128, invert: bool = False,
               size: tuple[int, int] | None = None, data: bytes | None = None) -> Solution:
    """Cells darker than ``threshold`` (0..255) are filled; transparent pixels are empty.
    ``data``: the image's bytes, read already (``path`` then only names it)."""
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
            grey = img.convert("L")
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ParseError(f"not a readable image ({exc})", path) from None
    if size is not None and size != grey.size:
        grey = grey.resize(size, Image.Resampling.BOX)
    w, h = grey.size
    if w > MAX_SIDE or h > MAX_SIDE:
        raise ParseError(f"the image is {w}x{h}; scale it down with --size (at most "
                         f"{MAX_SIDE} a side)", path)
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
    pic = Solution.from_strings(puzzles[0].goal)
    if invert:
        full = (1 << pic.width) - 1
        pic = Solution(pic.width, tuple(full & ~m for m in pic.rows))
    return pic
