"""The pipeline's contract: a Run yields checked solutions, then says why it ended and
what it took; wrong requests and wrong grids are the project's own errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import satnono
from satnono import Block, Colour, Ending, Palette, Puzzle, Solution, Verdict, solve
from satnono.backends import BACKENDS
from satnono.cli import main
from satnono.errors import (
    InvalidPuzzle,
    SearchTimeout,
    UnknownBackend,
    UsageError,
    WrongSolution,
)
from satnono.logic import compiled as fast
from satnono.logic.events import Event, Found, LineSolved

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
PERM5 = Puzzle(((1,),) * 5, ((1,),) * 5)  # 120 solutions
TWO = Puzzle(((1,), (1,)), ((1,), (1,)))


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_a_run_says_why_it_ended_and_what_that_proves(backend):
    run = solve(PERM5, backend)
    assert run.ending is None and run.verdict is None  # nothing asked yet
    assert len(list(run)) == math.factorial(5)
    assert run.ending is Ending.ALL_FOUND and run.verdict is Verdict.MULTIPLE
    run = solve(PERM5, backend, limit=2)
    assert len(list(run)) == 2 and run.ending is Ending.LIMIT
    assert run.verdict is Verdict.MULTIPLE
    one = solve(Puzzle(((2,), (1,)), ((2,), (1,))), backend, limit=2)
    assert len(list(one)) == 1 and one.ending is Ending.ALL_FOUND
    assert one.verdict is Verdict.UNIQUE
    none = solve(Puzzle(((1,), (1,), (1, 1)), ((1,), (1, 1), (1,))), backend)
    assert list(none) == [] and none.verdict is Verdict.NONE


def test_a_run_that_times_out_keeps_what_it_gave():
    run = solve(Puzzle(((1,),) * 10, ((1,),) * 10), "sat", timeout=0.5)  # 10! solutions
    got = []
    with pytest.raises(SearchTimeout) as err:
        for sol in run:
            got.append(sol)
    assert run.ending is Ending.TIME_LIMIT and run.verdict is (
        Verdict.MULTIPLE if len(got) >= 2 else None)
    assert err.value.found == len(got) == run.found
    assert run.seconds < 5


def test_the_stats_tell_what_logic_fixed_and_how_big_the_cnf_was():
    cup = satnono.load(str(PUZZLES / "cup.non"))
    run = solve(cup)
    list(run)
    assert run.stats.fixed == cup.width * cup.height  # logic alone solves the cup
    assert run.stats.variables == 0 and run.stats.line_solves > 0
    run = solve(PERM5)
    assert len(list(run)) == 120
    if fast.available():  # the compiled search settles it: no CNF
        assert run.stats.fixed == 0 and run.stats.nodes > 0 and run.stats.variables == 0
    else:  # the Python logic: CaDiCaL on the whole residual
        assert run.stats.fixed == 0 and run.stats.nodes == 0 and run.stats.variables > 25
    run = solve(PERM5, budget=0)  # straight to CaDiCaL
    list(run)
    assert run.stats.fixed == 0 and run.stats.unknown == 25
    assert run.stats.variables > 25 and run.stats.clauses > 0
    run = solve(PERM5, "cpsat", limit=1)
    list(run)
    assert run.stats.fixed == 0 and run.stats.line_solves > 0  # lines, then CP-SAT
    run = solve(PERM5, "plain-cpsat", limit=1)
    list(run)
    assert run.stats.fixed is None and run.stats.line_solves == 0  # no logic: nothing to tell


def test_closing_a_run_stops_it():
    run = solve(Puzzle(((1,),) * 9, ((1,),) * 9), "sat", workers=2)
    first = next(run)
    run.close()
    assert run.ending is Ending.LIMIT and list(run) == [] and run.found == 1
    assert satnono.is_solution(run.puzzle, first)


@pytest.mark.parametrize("limit", [0, -1, 1.5, "3", True])
def test_a_limit_is_a_whole_number_from_one(limit):
    with pytest.raises(UsageError, match="limit is a whole number"):
        solve(TWO, limit=limit)


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), "5", True])
def test_a_time_limit_is_a_positive_number(timeout):
    with pytest.raises(UsageError, match="time limit"):
        solve(TWO, timeout=timeout)


def test_an_unknown_backend_is_its_own_error():
    with pytest.raises(UnknownBackend, match="unknown backend 'nope' \\(known: native, sat"):
        solve(TWO, "nope")
    assert issubclass(UnknownBackend, UsageError)


def test_a_wrong_grid_from_a_backend_is_a_bug_report_not_a_solution(monkeypatch, capsys):
    import satnono.backends.sat as sat

    def broken(start, *, ctx, **kw):
        puzzle = ctx.puzzle
        yield Solution(puzzle.width, (0b11,) * puzzle.height)  # breaks every clue

    monkeypatch.setattr(sat, "solutions", broken)
    with pytest.raises(WrongSolution, match="a bug in satnono"):
        list(solve(TWO))
    assert main(["solve", str(PUZZLES / "two.dat")]) == 4
    assert "the sat backend returned a grid that breaks the clues" in capsys.readouterr().err


def test_the_library_picks_the_backend_as_the_command_line_does():
    """One place decides: the native solver when its steps are followed, sat otherwise; and
    an observer with another backend is refused in the library, not only by --trace."""
    p = satnono.load(str(PUZZLES / "cup.non"))
    heard: list[Event] = []
    run = solve(p, observer=lambda event, board: heard.append(event))
    assert run.backend == "native" and len(list(run)) == 1 and heard
    assert solve(p).backend == "sat"
    with pytest.raises(UsageError, match="native"):
        solve(p, "sat", observer=lambda event, board: None)


def test_the_observer_hears_every_step_as_an_event():
    events: list[Event] = []
    sols = list(solve(satnono.load(str(PUZZLES / "cup.non")), "native",
                      observer=lambda event, board: events.append(event)))
    assert len(sols) == 1 and all(isinstance(e, Event) and e.describe() for e in events)
    assert any(isinstance(e, LineSolved) for e in events)
    assert isinstance(events[-1], Found)


def test_clues_take_blocks_lengths_or_pairs_and_colour_names_its_colour():
    assert Puzzle(((2,),), ((1,), (1,))) == Puzzle(((Block(2),),), (((1, "black"),), (1,)))
    with pytest.raises(InvalidPuzzle, match="row 1: a block is a whole number"):
        Puzzle((("2",),), ((1,), (1,)))
    with pytest.raises(InvalidPuzzle, match="row clues must be a sequence"):
        Puzzle(None, ((1,),))  # type: ignore[arg-type]
    palette = Palette((Colour("white", ".", "ffffff"), Colour("black", "#", "000000"),
                       Colour("red", "r", "ff0000")))
    # red and black may touch; each colour's totals agree
    colour = Puzzle(((Block(1, "red"), Block(1)),), ((Block(1, "red"),), (Block(1),)),
                    palette=palette)
    assert satnono.validate(colour) is colour
    with pytest.raises(InvalidPuzzle, match="the row clues fill 1 red cells but the column"):
        satnono.validate(Puzzle(((Block(1, "red"),),), ((Block(1),),), palette=palette))
    for name in BACKENDS:
        (only,) = solve(colour, name)
        assert only.strings(chars=palette.chars) == ["r#"], name


def test_save_writes_what_load_reads(tmp_path):
    for ext in (".non", ".json", ".g"):
        path = tmp_path / ("two" + ext)
        satnono.save(TWO, str(path))
        back = satnono.load(str(path))
        assert (back.rows, back.columns) == (TWO.rows, TWO.columns)
    with pytest.raises(satnono.SatnonoError, match="say which format"):
        satnono.save(TWO, str(tmp_path / "two.unknown"))


def test_the_backend_is_chosen_by_the_name_the_readme_gives():
    p = Puzzle(((1,), (1,)), ((1,), (1,)))
    for name in ("sat", "cpsat", "native"):
        run = solve(p, backend=name, limit=None)
        assert len(list(run)) == 2 and run.backend == name
    with pytest.raises(satnono.UnknownOption):
        solve(p, backend_name="sat")


def test_the_version_is_the_installed_one():
    from importlib.metadata import version

    assert satnono.__version__ == version("satnono")
    assert "__version__" in dir(satnono)


@pytest.mark.parametrize("grid, words", [
    ([[0, 5]], "5 is not a colour index"),
    ([[0, 1], [1]], "row 2 of the picture has 1 cells"),
    ([[1.5]], "1.5 is not a colour index"),
    ([[-1]], "-1 is not a colour index"),
    ([], "at least one row"),
    ([[]], "at least one row"),
])
def test_a_bad_picture_is_an_invalid_puzzle_saying_where(grid, words):
    with pytest.raises(InvalidPuzzle, match=words):
        satnono.puzzle_from_colours(grid, satnono.BLACK_AND_WHITE)


def test_a_numpy_picture_is_a_picture():
    import numpy as np

    p = satnono.puzzle_from_colours(np.array([[1, 0], [1, 1]]), satnono.BLACK_AND_WHITE)
    assert p.lengths == (((1,), (2,)), ((2,), (1,)))


@pytest.mark.full
def test_a_run_reports_the_time_its_limit_counted():
    """The time limit starts before the backend loads its solver library; the time a run
    reports starts with it (cpsat once said 0.37 s at a 1 s limit). CP-SAT stops by its
    own clock, which may end a few hundredths before ours: 0.9 s is the honest floor."""
    big = Puzzle(((1,),) * 30, ((1,),) * 30)
    for name in ("cpsat", "sat"):
        run = solve(big, name, limit=None, timeout=1.0)
        with pytest.raises(satnono.SearchTimeout):
            for _ in run:
                pass
        assert run.ending is Ending.TIME_LIMIT and 0.9 <= run.seconds < 2.0, (name, run.seconds)


def test_a_puzzle_loads_from_a_path_object_as_from_a_name(tmp_path):
    car = PUZZLES / "car.dat"
    assert satnono.load(car) == satnono.load(str(car))
    assert satnono.read_file(car) == satnono.read_file(str(car))
    (tmp_path / "pic.pbm").write_bytes(b"P4\n8 1\n\xa5")  # binary PBM, by its path object
    assert satnono.load(tmp_path / "pic.pbm").size == "8x1"
