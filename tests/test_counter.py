"""The compiled counter, in black and white and in colour: its block extents against brute
force, its counts against brute force and enumeration, and its parts counted apart (a
product of thirty switches costs thirty small counts, not 2^30 leaves)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono import Puzzle, puzzle_from_picture, solve
from satnono.analyze.count import count
from satnono.logic.compiled import count_solutions, usable
from satnono.logic.line import solve_line
from satnono.model.puzzle import Palette, puzzle_from_colours
from satnono.model.solution import line_clue

from .conftest import (
    RGB_PALETTE,
    brute_colour_solutions,
    brute_solutions,
    colour_placements,
    examples,
    random_colour_grid,
    random_picture,
)

pytestmark = pytest.mark.skipif(not usable(Puzzle(((1,),), ((1,),))),
                                reason="the compiled code is turned off")


def placements(clue: tuple[int, ...], n: int, filled: int, empty: int) -> list[list[int]]:
    """Every placement of ``clue`` in ``n`` cells that fits the known cells, as each
    block's start."""
    out = []
    for m in range(1 << n):
        if m & filled != filled or m & empty or line_clue(m, n) != clue:
            continue
        starts, p = [], 0
        while p < n:
            if m >> p & 1:
                starts.append(p)
                while p < n and m >> p & 1:
                    p += 1
            p += 1
        out.append(starts)
    return out


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**32))
def test_block_extents_are_the_leftmost_and_rightmost_placements(n, seed):
    from satnono.engine.counter import extents
    from satnono.engine.search import Engine

    rng = random.Random(seed)
    picture = sum(1 << i for i in range(n) if rng.random() < 0.5)
    clue = line_clue(picture, n)
    known = sum(1 << i for i in range(n) if rng.random() < 0.4)
    fixed = solve_line(clue, n, picture & known, ~picture & known & ((1 << n) - 1))
    assert fixed is not None
    filled, empty = fixed.filled, fixed.empty  # a fixpoint, as the counter's lines are
    k = len(clue)
    assume(k > 0)
    # the row, n columns of no clue; the row's cells: may be empty, may be filled
    e = Engine(1, n, 1, list(clue), [1] * k, [0] + [k] * n, [k] + [0] * n)
    full = (1 << n) - 1
    e.set_root([[full & ~filled], [full & ~empty]])
    lo, hi = extents(e, 0)
    starts = placements(clue, n, filled, empty)
    assert lo == [min(s[j] for s in starts) for j in range(k)]
    assert hi == [max(s[j] for s in starts) for j in range(k)]


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.booleans(),
       st.integers(0, 2**32))
def test_counts_equal_brute_force(w, h, density, shuffle, seed):
    rng = random.Random(seed)
    p = puzzle_from_picture(random_picture(rng, w, h, density))
    if shuffle:  # clues of another picture's columns: often no solution at all
        other = puzzle_from_picture(random_picture(rng, w, h, density))
        p = Puzzle(p.rows, other.columns)
    assert count_solutions(p).count == len(brute_solutions(p))


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_black_and_white_counts_are_the_general_engines(w, h, density, seed):
    """The fast path's counts are those of the general engine, black and white a palette
    of one colour there."""
    p = puzzle_from_picture(random_picture(random.Random(seed), w, h, density))
    assert count_solutions(p).count == count_solutions(p, general=True).count


@pytest.mark.parametrize("seed", range(examples(10)))  # 10 in the full suite
def test_counts_equal_enumeration_on_medium_random_pictures(seed):
    rng = random.Random(5000 + seed)
    while True:  # draw until every solution can be listed
        side = rng.choice([10, 12, 15, 20])
        p = puzzle_from_picture(random_picture(rng, side, side, rng.choice([0.3, 0.5, 0.7])))
        listed = list(solve(p, "native", limit=5001))
        if 2 <= len(listed) <= 5000:
            break
    assert count_solutions(p).count == len(listed)


def switches(k: int) -> Puzzle:
    """Two rows crossing k 2×2 switches, each between two empty columns: 2^k solutions,
    every switch independent of the others once line logic has emptied the columns."""
    columns: list[tuple[int, ...]] = []
    for i in range(k):
        columns += [(1,), (1,)] + ([()] if i < k - 1 else [])
    return Puzzle(((1,) * k, (1,) * k), tuple(columns))


def test_independent_parts_are_counted_apart_and_multiplied():
    counted = count_solutions(switches(40))
    assert counted.count == 2 ** 40
    assert counted.nodes < 500  # not 2^40 leaves: 40 parts of two solutions


@pytest.mark.parametrize("seconds", [0.0, 0.02, 0.2])
def test_a_count_cut_by_its_time_limit_is_a_lower_bound_said_as_such(seconds):
    """9×9 permutation matrices (9! = 362,880; a few seconds for the counter): cut early,
    the counter returns at once with what its finished branches add up to, never more."""
    import time

    p = Puzzle(rows=((1,),) * 9, columns=((1,),) * 9)
    start = time.monotonic()
    counted = count_solutions(p, seconds=seconds or 1e-9)
    assert time.monotonic() - start < 10  # stopped by its own clock, not run to the end
    assert counted.complete is False
    assert counted.count is not None and 0 <= counted.count < 362_880


def test_a_count_that_finishes_within_its_limit_is_complete():
    p = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)
    counted = count_solutions(p, seconds=60)
    assert counted.complete and counted.count == 720


@pytest.mark.full
def test_count_cut_by_its_limit_gives_the_counters_lower_bound():
    """The compiled counter in its child stops itself before the deadline, so the count
    says how many it had found for certain (here far past what a bare child killed at the
    deadline gave: 0)."""
    p = Puzzle(rows=((1,),) * 11, columns=((1,),) * 11)  # 11!: minutes for the counter
    res = count(p, "compiled", timeout=6)
    assert not res.complete and res.estimate is None
    assert 0 < res.count < 39_916_800


@pytest.mark.parametrize("alone", [0.0, 0.5])
def test_a_count_past_two_to_the_63_is_left_to_ganak(alone):
    """Past 2^63 the counter leaves the race; Ganak counts, also when it joins late."""
    from satnono import Tuning

    assert count_solutions(switches(64)).count is None  # past what the counter holds
    res = count(switches(64), tuning=Tuning(counter_alone=alone))  # auto goes on to Ganak
    assert res.complete and res.count == 2 ** 64 and res.method == "ganak"


def test_auto_races_the_compiled_counter_against_ganak_past_its_threshold():
    p = Puzzle(((1,),) * 7, ((1,),) * 7)
    res = count(p)
    assert res.complete and res.count == 5040
    assert res.method in ("compiled counter", "ganak", "enumerate (sat)")
    res = count(p, "compiled")
    assert (res.count, res.complete, res.method) == (5040, True, "compiled counter")


def block_starts(line: tuple[int, ...]) -> list[int]:
    """Where each block of a colour line (a colour index a cell) starts: two blocks of one
    colour have background between them, so a block starts wherever the colour changes
    to a block colour."""
    return [p for p, k in enumerate(line) if k and (p == 0 or line[p - 1] != k)]


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 10), st.integers(2, 3), st.integers(0, 2**32))
def test_colour_block_extents_are_the_leftmost_and_rightmost_placements(n, colours, seed):
    from satnono.engine.counter import extents

    from satnono.logic.compiled import fresh_engine

    rng = random.Random(seed)
    grid = random_colour_grid(rng, n, 1, colours, 0.6)
    p = puzzle_from_colours(grid, Palette(RGB_PALETTE.colours[:colours + 1]))
    blocks = tuple((b.length, p.palette.index(b.colour)) for b in p.rows[0])
    assume(blocks)
    e = fresh_engine(p)
    # each cell may take its own colour and, at random, others: consistent, not a fixpoint
    allowed = [(1 << k) | sum(1 << o for o in range(colours + 1) if rng.random() < 0.4)
               for k in grid[0]]
    e.set_root([[sum(1 << c for c, m in enumerate(allowed) if m >> v & 1)]
                for v in range(colours + 1)])
    lo, hi = extents(e, 0)
    starts = [block_starts(line) for line in colour_placements(blocks, n)
              if all(allowed[c] >> k & 1 for c, k in enumerate(line))]
    assert lo == [min(s[j] for s in starts) for j in range(len(blocks))]
    assert hi == [max(s[j] for s in starts) for j in range(len(blocks))]


def random_colour_puzzle(rng: random.Random, w: int, h: int, colours: int, shuffle: bool):
    palette = Palette(RGB_PALETTE.colours[:colours + 1])
    p = puzzle_from_colours(random_colour_grid(rng, w, h, colours, rng.uniform(0.3, 0.8)),
                            palette)
    if shuffle:  # clues of another picture's columns: often no solution at all
        other = puzzle_from_colours(random_colour_grid(rng, w, h, colours, 0.6), palette)
        p = Puzzle(p.rows, other.columns, palette=palette)
    return p


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(2, 3), st.booleans(),
       st.integers(0, 2**32))
def test_colour_counts_equal_brute_force(w, h, colours, shuffle, seed):
    p = random_colour_puzzle(random.Random(seed), w, h, colours, shuffle)
    assume(not p.palette.black_and_white)
    assert count_solutions(p).count == len(brute_colour_solutions(p))


@pytest.mark.parametrize("seed", range(10))
def test_colour_counts_equal_enumeration_on_medium_random_pictures(seed):
    rng = random.Random(7000 + seed)
    while True:  # draw until every solution can be listed
        side = rng.choice([8, 10, 12])
        p = random_colour_puzzle(rng, side, side, rng.choice([2, 3]), False)
        listed = list(solve(p, "native", limit=3001))
        if 2 <= len(listed) <= 3000:
            break
    assert count_solutions(p).count == len(listed)


def colour_switches(k: int) -> Puzzle:
    """:func:`switches` with the switches red and blue in turn: two rows, each of k blocks
    of one cell whose colours alternate, and 2^k solutions."""
    red, blue = RGB_PALETTE.colours[2].name, RGB_PALETTE.colours[3].name
    row = tuple((1, red if i % 2 == 0 else blue) for i in range(k))
    columns: list[tuple[tuple[int, str], ...]] = []
    for i in range(k):
        colour = red if i % 2 == 0 else blue
        columns += [((1, colour),), ((1, colour),)] + ([()] if i < k - 1 else [])
    return Puzzle((row, row), tuple(columns), palette=RGB_PALETTE)


def test_independent_colour_parts_are_counted_apart_and_multiplied():
    counted = count_solutions(colour_switches(40))
    assert counted.count == 2 ** 40
    assert counted.nodes < 500


def test_the_compiled_counter_counts_colour_and_refuses_other_backends():
    from satnono.errors import UsageError

    res = count(colour_switches(3), "compiled")
    assert (res.count, res.complete, res.method) == (8, True, "compiled counter")
    with pytest.raises(UsageError, match="counts on its own"):
        count(switches(2), "compiled", backend="native")
    res = count(colour_switches(12))  # past auto's threshold: the race, the counter in it
    assert res.complete and res.count == 2 ** 12
