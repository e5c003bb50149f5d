"""Estimates (ApproxMC through pyapproxmc): the binding's lost factor 2^k put back, the
bounds against exact counts, and an estimate that never reads as a count — in the library,
the CLI's words, its JSON and its exit status."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys

import pytest

from satnono import Puzzle, puzzle_from_picture
from satnono.analyze.approx import Estimate, approx_models
from satnono.analyze.count import count
from satnono.bench.suites import tournament_sets, tournaments_dir
from satnono.errors import UsageError
from satnono.logic.compiled import counting

from .conftest import random_picture

pytest.importorskip("pyapproxmc")


def switches(k: int) -> Puzzle:
    """Two rows crossing k independent 2×2 switches: 2^k solutions."""
    columns: list[tuple[int, ...]] = []
    for i in range(k):
        columns += [(1,), (1,)] + ([()] if i < k - 1 else [])
    return Puzzle(((1,) * k, (1,) * k), tuple(columns))


def test_bounds_are_the_estimate_over_and_times_one_plus_epsilon_rounded_inwards():
    e = Estimate.of(4_587_520, 0.8, 0.2)
    assert (e.low, e.high) == (2_548_623, 8_257_536)  # 2,548,622.2 up; 8,257,536 exactly
    assert e.words() == ("≈ 4,587,520 (between 2,548,623 and 8,257,536 with probability "
                         "≥ 0.8)")
    assert Estimate.of(100, 0.8, 0.2, at_least=90).low == 90  # what is known for certain
    assert Estimate.of(10, 1.0, 0.05).words().endswith("with probability ≥ 0.95)")


@pytest.mark.parametrize("clauses,sampling,models", [
    ([[1, 2], [3, 4], [-3, -4]], [1, 2, 3], 6),  # 3 is free: 4 (not counted) follows it
    ([[1, 2], [3, 4], [-3, -4], [5, 6]], [1, 2, 3, 4, 5], 12),  # 5 free too
    ([[1, 2], [-1, -2]], [1, 2], 2),  # nothing free
    ([[1], [-1]], [1], 0),
])
def test_the_variables_the_binding_finds_free_are_counted(clauses, sampling, models):
    # small enough that ApproxMC lists them all: its answer is exact, once the 2^k is back
    assert list(approx_models(clauses, sampling, 0.8, 0.2, 1)) == [models]


def test_an_estimate_is_never_a_count():
    res = count(Puzzle(((1,),) * 8, ((1,),) * 8), "approx", exact_first=0)  # 8! = 40,320
    assert not res.complete and res.method == "approxmc" and res.count == 0
    e = res.estimate
    assert e is not None and e.low <= 40_320 <= e.high and e.value > 1000
    assert (e.epsilon, e.delta) == (0.8, 0.2)
    tight = count(Puzzle(((1,),) * 8, ((1,),) * 8), "approx", epsilon=0.3, delta=0.1,
                  exact_first=0)
    assert tight.estimate is not None and tight.estimate.high / tight.estimate.low < 1.7
    assert tight.estimate.low <= 40_320 <= tight.estimate.high


def test_no_solution_is_proven_not_estimated():
    res = count(Puzzle(((2,), ()), ((), (2,))), "approx")
    assert (res.count, res.complete, res.estimate) == (0, True, None)


def test_auto_estimates_in_the_last_quarter_of_its_time_when_the_count_is_not_done():
    # enumeration up to a billion cannot list 2^30 solutions in 3 s: the estimate follows
    res = count(switches(30), threshold=10**9, timeout=4)
    assert not res.complete and res.method == "approxmc"
    assert res.estimate is not None and res.estimate.low <= 2**30 <= res.estimate.high
    assert 1000 < res.count < 2**30  # what enumeration found is kept as certain
    assert res.estimate.low >= res.count
    assert 3 <= res.seconds < 5
    # without a time limit there is nothing to share: auto counts exactly
    assert count(switches(30)).count == 2**30


def test_an_estimate_is_refused_where_it_cannot_be_made():
    with pytest.raises(UsageError, match="one process"):
        count(switches(3), "approx", backend="native")
    with pytest.raises(UsageError, match="one process"):
        count(switches(3), "approx", workers=2)
    with pytest.raises(UsageError, match="epsilon must be a positive number"):
        count(switches(3), "approx", epsilon=0)
    with pytest.raises(UsageError, match="delta is a probability"):
        count(switches(3), "approx", delta=1.5)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", "count", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("side", [
    # the compiled counter takes 8! in a fraction of a second; without it Ganak takes 10 s
    # on a permutation matrix of 8 (its components do not split), so there 6!, which
    # enumeration lists within the threshold
    pytest.param(8, marks=pytest.mark.skipif(not counting(),
                                             reason="the compiled counter is not here")),
    6])
def test_an_estimate_asked_for_is_an_exact_count_where_one_comes_first(tmp_path, side):
    """--approx gives the exact methods a few seconds first: side! is counted exactly
    within them, the better answer, and said to be exact."""
    path = tmp_path / f"perm{side}.json"
    path.write_text(json.dumps({"rows": [[1]] * side, "columns": [[1]] * side}))
    out = _cli(str(path), "--approx")
    want = math.factorial(side)
    assert out.returncode == 0 and out.stdout == f"{want}\n", out.stderr
    assert "exact: it came within the 5 s an estimate lets the exact methods try first" in \
        out.stderr
    res = count(Puzzle(((1,),) * side, ((1,),) * side), "approx")
    assert res.complete and res.count == want and res.estimate is None


def test_the_cli_prints_an_estimate_as_one(tmp_path, capsys):
    from satnono.cli import main

    def _cli(*args: str) -> subprocess.CompletedProcess:  # in this process
        try:
            status = main(["count", *args])
        except SystemExit as exc:  # a usage error
            status = int(exc.code or 0)
        got = capsys.readouterr()
        return subprocess.CompletedProcess(args, status, got.out, got.err)

    path = tmp_path / "perm8.json"
    path.write_text(json.dumps({"rows": [[1]] * 8, "columns": [[1]] * 8}))
    out = _cli(str(path), "--approx", "--exact-first", "0")  # the estimate alone
    assert out.returncode == 0, out.stderr  # the estimate asked for is the result
    assert out.stdout.startswith("≈ ") and "with probability ≥ 0.8)" in out.stdout
    assert "an estimate by ApproxMC (epsilon 0.8, delta 0.2), not an exact count" in out.stderr
    rec = json.loads(_cli(str(path), "--method", "approx", "--json", "--epsilon", "0.5",
                          "--delta", "0.1", "--exact-first", "0").stdout)
    assert (rec["exact"], rec["complete"], rec["ending"], rec["verdict"]) == (
        False, False, "estimate", None)
    assert rec["low"] <= 40_320 <= rec["high"] and rec["low"] <= rec["estimate"]
    assert (rec["epsilon"], rec["delta"], rec["method"]) == (0.5, 0.1, "approxmc")
    jsonschema = pytest.importorskip("jsonschema")
    from satnono.io.records import SCHEMA

    jsonschema.validate(rec, json.loads(SCHEMA.read_text()))
    for bad, says in ((["--epsilon", "0"], "must be a number greater than 0"),
                      (["--delta", "x"], "expected a number, got 'x'"),
                      (["--delta", "2"], "delta is a probability"),
                      (["--backend", "native"], "approx counts on its own"),
                      (["--workers", "2"], "an estimate is made in one process"),
                      (["--exact-first", "-1"], "must be a number of seconds from 0")):
        got = _cli(str(path), "--approx", *bad)
        assert got.returncode == 2 and says in got.stderr and "Traceback" not in got.stderr
    got = _cli(str(path), "--exact-first", "1")  # an estimate's option, no estimate asked for
    assert got.returncode == 2 and "--exact-first goes with --method approx" in got.stderr
    # given time first, the exact count comes within it and is the answer (8! = 40,320)
    exact = json.loads(_cli(str(path), "--approx", "--json", "--exact-first", "30").stdout)
    assert exact["exact"] and exact["count"] == 40_320


def test_an_unfinished_compiled_count_does_not_claim_a_bound():
    from satnono.analyze.counters import COMPILED, CountResult
    from satnono.io.words import count_words

    assert count_words(CountResult(0, False, COMPILED, 3.0)).startswith("no count: time")


@pytest.mark.full  # ApproxMC on 15 puzzles with counts of 10^2 to 10^6: two minutes
def test_estimates_hold_their_bounds_on_fifteen_exactly_counted_puzzles():
    from satnono.logic.compiled import usable

    rng = random.Random(38)
    seen = []
    while len(seen) < 15:
        side = rng.choice([12, 15])
        p = puzzle_from_picture(random_picture(rng, side, side, rng.choice([0.3, 0.4])))
        exact = count(p, "compiled" if usable(p) else "ganak", timeout=10)
        if not exact.complete or not 100 <= exact.count <= 10**6:
            continue
        est = count(p, "approx", timeout=60, exact_first=0).estimate
        assert est is not None
        seen.append((exact.count, est.value))
        assert est.low <= exact.count <= est.high, seen
    assert max(c for c, _ in seen) > 10**4  # the hashes were used, not just a listing


@pytest.mark.full  # two counts of 20 s each
@pytest.mark.skipif("tcga2015" not in tournament_sets(), reason="no tournament sets here")
def test_a_count_cut_by_its_limit_says_the_estimate_it_tried_did_not_come():
    """tcga2015 #587 (more than 9 × 10^6 solutions, nearly all of its cells open after
    logic): neither the exact methods in three quarters of 20 s nor ApproxMC in the last
    quarter finish (ApproxMC gave nothing in 100 s on this class). The count says its lower
    bound and that the estimate was tried and gave nothing, in words and in JSON."""
    path = tournaments_dir() / "zxkyjimmy__NonogramRecord" / "question" / "tcga2015.txt"
    got = _cli(str(path), "--index", "587", "--timeout", "20")
    assert got.returncode == 3, got.stderr
    assert got.stdout.strip().endswith("+")
    assert "time limit reached" in got.stderr and "count incomplete" in got.stderr
    said = re.search(r"ApproxMC gave no estimate in the last (\d+) s", got.stderr)
    assert said is not None, got.stderr
    # a quarter of what the limit left after reading the file (at most 5 s, rounded)
    assert 1 <= int(said.group(1)) <= 5
    record = json.loads(_cli(str(path), "--index", "587", "--timeout", "20",
                             "--json").stdout)
    assert record["exact"] is False and record["ending"] == "time limit"
    assert "estimate" not in record and record["why"].startswith("ApproxMC gave no estimate")
    assert record["count"] >= 1
