"""The line solvers against brute force: the whole contract, on thousands of random lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.logic.line import (
    LineCache,
    _reverse,
    line_feasible,
    narrow,
    solve_line,
)
from satnono.logic.line_reference import solve_line_reference
from satnono.model.puzzle import line_clue

from .conftest import brute_line, examples


@st.composite
def lines(draw, max_n: int = 14):
    n = draw(st.integers(0, max_n))
    if draw(st.booleans()):  # the clue of a real filling, so most lines are feasible
        clue = line_clue(draw(st.integers(0, (1 << n) - 1 if n else 0)), n)
    else:  # any clue at all, often infeasible
        clue = tuple(draw(st.lists(st.integers(1, max(1, n)), max_size=4)))
    known = draw(st.integers(0, (1 << n) - 1 if n else 0))
    values = draw(st.integers(0, (1 << n) - 1 if n else 0))
    if draw(st.booleans()):  # knowledge taken from a real filling: consistent
        values = draw(st.integers(0, (1 << n) - 1 if n else 0))
    return clue, n, known & values, known & ~values


def _as_pair(result):
    return None if result is None else (result.filled, result.empty)


@settings(max_examples=examples(4000), deadline=None)
@given(lines())
def test_fast_and_reference_equal_brute_force(line):
    clue, n, filled, empty = line
    expected = brute_line(clue, n, filled, empty)
    assert _as_pair(solve_line(clue, n, filled, empty)) == expected
    assert _as_pair(solve_line_reference(clue, n, filled, empty)) == expected
    assert line_feasible(clue, n, filled, empty) == (expected is not None)
    # the same contract in what each cell may still be, as propagation asks it
    full = (1 << n) - 1
    may = (full & ~filled, full & ~empty)
    narrowed = narrow(clue, n, *may)
    assert narrowed == (None if expected is None else
                        (full & ~expected[0], full & ~expected[1]))
    cache = LineCache()
    assert cache.feasible(clue, n, *may) == (expected is not None)  # computed
    assert cache.solve(clue, n, *may) == narrowed
    cache.feasibility.clear()
    assert cache.feasible(clue, n, *may) == (expected is not None)  # from solve


@settings(max_examples=examples(2000), deadline=None)
@given(lines())
def test_block_starts_agree_and_are_exactly_the_feasible_ones(line):
    clue, n, filled, empty = line
    fast = solve_line(clue, n, filled, empty)
    ref = solve_line_reference(clue, n, filled, empty)
    assert (fast is None) == (ref is None)
    if fast is not None and ref is not None:
        assert fast.starts == ref.starts
        # a start is feasible iff some full consistent filling puts the block there
        fits = [m for m in range(1 << n) if m & filled == filled and not m & empty
                and line_clue(m, n) == clue]
        for j in range(len(clue)):
            expected = 0
            for m in fits:
                expected |= 1 << _block_start(m, n, j)
            assert fast.starts[j] == expected, (clue, n, j)


def _block_start(mask: int, n: int, j: int) -> int:
    seen = -1
    for i in range(n):
        if mask >> i & 1 and (i == 0 or not mask >> (i - 1) & 1):
            seen += 1
            if seen == j:
                return i
    return -1


def test_known_examples():
    # clue 4,1 on 8 cells: the 4-block starts at 0..2, so cells 2 and 3 are certain
    r = solve_line((4, 1), 8)
    assert r is not None and r.filled == 0b1100 and r.empty == 0 and r.starts == (0b111, 0b11100000)
    # empty clue: every cell empty; a known filled cell contradicts it
    assert solve_line((), 5).empty == 0b11111
    assert solve_line((), 5, filled=0b100) is None
    # a clue longer than the line
    assert solve_line((3, 3), 6) is None
    # zero-length line
    assert solve_line((), 0) is not None and solve_line((1,), 0) is None


def test_long_lines_agree_with_reference():
    import random

    rng = random.Random(7)
    for n in (25, 100, 500):
        for _ in range(30):
            m = rng.getrandbits(n)
            clue = line_clue(m, n)
            known = rng.getrandbits(n) & rng.getrandbits(n)
            f, e = known & m, known & ~m
            assert solve_line(clue, n, f, e) == solve_line_reference(clue, n, f, e)


def test_cache_returns_the_solver_answer_and_counts_hits():
    cache = LineCache(max_entries=2)
    a = cache.solve((2,), 4, 0b1111, 0b1111)
    assert a == narrow((2,), 4, 0b1111, 0b1111)
    assert cache.solve((2,), 4, 0b1111, 0b1111) is a and cache.hits == 1
    cache.solve((1,), 4, 0b1111, 0b1111)
    cache.solve((1,), 3, 0b111, 0b111)  # overflows: the table starts again
    assert len(cache.table) <= 2


@given(st.integers(0, 130).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, (1 << n) - 1))))
def test_reverse_flips_the_n_low_bits(case):
    n, x = case
    assert _reverse(x, n) == sum(1 << (n - 1 - i) for i in range(n) if x >> i & 1)


# ------------------------------------------------------------------ colour lines


def _placements(blocks, n):
    """Every line the blocks make, as one colour index per cell: brute force."""
    def place(j, p, line):
        if j == len(blocks):
            yield line + [0] * (n - p)
            return
        b, colour = blocks[j]
        gap = 1 if j and blocks[j - 1][1] == colour else 0
        for s in range(p + gap, n - b + 1):
            yield from place(j + 1, s + b, line + [0] * (s - p) + [colour] * b)

    yield from place(0, 0, [])


def brute_colour(blocks, n, may):
    fits = [ln for ln in _placements(blocks, n)
            if all(may[c] >> i & 1 for i, c in enumerate(ln))]
    if not fits:
        return None
    out = [0] * len(may)
    for ln in fits:
        for i, c in enumerate(ln):
            out[c] |= 1 << i
    return tuple(out)


@st.composite
def colour_lines(draw, max_n: int = 12, max_colours: int = 4):
    n = draw(st.integers(0, max_n))
    colours = draw(st.integers(1, max_colours))
    if draw(st.booleans()):  # the blocks of a real line, so most lines are feasible
        cells = draw(st.lists(st.integers(0, colours), min_size=n, max_size=n))
        blocks, i = [], 0
        while i < n:
            if cells[i]:
                j = i
                while j < n and cells[j] == cells[i]:
                    j += 1
                blocks.append((j - i, cells[i]))
                i = j
            else:
                i += 1
    else:  # any blocks at all, often infeasible
        blocks = draw(st.lists(st.tuples(st.integers(1, max(1, n)), st.integers(1, colours)),
                               max_size=4))
    full = (1 << n) - 1
    may = [full] * (colours + 1)
    for c in range(colours + 1):  # some knowledge: colours ruled out here and there
        if draw(st.booleans()):
            may[c] &= ~draw(st.integers(0, full))
    return tuple(blocks), n, tuple(may)


@settings(max_examples=examples(2500), deadline=None)
@given(colour_lines())
def test_colour_line_solvers_equal_brute_force(line):
    from satnono.logic.line import feasible_colour, narrow_colour
    from satnono.logic.line_reference import solve_colour_reference

    blocks, n, may = line
    expected = brute_colour(blocks, n, may)
    assert narrow_colour(blocks, n, may) == expected
    assert solve_colour_reference(blocks, n, may) == expected
    assert feasible_colour(blocks, n, may) == (expected is not None)


@settings(max_examples=examples(500), deadline=None)
@given(lines())
def test_the_colour_solver_with_one_colour_is_the_black_and_white_one(line):
    from satnono.logic.line import narrow_colour

    clue, n, filled, empty = line
    full = (1 << n) - 1
    may = (full & ~filled, full & ~empty)
    assert narrow_colour(tuple((b, 1) for b in clue), n, may) == narrow(clue, n, *may)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2**81 - 1), st.integers(0, 3))
def test_propagation_through_either_line_solver_reaches_the_same_board(w, h, bits, thin):
    """The seam: a black-and-white puzzle propagated with its fast path and with the colour
    solver (a palette of one colour) reaches the same fixed point, or both a contradiction
    (the clues of one picture, with a cell of another forced in)."""
    from satnono.logic.context import Context
    from satnono.logic.propagate import propagate
    from satnono.model.puzzle import Puzzle

    for _ in range(thin):
        bits &= bits >> 1  # sparser pictures too
    rows = [bits >> (r * w) & ((1 << w) - 1) for r in range(h)]
    cols = [sum((rows[r] >> c & 1) << r for r in range(h)) for c in range(w)]
    p = Puzzle(tuple(line_clue(m, w) for m in rows), tuple(line_clue(m, h) for m in cols))
    boards = []
    for general in (False, True):
        ctx = Context(p, general=general)
        board = ctx.board()
        board.set(0, 0, 1 - (rows[0] & 1) if bits & 2 else rows[0] & 1)
        ok = propagate(ctx, board)
        boards.append(board.strings() if ok else None)
    assert boards[0] == boards[1]
