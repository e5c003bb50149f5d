"""The compiled search alone: time per line solve, with its nodes and line solves to show
that two versions did the same work.

    python -m benchmarks.search_rate [--suite colour-large] [PUZZLE ...] [--budget 400000000]
                                     [--save FOLDER] [--general]

Each puzzle's compiled search (black and white or colour) from an open board, up to two
solutions or ``--budget`` units of work, on the engine. Prints one row
per puzzle and the totals; the signature line (solutions, nodes, line solves of every
puzzle) is equal between two versions exactly when their searches walked the same trees,
so the times compare the cost per line solve and nothing else. ``--save`` writes the
puzzles as satnono JSON files, for a version that does not know the suite: run this module
from a checkout of it on those files. ``--general`` runs black-and-white puzzles on the
general engine (the colour search, black and white a palette of one colour) instead of the
fast path: what the fast path saves.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

from satnono.bench.runner import machine
from satnono.io.formats import read_file, save
from satnono.logic.compiled import search_for, usable
from satnono.logic.context import Stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="*", help="puzzle files")
    ap.add_argument("--suite", action="append", default=[])
    ap.add_argument("--budget", type=int, default=400_000_000)
    ap.add_argument("--save", metavar="FOLDER")
    ap.add_argument("--general", action="store_true",
                    help="black and white on the general engine, not the fast path")
    args = ap.parse_args()
    items = []
    for name in args.suite:
        from satnono.bench.suites import suite

        items += suite(name)
    for path in args.puzzles:
        items += [(Path(path).stem, p) for p in read_file(path)]
    if args.save:
        folder = Path(args.save)
        folder.mkdir(parents=True, exist_ok=True)
        for i, (label, puzzle) in enumerate(items):
            stem = "".join(ch if ch.isalnum() else "_" for ch in label)
            save(puzzle, str(folder / f"{i:04d}-{stem}.json"))
    engine = "the general engine" if args.general else "the fast path in black and white"
    print(f"# {machine()}; budget {args.budget:,}; {engine}")
    print("| puzzle | size | seconds | solutions | nodes | line solves | ns a line solve |")
    print("|---|---|---:|---:|---:|---:|---:|")
    total = lines = 0.0
    signature = hashlib.sha256()
    for label, puzzle in items:
        if not usable(puzzle):
            continue
        search = search_for(puzzle, general=args.general)
        start = time.perf_counter()
        found = sum(1 for _ in search.solutions(2, args.budget))
        took = time.perf_counter() - start
        stats = Stats()
        search.count_into(stats)
        total += took
        lines += stats.line_solves
        signature.update(f"{found},{stats.nodes},{stats.line_solves};".encode())
        print(f"| {label} | {puzzle.width}×{puzzle.height} | {took:.3f} | {found} | "
              f"{stats.nodes:,} | {stats.line_solves:,} | "
              f"{1e9 * took / max(stats.line_solves, 1):,.0f} |")
    print(f"\ntotal {total:.3f} s, {int(lines):,} line solves, "
          f"{1e9 * total / max(lines, 1):,.0f} ns a line solve; "
          f"signature {signature.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
