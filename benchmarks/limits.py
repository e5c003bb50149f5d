"""Every command with ``--timeout``: how long after its limit the process ends.

    python -m benchmarks.limits [--limit 2] [--limit 9] [--side 150] [--side 300]

Each command runs as users run it, ``satnono ...`` in a fresh process, on seeded random
pictures that logic leaves open (a cell filled at even odds: at 150 a side Kissat works for
minutes, the CNF has millions of clauses). The wall time is measured from the process's
start to its end, the time limit counts from the same start, so the overrun is what the
user waits past the limit: reading, the work, freeing, the output. Prints one row per
command and size with the exit status (3: the limit ran out).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from satnono import Solution, puzzle_from_picture, save
from satnono.bench.runner import machine

#: the commands, each with its options; PUZZLE and OUT are filled in
COMMANDS = (
    ("solve", "--backend", "sat"), ("solve", "--backend", "native"),
    ("solve", "--backend", "cpsat"), ("solve", "--workers", "2"), ("solve", "--limit", "1"),
    ("check",), ("check", "--json"),
    ("count", "--method", "auto"), ("count", "--method", "compiled"),
    ("count", "--method", "enumerate"), ("count", "--method", "ganak"),
    ("count", "--method", "approx"),
    ("encode", "-o", "OUT.cnf"), ("solve", "--trace-gif", "OUT.gif"),
)


def random_puzzle(folder: Path, side: int, seed: int = 5) -> Path:
    """The tests' random picture (``tests/conftest.random_puzzle_file``), as .non."""
    rng = random.Random(seed)
    pic = Solution(side, tuple(rng.getrandbits(side) for _ in range(side)))
    path = folder / f"random{side}.non"
    save(puzzle_from_picture(pic), str(path))
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, action="append")
    ap.add_argument("--side", type=int, action="append")
    args = ap.parse_args()
    program = shutil.which("satnono") or sys.exit("satnono is not on the PATH")
    print(f"# {machine()}")
    print("| command | side | limit | wall | past the limit | exit |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for side in args.side or [150, 300]:
            puzzle = random_puzzle(folder, side)
            for limit in args.limit or [2.0]:
                for command in COMMANDS:
                    argv = [program, command[0], str(puzzle),
                            *(a.replace("OUT", str(folder / "out")) for a in command[1:]),
                            "--timeout", f"{limit:g}"]
                    started = time.monotonic()
                    done = subprocess.run(argv, capture_output=True)
                    wall = time.monotonic() - started
                    print(f"| `{' '.join(command)}` | {side} | {limit:g} | {wall:.2f} | "
                          f"{wall - limit:+.2f} | {done.returncode} |", flush=True)


if __name__ == "__main__":
    main()
