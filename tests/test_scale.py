"""Huge pictures that logic nearly settles, at the sizes where the engine's layout changes
(a line past one machine word, the lines past what probing's memory keeps one bit each,
the 4096×4096 grid whose cells times line words passed 2^31): each ends in the right
answer or a one-line refusal, in a child process, so that a crash fails the test instead
of killing the suite; memory follows what is open; a crash says so in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.scale import windows_puzzle, write_non
from satnono import count, solve
from satnono.logic import compiled
from satnono.model.puzzle import Puzzle

pytestmark = pytest.mark.skipif(not compiled.available(),
                                reason="the compiled engine is not built here")


def _satnono(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=timeout)


def _peak_mb(proc_args: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
    """A command in a child and its peak resident memory in MB (its own and its
    children's), measured by a fresh process around it, so that no earlier child counts."""
    wrapper = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "sys.stderr.write(done.stderr)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.exit(done.returncode)\n")
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "satnono",
                           *proc_args], capture_output=True, text=True, timeout=300)
    return done, int(done.stdout.split()[-1]) / 1024


@pytest.mark.parametrize("height,width", [(6, 63), (6, 64), (6, 65), (63, 64), (127, 129),
                                          (255, 256), (256, 256), (257, 256)])
def test_word_and_memory_boundaries_count_and_solve_right(tmp_path, height, width):
    """Lines of 63, 64 and 65 cells (one machine word, then two), and 511, 512 and 513
    lines (what probing remembers keeps a bit a line up to 512 lines, then a bit a group),
    through the library."""
    rows, columns, n = windows_puzzle(height, width, [2] * max(1, min(height, width) // 6))
    p = Puzzle(rows, columns)
    assert count(p, "compiled").count == n
    assert len(set(solve(p, limit=3))) == min(n, 3)


@pytest.mark.full
@pytest.mark.parametrize("side", [2047, 2048, 2100, 4095, 4096, 4097])
def test_huge_grids_answer_right_in_a_child(tmp_path, side):
    """The grids whose 32-bit sizes wrapped (4096: cells × line words = 2^31) and where the
    counter crashed (2100): solve and the compiled count answer, never a signal."""
    path = tmp_path / f"s{side}.non"
    assert write_non(path, side, side, [2]) == 2
    done = _satnono("count", str(path), "--method", "compiled")
    assert done.returncode == 0, done.stderr
    assert "2 solution(s), exact, by compiled counter" in done.stdout + done.stderr
    done = _satnono("solve", str(path), "-o", str(tmp_path / "out.json"), "--to", "json")
    assert done.returncode == 0, done.stderr
    assert "not unique" in done.stderr


@pytest.mark.full
def test_wide_strips_answer_right_in_a_child(tmp_path):
    for height, width in ((6, 8192), (8192, 6), (65, 8192)):
        path = tmp_path / f"{height}x{width}.non"
        assert write_non(path, height, width, [2]) == 2
        done = _satnono("count", str(path), "--method", "compiled")
        assert done.returncode == 0 and "2 solution(s)" in done.stdout + done.stderr, done.stderr


@pytest.mark.full
def test_a_count_follows_what_is_open_not_the_grid(tmp_path):
    """2000×2000 with 16 cells open: the compiled counter in megabytes (not the 4.3 GB it
    once took), and every counting method on 1000×1000 with 36 open and 6! solutions."""
    path = tmp_path / "2000.non"
    assert write_non(path, 2000, 2000, [2, 2, 2, 2]) == 16
    done, peak = _peak_mb(["count", str(path), "--method", "compiled"])
    assert done.returncode == 0 and "16 solution(s)" in done.stderr, done.stderr
    assert peak < 500
    path = tmp_path / "1000.non"
    assert write_non(path, 1000, 1000, [6]) == 720
    for method in ("auto", "enumerate", "compiled", "ganak"):
        done = _satnono("count", str(path), "--method", method, "--timeout", "120")
        assert done.returncode == 0 and "720 solution(s)" in done.stderr, (method, done.stderr)


def test_a_side_past_what_is_read_is_refused_in_one_line(tmp_path):
    path = tmp_path / "big.non"
    write_non(path, 65536, 65536, [2])
    done = _satnono("solve", str(path), timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_crash_of_the_command_is_one_line_with_the_puzzle_and_status_6(tmp_path):
    """The command arms the engine's crash handler when it makes an engine: a SIGSEGV
    after that (here sent, as a bug would raise it) ends the process with one line that
    names the input, the signal and the puzzle's size, and exit status 6."""
    puzzles = Path(__file__).resolve().parents[1] / "puzzles"
    code = ("import os, signal\n"
            "from satnono.runtime import crash\n"
            "crash.ARMED = True\n"
            "from satnono.cli import main\n"
            f"assert main(['solve', {str(puzzles / 'car.dat')!r}, '-o', "
            f"{str(tmp_path / 'car.sol')!r}]) == 0\n"
            "os.kill(os.getpid(), signal.SIGSEGV)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 6
    last = done.stderr.splitlines()[-1]
    assert last == (f"satnono: {puzzles / 'car.dat'}: the engine crashed with SIGSEGV on a "
                    "10x8 puzzle (a bug in satnono: please report it with the puzzle)")


def test_a_library_process_keeps_its_own_signal_handlers():
    """``import satnono`` and a solve on the engine leave SIGSEGV to the process: only the
    command arms the engine's handler, so a library user's process dies as it would have
    (its own handler, or the default), without satnono's line."""
    code = ("import os, signal, satnono\n"
            "satnono.solve(satnono.Puzzle(((1,), (1,)), ((1,), (1,))), limit=1)\n"
            "os.kill(os.getpid(), signal.SIGSEGV)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONFAULTHANDLER": ""})
    assert done.returncode == -signal.SIGSEGV
    assert "satnono:" not in done.stderr
