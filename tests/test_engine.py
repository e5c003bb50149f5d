"""The engine compiled ahead of time (satnono/engine, Cython): built by an install with a
compiler; its black-and-white line solvers against brute force and the Python solver, on
every line, short and long; its black-and-white search as the colour search's fast path.
Its searches: test_kernel.py and test_colour_kernel.py; its counter: test_counter.py."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono import engine
from satnono.logic.line import narrow
from satnono.model.solution import line_clue

from .conftest import brute_line, examples
from .test_line import lines

line = engine.part("line")
built = pytest.mark.skipif(line is None, reason="the engine was not built here")


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="no C compiler here: the engine is not built, by design")
def test_an_install_with_a_compiler_builds_the_engine():
    assert line is not None


@built
@settings(max_examples=examples(1500), deadline=None)
@given(lines(), st.booleans())
def test_the_engines_line_solvers_equal_brute_force(one, wide):
    clue, n, filled, empty = one
    assume(n >= 1)
    expected = brute_line(clue, n, filled, empty)
    full = (1 << n) - 1
    got = line.narrow(clue, n, full & ~filled, full & ~empty, wide)
    assert got == (None if expected is None else
                   (full & ~expected[0], full & ~expected[1]))


@built
@pytest.mark.parametrize("n", [1, 25, 40, 63, 64, 65, 99, 127, 128, 129, 191, 200, 300, 510])
def test_the_engines_line_solvers_agree_with_the_python_solver_on_long_lines(n):
    """Past brute force's reach: lines across one, two and several word boundaries, clues
    of real pictures (solvable) and repeated blocks (often contradictory), cells known at
    random; the one-word solver too where the line fits in one word."""
    rng = random.Random(11 + n)
    for _ in range(examples(200)):
        m = rng.getrandbits(n)
        clue = line_clue(m, n) if rng.random() < 0.8 else (rng.randint(1, 9),) * 3
        known = rng.getrandbits(n) & rng.getrandbits(n)
        if rng.random() < 0.8:
            f, e = known & m, known & ~m
        else:
            f = known & rng.getrandbits(n)
            e = known & ~f
        full = (1 << n) - 1
        want = narrow(clue, n, full & ~f, full & ~e)
        assert line.narrow(clue, n, full & ~f, full & ~e, True) == want
        if n <= 63:
            assert line.narrow(clue, n, full & ~f, full & ~e) == want


@built
def test_a_line_without_cells_is_refused():
    with pytest.raises(ValueError):
        line.narrow((), 0, 0, 0)


# ---------------------------------------------------------------- the searches

def _pictures(seed: int, count: int, sides: tuple[int, ...]):
    from satnono.model.puzzle import puzzle_from_picture

    from .conftest import random_picture

    rng = random.Random(seed)
    for _ in range(count):
        side = rng.choice(sides)
        yield puzzle_from_picture(random_picture(rng, side, rng.randint(max(1, side - 5),
                                                                         side + 5),
                                                 rng.uniform(0.3, 0.7)))


built = pytest.mark.skipif(engine.part("search") is None,
                           reason="the engine was not built here")


@built
def test_the_black_and_white_fast_path_and_the_colour_representation_agree():
    """Black and white runs on the engine's fast path (a cell a byte, a line two machine
    words); read as a palette of one colour on the colour representation (64-bit cells,
    the colour line solver) the search gives the same solution set and the same work."""
    from satnono.logic.compiled import search_for

    for p in _pictures(21, examples(40), (3, 5, 8, 12)):
        fast, general = search_for(p), search_for(p, general=True)
        assert fast.engine.bw and not general.engine.bw
        assert set(fast.solutions(None)) == set(general.solutions(None))
        assert fast.engine.nodes == general.engine.nodes
