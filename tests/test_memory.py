"""A CNF too big for the memory left is refused with its numbers, not killed by the kernel."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from satnono import SearchTimeout, puzzle_from_picture
from satnono.backends import sat, solver
from satnono.cli import main
from satnono.encode import residual as encoding
from satnono.errors import OutOfMemory
from satnono.pipeline import residual
from satnono.runtime import memory
from satnono.runtime.deadline import Deadline
from satnono.tuning import Tuning

from .conftest import random_picture

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def open_puzzle():
    """A 30×30 picture that logic leaves partly open: a residual CNF of some hundreds of
    clauses."""
    return puzzle_from_picture(random_picture(random.Random(3), 30, 30, 0.5))


@pytest.mark.skipif(not os.path.exists("/proc/meminfo"), reason="Linux only")
def test_the_memory_left_is_read():
    free = memory.available()
    assert free is not None and 0 < free < 2**50


def test_encoding_stops_when_the_solver_could_not_hold_what_it_made(monkeypatch):
    from satnono.model.verdict import Depth

    puzzle = open_puzzle()
    root = residual(puzzle).presolved.board  # presolved with room enough
    monkeypatch.setattr(memory, "available", lambda: 50 * memory.BYTES_PER_CLAUSE)
    with pytest.raises(OutOfMemory, match=r"out of memory encoding the puzzle: a SAT "
                       r"solver's copy of \d+ clauses of the residual CNF needs about "
                       r"0\.00 GB, more than the 0\.00 GB this process can still take"):
        residual(puzzle, board=root, depth=Depth.OPEN, tuning=Tuning(check_every=50))
    # with room enough the same CNF comes out whole
    monkeypatch.setattr(memory, "available", lambda: 2**40)
    enc = residual(open_puzzle()).encoding
    assert enc is not None and len(enc.clauses) > 200


def test_the_solver_is_not_loaded_without_room(monkeypatch):
    monkeypatch.setattr(memory, "available", lambda: 2 * memory.BYTES_PER_CLAUSE)
    with pytest.raises(OutOfMemory, match="out of memory loading the SAT solver"):
        solver.new_solver("cadical195", [[1, 2], [-1], [2, 3]])
    with solver.new_solver("cadical195", [[1, 2], [-1]]) as s:  # two clauses fit
        assert s.solve()


def test_encoding_keeps_the_deadline():
    board = residual(open_puzzle()).board
    assert board is not None
    with pytest.raises(SearchTimeout):
        encoding.encode(open_puzzle(), board, Deadline(time.monotonic() - 1, 1.0),
                        check_every=50)


def test_the_cli_says_so_and_exits_6_without_output(monkeypatch, tmp_path, capsys):
    from satnono.engine import DISABLE

    monkeypatch.setattr(memory, "available", lambda: 1024)
    monkeypatch.setenv(DISABLE, "1")  # the engine would be refused first (the next test)
    out = tmp_path / "out.sol"
    assert main(["solve", str(PUZZLES / "two.dat"), "-o", str(out)]) == 6
    err = capsys.readouterr().err
    assert err.startswith(f"satnono: {PUZZLES / 'two.dat'}: out of memory loading the SAT "
                          "solver: ")
    assert "Traceback" not in err and not out.exists()


def test_an_engine_the_memory_left_cannot_hold_is_refused_before_it_is_made(
        monkeypatch, tmp_path, capsys):
    from satnono.logic import compiled

    if not compiled.available():
        pytest.skip("the compiled engine is not built here")
    monkeypatch.setattr(memory, "available", lambda: 1024)
    out = tmp_path / "out.sol"
    assert main(["solve", str(PUZZLES / "two.dat"), "-o", str(out)]) == 6
    err = capsys.readouterr().err
    assert err == (f"satnono: {PUZZLES / 'two.dat'}: out of memory: the engine for a 2x2 "
                   "puzzle needs about 0.00 GB for its grid and lines, more than the 0.00 GB "
                   "this process can still take\n")
    assert not out.exists()


def test_a_memory_error_here_is_one_line_and_exit_6(monkeypatch, capsys):
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(sat, "solutions", no_memory)
    assert main(["solve", str(PUZZLES / "two.dat")]) == 6
    assert capsys.readouterr().err == (
        "satnono: out of memory: this puzzle needs more than this machine has\n")


def test_what_a_time_out_leaves_is_freed_when_the_next_work_begins(monkeypatch):
    """In a process that ends with its command, a solver stopped by the time limit and the
    time-out's traceback (the work's data) are not freed past the limit, but when the next
    piece of work sets its limit: a file of many puzzles keeps one's leftovers at a time."""
    from satnono.errors import SearchTimeout
    from satnono.runtime import memory
    from satnono.runtime.deadline import Deadline

    class Solver:
        deleted = 0

        def delete(self) -> None:
            Solver.deleted += 1

    monkeypatch.setattr(memory, "ENDS_WITH_COMMAND", True)
    monkeypatch.setattr(memory, "_LEFT", [])
    deadline = Deadline.after(60)
    solver = Solver()
    assert memory.left_to_the_end(solver)
    error = deadline.expired()
    assert isinstance(error, SearchTimeout) and memory._LEFT == [solver, error]
    assert Solver.deleted == 0
    Deadline.after(60)  # the next work
    assert memory._LEFT == [] and Solver.deleted == 1
    monkeypatch.setattr(memory, "ENDS_WITH_COMMAND", False)  # a library's process
    assert not memory.left_to_the_end(solver) and memory._LEFT == []
