"""The eight orientations: a turned puzzle has exactly the turned solutions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.errors import UsageError
from satnono.model.orientation import ORIENTATIONS, orient, orient_strings
from satnono.model.puzzle import puzzle_from_colours, puzzle_from_picture
from satnono.model.solution import Solution

from .conftest import (
    RGB_PALETTE,
    brute_colour_solutions,
    brute_solutions,
    examples,
    random_colour_grid,
)


def _picture(seed: int, width: int, height: int, density: float) -> list[str]:
    rng = random.Random(seed)
    return ["".join("#" if rng.random() < density else "." for _ in range(width))
            for _ in range(height)]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), width=st.integers(1, 5), height=st.integers(1, 5),
       density=st.sampled_from([0.3, 0.5, 0.7]), name=st.sampled_from(ORIENTATIONS))
def test_turned_black_and_white_puzzle_has_the_turned_solutions(seed, width, height,
                                                                density, name):
    picture = _picture(seed, width, height, density)
    puzzle = puzzle_from_picture(Solution.from_strings(picture))
    turned = orient(puzzle, name)
    assert (turned.width, turned.height) == ((height, width) if name.startswith("t")
                                             else (width, height))
    expected = {tuple(orient_strings(s.strings(), name)) for s in brute_solutions(puzzle)}
    assert {tuple(s.strings()) for s in brute_solutions(turned)} == expected
    assert tuple(orient_strings(picture, name)) in expected


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), side=st.integers(1, 4), name=st.sampled_from(ORIENTATIONS))
def test_turned_colour_puzzle_has_the_turned_solutions(seed, side, name):
    grid = random_colour_grid(random.Random(seed), side, side + 1, 3, 0.6)
    puzzle = puzzle_from_colours(grid, RGB_PALETTE)
    turned = orient(puzzle, name)
    expected = {tuple(orient_strings(s, name)) for s in brute_colour_solutions(puzzle)}
    assert brute_colour_solutions(turned) == expected


def test_the_eight_are_different_and_each_has_its_inverse():
    picture = ["##.", "..#"]
    turned = {tuple(orient_strings(picture, n)) for n in ORIENTATIONS}
    assert len(turned) == 8
    inverse = {"tlr": "tud", "tud": "tlr"}  # a quarter turn undoes the other way round
    for n in ORIENTATIONS:
        back = orient_strings(orient_strings(picture, n), inverse.get(n, n))
        assert back == picture, n


def test_an_unknown_orientation_is_refused():
    puzzle = puzzle_from_picture(Solution.from_strings(["#"]))
    with pytest.raises(UsageError, match="unknown orientation 'rot90'"):
        orient(puzzle, "rot90")
