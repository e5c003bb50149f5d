"""A small puzzle in a process that has not loaded the compiled code: Python probing and a
CNF first, the compiled search only if the CNF does not settle it within a moment; the
answers are the same either way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from satnono import solve
from satnono.backends import sat
from satnono.logic import compiled
from satnono.model.puzzle import Puzzle, puzzle_from_picture

from .conftest import brute_solutions, printed, random_picture

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
needs_compiled = pytest.mark.skipif(not compiled.usable(Puzzle(((1,),), ((1,),))),
                                    reason="the compiled code is turned off")


def _puzzles() -> list[Puzzle]:
    """0, 1, several and many solutions, and pictures that need probing."""
    rng = random.Random(7)
    out = [
        Puzzle(((), (), (1, 1)), ((), (), (1, 1))),  # none
        Puzzle(((1,), (3,), (1,)), ((1,), (3,), (1,))),  # one
        Puzzle(((1,),) * 4, ((1,),) * 4),  # 24
    ]
    out += [puzzle_from_picture(random_picture(rng, 6, 5, rng.uniform(0.3, 0.6)))
            for _ in range(8)]
    return out


@needs_compiled
@pytest.mark.parametrize("moment", [0.0, 5.0])
@pytest.mark.parametrize("limit", [1, 2, None])
def test_a_cold_small_puzzle_gives_every_solution_once(monkeypatch, moment, limit):
    """With no moment for the CNF the compiled search takes over from Python's probed root
    (after whatever the CNF gave); with a long one the CNF settles it alone."""
    monkeypatch.setattr(sat, "cold", lambda puzzle: True)
    monkeypatch.setattr(compiled, "cold", lambda puzzle: True)
    monkeypatch.setattr(compiled, "loaded", lambda puzzle=None: False)  # as in a fresh process
    # the Numba search, whose load the cold path waits for (the engine built at install
    # needs no load, and never takes this path)
    monkeypatch.setattr(compiled, "engine_built", lambda: False)
    monkeypatch.setattr(sat, "COLD_CNF", moment)
    made = []

    class Counted(compiled.Search):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(compiled, "Search", Counted)
    for p in _puzzles():
        want = brute_solutions(p)
        got = list(solve(p, "sat", limit=limit))
        assert len(got) == len(set(got))
        assert set(got) <= want
        assert len(got) == (len(want) if limit is None else min(limit, len(want)))
    # the compiled search took over exactly when the CNF had no time
    assert (len(made) > 0) == (moment == 0.0)


def test_a_fresh_process_solves_a_small_puzzle_without_the_compiled_code():
    """What a single `satnono solve` of a 30×30 pays for: no Numba import, no compile, no
    probing in Python."""
    code = (
        "import random, sys\n"
        "from satnono import solve\n"
        "from satnono.model.puzzle import puzzle_from_picture\n"
        "from satnono.model.solution import Solution\n"
        "rng = random.Random(1)\n"
        "rows = tuple(sum(1 << c for c in range(30) if rng.random() < 0.5) for _ in range(30))\n"
        "p = puzzle_from_picture(Solution(30, rows))\n"
        "run = solve(p, 'sat', limit=2)\n"
        "print(len(list(run)), 'numba' in sys.modules, run.stats.probes)\n"
        "from satnono.pipeline import residual\n"
        "print(residual(p).presolved.by_probe > 0, 'numba' in sys.modules)\n"
    )
    words = printed(code, timeout=120)
    assert words[:2] == ["2", "False"] and words[3:] == ["True", "False"]
    # the sat backend's CNF from line logic alone (no probing in Python: the compiled search
    # probes if the CNF does not settle it); without the compiled code the Python logic
    # probes, as it does everything; a residual for others (count, check, encode) is
    # probed either way
    usable = compiled.usable(Puzzle(((1,),), ((1,),)))
    assert (words[2] == "0") == usable, words


@needs_compiled
def test_a_fresh_process_loads_only_the_colour_code_for_a_colour_puzzle():
    """A colour puzzle that needs the compiled search loads the colour search and not the
    black-and-white one (a quarter of a second of a fresh process), and a black-and-white
    puzzle after it loads its own."""
    code = (
        "from satnono.logic import compiled\n"
        "from satnono.model.puzzle import BLACK_AND_WHITE, Colour, Palette, Puzzle\n"
        "red = Palette(BLACK_AND_WHITE.colours + (Colour('red', 'r', 'ff0000'),))\n"
        "p = Puzzle(rows=(((1, 'black'), (1, 'red')),),\n"
        "           columns=(((1, 'black'),), ((1, 'red'),)), palette=red)\n"
        "print(compiled.loaded(p), compiled.ready(p), compiled.loaded(p), compiled.loaded())\n"
        "bw = Puzzle(rows=((1,),), columns=((1,),))\n"
        "print(compiled.ready(bw), compiled.loaded(bw), compiled.loaded(p))\n"
    )
    # the engine built at install needs no loading: every search is there from the start
    want = (["True"] * 7 if compiled.engine_built() else
            ["False", "True", "True", "False", "True", "True", "True"])
    assert printed(code) == want
