"""The sat backend with one worker against racing workers, on the slowest tournament puzzles.

    python -m benchmarks.workers [--workers 1,2] [--slowest 100] [--csv CSV]

Takes the ``--slowest`` sat runs of a ``satnono bench`` CSV of tcga2015 (by default the one
in benchmarks/results) and solves each puzzle in validation mode (up to two solutions, the
whole solve) with every worker count in turn, puzzle by puzzle, so that a change in the
machine's speed falls on every count alike. Prints the total, the median and on how many
puzzles each count was the fastest. Racing workers run in child processes on their own
cores: the one-worker run uses one core, ``--workers 2`` both.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

from satnono.bench.runner import machine
from satnono.bench.suites import tcga2015

from .corpus import present
from .survey import validate_time

RESULTS = Path(__file__).parent / "results" / "tcga2015.csv"


def slowest(path: Path, n: int) -> list[str]:
    with path.open(newline="") as f:
        runs = [r for r in csv.DictReader(f) if r["backend"] == "sat" and r["wall"]]
    runs.sort(key=lambda r: -float(r["wall"]))
    return [r["puzzle"] for r in runs[:n]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--slowest", type=int, default=100, metavar="N")
    ap.add_argument("--csv", type=Path, default=RESULTS, help="a satnono bench CSV")
    args = ap.parse_args()
    if not present():
        raise SystemExit("no corpus: tcga2015 is read from ../shared/corpus")
    counts = [int(w) for w in args.workers.split(",")]
    names = slowest(args.csv, args.slowest)
    puzzles = dict(tcga2015())
    times: dict[int, list[float]] = {w: [] for w in counts}
    for name in names:
        for w in counts:
            # no timeout: the one-worker search stays in this process, as measured
            times[w].append(validate_time(puzzles[name], f"sat:{w}", None)[0])
    print(f"# {machine()}, {time.strftime('%Y-%m-%d')}; the {len(names)} slowest sat runs "
          f"of {args.csv.name}; validation mode; times in seconds")
    print("| workers | total | median | slowest | fastest on |")
    print("|---:|---:|---:|---:|---:|")
    for w in counts:
        wins = sum(times[w][i] == min(times[c][i] for c in counts) for i in range(len(names)))
        print(f"| {w} | {sum(times[w]):.1f} | {statistics.median(times[w]):.3f} | "
              f"{max(times[w]):.2f} | {wins} |")


if __name__ == "__main__":
    main()
