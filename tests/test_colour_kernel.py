"""The engine in colour against brute force: its line solver, its root (line logic and
probing) against the Python logic's, its search's solution sets, budgets and levels; and
black and white on the colour representation (a palette of one colour, ``general``)
against its fast path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import solve
from satnono.logic.compiled import Search, search_for
from satnono.logic.context import Context
from satnono.logic.line import narrow_colour
from satnono.logic.presolve import presolve
from satnono.model.puzzle import (
    Block,
    Puzzle,
    is_solution,
    puzzle_from_colours,
    puzzle_from_picture,
)

from .conftest import (
    brute_colour_solutions,
    brute_solutions,
    colour_placements,
    examples,
    random_colour_grid,
    random_picture,
    search_budgets_agree,
)
from .test_colour import _colour_line_case, mismatched, palette, wide_palette


def _kernel_line(blocks, n: int, may: tuple[int, ...], wide: bool = False
                 ) -> tuple[int, ...] | None:
    """The engine's colour line solver on one row of n cells: per colour, the cells that
    may take it (as ``narrow_colour`` answers), or None for a contradiction. ``wide``: on
    several words a colour whatever the length (the solver of lines past 63 cells)."""
    from satnono.engine.search import Engine

    colours = len(may) - 1
    e = Engine(1, n, colours, [b for b, _ in blocks] or [0], [c for _, c in blocks] or [1],
               [0] * (n + 1), [len(blocks)] + [0] * n, general=True)
    grid = [sum(1 << k for k in range(colours + 1) if may[k] >> p & 1) for p in range(n)]
    out = e.narrow(grid, 0, wide)
    if out is None:
        return None
    return tuple(sum(1 << p for p in range(n) if out[p] >> k & 1) for k in range(colours + 1))


def _brute_line(blocks, n: int, may: tuple[int, ...]) -> tuple[int, ...] | None:
    out = [0] * len(may)
    any_fits = False
    for line in colour_placements(blocks, n):
        if all(may[v] >> p & 1 for p, v in enumerate(line)):
            any_fits = True
            for p, v in enumerate(line):
                out[v] |= 1 << p
    return tuple(out) if any_fits else None


def _line_case(rng: random.Random, max_n: int):
    """A line's blocks, length and colours its cells may take (test_colour.py's cases)."""
    blocks, n, may, _ = _colour_line_case(rng, max_n)
    return blocks, n, may


@settings(max_examples=examples(1500), deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_the_colour_line_solver_equals_brute_force(seed, wide):
    blocks, n, may = _line_case(random.Random(seed), 12)
    assert _kernel_line(blocks, n, may, wide) == _brute_line(blocks, n, may)


@pytest.mark.parametrize("n", [1, 20, 63, 64, 65, 99, 127, 128, 129, 200, 300])
def test_the_colour_line_solver_agrees_with_the_python_one_on_long_lines(n):
    """Past brute force's reach, against the Python colour solver (itself held to brute
    force in test_colour.py): lines across one, two and several word boundaries, both
    kernel solvers where both apply."""
    rng = random.Random(n)
    for _ in range(examples(300)):
        blocks, n2, may = _line_case(rng, n)
        if any(not any(m >> p & 1 for m in may) for p in range(n2)):
            continue  # an empty cell: the Python solver is never asked that
        want = narrow_colour(blocks, n2, may)
        assert _kernel_line(blocks, n2, may, wide=True) == want, (blocks, n2)
        if n2 <= 63:
            assert _kernel_line(blocks, n2, may) == want, (blocks, n2)


def _solutions(puzzle: Puzzle, limit: int | None = None, budget: int | None = None
               ) -> tuple[list[tuple[str, ...]], bool]:
    s = Search(puzzle)
    chars = puzzle.palette.chars
    got = [tuple(sol.strings(chars=chars)) for sol in s.solutions(limit, budget)]
    return got, s.done


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(2, 3), st.floats(0.3, 0.9),
       st.integers(0, 2**32), st.sampled_from([None, 1, 2, 3]))
def test_the_search_gives_exactly_the_solutions(w, h, colours, density, seed, limit):
    grid = random_colour_grid(random.Random(seed), w, h, colours, density)
    p = puzzle_from_colours(grid, palette(colours))
    truth = brute_colour_solutions(p)
    got, done = _solutions(p, limit)
    assert len(got) == len(set(got)), "a solution given twice"
    assert set(got) <= truth
    assert len(got) == (len(truth) if limit is None else min(limit, len(truth)))
    if limit is None:
        assert done


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_black_and_white_on_the_general_search_is_the_fast_paths(w, h, density, seed):
    """The fast path and the general search, on one black-and-white puzzle: the same root
    after line logic and probing, and every solution, which are brute force's."""
    p = puzzle_from_picture(random_picture(random.Random(seed), w, h, density))
    fast, general = search_for(p), search_for(p, general=True)
    assert fast.engine.bw and not general.engine.bw
    fast.root_only()
    general.root_only()
    assert general.root() == fast.root()
    got = list(general.solutions(None))
    assert len(got) == len(set(got))
    assert set(got) == set(fast.solutions(None)) == brute_solutions(p)


@pytest.mark.parametrize("seed", range(6))
def test_black_and_white_on_the_general_search_past_one_word(seed):
    """The same on lines past 63 cells, where both engines' line solvers take several
    machine words a line."""
    rng = random.Random(900 + seed)
    p = puzzle_from_picture(random_picture(rng, rng.choice([64, 70, 90]),
                                           rng.choice([20, 65]), 0.6))
    fast, general = search_for(p), search_for(p, general=True)
    fast.root_only()
    general.root_only()
    assert general.root() == fast.root()
    listed, more = list(fast.solutions(51)), list(general.solutions(51))
    assert listed and len(more) == len(listed)
    if len(listed) <= 50:  # every solution: the same ones
        assert set(more) == set(listed)


def test_clues_nothing_fits_have_no_solution_and_no_root():
    rng = random.Random(26)
    seen = 0
    for _ in range(60):
        p = mismatched(rng, rng.randint(2, 5), rng.randint(2, 5), rng.randint(2, 3))
        truth = brute_colour_solutions(p)
        got, done = _solutions(p)
        assert set(got) == truth and done
        if not truth:
            s = Search(p)
            s.root_only()
            seen += s.root() is None or not list(s.solutions(None))
    assert seen > 5  # the case was met


@pytest.mark.parametrize("seed", range(8))
def test_the_root_is_the_python_logics_board(seed):
    """Line logic and probing to a fixpoint reach one board whatever the order
    (satnono.logic.probe), so the compiled root is the Python presolve's, cell for cell."""
    rng = random.Random(300 + seed)
    w, h = rng.randint(5, 20), rng.randint(5, 20)
    colours = rng.choice([2, 3, 5])
    grid = random_colour_grid(rng, w, h, colours, rng.choice([0.3, 0.5, 0.7]))
    p = puzzle_from_colours(grid, wide_palette(colours) if colours > 3 else palette(colours))
    want = presolve(Context(p), compiled=False)
    s = Search(p)
    s.lines_only()
    s.root_only()
    got = s.root()
    assert want.board is not None and got is not None
    assert got.may == want.board.may


def test_the_search_resumes_after_its_budget_and_loses_nothing():
    grid = random_colour_grid(random.Random(6), 6, 6, 2, 0.3)
    p = puzzle_from_colours(grid, palette(2))
    # the native backend's enumeration (held to brute force in test_colour)
    truth = [tuple(sol.strings(chars=p.palette.chars)) for sol in solve(p, "native")]
    assert len(truth) > 10  # the case is one of many solutions
    s = Search(p)
    got: list[tuple[str, ...]] = []
    budget = 0
    while not s.done:
        budget += 50  # a few line solves at a time
        got += [tuple(sol.strings(chars=p.palette.chars)) for sol in s.solutions(None, budget)]
    assert sorted(got) == sorted(truth)


def test_a_deep_search_grows_its_stack():
    """70 independent switches, each two cells of red or blue that may trade rows: the
    search goes one level per switch, past the 64 levels its stack starts with, and every
    level's alternative is still there (the first three solutions are distinct and
    right)."""
    from .test_counter import colour_switches

    p = colour_switches(70)
    s = Search(p)
    sols = list(s.solutions(3))
    assert len(set(sols)) == 3 and all(is_solution(p, sol) for sol in sols)
    assert s.levels() > 64
    assert s.engine.depth >= 70


def test_the_sat_backend_gives_the_same_colour_solutions_whatever_the_search_budget():
    rng = random.Random(8)
    red = ((Block(1, "red"),),) * 5
    puzzles = [Puzzle(red, red, palette=palette(2)),  # 120 solutions
               mismatched(random.Random(3), 4, 4, 2)]
    puzzles += [puzzle_from_colours(random_colour_grid(rng, 7, 6, c, 0.35), palette(c))
                for c in (2, 3, 2, 3)]
    search_budgets_agree(puzzles, Search, "native")


def test_the_colour_search_keeps_the_time_limit_inside_a_slice():
    """On a random colour picture of 700×700 cells (lines of ~400 blocks), settling the
    root and its first probes take seconds inside one slice of work: the engine looks at
    the clock itself, gives up at the deadline, and the search is over."""
    import time

    from satnono.errors import SearchTimeout
    from satnono.runtime.deadline import Deadline

    grid = random_colour_grid(random.Random(9), 700, 700, 3, 0.7)
    search = Search(puzzle_from_colours(grid, palette(3)))
    search.slice_ = 1 << 62  # one call: only the engine can keep the limit
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        search.lines_only(Deadline.after(0.05))
        search.root_only(Deadline.after(0.05))
    assert time.monotonic() - started < 0.5
    assert search.engine.expired
    with pytest.raises(SearchTimeout):
        list(search.solutions(1, deadline=Deadline.after(60)))


def test_line_logic_in_slices_is_that_of_one_go_in_colour():
    """Settling the root in slices of work gives the root of one go."""
    rng = random.Random(12)
    for _ in range(20):
        w, h = rng.randint(4, 70), rng.randint(4, 70)
        colours = rng.choice([2, 3])
        p = puzzle_from_colours(random_colour_grid(rng, w, h, colours, 0.6), palette(colours))
        whole = Search(p)
        whole.slice_ = 1 << 62
        whole.lines_only()
        for work in (0, 1, 500):
            sliced = Search(p)
            sliced.slice_ = work
            sliced.lines_only()
            assert sliced.root() == whole.root()


def test_ctrl_c_inside_one_long_call_of_the_colour_engine_is_raised_there():
    """As in black and white: Ctrl-C's KeyboardInterrupt comes out of the engine's line
    logic at once, not after a slice that lasts seconds."""
    import time

    from .conftest import ctrl_c_after

    grid = random_colour_grid(random.Random(9), 700, 700, 3, 0.7)
    search = Search(puzzle_from_colours(grid, palette(3)))
    search.slice_ = 1 << 62
    started = time.monotonic()
    with ctrl_c_after(0.05), pytest.raises(KeyboardInterrupt):
        search.lines_only()
        search.root_only()
    assert time.monotonic() - started < 0.5
    assert search.engine.expired
