"""sat against plain-sat over CaDiCaL's seeds: the spread one puzzle's time has.

    python -m benchmarks.seeds [--seeds 0-6] NAME ...

For one CNF CaDiCaL's search is deterministic, so a single run of a hard puzzle is one
draw from a wide spread (Gettys: 45k to 96k conflicts over seeds 0–5). Here both backends
solve each survey puzzle in validation mode (up to two solutions, the whole solve: root
propagation, probing and encoding for sat, encoding for plain-sat) once per seed, the same
seed for both, runs interleaved; the table gives every time, the medians and the ratio of
the medians. Each solution is checked against the clues. No timeout: pick the puzzles.
"""

from __future__ import annotations

import argparse
import statistics
import time

from satnono.backends.solver import DEFAULT_SOLVER, enumerate_models
from satnono.bench.runner import machine
from satnono.encode.block_start import block_start_cnf
from satnono.encode.residual import decode
from satnono.model.puzzle import Puzzle, Solution, is_solution
from satnono.pipeline import residual

from .corpus import survey_named


def sat_time(p: Puzzle, seed: int) -> float:
    start = time.monotonic()
    enc = residual(p).encoding
    if enc is not None:
        for true in enumerate_models(DEFAULT_SOLVER, enc.clauses, list(enc.cells.values()), 2,
                               seed=seed):
            _check(p, decode(enc, true))
    return time.monotonic() - start


def plain_time(p: Puzzle, seed: int) -> float:
    start = time.monotonic()
    clauses, cells, _ = block_start_cnf(p)
    for true in enumerate_models(DEFAULT_SOLVER, clauses, list(cells.values()), 2, tuned=False,
                           seed=seed):
        _check(p, [sum(1 << c for c in range(p.width) if cells[(r, c)] in true)
                   for r in range(p.height)])
    return time.monotonic() - start


def _check(p: Puzzle, rows: list[int]) -> None:
    if not is_solution(p, Solution(p.width, tuple(rows))):
        raise SystemExit("a SAT model breaks the clues")  # pragma: no cover - a solver bug


def seed_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-6", help="a range such as 0-6 (default)")
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    puzzles = survey_named(args.names)
    try:
        seeds = seed_range(args.seeds)
    except ValueError:
        raise SystemExit(f"--seeds: expected a range such as 0-6, got {args.seeds!r}") from None
    print(f"# {machine()}, {time.strftime('%Y-%m-%d')}; CaDiCaL seeds {args.seeds}; "
          "validation mode; times in seconds")
    print("| puzzle | backend | " + " | ".join(f"seed {s}" for s in seeds)
          + " | median | plain-sat / sat |")
    print("|---|---|" + "---:|" * (len(seeds) + 2))
    for name in args.names:
        p = puzzles[name]
        times: dict[str, list[float]] = {"sat": [], "plain-sat": []}
        for s in seeds:
            times["sat"].append(sat_time(p, s))
            times["plain-sat"].append(plain_time(p, s))
        med = {b: statistics.median(t) for b, t in times.items()}
        for b, ts in times.items():
            ratio = f"{med['plain-sat'] / med['sat']:.2f}×" if b == "plain-sat" else ""
            print(f"| {name} | {b} | " + " | ".join(f"{t:.2f}" for t in ts)
                  + f" | {med[b]:.2f} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
