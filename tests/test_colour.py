"""Colour puzzles end to end: every backend finds what brute force finds (none, one,
several, very many), the counts agree, the colour CNF propagates exactly as the colour line
solver narrows, the colour formats keep every block's colour, and the commands handle
colour as users meet it."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Block, Palette, Puzzle, is_solution, solve, validate
from satnono.analyze.count import count
from satnono.analyze.uniqueness import switches
from satnono.backends import BACKENDS
from satnono.cli import main
from satnono.encode.colour import cell_clauses, encode_colour_line
from satnono.io.formats import read_bytes, write_puzzle
from satnono.logic.line import narrow_colour
from satnono.model.puzzle import colour_runs, puzzle_from_colours

from .conftest import (
    RGB_PALETTE,
    brute_colour_solutions,
    colour_placements,
    examples,
    random_colour_grid,
)
from .test_encode import unit_propagate

#: every backend over many small puzzles: in the state batch and bench run them in
pytestmark = pytest.mark.usefixtures("libraries_loaded")


def palette(colours: int) -> Palette:
    """White and the first ``colours`` block colours of the test palette."""
    return Palette(RGB_PALETTE.colours[:colours + 1])


def found(puzzle: Puzzle, backend: str, limit: int | None = None) -> list[tuple[str, ...]]:
    sols = list(solve(puzzle, backend, limit=limit))
    assert all(is_solution(puzzle, s) for s in sols), backend
    return [tuple(s.strings(chars=puzzle.palette.chars)) for s in sols]


def mismatched(rng: random.Random, w: int, h: int, colours: int) -> Puzzle:
    """Row clues of one picture, column clues of the same picture with its rows shuffled:
    every colour's totals agree (so the clues pass validation), yet often nothing fits."""
    grid = random_colour_grid(rng, w, h, colours, 0.6)
    other = grid[:]
    rng.shuffle(other)
    a = puzzle_from_colours(grid, palette(colours))
    b = puzzle_from_colours(other, palette(colours))
    return Puzzle(a.rows, b.columns, palette=a.palette)


# ------------------------------------------------------------------ backends


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 3), st.floats(0.3, 0.9),
       st.integers(0, 2**32))
def test_small_colour_pictures_every_backend_equals_brute_force(w, h, colours, density, seed):
    grid = random_colour_grid(random.Random(seed), w, h, colours, density)
    p = puzzle_from_colours(grid, palette(colours))
    truth = brute_colour_solutions(p)
    assert tuple(p.goal) in truth
    for b in BACKENDS:
        sols = found(p, b)
        assert len(sols) == len(set(sols)), b
        assert set(sols) == truth, b


def test_mismatched_colour_clues_every_backend_equals_brute_force():
    rng = random.Random(26)
    sizes = []
    for _ in range(40):
        p = mismatched(rng, rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 3))
        validate(p)
        truth = brute_colour_solutions(p)
        sizes.append(len(truth))
        for b in BACKENDS:
            assert set(found(p, b)) == truth, b
    # the draw covers puzzles with no solution as well as with one and with several
    assert 0 in sizes and 1 in sizes and max(sizes) > 1


@pytest.mark.full
def test_a_hundred_random_colour_pictures_up_to_15x15_agree_everywhere():
    """1×1 to 15×15, 2 to 5 colours, densities 0.3 to 0.9: every backend returns the same
    solutions (up to 20 of them), the picture among them when the list is whole."""
    rng = random.Random(2026)
    whole = 0
    for _ in range(100):
        w, h = rng.randint(1, 15), rng.randint(1, 15)
        colours = rng.randint(2, 5)
        grid = random_colour_grid(rng, w, h, colours, rng.uniform(0.3, 0.9))
        p = puzzle_from_colours(grid, palette(min(colours, 3)) if colours <= 3 else
                                wide_palette(colours))
        sets = {b: found(p, b, 20) for b in BACKENDS}
        assert len({len(s) for s in sets.values()}) == 1, {b: len(s) for b, s in sets.items()}
        if len(sets["sat"]) < 20:
            whole += 1
            assert len({frozenset(s) for s in sets.values()}) == 1
            assert tuple(p.goal) in sets["sat"]
    assert whole > 75


def wide_palette(colours: int) -> Palette:
    from satnono import Colour

    extra = (Colour("green", "g", "10a020"), Colour("yellow", "y", "f0c800"))
    return Palette(RGB_PALETTE.colours + extra[:colours - 3])


@pytest.mark.parametrize("seed", range(8))
def test_random_colour_pictures_up_to_25x25_agree(seed):
    rng = random.Random(100 + seed)
    w, h = rng.randint(8, 25), rng.randint(8, 25)
    colours = rng.choice([2, 3])
    grid = random_colour_grid(rng, w, h, colours, rng.choice([0.5, 0.7, 0.85]))
    p = puzzle_from_colours(grid, palette(colours))
    limit = 30
    sets = {b: found(p, b, limit) for b in BACKENDS}
    sizes = {len(s) for s in sets.values()}
    assert len(sizes) == 1, {b: len(s) for b, s in sets.items()}
    if sizes.pop() < limit:  # complete: identical sets, the picture among them
        assert len({frozenset(s) for s in sets.values()}) == 1
        assert tuple(p.goal) in sets["sat"]


def red_permutation(n: int) -> Puzzle:
    """One red cell in every row and column: n! solutions."""
    red = ((Block(1, "red"),),) * n
    return Puzzle(red, red, palette=palette(2))


@pytest.mark.parametrize("n", [1, 3, 5])
def test_colour_permutations_have_n_factorial_solutions_everywhere(n):
    p = red_permutation(n)
    for b in BACKENDS:
        assert len(set(found(p, b))) == math.factorial(n), b


@pytest.mark.full
def test_colour_counts_agree_by_every_method():
    for p, expected in ((red_permutation(7), 5040), (mismatched(random.Random(3), 4, 4, 2),
                                                      None)):
        counts = {b: len(found(p, b)) for b in ("native", "sat", "cpsat")}
        for method in ("enumerate", "ganak"):
            res = count(p, method, timeout=60)
            assert res.complete
            counts[method] = res.count
        res = count(p, "auto", threshold=1, timeout=60)
        assert res.complete
        counts["auto"] = res.count
        truth = expected if expected is not None else len(brute_colour_solutions(p))
        assert set(counts.values()) == {truth}, counts


def test_auto_counts_past_its_threshold_in_colour_by_the_counters_race():
    """Past the threshold auto races the compiled counter, Ganak and enumeration (the two
    last alone where the engine is not built); each counts alike on its own."""
    from satnono.logic.compiled import available

    res = count(red_permutation(8), "auto", timeout=120)
    assert (res.count, res.complete) == (math.factorial(8), True)
    if available():
        assert res.method in ("compiled counter", "ganak") and "races" in res.why
    else:
        assert res.method in ("ganak", "enumerate (sat)") and "does not run here" in res.why
    for method in ("compiled", "ganak") if available() else ("ganak",):
        res = count(red_permutation(8), method, timeout=120)
        assert (res.count, res.complete) == (math.factorial(8), True)


def test_a_black_and_white_picture_in_a_colour_palette_has_the_same_solutions():
    """One colour used of two: the colour paths, the black-and-white picture's solutions
    (every stage against its twin: tests/test_twins.py)."""
    rng = random.Random(5)
    for _ in range(10):
        grid = random_colour_grid(rng, 5, 5, 1, 0.55)
        bw = puzzle_from_colours(grid, palette(1))
        in_colour = puzzle_from_colours(grid, palette(2))  # red unused
        assert bw.palette.black_and_white and not in_colour.palette.black_and_white
        want = brute_colour_solutions(bw)
        assert set(found(bw, "sat")) == want == set(found(bw, "native"))
        assert set(found(in_colour, "sat")) == brute_colour_solutions(in_colour)
        assert set(found(in_colour, "native")) == brute_colour_solutions(in_colour)
        assert len(brute_colour_solutions(in_colour)) == len(want)


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32))
def test_check_names_every_cell_that_differs_and_every_colour_it_takes(seed):
    from satnono import Verdict, uniqueness

    rng = random.Random(seed)
    p = mismatched(rng, rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 3)) \
        if rng.random() < 0.3 else puzzle_from_colours(
            random_colour_grid(rng, rng.randint(2, 5), rng.randint(2, 4), 2, 0.4), palette(2))
    truth = brute_colour_solutions(p)
    u = uniqueness(p)
    expected = {0: Verdict.NONE, 1: Verdict.UNIQUE}.get(len(truth), Verdict.MULTIPLE)
    assert u.verdict is expected
    if expected is not Verdict.MULTIPLE:
        return
    chars = p.palette.chars
    takes = {(r, c): tuple(sorted({chars.index(s[r][c]) for s in truth}))
             for r in range(p.height) for c in range(p.width)}
    differ = {cell: ks for cell, ks in takes.items() if len(ks) > 1}
    assert sorted(differ) == u.ambiguous
    assert u.takes == differ


# ------------------------------------------------------------------ the colour CNF


def _colour_line_case(rng: random.Random, max_n: int):
    n = rng.randint(1, max_n)
    colours = rng.randint(1, 4)
    line = [rng.randint(1, colours) if rng.random() < 0.6 else 0 for _ in range(n)]
    blocks = colour_runs(line) if rng.random() < 0.85 else tuple(
        (rng.randint(1, 4), rng.randint(1, colours)) for _ in range(rng.randint(0, 3)))
    full = (1 << n) - 1
    # colours ruled out when encoding, then more during search; the picture's own colour
    # stays possible mostly, so that most cases are feasible
    may1, may2 = [], []
    for k in range(colours + 1):
        own = sum(1 << i for i, v in enumerate(line) if v == k)
        out1 = rng.getrandbits(n) & rng.getrandbits(n) & rng.getrandbits(n)
        out2 = out1 | (rng.getrandbits(n) & rng.getrandbits(n))
        if rng.random() < 0.8:
            out1, out2 = out1 & ~own, out2 & ~own
        may1.append(full & ~out1)
        may2.append(full & ~out2)
    return tuple(blocks), n, tuple(may1), tuple(may2)


def _check_colour_line(blocks, n, may1, may2) -> None:
    k = len(may1)
    opts = [[v for v in range(k) if may1[v] >> i & 1] for i in range(n)]
    clauses: list[list[int]] = []
    top = [0]

    def new_var() -> int:
        top[0] += 1
        return top[0]

    lits: dict[tuple[int, int], int] = {}

    def cell_var(i: int, v: int) -> int:
        if (i, v) not in lits:
            lits[(i, v)] = new_var()
        return lits[(i, v)]

    if any(not o for o in opts) or narrow_colour(blocks, n, may1) is None:
        assert not encode_colour_line(clauses, new_var, blocks, n, may1, cell_var) \
            or any(not o for o in opts)
        return
    for i in range(n):
        if len(opts[i]) > 1:
            clauses.extend(cell_clauses([cell_var(i, v) for v in opts[i]]))
    assert encode_colour_line(clauses, new_var, blocks, n, may1, cell_var)
    units = [-x for (i, v), x in lits.items() if not may2[v] >> i & 1]
    val = unit_propagate(clauses, units)
    # what search knows later; a cell known when encoding has no literal and stays as it was
    settled = sum(1 << i for i in range(n) if len(opts[i]) == 1)
    both = tuple(a & (b | settled) for a, b in zip(may1, may2))
    expected = narrow_colour(blocks, n, both) if all(
        any(m >> i & 1 for m in both) for i in range(n)) else None
    assert (val is None) == (expected is None), (blocks, n, may1, may2)
    if expected is None:
        return
    for i in range(n):
        left = {v for v in opts[i] if (i, v) not in lits or val.get(lits[(i, v)]) is not False}
        if len(opts[i]) == 1:
            continue  # known when encoding: no literal
        assert left == {v for v in range(k) if expected[v] >> i & 1}, (blocks, n, i)


def test_colour_unit_propagation_equals_the_colour_line_solver_on_ten_thousand_lines():
    """The colour CNF of a line is arc consistent by unit propagation alone: it removes
    exactly the colours the complete line solver removes, whatever else is known."""
    rng = random.Random(2611)
    for _ in range(examples(10_000)):
        _check_colour_line(*_colour_line_case(rng, 16))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**64))
def test_colour_unit_propagation_equals_the_line_solver_hypothesis(seed):
    _check_colour_line(*_colour_line_case(random.Random(seed), 10))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 7), st.integers(1, 3), st.integers(0, 2**64))
def test_a_full_colour_line_is_decided_by_unit_propagation(n, colours, seed):
    """Every cell given: unit propagation accepts exactly the lines the clue describes,
    and fixes every automaton variable (what makes blocking clauses and counting over
    the cells exact)."""
    rng = random.Random(seed)
    picture = [rng.randint(0, colours) for _ in range(n)]
    blocks = colour_runs(picture)
    full = (1 << n) - 1
    may = tuple([full] * (colours + 1))
    clauses: list[list[int]] = []
    top = [0]

    def new_var() -> int:
        top[0] += 1
        return top[0]

    lits: dict[tuple[int, int], int] = {}

    def cell_var(i: int, v: int) -> int:
        return lits.setdefault((i, v), new_var())

    assert encode_colour_line(clauses, new_var, blocks, n, may, cell_var)
    fits = set(colour_placements(blocks, n))
    for _ in range(30):
        line = tuple(rng.randint(0, colours) for _ in range(n)) if rng.random() < 0.7 \
            else tuple(picture)
        units = [x if line[i] == v else -x for (i, v), x in lits.items()]
        val = unit_propagate(clauses, units)
        assert (val is not None) == (line in fits), (blocks, line)
        if val is not None:
            assert len(val) == top[0]


# ------------------------------------------------------------------ switches


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.integers(0, 2**32))
def test_colour_switches_are_the_checkerboards_that_keep_every_clue(w, h, seed):
    grid = random_colour_grid(random.Random(seed), w, h, 2, 0.6)
    p = puzzle_from_colours(grid, palette(2))
    goal = p.goal_solution()
    assert goal is not None
    expected = []
    for r in range(h - 1):
        for c in range(w - 1):
            a, b = grid[r][c], grid[r][c + 1]
            if a == b or grid[r + 1][c] != b or grid[r + 1][c + 1] != a:
                continue
            flipped = [row[:] for row in grid]
            flipped[r][c], flipped[r][c + 1] = b, a
            flipped[r + 1][c], flipped[r + 1][c + 1] = a, b
            q = puzzle_from_colours(flipped, palette(2))
            if (q.rows, q.columns) == (p.rows, p.columns):
                expected.append((r, c))
    assert switches(goal) == expected


# ------------------------------------------------------------------ formats


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 3), st.integers(0, 2**32))
def test_json_and_webpbn_keep_colour_clues_palette_and_goal(w, h, colours, seed):
    grid = random_colour_grid(random.Random(seed), w, h, colours, 0.6)
    p = puzzle_from_colours(grid, palette(colours), title="colour test")
    for fmt in ("json", "webpbn"):
        (back,) = read_bytes(write_puzzle(p, fmt).encode(), f"p.{fmt}", fmt)
        assert (back.rows, back.columns) == (p.rows, p.columns), fmt
        assert back.palette == p.palette, fmt
        assert back.goal == p.goal, fmt


def test_black_and_white_formats_refuse_to_write_colour():
    p = red_permutation(3)
    for fmt in ("non", "g", "mk", "nin", "japan", "taai"):
        with pytest.raises(Exception, match="black-and-white puzzles only"):
            write_puzzle(p, fmt)


# ------------------------------------------------------------------ commands


#: a small colour picture with one solution
KITE = [[0, 2, 2, 0], [1, 2, 3, 1], [0, 3, 3, 0], [1, 0, 0, 1]]


@pytest.fixture
def colour_file(tmp_path) -> Path:
    path = tmp_path / "kite.json"
    path.write_text(write_puzzle(puzzle_from_colours(KITE, palette(3), title="kite"), "json"))
    return path


def test_solve_prints_a_colour_grid_in_the_palette_characters(colour_file, capsys):
    assert main(["solve", str(colour_file)]) == 0
    out = capsys.readouterr().out.split()
    assert out == [".rr.", "#rb#", ".bb.", "#..#"]


def test_colour_json_records_name_the_palette_and_match_the_schema(colour_file, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from satnono.io.records import SCHEMA

    schema = json.loads(SCHEMA.read_text())
    for argv in (["solve", str(colour_file), "--to", "json"],
                 ["count", str(colour_file), "--json"],
                 ["check", str(colour_file), "--json"]):
        main(argv)
        record = json.loads(capsys.readouterr().out)
        jsonschema.validate(record, schema)
        assert [c["char"] for c in record["puzzle"]["colours"]] == list(".#rb")
        assert record["count"] == 1


def test_colour_to_a_black_and_white_output_is_refused_before_writing(colour_file, tmp_path,
                                                                      capsys):
    for fmt in ("sol", "pbm", "non"):
        out = tmp_path / f"out.{fmt}"
        assert main(["solve", str(colour_file), "--to", fmt, "-o", str(out)]) == 2
        assert "colour" in capsys.readouterr().err
        assert not out.exists()


def test_render_paints_cells_and_clues_in_their_colours(colour_file, tmp_path):
    from PIL import Image

    out = tmp_path / "kite.png"
    assert main(["render", str(colour_file), "-o", str(out), "--no-clues", "--cell", "10"]) == 0
    img = Image.open(out).convert("RGB")
    pad = 10 // 2 + 2
    at = {(r, c): img.getpixel((pad + c * 10 + 5, pad + r * 10 + 5))
          for r in range(4) for c in range(4)}
    assert at[(0, 1)] == (0xe0, 0x10, 0x10)  # red
    assert at[(1, 2)] == (0x10, 0x30, 0xe0)  # blue
    assert at[(0, 0)] == (255, 255, 255)
    svg = tmp_path / "kite.svg"
    assert main(["render", str(colour_file), "-o", str(svg), "--blank"]) == 0
    text = svg.read_text()
    assert 'fill="#e01010"' in text and 'fill="#1030e0"' in text  # the clue squares


def test_make_keeps_the_colours_of_an_image(tmp_path, capsys):
    from PIL import Image

    grid = [[0, 1, 1, 0, 2], [1, 2, 2, 1, 2], [0, 2, 0, 0, 2]]
    rgb = {0: (255, 255, 255), 1: (200, 20, 20), 2: (20, 40, 200)}
    img = Image.new("RGB", (5 * 8, 3 * 8))
    for r, row in enumerate(grid):  # 8×8 pixels a cell, scaled down to 5×3
        for c, v in enumerate(row):
            img.paste(rgb[v], (c * 8, r * 8, c * 8 + 8, r * 8 + 8))
    pic = tmp_path / "pic.png"
    img.save(pic)
    out = tmp_path / "pic.json"
    status = main(["make", str(pic), "--colours", "2", "--size", "5x3", "-o", str(out)])
    assert status in (0, 5)
    (p,) = read_bytes(out.read_bytes(), str(out), "json")
    names = [c.name for c in p.palette.colours]
    assert names[0] == "white" and {"red", "blue"} <= set(names)
    chars = {names.index(n): p.palette.chars[names.index(n)] for n in names}
    red, blue = names.index("red"), names.index("blue")
    expected = ["".join(chars[{0: 0, 1: red, 2: blue}[v]] for v in row) for row in grid]
    assert list(p.goal) == expected
    assert main(["make", str(pic), "--colours", "2", "--to", "non"]) == 2
    assert "black-and-white puzzles only" in capsys.readouterr().err


def test_trace_reports_colour_steps_and_animates_in_the_palette(tmp_path):
    from PIL import Image

    from satnono.logic.events import LineSolved

    grid = KITE
    p = puzzle_from_colours(grid, palette(3), title="trace")
    assert len(brute_colour_solutions(p)) == 1
    seen = []
    (sol,) = list(solve(p, "native", observer=lambda e, b: seen.append(e)))
    steps = [e for e in seen if isinstance(e, LineSolved)]
    assert steps and all(e.filled + e.empty + e.narrowed > 0 for e in steps)
    assert any(e.narrowed for e in steps)  # colour narrows before it fixes
    path = tmp_path / "p.json"
    path.write_text(write_puzzle(p, "json"))
    gif = tmp_path / "p.gif"
    assert main(["solve", str(path), "--trace-gif", str(gif)]) == 0
    img = Image.open(gif)
    img.seek(img.n_frames - 1)
    last = img.convert("RGB")
    cell = last.width // p.width
    rgb = {k: tuple(int(c.rgb[i:i + 2], 16) for i in (0, 2, 4))
           for k, c in enumerate(p.palette.colours)}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            assert last.getpixel((c * cell + cell // 2, r * cell + cell // 2)) == rgb[v]
