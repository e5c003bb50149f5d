"""A differential campaign, in the full tier: random small puzzles, black and white and
colour, whose every solution brute force lists, against every way satnono finds or counts
them — the engine's search (restarting, and going through the tree once; from an open
board and after a budget), the engine's counter on both of its cell representations, the
sat, native and cpsat backends — and lines at the machine-word edges (62–66 and 126–130
cells) where the engine's two representations and the Python logic must reach one root.
Zero disagreements is the only passing score."""

from __future__ import annotations

import random

import pytest

from satnono import count, solve
from satnono.logic import compiled
from satnono.logic.compiled import Search, count_solutions, search_for
from satnono.logic.context import Context
from satnono.logic.presolve import presolve
from satnono.model.puzzle import (
    Palette,
    Puzzle,
    problems,
    puzzle_from_colours,
    puzzle_from_picture,
)
from satnono.model.solution import line_clue

from .conftest import (
    RGB_PALETTE,
    brute_colour_solutions,
    brute_solutions,
    random_colour_grid,
    random_picture,
)

pytestmark = [pytest.mark.full,
              pytest.mark.skipif(not compiled.available(),
                                 reason="the compiled engine is not built here")]


def _random_bw(rng: random.Random) -> Puzzle:
    w, h = rng.randint(1, 5), rng.randint(1, 5)
    if rng.random() < 0.6:
        return puzzle_from_picture(random_picture(rng, w, h, rng.uniform(0.2, 0.8)))
    rows = [line_clue(rng.getrandbits(w), w) for _ in range(h)]
    columns = [line_clue(rng.getrandbits(h), h) for _ in range(w)]
    return Puzzle(rows, columns)


def _random_colour(rng: random.Random) -> Puzzle:
    w, h, colours = rng.randint(1, 4), rng.randint(1, 4), rng.randint(2, 3)
    palette = Palette(RGB_PALETTE.colours[:colours + 1])
    p = puzzle_from_colours(random_colour_grid(rng, w, h, colours, rng.uniform(0.3, 0.9)),
                            palette)
    if rng.random() < 0.3:  # another picture's columns: often no solution
        other = puzzle_from_colours(random_colour_grid(rng, w, h, colours, 0.6), palette)
        p = Puzzle(p.rows, other.columns, palette=palette)
    return p


def _strings(puzzle: Puzzle, sols) -> set[tuple[str, ...]]:
    return {tuple(s.strings(chars=puzzle.palette.chars)) for s in sols}


@pytest.mark.parametrize("seed", range(8))
def test_every_way_of_solving_and_counting_agrees_with_brute_force(seed):
    rng = random.Random(7000 + seed)
    disagreements = []
    for i in range(60):
        colour = i % 3 == 2
        p = _random_colour(rng) if colour else _random_bw(rng)
        if problems(p):  # clues whose totals differ are refused before any solver
            continue
        truth = (brute_colour_solutions(p) if colour
                 else _strings(p, brute_solutions(p)))
        found = {
            "search": _strings(p, Search(p).solutions(None)),
            "search, restarting": _strings(p, Search(p).solutions(2)),
            "search, general": _strings(p, search_for(p, general=True).solutions(None)),
            "sat": _strings(p, solve(p, "sat")),
            "native": _strings(p, solve(p, "native")),
            "cpsat": _strings(p, solve(p, "cpsat")),
        }
        budgeted = Search(p)
        got = list(budgeted.solutions(None, 40))
        got += list(budgeted.solutions(None))
        found["search, after a budget"] = _strings(p, got)
        for name, sols in found.items():
            want = truth if "restarting" not in name else None
            if want is not None and sols != want:
                disagreements.append((name, p, len(sols), len(truth)))
            if want is None and not (sols <= truth and len(sols) == min(2, len(truth))):
                disagreements.append((name, p, len(sols), len(truth)))
        counts = {"counter": count_solutions(p).count,
                  "counter, general": count_solutions(p, general=True).count,
                  "count": count(p).count}
        for name, n in counts.items():
            if n != len(truth):
                disagreements.append((name, p, n, len(truth)))
    assert disagreements == []


@pytest.mark.parametrize("seed", range(4))
def test_lines_at_the_word_edges_reach_one_root_every_way(seed):
    """The root after line logic and probing is the same board on the engine's fast path,
    on its colour representation and in the Python logic, for lines one cell either side
    of one and two machine words."""
    rng = random.Random(8100 + seed)
    for _ in range(6):
        w = rng.choice([62, 63, 64, 65, 66, 126, 127, 128, 129, 130])
        h = rng.choice([3, 5, 8, 63, 64, 65])
        p = puzzle_from_picture(random_picture(rng, w, h, rng.uniform(0.55, 0.75)))
        want = presolve(Context(p), compiled=False).board
        roots = []
        for general in (False, True):
            s = search_for(p, general=general)
            s.lines_only()
            s.root_only()
            roots.append(s.root())
        assert all(r is not None and want is not None and r.may == want.may for r in roots)
