"""Probing: sound, and the same board and branching cell whether one process probes or several."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time

import pytest

from satnono import Puzzle, SearchTimeout, puzzle_from_picture
from satnono.errors import ChildDied
from satnono.logic import probe as probing
from satnono.logic.board import Board
from satnono.logic.context import Context
from satnono.logic.propagate import propagate
from satnono.runtime.deadline import NO_DEADLINE, Deadline
from satnono.tuning import Tuning

from .conftest import brute_solutions, random_picture

#: probing in parallel from the first open cell
EVERY = Tuning(parallel_min_unknown=0)


def probed(puzzle: Puzzle, workers: int, tuning: Tuning = EVERY
           ) -> tuple[bool, tuple | None, Board, Context]:
    ctx = Context(puzzle, tuning=tuning)
    board = Board(puzzle.width, puzzle.height)
    if not propagate(ctx, board):
        return False, None, board, ctx
    consistent, best = probing.probe(ctx, board, NO_DEADLINE, workers)
    return consistent, best, board, ctx


def shuffled(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The same clues with the rows in another order: often no grid fits any more."""
    rows = list(puzzle.rows)
    rng.shuffle(rows)
    return Puzzle(tuple(rows), puzzle.columns)


def puzzles(seed: int, count: int, max_side: int):
    rng = random.Random(seed)
    for _ in range(count):
        w, h = rng.randint(1, max_side), rng.randint(1, max_side)
        p = puzzle_from_picture(random_picture(rng, w, h, rng.choice([0.3, 0.45, 0.6])))
        yield p
        yield shuffled(p, rng)


@pytest.mark.full
@pytest.mark.parametrize("workers", [2, 3])
def test_parallel_probing_gives_the_sequential_board_and_branching_cell(workers):
    compared = infeasible = 0
    for puzzle in puzzles(seed=workers, count=40, max_side=22):
        ok1, best1, b1, ctx1 = probed(puzzle, 1)
        ok2, best2, b2, ctx2 = probed(puzzle, workers)
        assert ok1 == ok2
        if not ok1:
            infeasible += 1
            continue
        assert b1 == b2  # every cell of every row and column
        assert best1 == best2
        if not b1.solved():
            compared += 1
            assert ctx2.stats.probes >= ctx1.stats.probes > 0  # the helpers' probes count
    assert compared >= 20 and infeasible >= 5


@pytest.mark.full
def test_parallel_probing_is_sound():
    for puzzle in puzzles(seed=7, count=60, max_side=5):
        ok, _, board, _ = probed(puzzle, 2)
        sols = brute_solutions(puzzle)
        assert ok == bool(sols)
        for sol in sols:  # every solution agrees with every cell probing fixed
            for r, c in ((r, c) for r in range(sol.height) for c in range(sol.width)):
                assert board.get(r, c) in (None, sol.colour(r, c))


@pytest.mark.full
def test_parallel_probing_times_out_and_leaves_no_process():
    rng = random.Random(3)
    puzzle = puzzle_from_picture(random_picture(rng, 30, 30, 0.5))
    ctx = Context(puzzle, tuning=EVERY)
    board = Board(puzzle.width, puzzle.height)
    assert propagate(ctx, board) and not board.solved()
    with pytest.raises(SearchTimeout):
        probing.probe(ctx, board, Deadline(time.monotonic() - 1, 1.0), 2)
    assert multiprocessing.active_children() == []


def test_a_probing_helper_that_dies_is_a_clear_error_and_leaves_no_process(monkeypatch):
    parent = os.getpid()
    real = probing._pass

    def killed_in_helpers(*args):
        if os.getpid() != parent:  # as the kernel does when memory runs out
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args)

    monkeypatch.setattr(probing, "_pass", killed_in_helpers)
    rng = random.Random(3)
    puzzle = puzzle_from_picture(random_picture(rng, 30, 30, 0.5))
    ctx = Context(puzzle, tuning=EVERY)
    board = Board(puzzle.width, puzzle.height)
    assert propagate(ctx, board) and not board.solved()
    with pytest.raises(ChildDied, match=r"a probing process was killed \(SIGKILL: by the "
                       r"system when memory ran out, or by another process\)"):
        probing.probe(ctx, board, NO_DEADLINE, 2)
    assert multiprocessing.active_children() == []


def test_small_boards_are_probed_in_this_process(monkeypatch):
    def no_fork(*args):
        raise AssertionError("a board this small should not start a process")

    monkeypatch.setattr(probing, "_probe_parallel", no_fork)
    rng = random.Random(5)
    puzzle = puzzle_from_picture(random_picture(rng, 8, 8, 0.5))
    ok, _, _, _ = probed(puzzle, 2, Tuning())  # the default: from 300 open cells
    assert ok
