"""The compiled counter: its block extents against brute force, its counts against brute
force and enumeration, and its parts counted apart (a product of thirty switches costs
thirty small counts, not 2^30 leaves)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono import Puzzle, puzzle_from_picture, solve
from satnono.analyze.count import count
from satnono.logic.compiled import count_solutions, usable
from satnono.logic.line import solve_line
from satnono.model.solution import line_clue

from .conftest import brute_solutions, examples, random_picture

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
    g = bytes(2 if filled >> i & 1 else 1 if empty >> i & 1 else 3 for i in range(n))
    k = len(clue)
    assume(k > 0)
    e = Engine(1, n, list(clue), [0] + [k] * n, [k] + [0] * n, 1, 0)  # the row, n columns
    e.set_root(g)
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


@pytest.mark.parametrize("seed", range(10))
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


def test_a_count_past_two_to_the_63_is_left_to_ganak():
    assert count_solutions(switches(64)).count is None  # past what the counter holds
    res = count(switches(64))  # auto goes on to enumeration and Ganak
    assert res.complete and res.count == 2 ** 64 and res.method == "ganak"


def test_auto_races_the_compiled_counter_against_ganak_past_its_threshold():
    p = Puzzle(((1,),) * 7, ((1,),) * 7)
    res = count(p)
    assert res.complete and res.count == 5040
    assert res.method in ("compiled counter", "ganak", "enumerate (sat)")
    res = count(p, "compiled")
    assert (res.count, res.complete, res.method) == (5040, True, "compiled counter")


def test_the_compiled_counter_refuses_colour_and_other_backends():
    from satnono.errors import UsageError
    from satnono.model.puzzle import Palette, puzzle_from_colours

    from .conftest import RGB_PALETTE

    colour = puzzle_from_colours([[2, 1], [1, 2]], Palette(RGB_PALETTE.colours[:3]))
    with pytest.raises(UsageError, match="black-and-white"):
        count(colour, "compiled")
    with pytest.raises(UsageError, match="counts on its own"):
        count(switches(2), "compiled", backend="native")
    assert count(colour).count == 1  # auto counts colour by enumeration
