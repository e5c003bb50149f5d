"""Kissat for the first solution, a 2×2 swap or CaDiCaL for the next: the sat backend's
solution sets stay the native solver's, with Kissat and without it."""

from __future__ import annotations

import itertools
import os
import random
import time

import pytest

from satnono import solve
from satnono.backends import kissat, sat
from satnono.backends.sat import swapped
from satnono.errors import SearchTimeout, SolverFailed
from satnono.model.puzzle import (
    Block,
    Palette,
    Puzzle,
    is_solution,
    puzzle_from_colours,
    puzzle_from_picture,
)
from satnono.model.solution import Solution
from satnono.plan import TUNING, Plan, Tuning
from satnono.runtime.deadline import NO_DEADLINE, Deadline

from .conftest import RGB_PALETTE, examples, random_colour_grid, random_picture

needs_kissat = pytest.mark.skipif(kissat.program() is None,
                                  reason="no kissat here (passagemath-kissat has no wheel)")


@pytest.fixture
def kissat_off(monkeypatch):
    monkeypatch.setenv(kissat.ENVIRONMENT, "none")
    kissat.program.cache_clear()
    yield
    monkeypatch.delenv(kissat.ENVIRONMENT)
    kissat.program.cache_clear()


def _puzzles() -> list[Puzzle]:
    rng = random.Random(7)
    out = [Puzzle(rows=((1,),) * 5, columns=((1,),) * 5),  # 120 solutions
           Puzzle(rows=((2,), ()), columns=((2,), ())),  # none
           Puzzle(rows=((1,), (1,)), columns=((1,), (1,))),  # two, one swap apart
           Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))]  # one
    out += [puzzle_from_picture(random_picture(rng, 8, 8, d)) for d in (0.3, 0.5, 0.7) * 3]
    # colour: the first solution's colours are where CaDiCaL looks for the next (no swap)
    red = ((Block(1, "red"),),) * 4
    out += [Puzzle(red, red, palette=_palette(2)),  # 24 solutions
            puzzle_from_colours(random_colour_grid(rng, 6, 6, 3, 0.4), _palette(3)),
            puzzle_from_colours(random_colour_grid(rng, 7, 6, 2, 0.3), _palette(2))]
    return out


def _palette(colours: int) -> Palette:
    return Palette(RGB_PALETTE.colours[:colours + 1])


@needs_kissat
def test_first_model_sat_unsat_and_its_time_limit():
    assert kissat.first_model([[1, 2], [-1], [2, 3]], 3, NO_DEADLINE) in ([-1, 2, -3],
                                                                         [-1, 2, 3])
    # first values: the renamed CNF's model renamed back, and the values kept where free
    assert kissat.first_model([[1, 2], [-1], [2, 3]], 3, NO_DEADLINE,
                              phases=[-1, 2, -3]) == [-1, 2, -3]
    assert kissat.first_model([[1, 2], [-1], [2, 3]], 3, NO_DEADLINE,
                              phases=[1, 2, 3]) == [-1, 2, 3]
    assert kissat.first_model([[1], [-1, 2], [-2]], 2, NO_DEADLINE) is None
    # twelve pigeons, eleven holes: more than ten seconds of Kissat here
    holes = 11
    var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var[p, h], -var[q, h]] for h in range(holes)
                for p, q in itertools.combinations(range(holes + 1), 2)]
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        kissat.first_model(clauses, len(var), Deadline.after(0.25))
    assert time.monotonic() - started < 5
    assert not _kissat_children()  # killed at the limit


def _kissat_children() -> list[str]:
    found = []
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().split()
        except OSError:
            continue
        if fields[1] == "(kissat)" and int(fields[3]) == os.getpid():
            found.append(pid)
    return found


def test_a_kissat_that_cannot_run_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv(kissat.ENVIRONMENT, str(tmp_path / "no-such-kissat"))
    kissat.program.cache_clear()
    try:
        with pytest.raises(SolverFailed, match="kissat could not be run.*SATNONO_KISSAT=none"):
            kissat.first_model([[1]], 1, NO_DEADLINE)
    finally:
        monkeypatch.delenv(kissat.ENVIRONMENT)
        kissat.program.cache_clear()


def _agree(p: Puzzle, tuning: Tuning = TUNING) -> None:
    """The one-core path (the race has its own tests: test_portfolio)."""
    want = set(solve(p, "native", limit=None))
    # straight to the CNF stage
    got = list(solve(p, "sat", limit=None, budget=0, workers=1, tuning=tuning))
    assert len(got) == len(set(got)) and set(got) == want
    for limit in (1, 2):
        part = list(solve(p, "sat", limit=limit, budget=0, workers=1, tuning=tuning))
        assert len(part) == len(set(part)) == min(limit, len(want)) and set(part) <= want


@needs_kissat
@pytest.mark.parametrize("index", range(len(_puzzles())))
def test_with_kissat_the_solutions_are_the_native_solvers(index):
    _agree(_puzzles()[index], Tuning(kissat_cells=0))  # these are small: Kissat all the same


@needs_kissat
def test_kissat_runs_past_its_size_and_not_below(monkeypatch):
    """Past :attr:`~satnono.plan.Tuning.kissat_cells` open cells the first solution is
    Kissat's (the search time includes a program started and fed the CNF), below it not."""
    calls = []
    first_model = kissat.first_model
    monkeypatch.setattr(kissat, "first_model", lambda *a: calls.append(1) or first_model(*a))
    p = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)
    at = Tuning(kissat_cells=36)
    assert len(list(solve(p, "sat", limit=2, budget=0, workers=1, tuning=at))) == 2
    assert calls == []
    past = Tuning(kissat_cells=35)
    assert len(list(solve(p, "sat", limit=2, budget=0, workers=1, tuning=past))) == 2
    assert calls == [1]


@pytest.mark.parametrize("index", range(len(_puzzles())))
def test_without_kissat_the_solutions_are_the_native_solvers(kissat_off, index):
    assert kissat.program() is None
    _agree(_puzzles()[index])


def _brute_swap(p: Puzzle, sol: Solution) -> bool:
    """Whether some rectangle's corners can trade places and keep every clue."""
    h, w = p.height, p.width
    for r1, r2 in itertools.combinations(range(h), 2):
        for c1, c2 in itertools.combinations(range(w), 2):
            a, b = sol.filled(r1, c1), sol.filled(r1, c2)
            if a != sol.filled(r2, c2) or b != sol.filled(r2, c1) or a == b:
                continue
            rows = list(sol.rows)
            rows[r1] ^= 1 << c1 | 1 << c2
            rows[r2] ^= 1 << c1 | 1 << c2
            if is_solution(p, Solution(w, tuple(rows))):
                return True
    return False


def test_a_swap_gives_another_solution_exactly_when_one_exists():
    """Against brute force over every rectangle: what :func:`swapped` returns is a
    solution four cells away, and it finds one whenever one exists."""
    rng = random.Random(3)
    found = 0
    for _ in range(examples(600)):
        sol = random_picture(rng, rng.randint(2, 7), rng.randint(2, 7), rng.random())
        p = puzzle_from_picture(sol)
        other = swapped(p, sol)
        assert (other is not None) == _brute_swap(p, sol), sol.rows
        if other is not None:
            found += 1
            changed = sum(bin(a ^ b).count("1") for a, b in zip(sol.rows, other.rows))
            assert changed == 4 and is_solution(p, other)
    assert found > examples(600) // 10  # the case is common, and was met


@pytest.mark.parametrize("after", [0, 1, TUNING.neighbour_after])
def test_the_search_looking_for_two_tries_a_swap_of_its_first(monkeypatch, after):
    """The compiled search looking for two solutions tries a 2×2 swap of its first when
    the second has not come ``neighbour_after`` work later (0: never): the two it gives are
    brute force's, distinct, as many as there are up to two, and the swap is met (1: at
    once after the first) or never tried (0)."""
    from satnono.logic.compiled import Search
    from satnono.logic.context import Context

    from .conftest import brute_solutions

    tried: list[Solution | None] = []

    def spy(puzzle, sol):  # the real swap, its answers kept
        tried.append(swapped(puzzle, sol))
        return tried[-1]

    monkeypatch.setattr(sat, "swapped", spy)
    plan = Plan("sat", budget=TUNING.budget, tuning=Tuning(neighbour_after=after))
    rng = random.Random(17)
    # three solutions, none a swap away from another: the search goes on after the swap
    no_swap = Solution(3, (0b001, 0b001, 0b101, 0b010, 0b010, 0b100))
    # three solutions, the search's second not at once after its first, a swap of the
    # first one of them: the swap is met (random pictures of this kind are rare, 2 in 300)
    swap_met = Solution(3, (0b011, 0b100, 0b100, 0b010, 0b000))
    pictures = [no_swap, swap_met] + [
        random_picture(rng, rng.randint(2, 6), rng.randint(2, 6), rng.random())
        for _ in range(examples(300))]
    for sol in pictures:
        p = puzzle_from_picture(sol)
        every = brute_solutions(p)
        got = list(sat._searched(Search(p), Context(p), 2, plan, NO_DEADLINE, sat.Found()))
        assert len(got) == len(set(got)) == min(2, len(every)), sol.rows
        assert set(got) <= every
    if after == 0:
        assert not tried
    if after == 1:
        assert any(other is not None for other in tried)
        assert any(other is None for other in tried)  # the search went on after it
