"""The black-and-white line solver's own cost, in compiled loops: the engine compiled ahead
of time (Cython, satnono/engine/line.pyx) against the Numba kernel it replaces, on the same
lines, in one run.

    python -m benchmarks.line_rate [--lines 20000] [--repeats 50]

Random lines of 25, 40 and 63 cells (the one-word solver): a random filling gives the
clue, a random quarter of its cells is known. Each solver runs over all the lines
``--repeats`` times inside compiled code (no call from Python per line); the table shows
ns per line solve, the best of three runs, and a checksum of the answers that must be equal.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from satnono.bench.runner import machine
from satnono.model.solution import line_clue


def make_lines(n: int, count: int, seed: int) -> dict[str, np.ndarray]:
    rng = random.Random(seed)
    clues: list[int] = []
    starts, counts, empties, fills = [], [], [], []
    full = (1 << n) - 1
    for _ in range(count):
        m = rng.getrandbits(n)
        known = rng.getrandbits(n) & rng.getrandbits(n)
        clue = line_clue(m, n)
        starts.append(len(clues))
        counts.append(len(clue))
        clues += clue
        empties.append(full & ~(known & m))  # a known filled cell may not be empty
        fills.append(full & ~(known & ~m))
    return {"clues": np.array(clues + [0], np.int64), "starts": np.array(starts, np.int64),
            "counts": np.array(counts, np.int64), "lengths": np.full(count, n, np.int64),
            "empties": np.array(empties, np.uint64), "fills": np.array(fills, np.uint64)}


def _numba_loop():  # type: ignore[no-untyped-def]
    from numba import njit, uint64

    from satnono.logic.compiled import kernel

    @njit(cache=False, nogil=True)
    def solve_many(clues, starts, counts, lengths, empties, fills, repeats):  # type: ignore[no-untyped-def]
        kmax = 1
        for i in range(lengths.shape[0]):
            kmax = max(kmax, counts[i])
        fs = np.empty(kmax + 2, np.uint64)
        ff = np.empty(kmax + 2, np.uint64)
        bs = np.empty(kmax + 2, np.uint64)
        bf = np.empty(kmax + 2, np.uint64)
        check = uint64(0)
        for _ in range(repeats):
            for i in range(lengths.shape[0]):
                ok, e, f = kernel.narrow64(clues, starts[i], counts[i], lengths[i],
                                           empties[i], fills[i], fs, ff, bs, bf)
                if ok:
                    check = check * uint64(31) + e * uint64(7) + f
                else:
                    check = check * uint64(31) + uint64(1)
        return check

    return solve_many


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=50)
    args = ap.parse_args()
    from satnono.engine import part

    engine = part("line")
    if engine is None:
        raise SystemExit("the engine was not built here (pip install . with a C compiler)")
    numba_loop = _numba_loop()
    print(f"# {machine()}")
    print(f"{'cells':>5} {'engine ns':>10} {'numba ns':>10} {'ratio':>6}  checksums")
    for n in (25, 40, 63):
        data = make_lines(n, args.lines, n)
        arrays = [data[k] for k in ("clues", "starts", "counts", "lengths", "empties",
                                    "fills")]
        numba_loop(*arrays, 1)  # compiled before it is timed
        times: dict[str, float] = {}
        sums: dict[str, int] = {}
        for name, run in (("engine", engine.solve_many), ("numba", numba_loop)):
            best = float("inf")
            for _ in range(3):
                started = time.perf_counter()
                sums[name] = int(run(*arrays, args.repeats))
                best = min(best, time.perf_counter() - started)
            times[name] = best * 1e9 / (args.lines * args.repeats)
        print(f"{n:>5} {times['engine']:>10.1f} {times['numba']:>10.1f} "
              f"{times['engine'] / times['numba']:>6.2f}  "
              f"{'equal' if sums['engine'] == sums['numba'] else 'DIFFER'}")


if __name__ == "__main__":
    main()
