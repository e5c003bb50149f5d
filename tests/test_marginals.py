"""Line marginals against brute force (exact shares of weighted placements, black and white
and colour), against the line solver (weight 0 exactly where a placement is impossible),
on lines long enough to underflow; belief propagation's beliefs; the SAT stage's first
values change how fast, never what, it finds."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import solve
from satnono.logic import compiled
from satnono.model.puzzle import Puzzle, puzzle_from_picture

from .conftest import (
    RGB_PALETTE,
    brute_colour_solutions,
    brute_solutions,
    colour_placements,
    examples,
    random_colour_grid,
    random_picture,
)

pytestmark = pytest.mark.skipif(not compiled.available(),
                                reason="the compiled engine is not built here")


def _engine(blocks, n: int, colours: int, allowed: list[int], general: bool = False):
    """An engine of one row of ``n`` cells holding ``blocks`` ((length, colour) pairs),
    its cells allowed the value sets ``allowed``; columns without clues."""
    from satnono.engine.search import Engine

    k = len(blocks)
    e = Engine(1, n, colours, [b for b, _ in blocks] or [0], [c for _, c in blocks] or [1],
               [0] * (n + 1), [k] + [0] * n, general=general)
    e.set_root([[sum(1 << i for i in range(n) if allowed[i] >> v & 1)]
                for v in range(colours + 1)])
    return e


def _brute(blocks, n: int, colours: int, allowed: list[int], weights: list[float]):
    """Exact marginals by listing every placement that fits: each cell's share of each
    value and each block's share of each start, or None."""
    values = colours + 1
    post = [[0.0] * values for _ in range(n)]
    starts = [[0.0] * n for _ in blocks]
    total = 0.0
    for line in colour_placements(blocks, n):
        if not all(allowed[i] >> v & 1 for i, v in enumerate(line)):
            continue
        w = math.prod(weights[i * values + v] for i, v in enumerate(line))
        total += w
        for i, v in enumerate(line):
            post[i][v] += w
        j = p = 0
        while p < n:  # the blocks in order: where each starts (they fill the line in turn)
            if line[p]:
                starts[j][p] += w
                p += blocks[j][0]
                j += 1
            else:
                p += 1
    if total == 0:
        return None
    return ([[x / total for x in row] for row in post],
            [[x / total for x in row] for row in starts])


def _case(rng: random.Random, colours: int, n: int):
    values = colours + 1
    k = rng.randint(0, max(1, n // 2))
    blocks = []
    for _ in range(k):
        blocks.append((rng.randint(1, 3), rng.randint(1, colours)))
    allowed = [rng.choice([(1 << values) - 1, (1 << values) - 1, 1 << rng.randrange(values),
                           rng.randrange(1, 1 << values)]) for _ in range(n)]
    weights = [rng.uniform(0.05, 1.0) for _ in range(n * values)]
    return tuple(blocks), allowed, weights


@settings(max_examples=examples(600), deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3), st.integers(1, 9), st.booleans())
def test_marginals_are_the_exact_shares_of_the_weighted_placements(seed, colours, n,
                                                                   weighted):
    from satnono.engine.marginals import marginals

    rng = random.Random(seed)
    blocks, allowed, weights = _case(rng, colours, n)
    if not weighted:
        weights = [1.0] * len(weights)
    want = _brute(blocks, n, colours, allowed, weights)
    got = marginals(_engine(blocks, n, colours, allowed), 0, weights)
    if want is None:
        assert got is None
        return
    assert got is not None
    for a, b in zip(got[0], want[0]):
        assert a == pytest.approx(b, abs=1e-9)
    for a, b in zip(got[1], want[1]):
        assert a == pytest.approx(b, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_unweighted_marginals_are_positive_exactly_where_the_line_solver_allows(seed):
    """With every weight 1, a value has a positive share in a cell exactly when the line
    solver says the cell may still take it: on lines of 1 to 3,000 cells, where a product
    of weights would underflow without the rescaling."""
    from satnono.engine.marginals import marginals

    from satnono.model.puzzle import colour_runs

    rng = random.Random(seed)
    for n in (1, 5, 63, 64, 200, 3000):
        colours = rng.choice([1, 2, 3])
        picture = [rng.randint(1, colours) if rng.random() < 0.6 else 0 for _ in range(n)]
        blocks = colour_runs(picture)
        allowed = [1 << v | (rng.randrange(1 << (colours + 1)) if rng.random() < 0.7 else 0)
                   for v in picture]
        e = _engine(blocks, n, colours, allowed, general=True)
        line = e.narrow(allowed, 0)
        got = marginals(e, 0)
        assert line is not None and got is not None
        post, _ = got
        for i in range(n):
            assert sum(post[i]) == pytest.approx(1.0, abs=1e-9)
            assert {v for v in range(colours + 1) if post[i][v] > 1e-12} == \
                {v for v in range(colours + 1) if line[i] >> v & 1}


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 2**32))
def test_beliefs_are_distributions_over_what_each_open_cell_may_take(seed):
    from satnono.logic.board import Board

    rng = random.Random(seed)
    p = puzzle_from_picture(random_picture(rng, rng.randint(2, 8), rng.randint(2, 8), 0.5))
    b = compiled.beliefs(p, Board(p.width, p.height), rounds=30)
    assert b is not None and len(b.slots) == p.width * p.height
    for cell in b.slots:
        shares = b.cell(*divmod(cell, p.width))
        assert shares is not None and sum(shares) == pytest.approx(1.0)
        assert all(0 <= x <= 1 for x in shares)


def test_beliefs_on_two_symmetric_solutions_are_even():
    from satnono.logic.board import Board

    p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    b = compiled.beliefs(p, Board(2, 2))
    assert b is not None
    for r in range(2):
        for c in range(2):
            assert b.cell(r, c) == pytest.approx([0.5, 0.5], abs=1e-6)


def test_beliefs_stop_at_the_deadline_with_what_they_have():
    """Over a wide-open 150×150 grid 200 passes take seconds (a pass computes 300 lines):
    a deadline a tenth of a second away ends it at once, with every open cell's belief
    as it stands and no start distributions (not ``finished``); the order variables then
    get no phases, the cells still do."""
    import time

    from satnono.encode.phases import phases
    from satnono.encode.residual import encode
    from satnono.logic.board import Board
    from satnono.model.verdict import LineCode
    from satnono.runtime.deadline import Deadline

    rng = random.Random(5)
    p = puzzle_from_picture(random_picture(rng, 150, 150, 0.5))
    board = Board(p.width, p.height)
    started = time.monotonic()
    b = compiled.beliefs(p, board, rounds=200, tolerance=0.0, deadline=Deadline.after(0.1))
    assert time.monotonic() - started < 2.0  # one pass is ~0.15 s here; honest slack
    assert b is not None and not b.finished and b.starts == {}
    assert len(b.slots) == p.width * p.height
    for cell in (0, 777, p.width * p.height - 1):
        assert sum(b.cell(*divmod(cell, p.width)) or []) == pytest.approx(1.0)
    small = puzzle_from_picture(random_picture(rng, 6, 6, 0.5))
    enc = encode(small, Board(6, 6), code=LineCode.ORDER)
    done = compiled.beliefs(small, Board(6, 6), rounds=30)
    assert done is not None and done.finished
    cut = compiled.Beliefs(done.width, done.height, done.values, done.slots, done.shares, {},
                           -1, done.work)
    assert len(phases(enc, cut)) == len(enc.cells) < len(phases(enc, done))


@pytest.mark.parametrize("seed", range(4))
def test_first_values_change_no_solution_set(seed):
    """The SAT stage from belief propagation's first values or from none: the same
    solutions (every backend's solutions are checked against the clues besides)."""
    rng = random.Random(500 + seed)
    for _ in range(examples(10)):
        p = puzzle_from_picture(random_picture(rng, rng.randint(3, 6), rng.randint(3, 6),
                                               0.5))
        want = brute_solutions(p)
        for phases in (True, False):
            got = set(solve(p, "sat", budget=0, phases=phases, workers=1))
            assert got == want
    # colour, where first values are asked for (the plan leaves them out by default)
    from satnono.model.puzzle import puzzle_from_colours
    from satnono.tuning import Tuning

    for _ in range(examples(6)):
        p = puzzle_from_colours(random_colour_grid(rng, rng.randint(3, 5), rng.randint(3, 5),
                                                   3, 0.6), RGB_PALETTE)
        want = brute_colour_solutions(p)
        for phases in (True, False):
            got = {tuple(s.strings(chars=p.palette.chars)) for s in
                   solve(p, "sat", phases=phases, workers=1, tuning=Tuning(colour_phases=True))}
            assert got == want
