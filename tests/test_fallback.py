"""Without the engine: not built at install (its import blocked, as where no C compiler
was there) or turned off with SATNONO_NO_COMPILED, satnono says so in one line and the
Python logic gives the same answers, on the command line, in the library and in the core
checks of the suite."""

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
#: a Python process in which the engine's modules fail to import, as where it was not built
NO_ENGINE = ("import sys; sys.modules.update(dict.fromkeys(['satnono.engine.line', "
             "'satnono.engine.colour_line', 'satnono.engine.search', "
             "'satnono.engine.counter'])); ")


def _run(code: str, *args: str, env: dict | None = None, cwd: Path = ROOT
         ) -> subprocess.CompletedProcess:
    return run_python(code, *args, env=env, cwd=cwd)


def _cli(*args: str, blocked: bool = True, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    code = (NO_ENGINE if blocked else "import sys; ") + \
        "from satnono.cli import main; sys.exit(main())"
    return _run(code, *args, cwd=cwd)


def _notes(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if "using the Python logic instead" in ln]


def test_solve_without_the_engine_answers_the_same_and_says_so_once(tmp_path):
    """One line says the engine is missing, once, and the answers are the same."""
    with_it = _cli("solve", str(PUZZLES / "two.dat"), "--all", blocked=False)
    without = _cli("solve", str(PUZZLES / "two.dat"), "--all")
    assert "Traceback" not in without.stderr
    assert without.returncode == with_it.returncode == 0
    assert without.stdout == with_it.stdout
    assert len(_notes(without.stderr)) == 1 and _notes(with_it.stderr) == []
    from .conftest import past_small

    big = past_small(tmp_path)
    with_it = _cli("solve", big, "-o", str(tmp_path / "a.txt"), blocked=False)
    without = _cli("solve", big, "-o", str(tmp_path / "b.txt"))
    assert "Traceback" not in without.stderr
    assert without.returncode == with_it.returncode == 0
    notes = _notes(without.stderr)
    assert len(notes) == 1 and "Python logic" in notes[0]
    assert _notes(with_it.stderr) == []
    verdict = [ln.split("[")[0].split(": ", 1)[1] for ln in (with_it.stderr, without.stderr)
               for ln in ln.splitlines() if ln.startswith(big)]
    assert len(verdict) == 2 and verdict[0] == verdict[1]


def test_check_count_batch_and_bench_start_without_the_engine(tmp_path):
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


def test_the_library_without_the_engine_searches_in_python():
    code = NO_ENGINE + (
        "import satnono, itertools\n"
        "n = 5\n"
        "p = satnono.Puzzle(((1,),) * n, ((1,),) * n)\n"
        "print(len(list(satnono.solve(p))), satnono.count(p).count)\n"
        "from satnono.logic import compiled as fast\n"
        "print(fast.available())\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["120", "120", "False"]


def test_the_core_checks_pass_with_the_engine_turned_off():
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


def test_a_fresh_process_loads_neither_numpy_nor_a_compiler():
    """The engine is machine code made at install: a solve that searches (a random 30×30
    that logic leaves open) and a colour one import it and nothing heavy beside it."""
    code = ("import random, sys, satnono\n"
            "from satnono.model.puzzle import puzzle_from_picture\n"
            "from satnono.model.solution import Solution\n"
            "rng = random.Random(1)\n"
            "rows = tuple(sum(1 << c for c in range(30) if rng.random() < 0.5) "
            "for _ in range(30))\n"
            "run = satnono.solve(puzzle_from_picture(Solution(30, rows)), 'sat', limit=2)\n"
            "print(len(list(run)), run.stats.nodes > 0)\n"
            "from satnono.model.puzzle import BLACK_AND_WHITE, Colour, Palette\n"
            "from satnono.model.puzzle import puzzle_from_colours\n"
            "red = Palette(BLACK_AND_WHITE.colours + (Colour('red', 'r', 'ff0000'),))\n"
            "grid = [[rng.choice([0, 0, 1, 2]) for _ in range(20)] for _ in range(20)]\n"
            "print(len(list(satnono.solve(puzzle_from_colours(grid, red), limit=1))))\n"
            "print('numpy' in sys.modules, 'numba' in sys.modules, "
            "'satnono.engine.search' in sys.modules)\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines == ["2 True", "1", "False False True"] and proc.stderr == "", proc.stdout
