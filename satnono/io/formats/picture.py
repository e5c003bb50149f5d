"""Pictures as puzzles: PBM (P1/P4) and text grids of ``#``/``.`` — the clues of the picture."""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import MAX_SIDE, Puzzle, puzzle_from_picture
from ...model.solution import Solution
from ._common import checked, lines_of


def pbm_sniff(data: bytes) -> bool:
    return data[:2] in (b"P1", b"P4")


def _pbm_tokens(data: bytes, count: int, path: str | None) -> tuple[list[bytes], int]:
    """The first ``count`` header tokens (comments skipped) and the offset after them."""
    toks: list[bytes] = []
    i = 0
    n = len(data)
    while len(toks) < count:
        while i < n and data[i:i + 1].isspace():
            i += 1
        if i < n and data[i:i + 1] == b"#":
            while i < n and data[i:i + 1] not in (b"\n", b"\r"):
                i += 1
            continue
        j = i
        while j < n and not data[j:j + 1].isspace() and data[j:j + 1] != b"#":
            j += 1
        if j == i:
            raise ParseError("the PBM header is cut short", path, None)
        toks.append(data[i:j])
        i = j
    return toks, i


def pbm_read(data: bytes, path: str | None = None) -> list[Puzzle]:
    toks, pos = _pbm_tokens(data, 3, path)
    magic = toks[0]
    if magic not in (b"P1", b"P4"):
        raise ParseError("not a black-and-white PBM (expected P1 or P4)", path, 1)
    try:
        w, h = int(toks[1]), int(toks[2])
    except ValueError:
        raise ParseError("the PBM size is not two whole numbers", path, None) from None
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ParseError(f"PBM size {w}x{h} is outside 1..{MAX_SIDE}", path, None)
    rows = []
    if magic == b"P1":
        bits = re.sub(rb"#[^\n]*", b"", data[pos:])
        digits = bytes(ch for ch in bits if not chr(ch).isspace())
        if len(digits) < w * h or set(digits[:w * h]) - set(b"01"):
            raise ParseError(f"the P1 body needs {w * h} digits 0/1", path, None)
        for r in range(h):
            row = digits[r * w:(r + 1) * w]
            rows.append(sum(1 << c for c, ch in enumerate(row) if ch == 49))
    else:
        pos += 1  # the single whitespace after the height
        stride = (w + 7) // 8
        body = data[pos:pos + stride * h]
        if len(body) < stride * h:
            raise ParseError(f"the P4 body needs {stride * h} bytes, has {len(body)}", path, None)
        for r in range(h):
            v = int.from_bytes(body[r * stride:(r + 1) * stride], "big")
            v >>= stride * 8 - w
            rows.append(int(format(v, f"0{w}b")[::-1], 2))
    return [checked(puzzle_from_picture(Solution(w, tuple(rows))), path)]


def pbm_write(sol: Solution) -> bytes:
    """Binary PBM (P4) of a grid: what image tools read."""
    w = sol.width
    stride = (w + 7) // 8
    out = bytearray(f"P4\n{w} {sol.height}\n".encode())
    for m in sol.rows:
        v = int(format(m, f"0{w}b")[::-1], 2) << (stride * 8 - w)
        out += v.to_bytes(stride, "big")
    return bytes(out)


_FILL = set("#*Xx1")
_BLANK = set(".-_0 ")


def grid_sniff(text: str) -> bool:
    lines = [ln.rstrip() for ln in lines_of(text) if ln.strip() and not ln.startswith("!")]
    if not lines:
        return False
    chars = set("".join(lines))
    if chars <= set("01"):
        # a 0/1 grid only when it is clearly a rectangle of single digits
        return len(lines) >= 2 and len({len(ln) for ln in lines}) == 1 and len(lines[0]) >= 2
    return chars <= (_FILL | _BLANK) - {"0", "1"} and bool(chars & {"#", "*", "X", "x"})


def grid_read(text: str, path: str | None = None) -> list[Puzzle]:
    rows = []
    for i, raw in enumerate(lines_of(text), 1):
        ln = raw.rstrip()
        if not ln or ln.startswith("!"):
            continue
        bad = set(ln) - _FILL - _BLANK
        if bad:
            raise ParseError(f"unexpected character {sorted(bad)[0]!r} in a picture (use # or "
                             "* or 1 for filled, . or 0 for empty)", path, i)
        rows.append((i, ln))
    if not rows:
        raise ParseError("the picture is empty", path, None)
    width = max(len(ln) for _, ln in rows)
    if width > MAX_SIDE or len(rows) > MAX_SIDE:
        raise ParseError(f"the picture is larger than {MAX_SIDE} cells a side", path, None)
    sol = Solution(width, tuple(sum(1 << c for c, ch in enumerate(ln) if ch in _FILL)
                                for _, ln in rows))
    return [checked(puzzle_from_picture(sol), path)]
