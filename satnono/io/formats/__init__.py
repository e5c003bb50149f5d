"""Every puzzle file format satnono reads and writes, and the detection that picks one.

Each format is a small module with ``read(text, path) -> list[Puzzle]`` (validated, or a
:class:`~satnono.errors.ParseError` naming file and line), ``sniff(text) -> bool`` and,
where the format can hold any puzzle, ``write(puzzle) -> str``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ...errors import NotAPuzzle, ParseError, UnknownFormat, UnsupportedOutput, UsageError
from ...model.puzzle import Puzzle, validate
from . import (
    griddler,
    japan,
    jsonfmt,
    mathprog,
    non,
    picross,
    picture,
    pynogram,
    simple,
    spoj,
    taai,
    webpbn,
)
from ._common import decode

#: Inputs larger than this are refused: no real puzzle comes close. ``$SATNONO_MAX_BYTES``
#: sets another limit.
MAX_BYTES = 64 * 1024 * 1024
#: how standard input is named in messages
STDIN = "<stdin>"


@dataclass(frozen=True)
class Format:
    name: str
    description: str
    extensions: tuple[str, ...]
    read: Callable[..., list[Puzzle]]
    sniff: Callable[..., bool]
    write: Callable[[Puzzle], str] | None = None
    binary: bool = False
    #: reads colour puzzles
    colour: bool = False
    #: writes them too (its writer keeps every block's colour and the palette)
    writes_colour: bool = False


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("json", "satnono JSON", (".json",), jsonfmt.read, jsonfmt.sniff, jsonfmt.write,
           colour=True, writes_colour=True),
    Format("webpbn", "webpbn XML", (".xml", ".pbn"), webpbn.read, webpbn.sniff, webpbn.write,
           colour=True, writes_colour=True),
    Format("non", "Simpson/mikix/Nonny .non", (".non",), non.read, non.sniff, non.write,
           colour=True),
    Format("picross", "picross-solver text (GRID/ROWS/COLUMNS)", (), picross.read,
           picross.sniff, picross.write),
    Format("pynogram", "pynogram text / nonogrid TOML", (".toml",), pynogram.read,
           pynogram.sniff, pynogram.write, colour=True),
    Format("mathprog", "GNU MathProg data", (".dat",), mathprog.read, mathprog.sniff,
           mathprog.write),
    Format("spoj", "SPOJ JCROSS", (), spoj.read, spoj.sniff, spoj.write),
    Format("mk", "Olšák .mk", (".mk",), simple.mk_read, simple.mk_sniff, simple.mk_write),
    Format("g", "Olšák griddler .g", (".g",), griddler.read, griddler.sniff, griddler.write,
           colour=True),
    Format("japan", "olympiad japan.dat", (".dat",), japan.read, japan.sniff, japan.write),
    Format("keen", "Kyle Keen v2 text", (), simple.keen_read, simple.keen_sniff,
           simple.keen_write),
    Format("taai", "TAAI/TCGA tournament ($n)", (), taai.read, taai.sniff, taai.write),
    Format("nin", "Wilk .nin", (".nin",), simple.nin_read, simple.nin_sniff, simple.nin_write),
    Format("grid", "picture as text (# and .)", (), picture.grid_read, picture.grid_sniff),
    Format("pbm", "PBM picture (P1/P4)", (".pbm",), picture.pbm_read, picture.pbm_sniff,
           binary=True),
)}

#: Formats a puzzle can be written in (clues, not pictures).
PUZZLE_WRITERS = tuple(n for n, f in FORMATS.items() if f.write is not None)
#: the writers that keep colour
COLOUR_WRITERS = tuple(n for n, f in FORMATS.items() if f.writes_colour)


def _candidates(path: str, data: bytes) -> list[Format]:
    ext = os.path.splitext(path)[1].lower()
    if picture.pbm_sniff(data):
        return [FORMATS["pbm"]]
    by_ext = [f for f in FORMATS.values() if ext in f.extensions]
    if len(by_ext) == 1:
        return by_ext
    text = decode(data)
    if by_ext:  # ambiguous extension (.dat): let the content decide between them
        sniffed = [f for f in by_ext if f.sniff(text)]
        return sniffed or by_ext
    return [f for f in FORMATS.values() if not f.binary and f.sniff(text)]


def detect(path: str, data: bytes) -> Format:
    """The format of a file: extension first, content where that is ambiguous or missing."""
    found = _candidates(path, data)
    if not found:
        raise UnknownFormat("not a puzzle in any format satnono reads (" + ", ".join(FORMATS)
                            + ")", path, None)
    return found[0]


#: what the pictures ``satnono make`` reads start with
_PICTURES = ((b"\x89PNG", "PNG"), (b"GIF8", "GIF"), (b"\xff\xd8\xff", "JPEG"),
             (b"BM", "BMP"))


def _not_text(data: bytes, path: str, fmt: str | None) -> None:
    """A picture or other binary data given where a puzzle file's text was expected: a
    ParseError that says so (and points a picture at ``satnono make``), rather than a
    reader's complaint quoting garbled bytes. PBM's P4 is binary and is let through."""
    if fmt == "pbm" or data[:2] in (b"P1", b"P4") or path.lower().endswith(".pbm"):
        return
    for magic, kind in _PICTURES:
        if data.startswith(magic) and fmt is None:
            raise NotAPuzzle(f"a {kind} picture, not a puzzle file: 'satnono make {path}' "
                             "makes a puzzle of it", path, None)
    head = data[:4096]
    if b"\0" in head:
        raise NotAPuzzle("binary data, not a puzzle file (puzzle files are text)", path, None)
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not merely a character cut at the end of the head
            text = head.decode("latin-1")
        else:
            return
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f\v"
                   or 127 <= ord(ch) < 160)
    if controls > max(2, len(text) // 50):
        raise NotAPuzzle("binary data, not a puzzle file (puzzle files are text)", path, None)


def read_bytes(data: bytes, path: str | os.PathLike[str] = "<input>", fmt: str | None = None
               ) -> list[Puzzle]:
    """Parse and validate every puzzle in ``data``; ``path`` names it in errors."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UsageError(f"data is a file's content as bytes, not {type(data).__name__}")
    data = bytes(data)
    path = _path(path, "the name")
    fmt = _format(fmt)
    _not_text(data, path, fmt)
    if not data.strip():  # every format alike: no format's puzzle is empty
        raise ParseError("the file is empty", path, None)
    if fmt is not None:
        if fmt not in FORMATS:
            raise ParseError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})", path, None)
        candidates = [FORMATS[fmt]]
    else:
        candidates = _candidates(path, data)
        if not candidates:
            detect(path, data)  # raises the "unknown format" error
    first_error: ParseError | None = None
    for f in candidates:
        try:
            puzzles = f.read(data if f.binary else decode(data), path)
            if not puzzles:
                raise ParseError(f"no puzzle in it (read as {f.name})", path, None)
            return puzzles
        except ParseError as exc:
            first_error = first_error or exc
        except RecursionError:
            first_error = first_error or ParseError("input nested too deeply", path, None)
    assert first_error is not None
    raise first_error


def max_bytes() -> int:
    """The largest input read: ``$SATNONO_MAX_BYTES``, else :data:`MAX_BYTES`."""
    text = os.environ.get("SATNONO_MAX_BYTES", "")
    return int(text) if text.isdigit() and int(text) > 0 else MAX_BYTES


def read_stdin() -> bytes:
    limit = max_bytes()
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise ParseError(f"more than the {limit:,} bytes accepted (SATNONO_MAX_BYTES raises "
                         "the limit)", STDIN, None)
    return data


def _path(path: object, what: str = "path") -> str:
    """A file name given to the library, as text; a UsageError naming the argument for
    anything else (bytes are a file's content: :func:`read_bytes` reads those)."""
    if isinstance(path, bytes):
        raise UsageError(f"{what} is a file name, not bytes (read_bytes(data) reads a "
                         "file's content)")
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"{what} is a file name, not {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise UsageError(f"{what} is a file name, not bytes")
    return name


def _format(fmt: object) -> str | None:
    if fmt is not None and not isinstance(fmt, str):
        raise UsageError(f"format is a format's name (see 'satnono formats'), not {fmt!r}")
    return fmt


def read_file(path: str | os.PathLike[str], fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in a file (``-``: standard input), validated; a ParseError for anything
    unreadable. Reading stops past :func:`max_bytes` whatever the file claims to be (a
    device such as ``/dev/zero`` has no size), so no input can exhaust the memory."""
    path = _path(path)
    fmt = _format(fmt)
    if path == "-":
        return read_bytes(read_stdin(), STDIN, fmt)
    limit = max_bytes()
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise ParseError(f"cannot read the file ({exc.strerror or exc})", path, None) from None
    if len(data) > limit:
        raise ParseError(f"the file is larger than the {limit:,} bytes accepted (a puzzle "
                         "file is far smaller; SATNONO_MAX_BYTES raises the limit)", path, None)
    return read_bytes(data, path, fmt)


def shown(path: str) -> str:
    """How an input path is named in messages: ``-`` is standard input."""
    return STDIN if path == "-" else path


def load(path: str | os.PathLike[str], index: int | None = None, fmt: str | None = None
         ) -> Puzzle:
    """One puzzle from a file (a name or a path object); ``index`` (1-based) picks one from a
    multi-puzzle file.

    >>> load("puzzles/car.dat").size
    '10x8'
    """
    path = _path(path)
    if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
        raise UsageError(f"index is a whole number from 1, not {index!r}")
    puzzles = read_file(path, fmt)
    if index is None:
        if len(puzzles) > 1:
            raise ParseError(f"the file holds {len(puzzles)} puzzles; pick one by its index "
                             "(--index N on the command line)",
                             path, None)
        return puzzles[0]
    if not 1 <= index <= len(puzzles):
        raise ParseError(f"index {index} is outside 1..{len(puzzles)}", path, None)
    return puzzles[index - 1]


def write_puzzle(puzzle: Puzzle, fmt: str) -> str:
    f = FORMATS.get(fmt)
    if f is None or f.write is None:
        raise UnsupportedOutput(f"cannot write puzzles as {fmt!r} (puzzle formats: "
                                + ", ".join(PUZZLE_WRITERS) + ")")
    if not puzzle.palette.black_and_white and fmt not in COLOUR_WRITERS:
        raise UnsupportedOutput(f"{fmt} is written for black-and-white puzzles only; "
                                "write this colour puzzle as " + " or ".join(COLOUR_WRITERS))
    return f.write(puzzle)


def format_for_extension(path: str) -> str | None:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".dat":
        return "japan"
    for f in FORMATS.values():
        if ext in f.extensions:
            return f.name
    return None


def save(puzzle: Puzzle, path: str, format: str | None = None) -> None:
    """Write ``puzzle`` to ``path`` (``-``: standard output) in ``format``, by default the
    one the file's extension names; atomically, so a failure leaves no half file.

    >>> import os, tempfile
    >>> from satnono import Puzzle, load
    >>> path = os.path.join(tempfile.mkdtemp(), "two.non")
    >>> save(Puzzle(((1,), (1,)), ((1,), (1,)), title="Two"), path)
    >>> load(path).title
    'Two'
    """
    from ..output import atomic_output

    validate(puzzle)  # a puzzle no reader would take back is not written
    path = _path(path)
    fmt = _format(format) or format_for_extension(path)
    if fmt is None:
        raise UnsupportedOutput(f"{path}: say which format to write (puzzle formats: "
                                + ", ".join(PUZZLE_WRITERS) + ")")
    text = write_puzzle(puzzle, fmt)
    with atomic_output(path) as out:
        out.write(text)
