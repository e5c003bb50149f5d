"""Lines per second of the bit-parallel and the reference line solver, and of the colour
solver on the same black-and-white lines (a palette of one colour).

    python -m benchmarks.bench_line [--lines 300] [--repeats 5]

Random lines of length 25, 100 and 500: a random filling gives the clue, a random part of
it is known. Each solver runs the same lines; the table shows the median of the repeats,
the ratio fast / reference, and the ratio fast / colour (what the black-and-white fast path
behind :class:`satnono.logic.line.LineLogic` earns), all measured in this one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from satnono.bench.runner import machine
from satnono.logic.line import narrow, narrow_colour, solve_line
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


def two_masks(clue, n, f, e):
    """The black-and-white solver as propagation calls it: may-empty and may-fill masks."""
    full = (1 << n) - 1
    return narrow(clue, n, full & ~f, full & ~e)


def one_colour(blocks, n, f, e):
    """The colour solver on the same line, black as the palette's one colour (colour 1)."""
    full = (1 << n) - 1
    return narrow_colour(blocks, n, (full & ~f, full & ~e))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"# {machine()}")
    print("| length | fast lines/s | reference lines/s | fast / reference | two-mask lines/s "
          "| colour solver lines/s | two-mask / colour |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (25, 100, 500):
        lines = make_lines(n, args.lines if n < 500 else max(20, args.lines // 5), seed=n)
        fast = statistics.median(rate(solve_line, lines) for _ in range(args.repeats))
        ref = statistics.median(rate(solve_line_reference, lines) for _ in range(args.repeats))
        coloured = [(tuple((b, 1) for b in c), n, f, e) for c, n, f, e in lines]
        assert all(two_masks(*x) == one_colour(*y) for x, y in zip(lines, coloured))
        masks = statistics.median(rate(two_masks, lines) for _ in range(args.repeats))
        colour = statistics.median(rate(one_colour, coloured) for _ in range(args.repeats))
        print(f"| {n} | {fast:,.0f} | {ref:,.0f} | {fast / ref:.1f}× | {masks:,.0f} "
              f"| {colour:,.0f} | {masks / colour:.1f}× |")


if __name__ == "__main__":
    main()
