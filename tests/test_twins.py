"""Every solving stage that has a black-and-white implementation and a colour one, held to
each other: a black-and-white puzzle, and the same clues over a palette with one more
colour that no clue uses (which sends it down every colour path), must give the same
line-logic and probing fixpoints, the same residual models, the same solutions from every
backend (the native CDCL theories, the CP-SAT models, the CNF encoders, the plain
baselines), the same verdict from the solution check, and the same goal switches."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono import Puzzle, is_solution, puzzle_from_picture, solve
from satnono.analyze.uniqueness import switches
from satnono.backends import BACKENDS
from satnono.backends.solver import enumerate_models
from satnono.encode.residual import decode_solution
from satnono.logic.context import Context
from satnono.model.puzzle import Block, Colour, Palette
from satnono.model.solution import Solution
from satnono.model.verdict import Depth
from satnono.pipeline import presolved, residual

from .conftest import examples, random_picture

#: every backend over many small puzzles: in the state batch and bench run them in
pytestmark = pytest.mark.usefixtures("libraries_loaded")

#: black and white, and a red that no clue uses
UNUSED_RED = Palette((Colour("white", ".", "ffffff"), Colour("black", "#", "000000"),
                      Colour("red", "r", "e01010")))


def as_colour(p: Puzzle) -> Puzzle:
    """``p``'s clues over :data:`UNUSED_RED`: a colour puzzle with ``p``'s solutions."""
    def clues(lines):
        return tuple(tuple(Block(b.length, "black") for b in clue) for clue in lines)

    return Puzzle(clues(p.rows), clues(p.columns), palette=UNUSED_RED, goal=p.goal)


def _bw(seed: int) -> Puzzle:
    """Small pictures (several solutions are common at this size and density) and, one in
    four, the row clues of a picture with the column clues of its rows shuffled (which
    often contradict)."""
    rng = random.Random(seed)
    w, h = rng.randint(1, 7), rng.randint(1, 7)
    picture = random_picture(rng, w, h, rng.uniform(0.3, 0.7))
    p = puzzle_from_picture(picture)
    if seed % 4:
        return p
    rows = list(picture.rows)
    rng.shuffle(rows)
    return Puzzle(p.rows, puzzle_from_picture(Solution(w, tuple(rows))).columns)


def _grid(board) -> list[list[int | None]] | None:
    if board is None:
        return None
    return [[board.get(r, c) for c in range(board.width)] for r in range(board.height)]


def _strings(sols) -> set[tuple[str, ...]]:
    return {tuple(s.strings(chars=".#r")) for s in sols}


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_line_logic_and_probing_reach_the_same_fixpoints(seed):
    bw = _bw(seed)
    colour = as_colour(bw)
    for depth in (Depth.LINES, Depth.PROBED):
        one = presolved(Context(bw), depth, compiled=False)
        two = presolved(Context(colour), depth, compiled=False)
        assert _grid(one.board) == _grid(two.board)


@settings(max_examples=examples(100), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_residual_cnfs_have_the_same_models(seed):
    bw = _bw(seed)
    colour = as_colour(bw)
    got = []
    for p, depth in ((bw, Depth.OPEN), (colour, Depth.OPEN), (bw, Depth.LINES),
                     (colour, Depth.LINES)):
        res = residual(p, depth=depth)
        if res.encoding is None:
            sols = [] if res.contradiction else [res.board.to_solution()]
        else:
            enc = res.encoding
            sols = [decode_solution(enc, m) for m in
                    enumerate_models("cadical195", enc.clauses, list(enc.cells.values()), None)]
        got.append(_strings(sols))
    assert got[0] == got[1] == got[2] == got[3]


@pytest.mark.parametrize("backend", [b for b in BACKENDS])
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_backend_finds_the_same_solutions_either_way(backend, seed):
    """Asked for 200, each backend gives 200 of the puzzle's solutions (which 200 is
    its own order's: phases, belief propagation), or all of them where there are fewer;
    the same for the puzzle in colour."""
    bw = _bw(seed)
    every = _strings(solve(bw, "native", limit=5000))
    assume(len(every) < 5000)
    for p in (bw, as_colour(bw)):
        got = _strings(solve(p, backend, limit=200))
        assert len(got) == min(200, len(every)) and got <= every
        if len(every) <= 200:
            assert got == every


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 10**6), flips=st.integers(0, 3))
def test_the_solution_check_gives_the_same_verdict(seed, flips):
    rng = random.Random(seed)
    w, h = rng.randint(1, 7), rng.randint(1, 7)
    goal = random_picture(rng, w, h, 0.5)
    bw = puzzle_from_picture(goal)
    rows = list(goal.rows)
    for _ in range(flips):  # a grid near the goal: often not a solution
        rows[rng.randrange(h)] ^= 1 << rng.randrange(w)
    grid = Solution(w, tuple(rows))
    colour_grid = Solution.from_chars(grid.strings(), ".#r")  # the same cells, a red layer
    assert colour_grid.layers
    expected = is_solution(bw, grid)
    if grid == goal:
        assert expected
    assert is_solution(as_colour(bw), colour_grid) == expected


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_goal_switches_are_the_same(seed):
    rng = random.Random(seed)
    goal = random_picture(rng, rng.randint(2, 8), rng.randint(2, 8), 0.5)
    colour_goal = as_colour(puzzle_from_picture(goal)).goal_solution()
    assert colour_goal is not None and colour_goal.layers
    assert switches(goal) == switches(colour_goal)
