"""Pictures: the cells drawn are the cells of the grid, clues sit in the margins."""

from __future__ import annotations

import io
import xml.dom.minidom
from pathlib import Path

from PIL import Image

from satnono import load
from satnono.cli import main
from satnono.io.draw import layout

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def _cell_colour(img: Image.Image, lay, r: int, c: int) -> tuple:
    s = lay.cell
    return img.getpixel((lay.left + c * s + s // 2, lay.top + r * s + s // 2))


def test_png_solution_partial_and_blank(tmp_path):
    car = load(str(PUZZLES / "car.dat"))
    lay = layout(car, None, True)
    expect = ["....######", "...##.#..#"]
    for mode in ([], ["--partial"], ["--blank"]):
        out = tmp_path / "car.png"
        assert main(["render", str(PUZZLES / "car.dat"), "-o", str(out), *mode]) == 0
        img = Image.open(io.BytesIO(out.read_bytes())).convert("RGB")
        assert img.size == (lay.width, lay.height)
        for r, row in enumerate(expect):
            for c, ch in enumerate(row):
                dark = _cell_colour(img, lay, r, c)[0] < 60
                # the car is line-solvable, so the partial picture is the solution
                assert dark == (ch == "#" and mode != ["--blank"]), (mode, r, c)
    # the clue margin holds ink (numbers), the blank grid's cells do not
    margin = img.crop((0, lay.top, lay.left - 2, lay.height)).convert("L")
    assert margin.getextrema()[0] < 100


def test_partial_shades_unknown_cells(tmp_path):
    out = tmp_path / "two.png"
    assert main(["render", str(PUZZLES / "two.dat"), "--partial", "-o", str(out)]) == 0
    two = load(str(PUZZLES / "two.dat"))
    lay = layout(two, None, True)
    img = Image.open(out).convert("RGB")
    assert all(100 < _cell_colour(img, lay, r, c)[0] < 230 for r in range(2) for c in range(2))


def test_svg_is_well_formed_with_every_clue(tmp_path):
    out = tmp_path / "car.svg"
    assert main(["render", str(PUZZLES / "car.dat"), "--blank", "-o", str(out)]) == 0
    doc = xml.dom.minidom.parse(str(out))
    car = load(str(PUZZLES / "car.dat"))
    texts = [t.firstChild.data for t in doc.getElementsByTagName("text")]
    assert len(texts) == sum(map(len, car.rows)) + sum(map(len, car.columns))
    assert not [r for r in doc.getElementsByTagName("rect") if r.getAttribute("x")]


def test_render_refuses_unknown_image_types(tmp_path, capsys):
    assert main(["render", str(PUZZLES / "car.dat"), "-o", str(tmp_path / "car.jpg")]) == 2
    assert "png or .svg" in capsys.readouterr().err
    assert not (tmp_path / "car.jpg").exists()


def test_a_huge_puzzle_gets_a_cell_size_that_fits_by_default():
    """The default cell is the readable one (14 px with clues) unless the drawing would
    pass MAX_PIXELS; then the largest that fits."""
    from satnono import Puzzle
    from satnono.io import draw

    def pixels(p, cell, clues):
        lay = draw.layout(p, cell, clues)
        return lay.width * lay.height

    side = 1000
    p = Puzzle([(1, 1, 1)] * side, [(1, 1, 1)] * side)
    lay = draw.layout(p, None, True)
    draw.check_size(p, None, True)  # no "give a smaller --cell"
    assert pixels(p, 14, True) > draw.MAX_PIXELS  # the readable size does not fit
    assert pixels(p, lay.cell, True) <= draw.MAX_PIXELS < pixels(p, lay.cell + 1, True)
    assert draw.layout(p, None, False).cell == 2  # a picture of about 1000 px a side
    small = Puzzle([(1,)] * 10, [(1,)] * 10)
    assert draw.layout(small, None, True).cell == 28  # unchanged where it fits


def test_a_clue_number_fits_its_cell_at_every_cell_size():
    """Pillow's own measure of each clue number, drawn as render draws it, leaves a
    neighbour's number room: two-digit column clues in 8-pixel cells ran into each
    other."""
    from PIL import ImageFont

    from satnono.io.draw import _font_size

    for cell in range(6, 40):
        for text in ("7", "24", "137"):
            size = _font_size(cell, text)
            left, _, right, _ = ImageFont.load_default(size=size).getbbox(text)
            # the smallest font (3 px) is the floor: three digits in 6 px do not fit
            assert right - left <= cell - 1 or size == 3, (cell, text, size)


def test_render_says_when_a_cell_is_too_small_for_readable_clues(tmp_path, capsys):
    from satnono import Solution, puzzle_from_picture, save
    from satnono.cli import main

    rows = tuple((1 << 20) - 1 if r % 5 else 0b10101010101010101010 for r in range(24))
    path = tmp_path / "tall.non"  # columns of 24: two-digit clues
    save(puzzle_from_picture(Solution(20, rows)), str(path))
    assert main(["render", str(path), "--blank", "--cell", "8", "-o",
                 str(tmp_path / "a.png")]) == 0
    assert "--cell 11 or more keeps them readable" in capsys.readouterr().err
    assert main(["render", str(path), "--blank", "--cell", "11", "-o",
                 str(tmp_path / "b.png")]) == 0
    assert "readable" not in capsys.readouterr().err


def _on_a_terminal(path: Path, **env: str) -> str:
    """What ``satnono solve PATH`` writes to a terminal 200 columns wide (a real
    pseudo-terminal: the program decides by isatty, as for a user)."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "solve", str(path)],
                            stdout=follower, stderr=subprocess.DEVNULL,
                            env={**os.environ, "COLUMNS": "200", **env})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed: the program ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=120) == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


def test_a_colour_solution_on_a_terminal_has_its_clues_and_its_colours(tmp_path):
    """A colour puzzle on a terminal: the clue margins as in black and white, each block
    cell painted in its palette colour (24-bit ANSI background), each clue on its colour,
    background cells a dim dot; with NO_COLOR, the palette's characters instead, a clue
    saying its colour after its number."""
    import re

    from satnono import save
    from satnono.model.puzzle import Colour, Palette, puzzle_from_colours

    palette = Palette((Colour("white", ".", "ffffff"), Colour("red", "r", "ff0000"),
                       Colour("navy", "n", "000080")))
    rows = ["rr.n", ".nn.", "r..r"]
    p = puzzle_from_colours([[palette.chars.index(ch) for ch in row] for row in rows],
                            palette)
    path = tmp_path / "three.json"
    save(p, str(path))
    shown = _on_a_terminal(path).splitlines()
    paint = {"ff0000": "255;0;0", "000080": "0;0;128"}
    grid = shown[-3:]
    for r, row in enumerate(rows):
        cells = re.findall(r"\x1b\[48;2;([0-9;]+)m {2,}\x1b\[0m|\x1b\[2m·\x1b\[0m", grid[r])
        want = [paint[c.rgb] if ch != "." else "" for ch in row
                for c in palette.colours if c.char == ch]
        assert cells == want, (r, grid[r])
    # row 0's clues: 2 red, 1 navy, each on its colour, ahead of the cells
    assert grid[0].lstrip().startswith("\x1b[48;2;255;0;0;38;2;255;255;255m2\x1b[0m "
                                       "\x1b[48;2;0;0;128;38;2;255;255;255m1\x1b[0m")
    plain = _on_a_terminal(path, NO_COLOR="1").splitlines()
    assert "\x1b" not in "".join(plain)
    assert plain == ["       1r 1r    1n",
                     "       1r 1n 1n 1r",
                     "2r 1n rrrrrr   nnn",
                     "   2n    nnnnnn",
                     "1r 1r rrr      rrr"]
