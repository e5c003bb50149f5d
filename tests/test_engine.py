"""The engine compiled ahead of time (satnono/engine, Cython) against brute force, the
Python line solver and the Numba kernel it replaces part by part: the same answers on
every line, short and long."""

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
