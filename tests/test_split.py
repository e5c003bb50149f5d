"""Split counts: a puzzle cut into parts by probing, each part counted alone, the counts
added. The sum must be the one-process count on puzzles with 0, 1, thousands and 10^12
solutions, in black and white and colour, on local processes and on a real Dask
LocalCluster; and the parts must be disjoint and cover every solution."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Block, Palette, Puzzle, puzzle_from_picture, solve
from satnono.analyze.count import count
from satnono.analyze.split import Part, count_part, count_split, split
from satnono.io.words import count_words
from satnono.model.solution import Solution

from .conftest import RGB_PALETTE, brute_solutions, examples, random_picture


def switch_grid(k: int, m: int) -> Puzzle:
    """k × m independent 2×2 switches ("#." over ".#", or its mirror) between full
    separator lines: 2^(k·m) solutions, a count known in closed form."""
    h, w = 5 * k + 1, 5 * m + 1
    rows = tuple(sum(1 << c for c in range(w)
                     if r % 5 == 0 or c % 5 == 0 or (r % 5, c % 5) in ((2, 2), (3, 3)))
                 for r in range(h))
    return puzzle_from_picture(Solution(w, rows))


def permutation(k: int) -> Puzzle:
    return Puzzle(((1,),) * k, ((1,),) * k)


NONE = Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))  # totals agree, yet no grid exists
ONE = puzzle_from_picture(Solution(4, (0b0110, 0b1111, 0b1001, 0b0110)))


def red_permutation(n: int) -> Puzzle:
    """One red cell in every row and column: n! solutions."""
    red = ((Block(1, RGB_PALETTE.colours[1].name),),) * n
    return Puzzle(red, red, palette=Palette(RGB_PALETTE.colours[:2]))


CASES = [("none", NONE, 0), ("one", ONE, 1), ("thousands", permutation(7), 5040),
         ("2^40", switch_grid(5, 8), 2 ** 40), ("colour 6!", red_permutation(6), 720)]


@pytest.mark.full
@pytest.mark.parametrize("name,puzzle,expected", CASES, ids=[c[0] for c in CASES])
def test_split_count_equals_the_one_process_count(name, puzzle, expected):
    whole = count(puzzle, timeout=60)
    assert whole.complete and whole.count == expected
    for parts in (1, 8):
        res = count_split(puzzle, parts, timeout=60, workers=2)
        assert res.result.complete and res.result.count == expected, parts
        assert len(res.parts) == len(res.split.parts)
        if expected > 1000:  # enough solutions to split as asked
            assert len(res.split.parts) >= parts


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.floats(0.2, 0.8), st.integers(0, 2**32),
       st.integers(1, 8))
def test_parts_are_disjoint_and_cover_every_solution(w, h, density, seed, parts):
    p = puzzle_from_picture(random_picture(random.Random(seed), w, h, density))
    truth = {s.rows for s in brute_solutions(p)}
    cut = split(p, parts)
    found = []
    for part in cut.parts:
        sols = [s.rows for s in solve(p, limit=None)
                if all((s.rows[r] >> c & 1) == k for r, c, k in part.fixed)]
        found.extend(sols)
        res = count_part(p, part, "enumerate")
        assert res.complete and res.count == len(sols)
    assert len(found) == len(set(found))  # disjoint
    assert len(found) + cut.solved == len(truth)  # and covering
    assert count_split(p, parts, workers=1).result.count == len(truth)


def test_a_split_count_out_of_time_is_a_lower_bound_marked_incomplete():
    res = count_split(permutation(12), 4, "auto", timeout=1.0, workers=2).result
    assert not res.complete and "time limit" in count_words(res)


@pytest.mark.full
def test_split_count_on_a_dask_cluster_equals_the_one_process_count():
    distributed = pytest.importorskip("distributed")
    from satnono.batch.engines import DaskEngine

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        engine = DaskEngine(cluster.scheduler_address)
        try:
            for _, puzzle, expected in CASES:
                res = count_split(puzzle, 8, timeout=60, counter=engine.part_counter())
                assert res.result.complete and res.result.count == expected
                assert all(isinstance(p, Part) for p, _ in res.parts)
        finally:
            engine.close()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.full
def test_count_command_splits_with_workers_parts_and_cluster(tmp_path):
    path = tmp_path / "switches.non"
    from satnono.io.formats import save

    save(switch_grid(4, 5), str(path))
    r = _run("count", str(path), "--workers", "2")
    assert r.returncode == 0 and r.stdout.strip() == str(2 ** 20)
    assert "split into" in r.stderr and "exact" in r.stderr
    r = _run("count", str(path), "--parts", "3", "--method", "ganak")
    assert r.returncode == 0 and r.stdout.strip() == str(2 ** 20)
    r = _run("count", str(path), "--cluster", "local:2", "--parts", "6")
    assert r.returncode == 0 and r.stdout.strip() == str(2 ** 20), r.stderr
    r = _run("count", str(path), "--parts", "4", "--backend", "cpsat")
    assert r.returncode == 2 and "other backends count in one piece" in r.stderr
    r = _run("count", str(path), "--cluster", "local:2", "--workers", "2")
    assert r.returncode == 2 and "give one" in r.stderr
    assert math.log2(int(_run("count", str(path)).stdout)) == 20
