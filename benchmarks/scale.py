"""Huge pictures that logic nearly settles: what the engine's memory and time follow.

    python -m benchmarks.scale [--side 2000] [--windows 2 2 2] [--strip 8192x4]
                               [--command "count --method compiled"] [--out DIR]

Each puzzle is a filled square with a few small windows left ambiguous: a ``k × k``
window inside a ring of empty cells takes any ``k × k`` permutation matrix (``k!``
pictures; ``k = 2`` is a "switch", two pictures), and line logic forces every other cell.
So a 4096×4096 puzzle with one switch has 2 solutions, 16.7 million cells and 4 of them
open: a solver whose memory follows the grid instead of what is open runs out of it, one
whose sizes are 32-bit crashes. Writes the puzzle as ``.non`` (a few KB) and, with
``--command``, runs ``satnono COMMAND FILE`` in a fresh process, printing its wall time,
peak memory (maximum resident set) and exit status.
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import time
from pathlib import Path


def windows_puzzle(height: int, width: int, windows: list[int]) -> tuple[
        list[list[int]], list[list[int]], int]:
    """The row and column clues of a ``height × width`` filled picture with one
    ``k × k`` window per entry of ``windows`` (side by side along the diagonal, each in a
    ring of empty cells), and its number of solutions (the product of ``k!``). Clues are
    computed from runs, so no grid of ``height × width`` is ever built."""
    # each window: its first row and column (the ring is one cell around it)
    placed: list[tuple[int, int]] = []
    at = 2
    for k in windows:
        if at + k + 1 >= min(height, width):
            raise ValueError(f"{len(windows)} windows do not fit a {height}×{width} picture")
        placed.append((at, k))
        at += k + 3
    rows = [_runs(width, _gaps(r, placed)) for r in range(height)]
    columns = [_runs(height, _gaps(c, placed)) for c in range(width)]
    return rows, columns, math.prod(math.factorial(k) for k in windows)


def _gaps(i: int, placed: list[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    """Line ``i``'s stretches that are not filled: (start, length, whether one cell of it
    is filled). A line through a window's ring is empty across it; a line through the
    window is empty on the ring and has one filled cell inside."""
    out = []
    for start, k in placed:
        if start - 1 <= i <= start + k:
            inside = start <= i < start + k
            out.append((start - 1, k + 2, inside))
    return out


def _runs(n: int, gaps: list[tuple[int, int, bool]]) -> list[int]:
    clue: list[int] = []
    pos = 0
    for start, length, one in gaps:
        if start > pos:
            clue.append(start - pos)
        if one:
            clue.append(1)
        pos = start + length
    if pos < n:
        clue.append(n - pos)
    return clue


def write_non(path: Path, height: int, width: int, windows: list[int]) -> int:
    """The puzzle as ``.non``; returns its number of solutions."""
    rows, columns, count = windows_puzzle(height, width, windows)
    with open(path, "w") as f:
        f.write(f"title \"{height}x{width}, windows {windows}: {count} solutions\"\n")
        f.write(f"width {width}\nheight {height}\n\nrows\n")
        for clue in rows:
            f.write(",".join(map(str, clue)) + "\n")
        f.write("\ncolumns\n")
        for clue in columns:
            f.write(",".join(map(str, clue)) + "\n")
    return count


def run(command: str, path: Path) -> tuple[float, int, int, str]:
    """``satnono COMMAND PATH`` in a fresh process: wall seconds, peak resident MB, exit
    status, its last line on stderr or stdout."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "satnono", *command.split(), str(path)],
                          capture_output=True, text=True)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    last = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or [""]
    return wall, peak, proc.returncode, last[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--side", type=int, action="append", default=None)
    ap.add_argument("--strip", action="append", default=[],
                    help="WIDTHxHEIGHT: a wide strip instead of a square")
    ap.add_argument("--windows", type=int, nargs="+", default=[2])
    ap.add_argument("--command", default=None)
    ap.add_argument("--out", type=Path, default=Path("/tmp"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    shapes = [(s, s) for s in (args.side or ([] if args.strip else [2000]))]
    for strip in args.strip:
        w, h = strip.lower().split("x")
        shapes.append((int(h), int(w)))
    for h, w in shapes:
        path = args.out / f"scale-{h}x{w}-{'-'.join(map(str, args.windows))}.non"
        count = write_non(path, h, w, args.windows)
        print(f"{path}: {h}×{w}, {count} solutions", flush=True)
        if args.command:
            wall, peak, status, last = run(args.command, path)
            print(f"  satnono {args.command}: {wall:.1f} s, peak {peak} MB (the largest "
                  f"child so far), exit {status}: {last}", flush=True)


if __name__ == "__main__":
    main()
