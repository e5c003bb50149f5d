"""The presolve stage: the compiled engine and the Python logic reach the same root board
(the same cells fixed, the same contradictions), black and white and colour, whichever way
the compiled code is reached; and the pipeline's stages use it as each backend asks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Puzzle, puzzle_from_picture, solve
from satnono.logic import compiled as fast
from satnono.logic.context import Context
from satnono.logic.presolve import presolve
from satnono.model.puzzle import puzzle_from_colours
from satnono.model.verdict import Depth
from satnono.pipeline import presolved, residual

from .conftest import RGB_PALETTE, examples, random_colour_grid, random_picture

needs_compiled = pytest.mark.skipif(not fast.available(), reason="the compiled code is "
                                    "unavailable here")


def _clue(rng: random.Random, n: int) -> tuple[int, ...]:
    out: list[int] = []
    left = n
    while left > 0 and rng.random() < 0.7:
        block = rng.randint(1, left)
        out.append(block)
        left -= block + 1
    return tuple(out)


def _puzzle(seed: int) -> Puzzle:
    """Pictures that probing works on (density near a half), and clues drawn at random,
    which often contradict."""
    rng = random.Random(seed)
    w, h = rng.randint(1, 18), rng.randint(1, 18)
    if seed % 3:
        return puzzle_from_picture(random_picture(rng, w, h, rng.uniform(0.35, 0.65)))
    return Puzzle(tuple(_clue(rng, w) for _ in range(h)), tuple(_clue(rng, h) for _ in range(w)))


def _may(pre):
    return None if pre.board is None else pre.board.may


@needs_compiled
@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_compiled_root_propagation_and_probing_equal_pythons(seed):
    """The engine's line logic and probing reach the Python logic's board (a fixpoint is
    the same whatever the order), and its search goes on from there."""
    _same_root(_puzzle(seed))


def _same_root(p: Puzzle) -> None:
    python = presolve(Context(p))
    compiled = presolve(Context(p), compiled=True)
    assert _may(compiled) == _may(python)
    assert (compiled.by_line, compiled.by_probe) == (python.by_line, python.by_probe)
    if compiled.board is not None and not compiled.board.solved():
        assert compiled.search is not None  # the engine's search goes on from it


@needs_compiled
def test_probing_happens_in_the_examples():
    """The comparison above means something: many of its puzzles need probing, some
    contradict, some are settled by lines alone."""
    kinds = {"probed": 0, "contradiction": 0, "lines": 0}
    for seed in range(150):
        pre = presolve(Context(_puzzle(seed)))
        kind = ("contradiction" if pre.board is None else
                "probed" if pre.by_probe else "lines")
        kinds[kind] += 1
    assert min(kinds.values()) >= 10, kinds


@needs_compiled
@settings(max_examples=examples(100), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_colour_compiled_root_equals_pythons(seed):
    """The same in colour (the engine's colour search): pictures of three block colours,
    and clues that often contradict."""
    rng = random.Random(seed)
    w, h = rng.randint(2, 12), rng.randint(2, 12)
    if seed % 3:
        p = puzzle_from_colours(random_colour_grid(rng, w, h, 3, rng.uniform(0.3, 0.8)),
                                RGB_PALETTE)
    else:
        rows = puzzle_from_colours(random_colour_grid(rng, w, h, 3, 0.6), RGB_PALETTE)
        cols = puzzle_from_colours(random_colour_grid(rng, w, h, 3, 0.6), RGB_PALETTE)
        p = Puzzle(rows.rows, cols.columns, palette=RGB_PALETTE)
    _same_root(p)


def test_each_depth_goes_as_far_as_it_says():
    p = puzzle_from_picture(random_picture(random.Random(5), 15, 15, 0.5))
    lines = presolved(Context(p), Depth.LINES)
    probed = presolved(Context(p), Depth.PROBED)
    opened = presolved(Context(p), Depth.OPEN)
    assert opened.board is not None and opened.board.known() == 0
    assert lines.board is not None and probed.board is not None
    assert lines.by_probe == 0 and probed.board.known() >= lines.board.known()


def test_the_residual_is_the_presolved_board_encoded():
    p = Puzzle(((1,),) * 4, ((1,),) * 4)  # nothing fixed: 16 open cells
    res = residual(p)
    assert res.encoding is not None and len(res.encoding.cells) == 16
    solved = residual(Puzzle(((2,),), ((1,), (1,))))
    assert solved.encoding is None and not solved.contradiction
    assert solved.board is not None and solved.board.solved()
    none = residual(Puzzle(((1,), (2,)), ((1,), (1,))))
    assert none.encoding is None and none.contradiction


def test_a_root_that_logic_solves_reaches_the_observer_as_found():
    """The pipeline, not a backend, gives a solution that logic alone found: the native
    search's observer still hears it found."""
    from satnono.logic.events import Found

    heard = []
    sols = list(solve(Puzzle(((2,),), ((1,), (1,))), "native",
                      observer=lambda e, board: heard.append(e)))
    assert len(sols) == 1 and isinstance(heard[-1], Found) and heard[-1].number == 1


@needs_compiled
@pytest.mark.full
@pytest.mark.parametrize("width, height", [(64, 9), (70, 40), (100, 30), (130, 66)])
def test_wide_lines_presolve_as_pythons(width, height):
    """Lines past 63 cells (several words a line, their own cache): the compiled root is
    Python's, on pictures that need probing and on shuffled clues that contradict."""
    rng = random.Random(width * height)
    seen = set()
    for i in range(examples(30)):
        picture = random_picture(rng, width, height, rng.uniform(0.5, 0.7))
        p = puzzle_from_picture(picture)
        if i % 4 == 3:  # one row's clue swapped with another's: usually no solution
            rows = list(p.rows)
            a, b = rng.sample(range(height), 2)
            rows[a], rows[b] = rows[b], rows[a]
            p = Puzzle(tuple(rows), p.columns)
        python = presolve(Context(p))
        compiled = presolve(Context(p), compiled=True)
        assert _may(compiled) == _may(python)
        seen.add("none" if python.board is None else "probed" if python.by_probe else
                 "lines")
    assert seen >= {"none", "probed"} or examples(30) < 10
