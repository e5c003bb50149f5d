"""The distribution of exact solution counts in a ``satnono batch --do count`` results file,
and a second method for Ganak's counts.

    satnono batch SET.txt --do count --cluster local:2 --timeout 300 -o counts.jsonl
    python -m benchmarks.count_table counts.jsonl [--confirm 100000] [--timeout 300]

Prints a Markdown table: how many puzzles have no solution, one, 2–10, 11–100, …, the
largest counts, how each was counted, and what is still open (time limit, error). With
``--confirm N`` every Ganak count of at most N is recounted by enumeration (blocking
clauses, one solution at a time; with ``--workers N`` split into parts enumerated side by
side) and the two compared: a Ganak count cannot be checked grid by grid, an enumeration
can.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

BUCKETS = [(0, 0), (1, 1), (2, 10), (11, 100), (101, 1_000), (1_001, 10_000),
           (10_001, 100_000), (100_001, 10**6), (10**6 + 1, 10**9), (10**9 + 1, None)]


def _bucket(n: int) -> str:
    for lo, hi in BUCKETS:
        if n >= lo and (hi is None or n <= hi):
            return (f"{lo:,}" if lo == hi else f"{lo:,} or more" if hi is None
                    else f"{lo:,}–{hi:,}")
    raise AssertionError(n)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--confirm", type=int, default=0, metavar="N",
                    help="recount Ganak's counts up to N by enumeration")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--workers", type=int, default=1, metavar="N",
                    help="recount each puzzle split into parts, enumerated on N processes")
    args = ap.parse_args(argv)
    records = [json.loads(line) for line in open(args.results, encoding="utf-8")]
    # exact counts: records say "exact" (older ones said verdict "count")
    counted = [r for r in records if r.get("count") is not None and r.get("exact", True)]
    open_ = Counter(r["verdict"] for r in records if r not in counted)
    print(f"{len(records)} puzzles in {args.results}: {len(counted)} counted exactly"
          + "".join(f", {n} {v}" for v, n in open_.items()))
    print()
    print("| solutions | puzzles |")
    print("|---|---:|")
    by = Counter(_bucket(r["count"]) for r in counted)
    for lo, _ in BUCKETS:
        label = _bucket(lo)
        if by[label]:
            print(f"| {label} | {by[label]} |")
    bounds = Counter(r["at_least"] for r in records if r not in counted
                     and r.get("at_least") is not None)
    for at_least, n in sorted(bounds.items()):
        print(f"| at least {at_least:,}, not finished (a lower bound, not a count) | {n} |")
    print()
    methods = Counter(r.get("method", "?") for r in counted)
    print("Counted by: " + ", ".join(f"{m} {n}" for m, n in methods.most_common()))
    top = sorted(counted, key=lambda r: -r["count"])[:5]
    print("Largest: " + "; ".join(f"{r['key'].rsplit('/', 1)[-1]} {r['count']:,} "
                                  f"({r['seconds']:.1f} s)" for r in top))
    if args.confirm:
        _confirm([r for r in counted if r.get("method") == "ganak"
                  and r["count"] <= args.confirm], args.timeout, args.workers)


def _confirm(records: list[dict], timeout: float, workers: int = 1) -> None:
    import satnono

    agree = disagree = unfinished = 0
    for r in records:
        puzzle = satnono.load(r["source"], index=r["index"])
        if workers > 1:  # the split count, each part enumerated
            res = satnono.count_split(puzzle, 4 * workers, "enumerate", timeout=timeout,
                                      workers=workers).result
        else:
            res = satnono.count(puzzle, "enumerate", timeout=timeout)
        if not res.complete:
            unfinished += 1
        elif res.count == r["count"]:
            agree += 1
        else:
            disagree += 1
            print(f"DISAGREE {r['key']}: ganak {r['count']}, enumeration {res.count}")
    print(f"\nGanak's counts recounted by enumeration: {agree} agree, {disagree} disagree, "
          f"{unfinished} not finished in {timeout:g} s (of {len(records)})")


if __name__ == "__main__":
    main()
