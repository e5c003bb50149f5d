"""webpbn XML against real files: every file of ../shared/webpbn read, solved and checked
against its goal; what satnono writes read back, and by pbnsolve where one is built."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import satnono
from satnono.errors import ParseError
from satnono.io.formats import webpbn
from satnono.model import Verdict

from .conftest import RGB_PALETTE

WEBPBN = Path(__file__).resolve().parents[2] / "shared" / "webpbn"
FILES = sorted(WEBPBN.glob("*/*.xml"))
needs_webpbn = pytest.mark.skipif(not FILES, reason="../shared/webpbn is not present")

#: size (W×H) and block colours of each file, from ../shared/webpbn/README.md
EXPECTED = {
    "webpbn-00001": ("5x10", 1), "webpbn-00006": ("20x20", 1), "webpbn-00016": ("34x34", 1),
    "webpbn-00021": ("14x25", 1), "webpbn-00023": ("10x11", 1), "webpbn-00027": ("27x23", 1),
    "webpbn-00065": ("34x40", 1), "webpbn-00436": ("40x35", 1), "webpbn-00529": ("45x45", 1),
    "webpbn-00803": ("50x45", 1), "webpbn-06574": ("25x25", 1),
    "webpbn-color-00220": ("40x40", 4),
    **{f"{n}-dom": (f"{2 * n + 1}x{2 * n + 1}", 1) for n in range(3, 13)},
}


def _says_unique(path: Path) -> bool:
    """The file states the puzzle is unique: in its title (#65 "[has only one solution]")
    or in webpbn's note ("definitely unique")."""
    text = path.read_text()
    return "has only one solution" in text or "definitely unique" in text


@needs_webpbn
def test_the_shared_set_is_all_there():
    assert {p.stem for p in FILES} == set(EXPECTED)


@needs_webpbn
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_real_file_reads_solves_and_matches_its_goal(path):
    puzzle = satnono.load(path)
    size, colours = EXPECTED[path.stem]
    assert puzzle.size == size
    assert len(puzzle.palette.colours) - 1 == colours
    has_goal = "<solution" in path.read_text()
    assert (puzzle.goal is not None) == has_goal
    result = satnono.uniqueness(puzzle, timeout=120)
    assert result.solutions and all(satnono.is_solution(puzzle, s) for s in result.solutions)
    if _says_unique(path):
        assert result.verdict is Verdict.UNIQUE
    if has_goal:
        assert result.verdict is Verdict.UNIQUE  # every goal in the set is the only picture
        assert result.solutions[0] == puzzle.goal_solution()


@needs_webpbn
def test_metadata_and_variants_of_the_real_files():
    onions = satnono.load(WEBPBN / "wolter" / "webpbn-color-00220.xml")
    assert onions.title == "Many Onions" and onions.author == "Jan Wolter"
    assert onions.copyright == "(c) Copyright 2005 by Jan Wolter"
    assert onions.source == "webpbn.com #220 (v.1)"  # the set's <source> and the puzzle's id
    assert [c.name for c in onions.palette.colours] == ["white", "black", "red", "green",
                                                        "blue"]
    assert onions.palette.colours[2].rgb == "ff0000"
    # no <title>; defaultcolor="white" with white's char a space; color="black" on every count
    six = satnono.load(WEBPBN / "dom" / "6-dom.xml")
    assert six.title is None and six.palette.black_and_white
    assert six.rows[0] == (satnono.Block(3),)
    assert six.source == "number-loom senior-brazil-benefit"


@needs_webpbn
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_what_we_write_of_a_real_file_reads_back_the_same(path):
    puzzle = satnono.load(path)
    text = webpbn.write(puzzle)
    assert "<clue " not in text and '<clues type="rows">' in text
    [back] = webpbn.read(text)
    assert back == puzzle and back.goal == puzzle.goal
    assert [c.name for c in back.palette.colours] == [c.name for c in puzzle.palette.colours]


# What satnono 0.1 wrote (its <clue> sections), unchanged: saved work still opens.
OLD_BW = """<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid" defaultcolor="black" backgroundcolor="white">
<color name="white" char=".">ffffff</color>
<color name="black" char="#">000000</color>
<title>old &amp; bw</title>
<clue type="columns">
<line><count>2</count></line>
<line></line>
<line><count>1</count></line>
</clue>
<clue type="rows">
<line><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line></line>
</clue>
<solution type="goal"><image>
|#..|
|#.#|
|...|
</image></solution>
</puzzle>
</puzzleset>
"""

OLD_COLOUR = """<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid" defaultcolor="black" backgroundcolor="white">
<color name="white" char=".">ffffff</color>
<color name="black" char="#">000000</color>
<color name="red" char="r">e01010</color>
<color name="blue" char="b">1030e0</color>
<title>old colour</title>
<clue type="columns">
<line><count>1</count></line>
<line><count color="red">1</count><count color="blue">1</count></line>
<line><count color="blue">1</count></line>
</clue>
<clue type="rows">
<line><count>1</count><count color="red">1</count></line>
<line><count color="blue">2</count></line>
</clue>
<solution type="goal"><image>
|#r.|
|.bb|
</image></solution>
</puzzle>
</puzzleset>
"""


def test_files_written_by_satnono_0_1_still_open():
    [bw] = webpbn.read(OLD_BW)
    assert bw.title == "old & bw" and bw.rows == ((satnono.Block(1),),
                                                  (satnono.Block(1), satnono.Block(1)), ())
    assert bw.goal == ("#..", "#.#", "...")
    [colour] = webpbn.read(OLD_COLOUR)
    assert colour == satnono.puzzle_from_colours([[1, 2, 0], [0, 3, 3]], RGB_PALETTE,
                                                 title="old colour")
    assert colour.goal == ("#r.", ".bb")


@pytest.mark.parametrize("text, line, words", [
    ('<puzzleset>\n<puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n'
     '</puzzle></puzzleset>', 2, 'no <clues type="columns">'),
    ('<puzzle>\n<clues type="rows">\n<line><count>x</count></line></clues>\n'
     '<clues type="columns"><line><count>1</count></line></clues></puzzle>', 3,
     "a block length"),
    ('<puzzle>\n<clues type="rows"><line><count color="pink">1</count></line></clues>\n'
     '<clues type="columns"><line><count>1</count></line></clues></puzzle>', 2,
     "not a colour of the puzzle"),
    ('<puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n'
     '<clues type="diagonals"><line><count>1</count></line></clues></puzzle>', 3,
     'expected type="rows"'),
    ('<puzzle>\n<clues type="rows">\n<line><count>2</count></line></clues>\n'
     '<clues type="columns"><line><count>1</count></line></clues></puzzle>', 3,
     "needs 2 cells"),
    ('<puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n'
     '<clues type="columns"><line><count>1</count></line></clues>\n'
     '<solution><image>\n|XX|\n</image></solution></puzzle>', 5, "goal image row of 2 cells"),
    ('<puzzle>\n<clues type="rows"><line><count>1</count></line>\n</clue>', 3,
     "not well-formed"),
    ('<puzzles/>', 1, "expected <puzzleset> or <puzzle>"),
])
def test_bad_webpbn_names_the_line_and_the_problem(text, line, words):
    with pytest.raises(ParseError) as err:
        webpbn.read(text, "f.xml")
    assert err.value.line == line and words in err.value.message, str(err.value)


def test_implicit_black_and_white_and_goal_chars_of_the_file():
    # no <color> at all (pbnsolve supplies white "." and black "X"), a count without color=
    text = ('<puzzle><clues type="rows"><line><count>1</count></line><line></line></clues>'
            '<clues type="columns"><line></line><line><count>1</count></line></clues>'
            '<solution type="goal"><image>|.X|\n|..|</image></solution>'
            '<solution type="saved"><image>|??|\n|??|</image></solution></puzzle>')
    [p] = webpbn.read(text)
    assert p.palette.black_and_white and p.goal == (".#", "..")


def test_deep_nesting_is_a_parse_error_not_a_crash():
    text = "<puzzle>" + "<a>" * 100_000 + "</a>" * 100_000 + "</puzzle>"
    with pytest.raises(ParseError):
        webpbn.read(text)


# ------------------------------------------------------------------ pbnsolve, a real client

def _pbnsolve() -> str | None:
    return os.environ.get("PBNSOLVE") or shutil.which("pbnsolve")


needs_pbnsolve = pytest.mark.skipif(
    _pbnsolve() is None, reason="pbnsolve is not built (set PBNSOLVE to its binary; build it "
    "from its public C source with libxml2)")


@needs_pbnsolve
@pytest.mark.parametrize("which, fmt", [("bw", "webpbn"), ("colour", "webpbn"), ("bw", "non"),
                                        ("bw", "mk"), ("bw", "nin")])
def test_pbnsolve_reads_what_we_write_and_finds_our_solution(which, fmt, tmp_path):
    from satnono.io.formats import FORMATS, write_puzzle

    if which == "bw":
        mum = WEBPBN / "wolter" / "webpbn-00065.xml"  # moderate lookahead, when present
        puzzle = satnono.load(str(mum) if mum.exists() else "puzzles/cup.non")
    else:
        puzzle = satnono.puzzle_from_colours(
            [[1, 2, 2, 0, 3], [0, 1, 0, 3, 3], [2, 2, 1, 1, 0], [3, 0, 0, 2, 1]], RGB_PALETTE)
    path = tmp_path / ("p" + (FORMATS[fmt].extensions[0] if fmt != "webpbn" else ".xml"))
    path.write_text(write_puzzle(puzzle, fmt))
    proc = subprocess.run([_pbnsolve(), "-u", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "UNIQUE" in proc.stdout, proc.stdout
    chars = puzzle.palette.chars
    drawn = set(chars) | {"X"}  # pbnsolve draws black as X in formats without chars
    grid = [r.replace("X", chars[1]) for r in proc.stdout.splitlines()
            if len(r) == puzzle.width and set(r) <= drawn]
    ours = next(iter(satnono.solve(puzzle, limit=1)))
    assert grid == ours.strings(chars=chars)
