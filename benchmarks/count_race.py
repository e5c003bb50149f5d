"""Which counters auto should race, and when each should start: every racer of auto's
count alone on a sample of the count tables' puzzles past the threshold, its CPU seconds
measured in its own child, then the policies' cost on two cores worked out from them.

    python -m benchmarks.count_race benchmarks/results/count-tcga2015.jsonl \
        benchmarks/results/count-taai2011.jsonl --sample 30 --cap 30 -o race.csv

Each racer (the compiled counter, Ganak on the order encoding, enumeration of the
automaton residual up to the tuning's ``listed_at_most``) runs alone in a child killed at
``--cap`` seconds of wall time; its CPU time comes from the child's own usage, so a busy
machine stretches the wall time, not the figure. A race of k processes on c cores gives
each min(1, c / k) of a core, so a race whose winner needs t CPU seconds costs k·t of
CPU; a racer started s seconds late runs alone before (see :func:`cost`). The summary
prints the CPU each policy spends over the sample and how many counts it finishes within
the cap, which is what a batch on every core pays.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import time
from collections.abc import Callable, Iterator
from typing import Any

#: the policies weighed: the racers and the seconds of CPU the compiled counter runs
#: alone before the others join
POLICIES = [("race of three", 0.0), ("counter alone 1 s, then three", 1.0),
            ("counter alone 2 s, then three", 2.0), ("counter alone 5 s, then three", 5.0),
            ("counter alone 10 s, then three", 10.0)]


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn: Callable[..., Iterator[Any]], args: tuple[Any, ...], cap: float
          ) -> float | None:
    """CPU seconds of ``fn(*args)`` run to its end in a child, None past ``cap`` s."""
    from satnono.errors import SatnonoError
    from satnono.runtime.child import stream
    from satnono.runtime.deadline import Deadline

    before = _child_cpu()
    try:
        list(stream(fn, args, Deadline.after(cap), always=True))
    except SatnonoError:
        return None
    return _child_cpu() - before


def racers(record: dict, cap: float) -> dict[str, float | None]:
    """Each racer's CPU seconds alone on the record's puzzle (None: not within ``cap``)."""
    import satnono
    from satnono.analyze import counters
    from satnono.encode.residual import Residual
    from satnono.model.verdict import LineCode
    from satnono.pipeline import residual
    from satnono.runtime.deadline import NO_DEADLINE
    from satnono.tuning import TUNING

    path, index = record["source"], record["index"]
    p = satnono.load(path, index=index)
    listed = residual(p, code=LineCode.AUTOMATON)
    assert listed.encoding is not None and listed.board is not None
    res: Residual = counters.for_counter(p, listed, NO_DEADLINE, TUNING.counter_code)
    enc = res.encoding
    assert enc is not None
    cnf = (enc.variables, enc.clauses, sorted(enc.cells.values()))
    return {
        "compiled": timed(counters._compiled_count, (p, listed.board, False, TUNING), cap),
        "ganak": timed(counters._count_models, cnf, cap),
        "enumerate": timed(_listed_all, (p, listed.encoding, TUNING.listed_at_most), cap),
    }


def _listed_all(p: Any, enc: Any, at_most: int) -> Iterator[int]:
    """Enumeration as the racer runs it, failing (not leaving) past its cap of models."""
    from satnono.analyze.counters import _listed

    for said in _listed(p, enc, at_most):
        yield said.count


def cost(t: dict[str, float | None], alone: float, cap: float) -> tuple[float, bool]:
    """The CPU a policy spends on one puzzle and whether it finishes within ``cap`` CPU
    seconds of the winner's: the compiled counter alone for ``alone`` seconds, then the
    three side by side (each racer progressing at the same rate, so the first to need the
    least CPU from then on wins, and each of the three spends that much)."""
    inf = float("inf")
    c = t["compiled"] if t["compiled"] is not None else inf
    if c <= alone:
        return c, True
    rest = min(c - alone, t["ganak"] if t["ganak"] is not None else inf,
               t["enumerate"] if t["enumerate"] is not None else inf)
    if rest == inf or alone + rest > cap:
        return alone + 3 * max(cap - alone, 0.0), False
    return alone + 3 * rest, True


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="count tables (satnono batch --do count)")
    ap.add_argument("--sample", type=int, default=30, help="puzzles, spread over the counts")
    ap.add_argument("--cap", type=float, default=30.0, help="seconds a racer gets alone")
    ap.add_argument("-o", "--out", help="CSV of each racer's CPU seconds (resumable)")
    args = ap.parse_args(argv)
    records = [json.loads(line) for path in args.results
               for line in open(path, encoding="utf-8")]
    past = sorted((r for r in records if r.get("count") and r.get("exact", True)
                   and r["count"] > 1000), key=lambda r: r["count"])
    step = max(1, len(past) // max(1, args.sample))
    sample = past[::step][:args.sample]
    done: dict[str, dict[str, Any]] = {}
    if args.out:
        try:
            with open(args.out, encoding="utf-8") as fh:
                done = {row["key"]: row for row in csv.DictReader(fh)}
        except FileNotFoundError:
            pass
    fields = ["key", "count", "compiled", "ganak", "enumerate"]
    rows = []
    for r in sample:
        if r["key"] in done:
            row = done[r["key"]]
        else:
            start = time.monotonic()
            t = racers(r, args.cap)
            row = {"key": r["key"], "count": r["count"],
                   **{k: "" if v is None else f"{v:.2f}" for k, v in t.items()}}
            print(f"{r['key'].rsplit('/', 1)[-1]} {r['count']:,}: "
                  + ", ".join(f"{k} {row[k] or '-'}" for k in t)
                  + f" ({time.monotonic() - start:.0f} s)", flush=True)
            if args.out:
                new = not done and not rows
                with open(args.out, "a", encoding="utf-8", newline="") as fh:
                    w = csv.DictWriter(fh, fields)
                    if new:
                        w.writeheader()
                    w.writerow(row)
        rows.append(row)
    times = [{k: float(row[k]) if row[k] else None for k in ("compiled", "ganak", "enumerate")}
             for row in rows]
    print(f"\n{len(rows)} puzzles past 1,000 solutions; each racer alone, CPU seconds, "
          f"cap {args.cap:g} s:")
    for k in ("compiled", "ganak", "enumerate"):
        got = sorted(t[k] for t in times if t[k] is not None)
        print(f"  {k}: {len(got)} within the cap, {sum(got):.1f} s on them, "
              f"fastest of the three on {sum(1 for t in times if _best(t) == k)}")
    print("\n| policy | CPU s over the sample | counted within the cap |")
    print("|---|---:|---:|")
    for name, alone in POLICIES:
        spent = [cost(t, alone, args.cap) for t in times]
        print(f"| {name} | {sum(s for s, _ in spent):.1f} | {sum(ok for _, ok in spent)} |")


def _best(t: dict[str, float | None]) -> str | None:
    known = [(v, k) for k, v in t.items() if v is not None]
    return min(known)[1] if known else None


if __name__ == "__main__":
    main()
