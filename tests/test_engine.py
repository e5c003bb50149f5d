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
from .test_colour_kernel import _brute_line, _line_case
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


# ---------------------------------------------------------------- the search

search_built = pytest.mark.skipif(engine.part("search") is None,
                                  reason="the engine was not built here")


def _pictures(seed: int, count: int, sides: tuple[int, ...]):
    from satnono.model.puzzle import puzzle_from_picture

    from .conftest import random_picture

    rng = random.Random(seed)
    for _ in range(count):
        side = rng.choice(sides)
        yield puzzle_from_picture(random_picture(rng, side, rng.randint(max(1, side - 5),
                                                                         side + 5),
                                                 rng.uniform(0.3, 0.7)))


@search_built
@pytest.mark.parametrize("limit,budget", [(2, 20_000_000), (None, 20_000_000), (1, 3_000)])
def test_the_engines_search_walks_the_numba_searchs_tree(limit, budget):
    """Node for node and line solve for line solve: the same solutions in the same order,
    the same nodes, line solves and work, the same end, on small and large pictures (lines
    past 63 cells on several words), looking for one, two or all solutions, and stopping
    part way at a small budget."""
    from satnono.logic.compiled import Search, warm
    from satnono.logic.compiled.engine_search import EngineSearch
    from satnono.logic.context import Stats

    warm()
    for p in _pictures(5, examples(60), (4, 8, 15, 25, 30, 70)):
        a, b = Search(p), EngineSearch(p)
        got_a = list(a.solutions(limit, budget))
        got_b = list(b.solutions(limit, budget))
        assert got_a == got_b
        sa, sb = Stats(), Stats()
        a.count_into(sa)
        b.count_into(sb)
        assert (sa.nodes, sa.line_solves, sa.max_depth, a.cost, a.done) == \
               (sb.nodes, sb.line_solves, sb.max_depth, b.cost, b.done)
        assert a.root() == b.root()


@search_built
def test_the_engines_implications_are_the_numba_searchs():
    from satnono.logic.board import Board
    from satnono.logic.compiled import Search, warm
    from satnono.logic.compiled.engine_search import EngineSearch

    warm()
    for p in _pictures(9, examples(30), (3, 6, 10, 20)):
        a, b = Search(p), EngineSearch(p)
        board = Board(p.width, p.height)
        assert sorted(map(tuple, a.implications(board).tolist())) == \
               sorted(map(tuple, b.implications(board).tolist()))
        assert len(b.implications(board, 5)) == min(5, len(a.implications(board)))


@search_built
def test_the_engines_search_gives_every_solution_whatever_its_budget():
    from satnono.logic.compiled.engine_search import EngineSearch

    from .conftest import search_budgets_agree

    search_budgets_agree(list(_pictures(3, examples(40), (3, 4, 5, 6))), EngineSearch,
                         "native")


# ---------------------------------------------------------------- colour

colour_built = pytest.mark.skipif(engine.part("colour") is None,
                                  reason="the engine was not built here")


def _engine_colour_line(blocks, n: int, may: tuple[int, ...], wide: bool = False):
    """The engine's colour line solver on one row of n cells, answered as
    ``narrow_colour`` answers (per colour, the cells that may take it), or None."""
    from satnono.engine.colour import ColourEngine

    colours = len(may) - 1
    e = ColourEngine(1, n, colours, [b for b, _ in blocks] or [0],
                     [c for _, c in blocks] or [1], [0] * (n + 1),
                     [len(blocks)] + [0] * n, 1)
    grid = [sum(1 << k for k in range(colours + 1) if may[k] >> p & 1) for p in range(n)]
    out = e.narrow(grid, 0, wide)
    if out is None:
        return None
    return tuple(sum(1 << p for p in range(n) if out[p] >> k & 1) for k in range(colours + 1))


@colour_built
@settings(max_examples=examples(1500), deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_the_engines_colour_line_solver_equals_brute_force(seed, wide):
    blocks, n, may = _line_case(random.Random(seed), 12)
    assert _engine_colour_line(blocks, n, may, wide) == _brute_line(blocks, n, may)


@colour_built
@pytest.mark.parametrize("n", [1, 20, 63, 64, 65, 99, 127, 128, 129, 200, 300])
def test_the_engines_colour_line_solver_agrees_with_the_python_one_on_long_lines(n):
    from satnono.logic.line import narrow_colour

    rng = random.Random(n)
    for _ in range(examples(300)):
        blocks, n2, may = _line_case(rng, n)
        if any(not any(m >> p & 1 for m in may) for p in range(n2)):
            continue  # an empty cell: the Python solver is never asked that
        want = narrow_colour(blocks, n2, may)
        assert _engine_colour_line(blocks, n2, may, wide=True) == want, (blocks, n2)
        if n2 <= 63:
            assert _engine_colour_line(blocks, n2, may) == want, (blocks, n2)


@colour_built
@pytest.mark.parametrize("limit,budget", [(2, 20_000_000), (None, 20_000_000), (1, 5_000)])
def test_the_engines_colour_search_walks_the_numba_searchs_tree(limit, budget):
    """The same solutions, nodes, line solves, work and end as the Numba colour search, on
    pictures of two and three colours up to 70 cells a side (lines past 63 on several
    words)."""
    from satnono.logic.compiled import warm
    from satnono.logic.compiled.colour import ColourSearch
    from satnono.logic.compiled.engine_search import EngineColourSearch
    from satnono.logic.context import Stats
    from satnono.model.puzzle import puzzle_from_colours

    from .conftest import random_colour_grid
    from .test_colour import palette

    warm()
    from satnono.logic.compiled import ready

    rng = random.Random(17)
    for _ in range(examples(40)):
        colours = rng.randint(2, 3)
        w = rng.choice([3, 6, 12, 25, 70])
        h = rng.randint(max(1, w - 4), w + 4)
        p = puzzle_from_colours(random_colour_grid(rng, w, h, colours,
                                                   rng.uniform(0.4, 0.9)), palette(colours))
        ready(p)
        a, b = ColourSearch(p), EngineColourSearch(p)
        assert list(a.solutions(limit, budget)) == list(b.solutions(limit, budget))
        sa, sb = Stats(), Stats()
        a.count_into(sa)
        b.count_into(sb)
        assert (sa.nodes, sa.line_solves, sa.max_depth, a.cost, a.done) == \
               (sb.nodes, sb.line_solves, sb.max_depth, b.cost, b.done)
        assert a.root() == b.root()


@colour_built
def test_the_engines_colour_search_gives_every_solution_whatever_its_budget():
    """test_colour_kernel's puzzles (one of 120 solutions, contradictions, pictures)."""
    from satnono.logic.compiled.engine_search import EngineColourSearch
    from satnono.model.puzzle import Block, Puzzle, puzzle_from_colours

    from .conftest import random_colour_grid, search_budgets_agree
    from .test_colour import mismatched, palette

    rng = random.Random(8)
    red = ((Block(1, "red"),),) * 5
    puzzles = [Puzzle(red, red, palette=palette(2)), mismatched(random.Random(3), 4, 4, 2)]
    puzzles += [puzzle_from_colours(random_colour_grid(rng, 7, 6, c, 0.35), palette(c))
                for c in (2, 3, 2, 3)]
    search_budgets_agree(puzzles, EngineColourSearch, "native")


@colour_built
def test_the_black_and_white_search_and_the_colour_one_agree_on_black_and_white():
    """The black-and-white engine is the colour engine's fast path for a palette of one
    colour: on black-and-white pictures (read as a colour puzzle of one block colour) the
    colour search gives the same solution set."""
    from satnono.engine.colour import ColourEngine

    from satnono.logic.compiled.engine_search import EngineSearch, colour_solution_of

    for p in _pictures(21, examples(40), (3, 5, 8, 12)):
        want = set(EngineSearch(p).solutions(None))
        lines = [tuple(b.length for b in c) for c in p.rows + p.columns]
        counts = [len(c) for c in lines]
        starts = [sum(counts[:i]) for i in range(len(lines))]
        flat = [x for c in lines for x in c] or [0]
        e = ColourEngine(p.height, p.width, 1, flat, [1] * len(flat), starts, counts, 4)
        got = set()
        while True:
            status = e.search(10**12)
            if status == 1:
                got.add(colour_solution_of(e.solution_grid, p.width, 1))
            elif status == 2:
                break
        assert got == want


# ---------------------------------------------------------------- the counter

counter_built = pytest.mark.skipif(engine.part("counter") is None,
                                   reason="the engine was not built here")


@counter_built
def test_the_engines_counter_counts_as_the_numba_counter_does():
    """The same counts, nodes and cache hits as the Numba counter, and the count
    enumeration gives, on pictures with one, several and many solutions (2×2 switches and
    sliding blocks counted as independent parts) and on permutation matrices."""
    import numpy as np

    from satnono.logic.compiled import COUNT_CACHE, PROBE_PARTS, Counted, Search, counter, warm
    from satnono.logic.compiled import kernel as numba_kernel
    from satnono.logic.compiled.engine_search import engine_count
    from satnono.model.puzzle import Puzzle

    from .conftest import brute_solutions

    warm()

    def numba_count(p):
        s = Search(p)
        work = np.zeros(counter.HITS + 1, np.int64)
        n = counter.count(s.stack[0], s.height, s.width, s.clues, s.starts, s.counts, work,
                          s.tmp, COUNT_CACHE, PROBE_PARTS)
        return Counted(int(n), int(work[numba_kernel.NODES]), int(work[counter.HITS]))

    puzzles = [Puzzle(((1,),) * n, ((1,),) * n) for n in (1, 4, 7)]
    puzzles += list(_pictures(31, examples(60), (3, 5, 8, 10)))
    for p in puzzles:
        got = engine_count(p, None, COUNT_CACHE, PROBE_PARTS)
        assert got == numba_count(p)
        if p.width * p.height <= 25:
            assert got.count == len(brute_solutions(p))
