"""The race on several cores of what the compiled search's budget left open
(:func:`satnono.backends.sat.portfolio`): each racer alone and the racers together give the
native solver's solutions, black and white and colour; the command says what raced; work
already spread over the cores (batch, bench, count, the web page) stays on one core."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import time

import pytest

from satnono import solve
from satnono.backends import kissat, pinned
from satnono.backends.sat import Kind, Racer, _raced, portfolio
from satnono.backends.solver import DEFAULT_SOLVER, searches
from satnono.bench.suites import tournament_sets, tournaments_dir
from satnono.encode.residual import residual as encode_residual
from satnono.logic import compiled
from satnono.logic.context import Context
from satnono.model.puzzle import Block, Palette, Puzzle, puzzle_from_colours, puzzle_from_picture
from satnono.model.verdict import Depth, LineCode
from satnono.pipeline import presolved
from satnono.runtime.child import SAMPLE_SPAN, CpuSample, cores, free_cores
from satnono.runtime.deadline import NO_DEADLINE

from .conftest import RGB_PALETTE, cpu_seconds, random_colour_grid, random_picture, wait_for

needs_engine = pytest.mark.skipif(not compiled.available(), reason="no compiled engine here")


@functools.cache
def _puzzles() -> list[Puzzle]:
    """Puzzles that probing the root leaves open: several solutions, one, none; black and
    white and colour."""
    rng = random.Random(11)
    red = ((Block(1, "red"),),) * 4
    out = [Puzzle(rows=((1,),) * 5, columns=((1,),) * 5),  # 120 solutions
           Puzzle(rows=((1,), (1,)), columns=((1,), (1,))),  # two
           Puzzle(rows=((1,), (1,), (1, 1)), columns=((1,), (1, 1), (1,))),  # none
           Puzzle(red, red, palette=Palette(RGB_PALETTE.colours[:3])),  # 24, in colour
           puzzle_from_colours(random_colour_grid(rng, 6, 6, 3, 0.4),
                               Palette(RGB_PALETTE.colours[:4]))]
    while len(out) < 9:
        p = puzzle_from_picture(random_picture(rng, 9, 9, rng.choice([0.3, 0.5])))
        if encode_residual(Context(p), presolved(Context(p), Depth.PROBED), NO_DEADLINE,
                           LineCode.ORDER).encoding is not None:
            out.append(p)
    return out


def _race(p: Puzzle, racers: list[Racer], limit: int | None) -> list:
    """``racers`` on ``p``'s residual, straight from the probed root (no budget spent)."""
    ctx = Context(p)
    start = presolved(ctx, Depth.PROBED)
    if start.board is None:
        return []
    enc = encode_residual(ctx, start, NO_DEADLINE, LineCode.ORDER).encoding
    if enc is None:
        return [start.board.to_solution()]
    return list(_raced(racers, enc, start.search, ctx, DEFAULT_SOLVER, limit, [],
                       NO_DEADLINE))


KINDS = [[Racer(Kind.CADICAL)], [Racer(Kind.CADICAL, *searches(2)[1])],
         [Racer(Kind.CADICAL, seed=1)],
         pytest.param([Racer(Kind.KISSAT)], marks=pytest.mark.skipif(
             kissat.program() is None, reason="no kissat here")),
         pytest.param([Racer(Kind.KISSAT, seed=1)], marks=pytest.mark.skipif(
             kissat.program() is None, reason="no kissat here")),
         pytest.param([Racer(Kind.SEARCH)], marks=needs_engine),
         pytest.param(portfolio(3, kissat.program() is not None, compiled.available()),
                      id="three"),
         pytest.param(portfolio(4, False, compiled.available()), id="four")]


@pytest.mark.parametrize("racers", KINDS)
@pytest.mark.parametrize("index", range(9))
def test_each_racer_alone_and_all_together_give_the_native_solutions(racers, index):
    p = _puzzles()[index]
    want = set(solve(p, "native", limit=None))
    got = _race(p, racers, None)
    assert len(got) == len(set(got)) and set(got) == want
    for limit in (1, 2):
        part = _race(p, racers, limit)
        assert len(part) == len(set(part)) == min(limit, len(want)) and set(part) <= want


def test_the_portfolio_puts_the_one_core_choice_first_then_another_seed_then_the_search():
    assert portfolio(1, True, True) == [Racer(Kind.KISSAT)]
    assert portfolio(1, False, True) == [Racer(Kind.CADICAL)]
    assert portfolio(2, True, True) == [Racer(Kind.KISSAT), Racer(Kind.KISSAT, seed=1)]
    assert [r.kind for r in portfolio(3, False, True)] == [Kind.CADICAL, Kind.CADICAL,
                                                           Kind.SEARCH]
    # no compiled search (no engine, or no probing): CaDiCaL's other settings instead
    assert portfolio(3, False, False)[2] == Racer(Kind.CADICAL, *searches(2)[1])
    for n in range(1, 9):  # never the same search twice
        for by_kissat in (True, False):
            racers = portfolio(n, by_kissat, True)
            assert len(racers) == len(set(racers)) == n
    assert [str(r) for r in portfolio(4, True, True)] == [
        "Kissat", "Kissat (seed 1)", "the compiled search", "CaDiCaL (focused, all true first)"]


@needs_engine
def test_a_puzzle_past_the_budget_races_and_says_which_won():
    """With two workers and a budget the search cannot settle the puzzle in, the CNF stage
    is a race; its racers and its winner are in the stats. With one it is not."""
    p = _puzzles()[0]
    want = set(solve(p, "native", limit=None))
    run = solve(p, "sat", limit=None, workers=3, budget=1)
    got = list(run)
    assert len(got) == len(set(got)) and set(got) == want
    assert run.stats.racers == ("CaDiCaL", "CaDiCaL (seed 1)", "the compiled search")
    assert run.stats.winner in run.stats.racers
    assert "racing CaDiCaL, CaDiCaL (seed 1) and the compiled search on 3 cores" in run.known()
    alone = solve(p, "sat", limit=None, workers=1, budget=1)
    assert set(alone) == want and alone.stats.racers == () and alone.stats.winner is None


def test_free_cores_and_pinned_workers():
    assert 1 <= free_cores() <= cores()
    assert pinned("sat", 1) == {"workers": 1} and pinned("cpsat", 3) == {"workers": 3}
    assert pinned("native", 2) == {}


@pytest.mark.full
@needs_engine
@pytest.mark.skipif("tcga2015" not in tournament_sets(), reason="no tournament sets here")
def test_the_command_says_what_raced():
    """tcga2015 #674, one of the 7 in 1,000 whose informed search spends its budget and
    leaves the first solution to CaDiCaL: ``--workers 2`` says on stderr which searches
    raced and which answered first, with the same verdict as ``--workers 1``, which says
    nothing of a race."""
    path = str(tournaments_dir() / "zxkyjimmy__NonogramRecord" / "question" / "tcga2015.txt")
    said = {}
    for workers in ("2", "1"):
        done = subprocess.run([sys.executable, "-m", "satnono", "solve", path, "--index", "674",
                               "--workers", workers], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        said[workers] = done.stderr
    assert "not unique: at least 2 solutions" in said["1"] and "raced" not in said["1"]
    assert "not unique: at least 2 solutions" in said["2"]
    assert "raced CaDiCaL and CaDiCaL (seed 1) on 2 cores: " in said["2"]
    assert said["2"].rstrip().endswith(("CaDiCaL first]", "CaDiCaL (seed 1) first]"))


@pytest.mark.skipif(cores() < 2 or CpuSample.now() is None, reason="one processor, or no /proc")
def test_a_core_another_program_keeps_busy_is_not_free():
    """Measured over a span (as the sat backend measures over its search's budget): a
    process spinning beside this one takes its core out of the free ones, whatever this
    process itself does meanwhile."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        wait_for(lambda: cpu_seconds(spinner.pid) > 0.05, 30)  # it is spinning
        sample = CpuSample.now()
        spun = time.monotonic() + SAMPLE_SPAN + 0.1
        while time.monotonic() < spun:  # this process busy too: its own time is not other work
            pass
        assert free_cores(sample) <= cores() - 1
    finally:
        spinner.kill()
        spinner.wait()
