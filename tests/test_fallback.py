"""Without the compiled code: Numba missing (its import blocked) or turned off with
SATNONO_NO_COMPILED, satnono says so in one line and the Python logic gives the same
answers, on the command line, in the library and in the core checks of the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_python

#: the full suite only (python -m pytest); the fast tier (--fast) leaves these out
pytestmark = pytest.mark.full

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
#: a Python process in which ``import numba`` fails, as where it is not installed
NO_NUMBA = "import sys; sys.modules['numba'] = None; "


def _run(code: str, *args: str, env: dict | None = None, cwd: Path = ROOT
         ) -> subprocess.CompletedProcess:
    return run_python(code, *args, env=env, cwd=cwd)


def _cli(*args: str, blocked: bool = True, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    code = (NO_NUMBA if blocked else "import sys; ") + \
        "from satnono.cli import main; sys.exit(main())"
    return _run(code, *args, cwd=cwd)


def _notes(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if "compiled search is unavailable" in ln]


def test_solve_without_numba_answers_the_same_and_says_so_once_when_it_matters(tmp_path):
    """A small puzzle in a single solve never needs the compiled code (Python probing and
    the SAT solver settle it first), so nothing is said; a larger one that logic leaves
    open would load it, and one line says it is unavailable."""
    with_it = _cli("solve", str(PUZZLES / "two.dat"), "--all", blocked=False)
    without = _cli("solve", str(PUZZLES / "two.dat"), "--all")
    assert "Traceback" not in without.stderr
    assert without.returncode == with_it.returncode == 0
    assert without.stdout == with_it.stdout
    assert _notes(without.stderr) == []
    from .conftest import past_small

    big = past_small(tmp_path)
    with_it = _cli("solve", big, "-o", str(tmp_path / "a.txt"), blocked=False)
    without = _cli("solve", big, "-o", str(tmp_path / "b.txt"))
    assert "Traceback" not in without.stderr
    assert without.returncode == with_it.returncode == 0
    notes = _notes(without.stderr)
    assert len(notes) == 1 and "numba" in notes[0] and "Python logic" in notes[0]
    assert _notes(with_it.stderr) == []
    verdict = [ln.split("[")[0].split(": ", 1)[1] for ln in (with_it.stderr, without.stderr)
               for ln in ln.splitlines() if ln.startswith(big)]
    assert len(verdict) == 2 and verdict[0] == verdict[1]


def test_check_count_batch_and_bench_start_without_numba(tmp_path):
    for args in (["check", str(PUZZLES / "cup.non"), "--no-rating"],
                 ["count", str(PUZZLES / "two.dat")],
                 ["batch", str(PUZZLES / "car.dat"), str(PUZZLES / "two.dat"),
                  "-o", str(tmp_path / "r.jsonl"), "--jobs", "1"],
                 ["bench", str(PUZZLES / "car.dat"), "--backend", "sat", "--timeout", "30",
                  "-o", str(tmp_path / "b.csv")]):
        proc = _cli(*args, cwd=tmp_path)
        assert "Traceback" not in proc.stderr, (args, proc.stderr)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 2


def test_the_library_without_numba_searches_in_python():
    code = NO_NUMBA + (
        "import satnono, itertools\n"
        "n = 5\n"
        "p = satnono.Puzzle(((1,),) * n, ((1,),) * n)\n"
        "print(len(list(satnono.solve(p))), satnono.count(p).count)\n"
        "from satnono.logic import compiled as fast\n"
        "print(fast.available())\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["120", "120", "False"]


def test_the_core_checks_pass_with_the_compiled_code_disabled():
    """Backends agreeing with each other and with brute force, the pipeline, check and
    count: the suite's core, run with SATNONO_NO_COMPILED=1."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         "tests/test_backends.py", "tests/test_pipeline.py", "tests/test_check.py",
         "tests/test_count.py"],
        capture_output=True, text=True, timeout=1200, cwd=ROOT,
        env={**os.environ, "SATNONO_NO_COMPILED": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout.splitlines()[-1]


def test_a_puzzle_line_logic_settles_never_loads_the_compiled_code():
    """The README's first command on a new installation answers at once: line logic
    settles car.dat, so Numba is neither loaded nor made to compile."""
    code = ("import sys, satnono\n"
            f"p = satnono.load({str(PUZZLES / 'car.dat')!r})\n"
            "assert len(list(satnono.solve(p))) == 1\n"
            "print('numba' in sys.modules, 'satnono.logic.compiled.kernel' in sys.modules)\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"] and proc.stderr == ""
