"""Lines per second of the bit-parallel and the reference line solver.

    python -m benchmarks.bench_line [--lines 300] [--repeats 5]

Random lines of length 25, 100 and 500: a random filling gives the clue, a random part of
it is known. Each solver runs the same lines; the table shows the median of the repeats
and the ratio fast / reference, all measured in this one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from satnono.bench.runner import machine
from satnono.logic.line import solve_line
from satnono.logic.line_reference import solve_line_reference
from satnono.model.puzzle import line_clue


def make_lines(n: int, count: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        m = rng.getrandbits(n)
        known = rng.getrandbits(n) & rng.getrandbits(n)  # about a quarter of the cells
        out.append((line_clue(m, n), n, known & m, known & ~m))
    return out


def rate(solver, lines: list[tuple]) -> float:
    start = time.perf_counter()
    for clue, n, f, e in lines:
        solver(clue, n, f, e)
    return len(lines) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"# {machine()}")
    print("| length | fast lines/s | reference lines/s | ratio |")
    print("|---:|---:|---:|---:|")
    for n in (25, 100, 500):
        lines = make_lines(n, args.lines if n < 500 else max(20, args.lines // 5), seed=n)
        fast = statistics.median(rate(solve_line, lines) for _ in range(args.repeats))
        ref = statistics.median(rate(solve_line_reference, lines) for _ in range(args.repeats))
        print(f"| {n} | {fast:,.0f} | {ref:,.0f} | {fast / ref:.1f}× |")


if __name__ == "__main__":
    main()
