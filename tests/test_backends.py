"""Native, SAT and CP-SAT are independent implementations of one contract: same solution sets."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Puzzle, is_solution, puzzle_from_picture, solve
from satnono.backends import BACKENDS
from satnono.backends.solver import searches
from satnono.errors import UnknownOption, UnsupportedSolver, UsageError
from satnono.io.formats import read_file

from .conftest import CORPUS, brute_solutions, examples, needs_corpus, random_picture

#: every backend over many small puzzles: in the state batch and bench run them in
pytestmark = pytest.mark.usefixtures("libraries_loaded")


def solution_sets(puzzle: Puzzle, limit: int | None = None) -> dict[str, list]:
    return {b: list(solve(puzzle, b, limit=limit)) for b in BACKENDS}


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_small_random_pictures_every_backend_equals_brute_force(w, h, density, seed):
    pic = random_picture(random.Random(seed), w, h, density)
    p = puzzle_from_picture(pic)
    truth = brute_solutions(p)
    for b, sols in solution_sets(p).items():
        assert len(sols) == len(set(sols)), b
        assert set(sols) == truth, b
        assert pic in sols


@pytest.mark.parametrize("seed", range(24))
def test_random_pictures_up_to_30x30_agree(seed):
    rng = random.Random(seed)
    w, h = rng.choice([(1, rng.randint(1, 30)), (rng.randint(1, 30), 1),
                       (rng.randint(5, 30), rng.randint(5, 30))])
    density = rng.choice([0.2, 0.35, 0.5, 0.65, 0.8])
    pic = random_picture(rng, w, h, density)
    if seed % 6 == 0:  # empty rows and columns
        pic = type(pic)(pic.width, tuple(0 if r % 3 == 0 else m for r, m in enumerate(pic.rows)))
    p = puzzle_from_picture(pic)
    limit = 40
    sets = solution_sets(p, limit)
    for b, sols in sets.items():
        assert all(is_solution(p, s) for s in sols), b
        assert len(sols) == len(set(sols))
    sizes = {len(s) for s in sets.values()}
    assert len(sizes) == 1
    if sizes.pop() < limit:  # complete enumerations: identical sets, picture included
        assert set(sets["native"]) == set(sets["sat"]) == set(sets["cpsat"])
        assert pic in sets["sat"]


@pytest.mark.parametrize("n", [1, 3, 5, 6])
def test_permutation_puzzles_have_n_factorial_solutions_everywhere(n):
    p = Puzzle(((1,),) * n, ((1,),) * n)
    for b, sols in solution_sets(p).items():
        assert len(set(sols)) == math.factorial(n), b


def test_infeasible_puzzles_have_no_solutions_everywhere():
    infeasible = [Puzzle(((1,), (1,), (1, 1)), ((1,), (1, 1), (1,))),
                  # line solving alone stalls on this one: search must refute it
                  Puzzle(((1, 1), (1, 1), (1,), (2,)), ((1,), (1, 1), (2,), (1, 1)))]
    for p in infeasible:
        assert brute_solutions(p) == set()
        for b, sols in solution_sets(p).items():
            assert sols == [], b


def test_kissat_is_refused_for_enumeration_but_finds_one_solution():
    p = Puzzle(((1,),) * 4, ((1,),) * 4)
    with pytest.raises(UnsupportedSolver, match="not incremental"):
        list(solve(p, "sat", solver="kissat404"))
    (sol,) = solve(p, "sat", solver="kissat404", limit=1)
    assert is_solution(p, sol)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_other_incremental_solvers_enumerate_the_same(solver):
    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    assert len(set(solve(p, "sat", solver=solver))) == 120


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_cadical_seed_leaves_the_solutions_unchanged(seed):
    # the benchmarks time each puzzle over seeds (benchmarks/seeds.py), tuned or not
    from satnono.backends.solver import enumerate_models
    from satnono.encode.block_start import block_start_cnf

    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    clauses, cells, _ = block_start_cnf(p)
    cell_vars = list(cells.values())
    plain = {frozenset(m) for m in enumerate_models("cadical195", clauses, cell_vars, None)}
    for tuned in (True, False):
        seeded = [frozenset(m) for m in enumerate_models("cadical195", clauses, cell_vars, None,
                                                   tuned=tuned, seed=seed)]
        assert len(seeded) == len(set(seeded)) == 120
        assert set(seeded) == plain


@pytest.mark.parametrize("search", searches(4))
def test_every_racing_search_finds_the_same_solutions(search):
    # forced phases, focused mode and seeds steer the search, never what it finds
    from satnono.backends.solver import enumerate_models
    from satnono.encode.block_start import block_start_cnf

    seed, forced, focused = search
    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    clauses, cells, _ = block_start_cnf(p)
    cell_vars = list(cells.values())
    plain = {frozenset(m) for m in enumerate_models("cadical195", clauses, cell_vars, None)}
    steered = [frozenset(m) for m in enumerate_models("cadical195", clauses, cell_vars, None,
                                                seed=seed, forced=forced, focused=focused)]
    assert len(steered) == len(set(steered)) == 120
    assert set(steered) == plain


def test_racing_searches_differ():
    assert len(set(searches(6))) == 6
    assert searches(1) == [(None, None, False)]  # one worker: the saved-phase search


@pytest.mark.parametrize("seed", range(10))
def test_racing_sat_workers_find_the_same_solutions(seed):
    from satnono.pipeline import residual

    if seed == 0:  # clues with no picture
        p = Puzzle(((1,), (1,), (1, 1)), ((1,), (1, 1), (1,)))
    elif seed == 1:  # 120 solutions
        p = Puzzle(((1,),) * 5, ((1,),) * 5)
    else:
        rng = random.Random(1000 + seed)
        while True:  # a picture that line solving and probing leave to the SAT solver
            w, h = rng.randint(3, 20), rng.randint(3, 20)
            p = puzzle_from_picture(random_picture(rng, w, h, rng.choice([0.3, 0.5, 0.7])))
            if residual(p).encoding is not None:
                break
    limit = 300
    one = list(solve(p, "sat", limit=limit))
    for workers in (2, 4):
        raced = list(solve(p, "sat", workers=workers, limit=limit,
                           timeout=120 if workers == 4 else None))
        assert len(raced) == len(set(raced)) == len(one)
        assert all(is_solution(p, s) for s in raced)
        if len(one) < limit:  # complete enumerations
            assert set(raced) == set(one)
    limited = list(solve(p, "sat", workers=2, limit=2))
    assert len(limited) == min(2, len(one)) and all(is_solution(p, s) for s in limited)


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_with_several_workers_loses_no_solution(seed):
    # CP-SAT's own enumeration with several workers misses solutions yet reports a
    # complete search; the backend solves once per solution instead
    if seed == 0:
        p = Puzzle(((1,),) * 5, ((1,),) * 5)
    elif seed == 1:
        p = Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))
    else:
        rng = random.Random(3000 + seed)
        while True:
            p = puzzle_from_picture(random_picture(rng, 10, 10, 0.4))
            if 2 <= len(list(solve(p, "sat", limit=41))) <= 40:
                break
    expected = set(solve(p, "sat"))
    for backend in ("cpsat", "plain-cpsat"):
        found = list(solve(p, backend, workers=2))
        assert len(found) == len(set(found)) and set(found) == expected
        first = list(solve(p, backend, workers=2, limit=1))
        assert len(first) == min(1, len(expected)) and set(first) <= expected


def test_workers_must_be_positive():
    with pytest.raises(UsageError, match="workers must be a whole number of at least 1"):
        list(solve(Puzzle(((1,), (1,)), ((1,), (1,))), "sat", workers=0))


@pytest.mark.parametrize("backend,option,known", [
    ("sat", "learning", "solver, probing, workers"), ("native", "solver", "probing, learning"),
    ("cpsat", "probing", "workers"), ("plain-sat", "workers", "solver"),
])
def test_an_option_the_backend_lacks_is_named(backend, option, known):
    p = Puzzle(((1,), (1,)), ((1,), (1,)))
    with pytest.raises(UnknownOption, match=f"the {backend} backend has no option '{option}' "
                       f"\\(its options: {known}"):
        list(solve(p, backend, **{option: 1}))


def test_timeout_in_sat_and_cpsat_stops_cleanly():
    from satnono import SearchTimeout

    p = Puzzle(((1,),) * 10, ((1,),) * 10)  # 3628800 solutions
    for b in ("sat", "cpsat"):
        with pytest.raises(SearchTimeout):
            for _ in solve(p, b, timeout=0.5):
                pass


@pytest.mark.full
@needs_corpus
def test_the_time_limit_covers_encoding_and_search_on_every_backend():
    """Gettys takes every backend far longer than a second; each must stop near the limit,
    its encoding included (plain-sat once spent 0.8 s encoding before its clock started,
    and native's learning search read the clock only every 64th conflict)."""
    import time

    from satnono import SearchTimeout
    from satnono.bench.suites import survey

    (p,) = [p for n, p in survey() if n == "Gettys"]
    for b in BACKENDS:
        started = time.monotonic()
        with pytest.raises(SearchTimeout):
            list(solve(p, b, limit=2, timeout=1.0))
        assert time.monotonic() - started < 2.0, b


CORPUS_COUNTS = [("test_pattern_05.txt", 109), ("test_pattern_06.txt", 2),
                 ("test_pattern_07.txt", 2), ("test_pattern_08.txt", 16),
                 ("test_pattern_11.txt", 3), ("test_pattern_12.txt", 33),
                 ("test_pattern_13.txt", 2), ("test_pattern_14.txt", 2),
                 ("test_pattern_15.txt", 3)]


@needs_corpus
@pytest.mark.parametrize("name,count", CORPUS_COUNTS)
def test_corpus_test_patterns_same_count_on_every_backend(name, count):
    path = CORPUS / "raw" / "pierre-dejoue__picross-solver" / "inputs" / name
    (p,) = read_file(str(path))
    sets = solution_sets(p)
    assert {b: len(set(s)) for b, s in sets.items()} == {b: count for b in BACKENDS}
    assert set(sets["native"]) == set(sets["sat"]) == set(sets["cpsat"])


@pytest.mark.full
@needs_corpus
@pytest.mark.parametrize("name", ["Forever", "9-Dom", "Karate", "Center", "Sierp"])
def test_hard_survey_puzzles_native_and_sat_agree(name):
    # the puzzles plain backtracking cannot validate: native's learning search must reach
    # the same verdict as the SAT backend, with the same solutions below the limit
    from satnono.bench.suites import survey

    (p,) = [p for n, p in survey() if n == name]
    native = list(solve(p, "native", limit=2, timeout=120))
    sat = list(solve(p, "sat", limit=2, timeout=120))
    assert len(native) == len(sat) >= 1
    if len(sat) == 1:
        assert native == sat
