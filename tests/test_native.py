"""The native backtracker: every solution, no other grid, on puzzles with 0, 1, 2, many."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import satnono
from satnono import Puzzle, SearchTimeout, Solution, is_solution, puzzle_from_picture
from satnono.backends.native.line_theory import explain
from satnono.errors import InvalidPuzzle
from satnono.logic.line import LineCache
from satnono.logic.propagate import line_solve

from .conftest import brute_line, brute_solutions, examples, random_picture


def solve(puzzle: Puzzle, **options):
    """The library's front door, with the backend this file tests."""
    return satnono.solve(puzzle, "native", **options)

CAR = Puzzle(rows=((6,), (2, 1, 1), (1, 1, 1), (9,), (9,), (10,), (2, 2), (2, 2)),
             columns=((1,), (3,), (5,), (7,), (2, 3), (1, 3), (6,), (1, 5), (1, 5), (6,)))


def test_the_car_is_unique_and_line_solvable():
    sols = list(solve(CAR))
    assert len(sols) == 1
    assert sols[0].strings("*", ".")[0] == "....******"
    board = line_solve(CAR)
    assert board is not None and board.solved()


def test_two_by_two_has_two_solutions_in_the_olympiad_order():
    sols = list(solve(Puzzle(((1,), (1,)), ((1,), (1,)))))
    assert [s.strings("*", ".") for s in sols] == [["*.", ".*"], [".*", "*."]]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_permutation_puzzle_has_n_factorial_solutions(n):
    # one 1-block in every line of an n×n grid: one solution per permutation
    p = Puzzle(((1,),) * n, ((1,),) * n)
    sols = list(solve(p))
    assert len(sols) == len(set(sols)) == math.factorial(n)
    assert all(is_solution(p, s) for s in sols)


@pytest.mark.parametrize("probing", [True, False])
def test_infeasible_clues_give_no_solution(probing):
    # totals agree and every clue fits, yet no grid has these clues
    p = Puzzle(((1,), (1,), (1, 1)), ((1,), (1, 1), (1,)))
    assert list(solve(p, probing=probing)) == []


def test_invalid_puzzle_is_refused_before_solving():
    with pytest.raises(InvalidPuzzle):
        list(solve(Puzzle(((3,),), ((1,), (1,)))))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.integers(0, 2**32),
       st.booleans(), st.booleans())
def test_solution_set_equals_brute_force(w, h, density, seed, probing, learning):
    pic = random_picture(random.Random(seed), w, h, density)
    p = puzzle_from_picture(pic)
    got = list(solve(p, probing=probing, learning=learning))
    assert len(got) == len(set(got))
    assert set(got) == brute_solutions(p)
    assert pic in got


@pytest.mark.parametrize("size,density,seed", [((12, 10), 0.5, 1), ((20, 20), 0.6, 2),
                                               ((25, 15), 0.4, 3), ((1, 30), 0.5, 4),
                                               ((30, 1), 0.5, 5)])
def test_larger_random_pictures_are_found(size, density, seed):
    pic = random_picture(random.Random(seed), *size, density)
    p = puzzle_from_picture(pic)
    sols = list(solve(p, limit=50))
    assert pic in sols or len(sols) == 50
    assert all(is_solution(p, s) for s in sols)


def test_limit_stops_early_and_timeout_raises():
    p = Puzzle(((1,),) * 8, ((1,),) * 8)  # 40320 solutions
    assert len(list(solve(p, limit=3))) == 3
    with pytest.raises(SearchTimeout) as info:
        for _ in solve(p, timeout=0.05):
            pass
    assert info.value.found > 0


def test_empty_puzzle_lines():
    p = Puzzle(((), (1,), ()), ((), (1,), ()))
    assert [s.strings() for s in solve(p)] == [["...", ".#.", "..."]]
    blank = Puzzle(((),) * 3, ((),) * 4)
    assert list(solve(blank)) == [Solution(4, (0, 0, 0))]


def staircase(n: int) -> Solution:
    """A diagonal of interlocking 3-blocks and single cells (n = 19 gives the clues of
    the survey's 9-Dom): line logic and probing fix nothing, only search decides it."""
    rows = []
    for r in range(n - 1):
        if r == 0:
            rows.append(0b111 << (n - 3))
        elif r % 2:
            rows.append(1 << (n - r))
        else:
            rows.append(0b111 << (n - 3 - r) | 1 << (n + 1 - r))
    return Solution(n, tuple(rows) + (1 << 2,))


@pytest.mark.parametrize("n", [9, 13])
def test_staircase_needs_search_and_both_searches_find_the_one_picture(n):
    pic = staircase(n)
    p = puzzle_from_picture(pic)
    board = line_solve(p)
    assert board is not None and board.known() == 0
    assert list(solve(p, learning=True)) == [pic]
    assert list(solve(p, learning=False)) == [pic]


@pytest.mark.parametrize("seed", range(40))
def test_learning_search_enumerates_what_plain_search_does(seed):
    # up to 12×12, sparse to dense: 0 to a few thousand solutions each
    rng = random.Random(seed)
    pic = random_picture(rng, rng.randint(1, 12), rng.randint(1, 12), rng.uniform(0.25, 0.8))
    p = puzzle_from_picture(pic)
    plain = list(solve(p, learning=False, probing=False))
    learnt = list(solve(p, learning=True, probing=seed % 2 == 0))
    assert len(learnt) == len(set(learnt))
    assert set(learnt) == set(plain)
    assert pic in learnt


@pytest.mark.parametrize("seed", range(20))
def test_the_black_and_white_theory_is_the_colour_theory_on_one_colour(seed):
    """Black and white has its own theory (a variable a cell: 3–7 times the colour
    theory's speed on webpbn's Dom puzzles); on a palette of one colour the colour theory
    (a variable a cell and colour) finds the same solutions, each once, as plain search
    (itself held to brute force above)."""
    from satnono.backends.native.colour_theory import search_colour
    from satnono.backends.native.line_theory import search_learning
    from satnono.logic.context import Context
    from satnono.runtime.deadline import NO_DEADLINE

    rng = random.Random(seed)
    pic = random_picture(rng, rng.randint(1, 10), rng.randint(1, 10), rng.uniform(0.25, 0.8))
    p = puzzle_from_picture(pic)
    fast = list(search_learning(Context(p), deadline=NO_DEADLINE))
    general = list(search_colour(Context(p, general=True), deadline=NO_DEADLINE))
    assert len(general) == len(set(general)) and len(fast) == len(set(fast))
    assert set(general) == set(fast) == set(solve(p, learning=False, probing=False))
    assert pic in fast


def test_learning_search_counts_permutations():
    p = Puzzle(((1,),) * 7, ((1,),) * 7)
    sols = list(solve(p, learning=True))
    assert len(sols) == len(set(sols)) == math.factorial(7)


def test_learning_search_timeout_reports_what_it_found():
    p = puzzle_from_picture(staircase(41))
    with pytest.raises(SearchTimeout):
        list(solve(p, learning=True, timeout=0.2))


@st.composite
def line_with_knowledge(draw):
    n = draw(st.integers(1, 12))
    picture = draw(st.integers(0, (1 << n) - 1))
    clue = tuple(len(b) for b in format(picture, f"0{n}b")[::-1].split("0") if b)
    if draw(st.booleans()):  # sometimes a clue the knowledge contradicts
        clue = tuple(sorted(clue + (1,)))[: max(1, len(clue))]
    known = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 1)),
                          unique_by=lambda iv: iv[0], max_size=n))
    return clue, n, known


def _masks(known):
    f = sum(1 << i for i, v in known if v)
    e = sum(1 << i for i, v in known if not v)
    return f, e


@settings(max_examples=examples(1500), deadline=None)
@given(line_with_knowledge(), st.integers(0, 11))
def test_explanations_force_their_cell_and_no_cell_can_be_dropped(line, pick):
    clue, n, known = line
    assume(sum(clue) + len(clue) - 1 <= n)
    f, e = _masks(known)
    full = brute_line(clue, n, f, e)
    cache = LineCache()
    if full is None:
        target = None  # explain the contradiction

        def holds(f, e):
            return brute_line(clue, n, f, e) is None
    else:
        forced = [(i, 1) for i in range(n) if full[0] >> i & 1 and not f >> i & 1] + \
                 [(i, 0) for i in range(n) if full[1] >> i & 1 and not e >> i & 1]
        assume(forced)
        target = forced[pick % len(forced)]

        def holds(f, e):
            res = brute_line(clue, n, f, e)
            return res is None or res[1 - target[1]] >> target[0] & 1 == 1

    xf, xe = explain(cache.feasible_layers, clue, n, known, target)
    assert xf & ~f == 0 and xe & ~e == 0  # a subset of what was known
    assert holds(xf, xe)
    for i in range(n):
        if xf >> i & 1:
            assert not holds(xf & ~(1 << i), xe)
        if xe >> i & 1:
            assert not holds(xf, xe & ~(1 << i))
