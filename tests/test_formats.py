"""Readers: round trips with their writers, fuzzing, and every corpus file of each format."""

from __future__ import annotations

import collections
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satnono.errors import ParseError
from satnono.io.formats import FORMATS, PUZZLE_WRITERS, read_bytes, write_puzzle
from satnono.io.formats.picture import pbm_write
from satnono.model.puzzle import Solution, problems, puzzle_from_picture

from .conftest import corpus_path, corpus_pick, corpus_rows, examples, needs_corpus


@st.composite
def pictures(draw, max_side: int = 12, square: bool = False):
    w = draw(st.integers(1, max_side))
    h = w if square else draw(st.integers(1, max_side))
    rows = draw(st.lists(st.integers(0, (1 << w) - 1), min_size=h, max_size=h))
    return Solution(w, tuple(rows))


@pytest.mark.parametrize("fmt", PUZZLE_WRITERS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), title=st.sampled_from([None, "Cat", "A \"quoted\" & <odd> title"]))
def test_every_writer_round_trips_through_its_reader(fmt, data, title):
    pic = data.draw(pictures(square=fmt == "taai"))  # tournament files are square
    p = puzzle_from_picture(pic, title=title)
    text = write_puzzle(p, fmt)
    back = read_bytes(text.encode(), f"x.{fmt}", fmt)
    assert len(back) == 1
    assert (back[0].rows, back[0].columns) == (p.rows, p.columns)


@pytest.mark.parametrize("fmt", [f for f in PUZZLE_WRITERS if f not in ("grid",)])
def test_detection_finds_each_written_format_without_help(fmt):
    pic = Solution(5, (0b10110, 0b00111, 0b11111, 0b00000, 0b10001))
    p = puzzle_from_picture(pic, title="Five")
    text = write_puzzle(p, fmt)
    ext = FORMATS[fmt].extensions[0] if FORMATS[fmt].extensions else ".txt"
    (back,) = read_bytes(text.encode(), "puzzle" + ext)
    assert (back.rows, back.columns) == (p.rows, p.columns)


@settings(max_examples=examples(80), deadline=None)
@given(pic=pictures(20))
def test_pbm_picture_gives_the_clues_of_the_picture(pic):
    (p,) = read_bytes(pbm_write(pic), "x.pbm")
    assert p == puzzle_from_picture(pic)
    ascii_pbm = f"P1\n# comment\n{pic.width} {pic.height}\n" + "\n".join(
        " ".join("1" if ch == "#" else "0" for ch in row) for row in pic.strings())
    (q,) = read_bytes(ascii_pbm.encode(), "y.pbm")
    assert q == p and q.goal == tuple(pic.strings())


def test_multi_puzzle_files():
    a = puzzle_from_picture(Solution(3, (0b101, 0b010, 0b111)))
    b = puzzle_from_picture(Solution(2, (0b01, 0b11)))
    picross = FORMATS["picross"].write(a) + "\n" + FORMATS["picross"].write(b)
    assert [(p.rows, p.columns) for p in read_bytes(picross.encode(), "m.txt")] == [
        (a.rows, a.columns), (b.rows, b.columns)]
    spoj = "2\n" + "\n".join(FORMATS["spoj"].write(p).split("\n", 1)[1] for p in (a, b))
    assert len(read_bytes(spoj.encode(), "s.txt")) == 2


@pytest.mark.parametrize("text,fmt,expect", [
    ("2\n1 1\n1 x\n2\n1 1\n1 1\n", "japan", "x.dat:3: expected a block length, got 'x'"),
    ("2\n1 1\n2 1\n2\n1 1\n1 1\n", "japan", "x.dat:3: row 2: says 2 blocks but lists 1"),
    ("1\n1 3\n2\n1 1\n1 1\n", "japan", "x.dat:2: row 1: clue 3 needs 3 cells, the row has 2"),
    ("width 2\nheight 1\nrows\n1\ncolumns\n1\n1\n", "non",
     "x.non: the row clues fill 1 cells but the column clues fill 2"),
    ("width 2\nheight 1\nrows\n1a\ncolumns\n1\n0\n", "non", "the colour 'a' is not declared"),
    ("P1\n2 2\n1 0 1\n", "pbm", "x.pbm: the P1 body needs 4 digits 0/1"),
])
def test_bad_input_names_file_line_and_problem(text, fmt, expect):
    with pytest.raises(ParseError) as info:
        read_bytes(text.encode(), "x." + ("dat" if fmt == "japan" else fmt), fmt)
    assert expect in str(info.value)


def test_non_blank_line_is_spacing_unless_the_counts_need_it():
    """Simpson's empty clue is 0. A section one clue line short is an error, not a silent
    empty clue; blank lines that the count needs are empty clues, as pbnsolve reads them."""
    short = "width 3\nheight 3\nrows\n1\n1\n1\n\ncolumns\n1\n1\n\n"
    with pytest.raises(ParseError) as info:
        read_bytes(short.encode(), "x.non")
    assert info.value.line == 8 and "expected 3 column clues (the width), found 2" in str(
        info.value)
    spaced = "width 2\nheight 2\nrows\n\n1\n\n1\n\ncolumns\n2\n\n0\n"
    [p] = read_bytes(spaced.encode(), "x.non")
    assert lengths_of(p) == (((1,), (1,)), ((2,), ()))
    blank_empty = "width 3\nheight 3\nrows\n1\n\n1\ncolumns\n1\n0\n1\n"
    [p] = read_bytes(blank_empty.encode(), "x.non")
    assert lengths_of(p) == (((1,), (), (1,)), ((1,), (), (1,)))


def lengths_of(p):
    return p.lengths


def test_unknown_format_is_a_parse_error():
    from satnono.errors import UnknownFormat

    with pytest.raises(UnknownFormat, match="not a puzzle in any format satnono reads") as err:
        read_bytes(b"hello world\n", "x.txt")
    assert isinstance(err.value, ParseError) and "--from" not in str(err.value)  # the CLI's


def _seed_files() -> list[bytes]:
    pic = Solution(6, (0b101101, 0b011110, 0b110011, 0b000000, 0b111111))
    p = puzzle_from_picture(pic, title="Seed")
    out = [write_puzzle(p, f).encode() for f in PUZZLE_WRITERS if f != "taai"]
    return out + [pbm_write(pic)]


@settings(max_examples=examples(400), deadline=None)
@given(data=st.binary(max_size=300), name=st.sampled_from(
    ["x.txt", "x.non", "x.dat", "x.nin", "x.mk", "x.g", "x.json", "x.xml", "x.pbm", "x.toml",
     "x"]))
def test_fuzz_random_bytes_give_a_puzzle_or_a_parse_error(data, name):
    try:
        puzzles = read_bytes(data, name)
    except ParseError as exc:
        assert str(exc).startswith(name) and "\n" not in str(exc)  # one line, naming it
    else:
        assert puzzles and all(not problems(p) for p in puzzles)


@settings(max_examples=examples(600), deadline=None)
@given(st.data())
def test_fuzz_mutated_real_files(data):
    src = bytearray(data.draw(st.sampled_from(_seed_files())))
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "digit"]))
        pos = data.draw(st.integers(0, max(0, len(src) - 1)))
        if op == "flip" and src:
            src[pos] = data.draw(st.integers(0, 255))
        elif op == "insert":
            src[pos:pos] = data.draw(st.binary(min_size=1, max_size=4))
        elif op == "delete" and src:
            del src[pos:pos + data.draw(st.integers(1, 8))]
        elif op == "digit" and src:
            src[pos] = ord(data.draw(st.sampled_from("0123456789")))
    name = data.draw(st.sampled_from(["x.txt", "x.non", "x.dat", "x.json", "x.pbm", "x"]))
    try:
        puzzles = read_bytes(bytes(src), name)
    except ParseError as exc:
        assert str(exc).startswith(name) and "\n" not in str(exc)  # one line, naming it
    else:
        assert puzzles and all(not problems(p) for p in puzzles)


# ------------------------------------------------------------------ the corpus

def _corpus_by_format() -> dict[str, list[tuple[str, list[dict]]]]:
    files = collections.defaultdict(list)
    for row in corpus_rows():
        files[(row["format"], str(corpus_path(row)))].append(row)
    out = collections.defaultdict(list)
    for (fmt, path), rows in files.items():
        out[fmt].append((path, rows))
    return out


CORPUS_FORMATS = sorted(_corpus_by_format()) or ["(none)"]


@needs_corpus
@pytest.mark.parametrize("fmt", CORPUS_FORMATS)
def test_every_corpus_file_of_the_format_reads_and_validates(fmt):
    checked = 0
    for path, rows in _corpus_by_format()[fmt]:
        if rows[0]["kind"] == "triddler":
            with pytest.raises(ParseError, match="triddlers"):
                read_bytes(open(path, "rb").read(), path)
            continue
        if rows[0]["kind"] != "bw":
            continue  # colour: test_every_corpus_colour_file_reads_and_solves
        puzzles = read_bytes(open(path, "rb").read(), path)
        for row in rows:
            p = corpus_pick(puzzles, row["entry"])
            assert not problems(p)
            assert (p.width, p.height) == (int(row["width"]), int(row["height"])), path
            checked += 1
    assert checked or fmt == "(none)"


#: the colour files with triangle (half-filled) cells: not plain nonograms
TRIANGLES = ("alladin.g", "brontik.g", "noty.g")


@needs_corpus
def test_every_corpus_colour_file_reads_and_solves():
    """Every colour puzzle of the corpus reads with its size and palette, and is solved;
    where the file has a goal picture, it is among the solutions."""
    from satnono import is_solution, solve
    from satnono.model.solution import Solution

    colour = [row for row in corpus_rows() if row["kind"] == "color"]
    assert len(colour) >= 18
    solved = 0
    for row in colour:
        path = str(corpus_path(row))
        if path.endswith(TRIANGLES):
            with pytest.raises(ParseError, match="triangle cells"):
                read_bytes(open(path, "rb").read(), path)
            continue
        (p,) = read_bytes(open(path, "rb").read(), path)
        assert (p.width, p.height) == (int(row["width"]), int(row["height"])), path
        assert len(p.palette.colours) >= 3, path  # colour, not black and white
        sols = list(solve(p, limit=2, timeout=60))
        assert sols and all(is_solution(p, s) for s in sols), path
        if p.goal:
            goal = Solution.from_chars(p.goal, p.palette.chars)
            assert is_solution(p, goal) and (len(sols) > 1 or sols == [goal]), path
        solved += 1
    assert solved >= 15


@needs_corpus
def test_same_clue_hash_means_same_clues_in_every_format():
    groups = collections.defaultdict(set)
    files = collections.defaultdict(list)
    for row in corpus_rows():
        if row["kind"] == "bw":
            files[str(corpus_path(row))].append(row)
    for path, rows in files.items():
        puzzles = read_bytes(open(path, "rb").read(), path)
        for row in rows:
            p = corpus_pick(puzzles, row["entry"])
            groups[row["clue_hash"]].add((p.rows, p.columns))
    shared = [g for g in groups.values()]
    assert shared and all(len(g) == 1 for g in shared)
    assert sum(1 for row in corpus_rows() if row["kind"] == "bw"
               and int(row["copies_in_corpus"] or 1) > 1) > 0


def test_random_pictures_round_trip_through_json_with_metadata():
    rng = random.Random(3)
    for _ in range(20):
        pic = Solution(7, tuple(rng.getrandbits(7) for _ in range(4)))
        p = puzzle_from_picture(pic, title="T")
        (back,) = read_bytes(write_puzzle(p, "json").encode(), "p.json")
        assert back == p and back.goal == p.goal


def test_a_file_with_no_puzzle_is_a_parse_error():
    # found by the mutation fuzzer: a SPOJ count of 0 used to read as "no puzzles"
    from satnono.io.formats import read_bytes

    with pytest.raises(ParseError, match="at least 1"):
        read_bytes(b"0\n", "x.txt", "spoj")


# ------------------------------------------------------------------ structured attacks

_ATTACKS = ["huge", "negative", "zero", "drop line", "double line", "truncate", "nul",
            "utf16", "latin1", "long line", "count"]


@st.composite
def attacked(draw):
    """A file some writer made, then broken on purpose the way hostile or careless files
    are: numbers out of range, counts that disagree with the clues, cut short, NUL bytes,
    another encoding."""
    import re

    fmt = draw(st.sampled_from([f for f in PUZZLE_WRITERS]))
    pic = draw(pictures(8, square=fmt == "taai"))
    text = write_puzzle(puzzle_from_picture(pic, title="T"), fmt)
    for attack in draw(st.lists(st.sampled_from(_ATTACKS), min_size=1, max_size=3)):
        numbers = [m.span() for m in re.finditer(r"[0-9]+", text)]
        lines = text.split("\n")
        if attack in ("huge", "negative", "zero", "count") and numbers:
            a, b = numbers[draw(st.integers(0, len(numbers) - 1))]
            new = {"huge": "9" * draw(st.integers(10, 5000)), "negative": "-7", "zero": "0",
                   "count": str(int(text[a:b][:9]) + draw(st.integers(1, 3)))}[attack]
            text = text[:a] + new + text[b:]
        elif attack == "drop line" and len(lines) > 1:
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
        elif attack == "double line" and lines:
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif attack == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
        elif attack == "nul":
            k = draw(st.integers(0, len(text)))
            text = text[:k] + "\0" * draw(st.integers(1, 50)) + text[k:]
        elif attack == "long line":
            k = draw(st.integers(0, len(text)))
            text = text[:k] + "1 " * draw(st.integers(100, 20000)) + text[k:]
    encoding = draw(st.sampled_from(["utf-8", "utf-16", "latin-1"]))
    data = text.encode(encoding, errors="replace")
    ext = FORMATS[fmt].extensions[0] if FORMATS[fmt].extensions else ".txt"
    return fmt, "x" + ext, data


@settings(max_examples=examples(500), deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(attacked(), st.booleans())
def test_structured_attacks_on_every_reader_give_a_puzzle_or_a_parse_error(case, told):
    fmt, name, data = case
    try:
        puzzles = read_bytes(data, name, fmt if told else None)
    except ParseError as exc:
        assert str(exc).startswith(name) and "\n" not in str(exc)
    else:
        assert puzzles and all(not problems(p) for p in puzzles)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("data", [b"", b" \n\t\r\n"])
def test_an_empty_file_is_said_to_be_empty_in_every_format(fmt, data):
    """Empty (or only blank) input gets the same message whatever the format, named or
    guessed from the extension: not each reader's complaint about its first missing part."""
    ext = (FORMATS[fmt].extensions or (".txt",))[0]
    for name, given_fmt in ((f"x{ext}", None), ("x.txt", fmt)):
        with pytest.raises(ParseError) as err:
            read_bytes(data, name, given_fmt)
        assert str(err.value) == f"{name}: the file is empty"
