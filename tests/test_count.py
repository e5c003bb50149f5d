"""Exact counts: native, SAT and CP-SAT enumeration, Ganak and auto give one number."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Puzzle, puzzle_from_picture, solve
from satnono.analyze.count import count
from satnono.analyze.counters import d4_here
from satnono.engine import DISABLE
from satnono.io.words import count_words
from satnono.logic.compiled import usable
from satnono.model.verdict import Depth
from satnono.tuning import Tuning

from .conftest import (
    brute_solutions,
    corpus_puzzle,
    corpus_rows,
    examples,
    needs_corpus,
    random_picture,
)


def every_count(p: Puzzle, timeout: float = 60) -> dict[str, int]:
    out = {b: len(list(solve(p, b, timeout=timeout))) for b in ("native", "sat", "cpsat")}
    for method in ("enumerate", "ganak") + (("compiled",) if usable(p) else ()) + \
            (("d4",) if d4_here() else ()):
        res = count(p, method, timeout=timeout)
        assert res.complete, method
        out[method] = res.count
    # a threshold of 1 forces auto over to ganak whenever there are two solutions or more
    res = count(p, "auto", threshold=1, timeout=timeout)
    assert res.complete
    out["auto"] = res.count
    if d4_here():  # D4 in the race too, as on a machine of four cores
        res = count(p, "auto", threshold=1, timeout=timeout, tuning=Tuning(d4_race_cores=1))
        assert res.complete
        out["auto with d4"] = res.count
    return out


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_counts_equal_brute_force_on_small_pictures(w, h, density, seed):
    p = puzzle_from_picture(random_picture(random.Random(seed), w, h, density))
    truth = len(brute_solutions(p))
    assert set(every_count(p).values()) == {truth}


@pytest.mark.parametrize("seed", range(12))
def test_counts_agree_on_medium_random_pictures(seed):
    rng = random.Random(1000 + seed)
    while True:  # draw until the count is small enough for every backend to enumerate
        side = rng.choice([8, 10, 12, 15])
        density = rng.choice([0.2, 0.3, 0.5, 0.7])
        p = puzzle_from_picture(random_picture(rng, side, rng.choice([side, side - 3]),
                                               density))
        if len(list(solve(p, "sat", limit=2001))) <= 2000:
            break
    counts = every_count(p)
    assert len(set(counts.values())) == 1, counts
    assert counts["sat"] >= 1  # the picture itself


@pytest.mark.parametrize("k", [3, 5, 7, pytest.param(8, marks=pytest.mark.full)])
def test_permutation_puzzle_has_k_factorial_solutions(k, monkeypatch):
    # every row and every column holds one cell: the solutions are the k! permutation
    # matrices, a count known in closed form (and beyond the auto threshold from k = 7)
    p = Puzzle(((1,),) * k, ((1,),) * k)
    res = count(p, "auto")
    assert res.complete and res.count == math.factorial(k)
    many = math.factorial(k) > 1000  # past auto's threshold
    # past it, Ganak raced by the compiled counter and enumeration: any may come in first
    assert res.method in ({"enumerate (sat)"} if not many else
                          {"compiled counter", "ganak", "enumerate (sat)"} if usable(p)
                          else {"ganak", "enumerate (sat)"})
    # and says why it took it
    assert ("lists up to 1,000" in res.why if not many else
            "races" in res.why)
    assert count(p, "ganak").why == ""  # asked for: no reason to give
    # without the compiled code, auto races Ganak and enumeration past the threshold
    monkeypatch.setenv(DISABLE, "1")
    res = count(p, "auto")
    assert res.complete and res.count == math.factorial(k)
    assert res.method in ({"ganak", "enumerate (sat)"} if many else {"enumerate (sat)"})
    assert not many or "compiled counter does not run here" in res.why


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_counting_with_several_workers_gives_the_same_number(backend):
    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    for workers in (1, 2):
        res = count(p, "enumerate", backend=backend, workers=workers)
        assert res.complete and res.count == 120


def test_no_solution_counts_zero_everywhere():
    # totals agree, every clue fits, yet no grid exists
    p = Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))
    assert not brute_solutions(p)
    assert set(every_count(p).values()) == {0}
    res = count(p)
    assert res.method == "propagation" and "refute the clues" in count_words(res)
    one = count(Puzzle(((2,), (1,)), ((2,), (1,))))
    assert one.count == 1 and "leave one picture" in count_words(one)


def test_timeout_gives_a_lower_bound_marked_incomplete():
    p = Puzzle(((1,),) * 12, ((1,),) * 12)
    res = count(p, "auto", threshold=50, timeout=0.5)
    assert not res.complete and res.count >= 51


# the picross-solver test patterns document their number of solutions
DOCUMENTED = [r for r in corpus_rows() if r["kind"] == "bw"
              and r["solutions_documented"].isdigit() and int(r["solutions_documented"]) > 1
              and int(r["width"]) * int(r["height"]) <= 400]


@needs_corpus
@pytest.mark.parametrize("row", DOCUMENTED,
                         ids=lambda r: f"{r['entry']}={r['solutions_documented']}")
def test_documented_counts_of_corpus_patterns(row):
    counts = every_count(corpus_puzzle(row))
    assert set(counts.values()) == {int(row["solutions_documented"])}, counts


@needs_corpus
def test_the_documented_patterns_cover_2_3_16_33_109():
    assert {2, 3, 16, 33, 109} <= {int(r["solutions_documented"]) for r in DOCUMENTED}


def test_the_enumerating_racer_counts_to_the_last_solution():
    """auto's third racer lists every model of the automaton residual, each checked."""
    from satnono.analyze.counters import Listed, _listed
    from satnono.pipeline import residual

    rng = random.Random(5)
    for _ in range(6):
        p = puzzle_from_picture(random_picture(rng, 5, 5, 0.5))
        res = residual(p, depth=Depth.LINES)
        if res.encoding is None:
            continue
        assert list(_listed(p, res.encoding, 10**6)) == [Listed(len(brute_solutions(p)))]


def test_the_enumerating_racer_says_what_it_has_listed_as_it_goes():
    """Every ``every`` seconds (here after each model) the racer says what it has listed
    so far, a lower bound marked as such, and at the end the count, which is not."""
    from satnono.analyze.counters import Listed, _listed, cut_short
    from satnono.pipeline import residual

    p = Puzzle(((1,),) * 7, ((1,),) * 7)  # 7! = 5,040
    enc = residual(p).encoding
    said = list(_listed(p, enc, 10**6, every=0.0))
    assert said == [Listed(k, complete=False) for k in range(1, 5041)] + [Listed(5040)]
    assert all(map(cut_short, said[:-1])) and not cut_short(said[-1])
    assert list(_listed(p, enc, 10**6)) == [Listed(5040)]  # no every: the count alone


@pytest.mark.full
def test_a_count_cut_by_its_limit_keeps_the_best_bound_the_racers_had():
    """11×11 permutation matrices (11!): auto past a threshold of 10 races the counters
    with enumeration going on (from the start where the engine is not built); cut by a
    limit that none of them meets, the count is the largest number a racer had for
    certain when its own limit came, not the 11 listed before the race."""
    p = Puzzle(((1,),) * 11, ((1,),) * 11)  # 11! = 39,916,800
    res = count(p, "auto", threshold=10, timeout=8, exact_first=0)
    assert not res.complete
    assert 11 < res.count < 39_916_800
    assert res.method in ({"compiled counter", "enumerate (sat)"} if usable(p)
                          else {"enumerate (sat)"})


def test_the_enumerating_racer_gives_way_past_its_cap():
    """Past its cap the racer leaves without a word (alone, the race has no one left);
    the count comes from the others."""
    import satnono.analyze.counters as counters
    from satnono.errors import ChildDied
    from satnono.pipeline import residual
    from satnono.runtime.child import race
    from satnono.runtime.deadline import NO_DEADLINE

    p = Puzzle(((1,),) * 7, ((1,),) * 7)
    enc = residual(p).encoding
    with pytest.raises(ChildDied):
        list(race([(counters._listed, (p, enc, 10))], NO_DEADLINE, always=True))
    res = count(p, "auto", threshold=5, tuning=Tuning(listed_at_most=10))
    assert res.complete and res.count == 5040
    assert res.method in ({"compiled counter", "ganak"} if usable(p) else {"ganak"})


def test_d4_is_asked_for_by_name_and_says_when_it_is_missing(monkeypatch, capsys):
    from satnono.analyze import counters
    from satnono.cli import main

    p = Puzzle(((1,),) * 6, ((1,),) * 6)
    if d4_here():
        res = count(p, "d4")
        assert (res.count, res.complete, res.method) == (720, True, "d4")
    monkeypatch.setattr(counters, "d4_here", lambda: False)  # as where no wheel is
    with pytest.raises(Exception, match="needs the d4solver package"):
        count(p, "d4")
    from pathlib import Path

    two = Path(__file__).resolve().parents[1] / "puzzles" / "two.dat"
    assert main(["count", str(two), "--method", "d4"]) == 6
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "d4solver" in err
