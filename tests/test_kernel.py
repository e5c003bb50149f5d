"""The engine's black-and-white search against brute force: its solution sets, budgets,
restarts, memory of probes, implications and handover to the SAT solver (its line solvers:
test_engine.py)."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono import solve
from satnono.logic.compiled import Search
from satnono.model.puzzle import Puzzle, is_solution, puzzle_from_picture
from satnono.model.solution import Solution, line_clue
from satnono.tuning import Tuning

from .conftest import (
    brute_solutions,
    examples,
    random_picture,
    search_budgets_agree,
)


@st.composite
def pictures(draw):
    """A puzzle from a random picture (at least one solution) or random clues (often
    none), up to 5×5."""
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    if draw(st.booleans()):
        rows = draw(st.lists(st.integers(0, (1 << w) - 1), min_size=h, max_size=h))
        sol = Solution(w, tuple(rows))
        return puzzle_from_picture(sol)
    rows = [line_clue(draw(st.integers(0, (1 << w) - 1)), w) for _ in range(h)]
    cols = [line_clue(draw(st.integers(0, (1 << h) - 1)), h) for _ in range(w)]
    return Puzzle(rows=rows, columns=cols)


@settings(max_examples=examples(200), deadline=None)
@given(pictures(), st.sampled_from([None, 1, 2, 3]))
def test_search_gives_exactly_the_solutions(puzzle, limit):
    every = brute_solutions(puzzle)
    s = Search(puzzle)
    got = list(s.solutions(limit=limit))
    assert len(got) == len(set(got))
    assert set(got) <= every
    assert len(got) == (len(every) if limit is None else min(limit, len(every)))
    if limit is None:
        assert s.done
    if s.root() is None:  # a refuted root has no solution
        assert not every


def test_search_resumes_after_its_budget_and_loses_nothing():
    """A budget stops the search part way (not done); going on from there gives the rest,
    each once: the 5! permutation matrices."""
    p = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    s = Search(p)
    first = list(s.solutions(limit=None, budget=30))
    assert not s.done and len(first) < 120
    rest = list(s.solutions(limit=None))
    assert s.done
    assert len(first + rest) == len(set(first + rest)) == 120


def test_the_root_is_probed_and_a_contradiction_has_no_board():
    refuted = Puzzle(rows=((2,), ()), columns=((2,), ()))
    s = Search(refuted)
    assert list(s.solutions(limit=None)) == [] and s.done and s.root() is None
    # probing decides this one at the root: every cell known, one solution
    unique = puzzle_from_picture(Solution(3, (0b011, 0b110, 0b010)))
    s = Search(unique)
    s.root_only()
    root = s.root()
    assert root is not None
    if root.solved():
        assert list(s.solutions(limit=None)) == [root.to_solution()]


def test_the_sat_backend_gives_the_same_solutions_whatever_the_search_budget():
    rng = random.Random(5)
    puzzles = [Puzzle(rows=((1,),) * 5, columns=((1,),) * 5),  # 120 solutions
               Puzzle(rows=((2,), ()), columns=((2,), ())),  # none
               puzzle_from_picture(random_picture(rng, 9, 8, 0.5))]
    puzzles += [puzzle_from_picture(random_picture(rng, 7, 7, 0.4)) for _ in range(6)]
    search_budgets_agree(puzzles, Search, "sat")


def test_wide_puzzles_search_on_several_words_a_line():
    """A picture 70 cells wide: its rows are past one word's 63 cells."""
    rng = random.Random(3)
    sol = random_picture(rng, 70, 6, 0.6)
    p = puzzle_from_picture(sol)
    got = list(Search(p).solutions(limit=None))
    assert sol in got
    assert set(got) == set(solve(p, "sat", limit=None, budget=0))


def test_a_deep_search_grows_its_stack():
    """80 independent 2×2 switches: the search goes one level per switch, past the 64
    levels its stack starts with, and every level's alternative is still there."""
    from .test_split import switch_grid

    p = switch_grid(8, 10)
    s = Search(p)
    first = list(s.solutions(limit=3))
    assert len(set(first)) == 3 and s.levels() > 64
    assert s.engine.depth >= 80


def test_probes_remembered_per_level_change_nothing_but_the_work():
    """A probe whose lines have not changed since it ran is skipped, and each level keeps
    what its probes were when the search comes back to it. Without that memory every
    probe runs again: the same search node for node, the same solutions in the same
    order, more line solves."""
    rng = random.Random(11)
    fewer = 0
    for _ in range(8):
        p = puzzle_from_picture(random_picture(rng, 10, 9, 0.45))
        kept = Search(p)
        got = list(kept.solutions(limit=None))
        bare = Search(p)
        bare.engine.remember = False
        assert list(bare.solutions(limit=None)) == got
        assert kept.engine.nodes == bare.engine.nodes
        assert kept.lines <= bare.lines
        fewer += kept.lines < bare.lines
    assert fewer > 0


@settings(max_examples=examples(150), deadline=None)
@given(pictures(), st.sampled_from([1, 2]))
def test_restarts_lose_no_solution_and_give_none_twice(puzzle, limit):
    """A restart after every node (the real interval is 300 × Luby's sequence): runs meet
    the same solutions again, with noise and the other value first; what comes out is
    still exactly ``limit`` of the puzzle's solutions (or all, when fewer), each once, and
    ``done`` only when a run went through the whole tree."""
    every = brute_solutions(puzzle)
    s = Search(puzzle, tuning=Tuning(restarts=1))
    got = list(s.solutions(limit=limit))
    assert len(got) == len(set(got)) == min(limit, len(every))
    assert set(got) <= every
    if len(every) < limit:
        assert s.done


def test_restarts_happen_and_the_search_still_ends():
    """The 5! permutation matrices asked for two at a time with a restart after every
    node: several runs, and asking on for all goes through the whole tree."""
    p = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    s = Search(p, tuning=Tuning(restarts=1))
    two = list(s.solutions(limit=2))
    assert s.engine.run > 0  # restarted
    rest = list(s.solutions(limit=None))
    assert s.done and len(two) == 2
    assert len(two + rest) == len(set(two + rest)) == 120


def _holds(literal: int, sol: Solution) -> bool:
    cell, filled = divmod(literal, 2)
    return sol.filled(cell // sol.width, cell % sol.width) == bool(filled)


@settings(max_examples=examples(200), deadline=None)
@given(pictures(), st.booleans())
def test_probing_implications_hold_in_every_solution(puzzle, from_lines):
    """Every "a implies not b" probing gives holds in every solution (brute force), a
    literal it calls contradictory is in none, and only open cells appear; from an open
    board and from line logic's."""
    from satnono.logic.board import Board

    every = brute_solutions(puzzle)
    board = Board(puzzle.width, puzzle.height)
    if from_lines:
        lines = Search(puzzle)
        lines.lines_only()
        start = lines.root()
        assume(start is not None)
        board = start
    pairs = Search(puzzle).implications(board)
    open_cells = {r * puzzle.width + c for r, c in board.unknown_cells()}
    for a, b in pairs:
        assert a // 2 in open_cells and (b < 0 or b // 2 in open_cells)
        for sol in every:
            if _holds(a, sol):
                assert b >= 0 and not _holds(b, sol), (a, b, sol.strings())
    if every and not board.solved():
        assert pairs  # an open cell of a puzzle with a solution implies something


def test_implications_in_slices_are_those_of_one_go():
    """Probing runs in slices of work with the clock looked at between them; the pairs
    are the same whatever the slice, down to a cell at a time, and under a limit."""
    from satnono.logic.board import Board

    rng = random.Random(3)
    for _ in range(examples(40)):
        w, h = rng.randint(4, 12), rng.randint(4, 12)
        puzzle = puzzle_from_picture(random_picture(rng, w, h, 0.5))
        board = Board(w, h)
        whole = Search(puzzle).implications(board)
        for work in (0, 1, 50):
            sliced = Tuning(slice_work=work)
            assert Search(puzzle, tuning=sliced).implications(board) == whole
            assert Search(puzzle, tuning=sliced).implications(board, limit=7) == whole[:7]


def test_probing_for_implications_keeps_the_time_limit(tmp_path):
    """A round of probing a random 150×150 takes most of a second: it gives up at the
    deadline, not after the round."""
    import time

    import pytest

    from satnono.errors import SearchTimeout
    from satnono.logic.board import Board
    from satnono.runtime.deadline import Deadline

    puzzle = puzzle_from_picture(random_picture(random.Random(5), 150, 150, 0.5))
    search = Search(puzzle)
    search.lines_only()
    board = search.root() or Board(150, 150)
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        search.implications(board, deadline=Deadline.after(0.05))
    assert time.monotonic() - started < 0.5


@settings(max_examples=examples(100), deadline=None)
@given(pictures())
def test_a_cnf_with_probing_implications_has_the_same_models(puzzle):
    """The residual CNF in the order encoding, with the implications added as clauses:
    its models are still exactly the puzzle's solutions."""
    from pysat.solvers import Solver

    from satnono.encode.residual import add_implications, decode_solution, encode
    from satnono.logic.board import Board
    from satnono.model.verdict import LineCode

    every = brute_solutions(puzzle)
    board = Board(puzzle.width, puzzle.height)
    enc = encode(puzzle, board, code=LineCode.ORDER)
    assume(not enc.infeasible)
    before = len(enc.clauses)
    added = add_implications(enc, Search(puzzle).implications(board))
    assert len(enc.clauses) == before + added
    assert len({tuple(c) for c in enc.clauses[before:]}) == added  # each once
    got = []
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
        for model in s.enum_models():
            got.append(decode_solution(enc, [v for v in model if v > 0]))
    assert len(got) == len(set(got)) and set(got) == every


def test_line_logic_in_slices_is_that_of_one_go():
    """Line logic at the root runs in slices of work with the clock looked at between
    them: the root and the line solves are those of one go, whatever the slice."""
    rng = random.Random(11)
    for _ in range(examples(30)):
        w, h = rng.randint(4, 90), rng.randint(4, 90)
        puzzle = puzzle_from_picture(random_picture(rng, w, h, rng.choice([0.5, 0.7])))
        whole = Search(puzzle)
        whole.slice_ = 1 << 62
        whole.lines_only()
        for work in (0, 1, 97):
            sliced = Search(puzzle)
            sliced.slice_ = work
            sliced.lines_only()
            assert sliced.root() == whole.root()
            assert sliced.lines == whole.lines


def test_line_logic_keeps_the_time_limit_on_a_huge_picture():
    """Settling the lines of a random 2000×2000 picture takes about a second: it gives up
    at the deadline, not at the fixpoint, and the search is over (every later call says
    so, too)."""
    import time

    import pytest

    from satnono.errors import SearchTimeout
    from satnono.runtime.deadline import Deadline

    puzzle = puzzle_from_picture(random_picture(random.Random(8), 2000, 2000, 0.5))
    search = Search(puzzle)
    search.slice_ = 1 << 62  # one call: the engine looks at the clock itself
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        search.lines_only(Deadline.after(0.05))
    assert time.monotonic() - started < 0.5
    assert search.engine.expired
    with pytest.raises(SearchTimeout):
        list(search.solutions(1, deadline=Deadline.after(60)))


def test_ctrl_c_inside_one_long_call_of_the_engine_is_raised_there():
    """A signal's handler (Ctrl-C's raises KeyboardInterrupt) runs inside the engine's
    line logic, not after a call that can last seconds; the search is over after it."""
    import time

    import pytest

    from satnono.errors import SearchTimeout

    from .conftest import ctrl_c_after

    puzzle = puzzle_from_picture(random_picture(random.Random(8), 2000, 2000, 0.5))
    search = Search(puzzle)
    search.slice_ = 1 << 62
    started = time.monotonic()
    with ctrl_c_after(0.05), pytest.raises(KeyboardInterrupt):
        search.lines_only()
    assert time.monotonic() - started < 0.5
    assert search.engine.expired
    with pytest.raises(SearchTimeout):
        list(search.solutions(1))


@settings(max_examples=examples(100), deadline=None)
@given(pictures(), st.integers(0, 2**32))
def test_the_preferred_values_lead_the_search_to_the_solution_they_spell(puzzle, seed):
    """Each cell tries its preferred value first (on the first run): preferring one of the
    solutions, the search's first solution is that one, and preferring any values loses
    none (the same solution set)."""
    every = sorted(brute_solutions(puzzle), key=lambda s: s.rows)
    assume(every)
    chosen = every[random.Random(seed).randrange(len(every))]
    values = bytes(1 if chosen.filled(r, c) else 0
                   for r in range(puzzle.height) for c in range(puzzle.width))
    s = Search(puzzle)
    s.engine.prefer(values)
    assert next(iter(s.solutions(limit=1))) == chosen
    s = Search(puzzle)
    s.engine.prefer(bytes(random.Random(seed).randrange(2)
                          for _ in range(puzzle.width * puzzle.height)))
    assert set(s.solutions(limit=None)) == set(every)


def test_belief_propagation_informs_the_search_and_is_kept():
    p = puzzle_from_picture(random_picture(random.Random(21), 12, 12, 0.5))
    s = Search(p)
    s.root_only()
    found = s.inform(20, 1e-3)
    assert found is not None and s.beliefs is found and len(found.slots) == 144 - s.root_known()
    assert s.inform(20, 1e-3) is found  # once
    got = list(s.solutions(limit=2))
    assert got and all(is_solution(p, sol) for sol in got)
