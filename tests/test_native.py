"""The native backtracker: every solution, no other grid, on puzzles with 0, 1, 2, many."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Puzzle, SearchTimeout, Solution, is_solution, puzzle_from_picture, solve
from satnono.errors import InvalidPuzzle
from satnono.propagate import line_solve

from .conftest import brute_solutions, random_picture

CAR = Puzzle(rows=((6,), (2, 1, 1), (1, 1, 1), (9,), (9,), (10,), (2, 2), (2, 2)),
             columns=((1,), (3,), (5,), (7,), (2, 3), (1, 3), (6,), (1, 5), (1, 5), (6,)))


def test_seed_car_is_unique_and_line_solvable():
    sols = list(solve(CAR))
    assert len(sols) == 1
    assert sols[0].strings("*", ".")[0] == "....******"
    board = line_solve(CAR)
    assert board is not None and board.solved()


def test_two_by_two_has_two_solutions_in_the_seed_order():
    sols = list(solve(Puzzle(((1,), (1,)), ((1,), (1,)))))
    assert [s.strings("*", ".") for s in sols] == [["*.", ".*"], [".*", "*."]]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_permutation_puzzle_has_n_factorial_solutions(n):
    # seed 003: one 1-block in every line of an n×n grid, one per permutation
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


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.integers(0, 2**32),
       st.booleans())
def test_solution_set_equals_brute_force(w, h, density, seed, probing):
    pic = random_picture(random.Random(seed), w, h, density)
    p = puzzle_from_picture(pic)
    got = list(solve(p, probing=probing))
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
