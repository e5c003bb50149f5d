"""The distribution of exact solution counts in a ``satnono batch --do count`` results file,
its histogram, and every count above 1,000 confirmed by a second method.

    satnono batch SET.txt --do count --jobs 1 --timeout 300 -o counts.jsonl
    python -m benchmarks.count_table counts.jsonl [--histogram counts.png]
    python -m benchmarks.count_table counts.jsonl --confirm confirm.jsonl [--above 1000] \
        [--retry-unfinished]

Prints a Markdown table: how many puzzles have no solution, one, 2–10, 11–100, …, the
largest counts, how each was counted, and what is still open (time limit, estimate,
error). ``--histogram`` draws the counts on a log scale (one picture per set). With
``--confirm FILE`` every exact count above ``--above`` is recounted by a method that shares
no code with the one that made it — Ganak's by the compiled counter, the compiled counter's
and enumeration's by D4 (Ganak where D4 is not installed; ``--second`` forces one) — one
JSON line per puzzle appended to FILE (resumable: puzzles already there are skipped), and
the agreements summed up.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from satnono.analyze.count import CountResult

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
    ap.add_argument("--histogram", metavar="PNG", help="draw the counts on a log scale")
    ap.add_argument("--confirm", metavar="FILE.jsonl",
                    help="recount every exact count above --above by a second method")
    ap.add_argument("--above", type=int, default=1000, metavar="N")
    ap.add_argument("--second", choices=["compiled", "ganak", "d4", "enumerate"],
                    help="the second method for every count (default: the compiled counter for "
                    "Ganak's, D4 or else Ganak for the others)")
    ap.add_argument("--estimates", metavar="FILE.jsonl",
                    help="ApproxMC's estimates of --sample exact counts above --above, "
                    "against them")
    ap.add_argument("--sample", type=int, default=20, metavar="N")
    ap.add_argument("--estimate-open", metavar="FILE.jsonl",
                    help="ApproxMC's estimate of every puzzle whose exact count did not "
                    "finish (resumable; the table then shows them)")
    ap.add_argument("--retry-unfinished", action="store_true",
                    help="with --confirm: recount the puzzles FILE holds as not finished "
                    "(their lines are replaced) as well as the new ones")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args(argv)
    records = [json.loads(line) for line in open(args.results, encoding="utf-8")]
    # exact counts: records say "exact" (older ones said verdict "count")
    counted = [r for r in records if r.get("count") is not None and r.get("exact", True)]
    open_ = Counter(r["verdict"] for r in records if r not in counted)
    print(f"{len(records)} puzzles in {args.results}: {len(counted)} counted exactly"
          + "".join(f", {n} {v}" for v, n in open_.items()))
    print()
    methods = [m for m, _ in Counter(r.get("method", "?") for r in counted).most_common()]
    print("| solutions | puzzles | " + " | ".join(methods) + " | median s | slowest s |")
    print("|---|---:|" + "---:|" * len(methods) + "---:|---:|")
    for lo, _ in BUCKETS:
        label = _bucket(lo)
        rows = [r for r in counted if _bucket(r["count"]) == label]
        if rows:
            by = Counter(r.get("method", "?") for r in rows)
            secs = sorted(r["seconds"] for r in rows)
            print(f"| {label} | {len(rows)} | " + " | ".join(str(by[m] or "") for m in methods)
                  + f" | {secs[len(secs) // 2]:.2f} | {secs[-1]:.1f} |")
    for r in sorted((r for r in records if r not in counted and "estimate" in r),
                    key=lambda r: r["index"]):
        print(f"| #{r['index']}: ≈ {r['estimate']:,}, between {r['low']:,} and "
              f"{r['high']:,} with probability ≥ {1 - r['delta']:g} (an estimate) | 1 |")
    if args.estimate_open:
        _estimate_open([r for r in records if r not in counted and "estimate" not in r],
                       args.estimate_open, args.timeout)
        guessed = {g["key"]: g for g in map(json.loads, open(args.estimate_open,
                                                              encoding="utf-8"))}
        for r in records:
            g = guessed.get(r["key"])
            if r not in counted and g is not None and g["estimate"] is not None:
                r.update(estimate=g["estimate"], low=g["low"], high=g["high"],
                         delta=g["delta"])
                print(f"| #{r['index']}: ≈ {r['estimate']:,}, between {r['low']:,} and "
                      f"{r['high']:,} with probability ≥ {1 - r['delta']:g} (an estimate; "
                      f"the exact count did not finish in {r['seconds']:.0f} s) | 1 |")
    # the open counts by the bin of their lower bound: one row a bin, not one a bound
    bounds = Counter(_bucket(r["at_least"]) for r in records if r not in counted
                     and "estimate" not in r and r.get("at_least") is not None)
    for lo, _ in BUCKETS:
        label = _bucket(lo)
        if bounds[label]:
            print(f"| not finished, at least {label} (a lower bound, not a count) | "
                  f"{bounds[label]} |")
    print()
    print("Counted by: " + ", ".join(f"{m} {n}" for m, n in Counter(
        r.get("method", "?") for r in counted).most_common()))
    unfinished = sorted((r for r in records if r not in counted), key=lambda r: r["index"])
    if unfinished:
        print("Open: " + ", ".join(
            f"#{r['index']} (" + (f"≈ {r['estimate']:,}" if r.get("estimate") else
                                  f"at least {r['at_least']:,}" if r.get("at_least")
                                  else r["verdict"]) + ")" for r in unfinished))
    secs = [r["seconds"] for r in records]
    print(f"Time: {sum(secs):,.0f} s over {len(records)} puzzles (each puzzle's wall time, "
          f"its limit included), {sum(r['seconds'] for r in counted):,.0f} s on the "
          "exact counts")
    top = sorted(counted, key=lambda r: -r["count"])[:5]
    print("Largest: " + "; ".join(f"{r['key'].rsplit('/', 1)[-1]} {r['count']:,} "
                                  f"({r['seconds']:.1f} s)" for r in top))
    if args.histogram:
        _histogram(counted, records, args.results, args.histogram)
    if args.estimates:
        big = sorted((r for r in counted if r["count"] > args.above), key=lambda r: r["count"])
        step = max(1, len(big) // max(1, args.sample))
        _estimates(big[::step][:args.sample], args.estimates, args.timeout)
    if args.confirm:
        if args.retry_unfinished:
            _drop_unfinished(args.confirm)
        _confirm([r for r in counted if r["count"] > args.above], args.confirm,
                 args.timeout, args.second)


def _drop_unfinished(out: str) -> None:
    """Leave out of ``out`` the recounts that did not finish, so they are done again (the
    file is keyed by puzzle like a batch's results, and rewritten the same way)."""
    from satnono.batch.journal import done, drop

    unfinished = {key for key, c in done(out).items() if c["recount"] is None}
    if unfinished:
        drop(out, unfinished)
    print(f"{len(unfinished)} recount(s) not finished before, done again")


def _histogram(counted: list[dict], records: list[dict], name: str, png: str) -> None:
    """The counts on a log scale: one bar per power of ten."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    decades = Counter(int(math.log10(r["count"])) for r in counted if r["count"] > 0)
    top = max(decades) if decades else 0
    xs = list(range(top + 1))
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.bar(xs, [decades[x] for x in xs], color="#3465a4")
    ax.set_xticks(xs, [f"10^{x}" if x else "1–9" for x in xs])
    ax.set_xlabel("solutions (10^k to 10^(k+1) - 1)")
    ax.set_ylabel("puzzles")
    zero = sum(1 for r in counted if r["count"] == 0)
    left = len(records) - len(counted)
    ax.set_title(f"{name.rsplit('/', 1)[-1]}: {len(counted)} of {len(records)} counted exactly"
                 + (f", {zero} with none" if zero else "")
                 + (f", {left} not exactly" if left else ""), fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"histogram: {png}")


def _recounted(records: list[dict], out: str, timeout: float,
               method: Callable[[dict], str],
               line: Callable[[dict, CountResult], dict[str, Any]]) -> dict[str, dict]:
    """Each record's puzzle counted again by ``method(record)``, one JSON line per puzzle
    (``line(record, result)``, with its key, index and seconds) appended to ``out`` and
    flushed; puzzles already in ``out`` are skipped. Every line of ``out``, by key."""
    import os
    import time

    import satnono

    done: dict[str, dict] = {}
    if os.path.exists(out):
        done = {c["key"]: c for c in map(json.loads, open(out, encoding="utf-8"))}
    with open(out, "a", encoding="utf-8") as log:
        for r in records:
            if r["key"] in done:
                continue
            started = time.monotonic()
            res = satnono.count(satnono.load(r["source"], index=r["index"]), method(r),
                                timeout=timeout)
            got = {"key": r["key"], "index": r["index"], **line(r, res),
                   "seconds": round(time.monotonic() - started, 3)}
            log.write(json.dumps(got) + "\n")
            log.flush()
            done[r["key"]] = got
    return done


def _estimated(res: CountResult) -> dict[str, Any]:
    e = res.estimate
    return {"estimate": None if e is None else e.value, "low": None if e is None else e.low,
            "high": None if e is None else e.high,
            "epsilon": None if e is None else e.epsilon,
            "delta": None if e is None else e.delta}


def _estimate_open(records: list[dict], out: str, timeout: float) -> None:
    """ApproxMC (``satnono count --approx``) on each puzzle the exact count did not finish,
    one line per puzzle in ``out`` (resumable)."""

    def line(r: dict, res: CountResult) -> dict[str, Any]:
        got = {"at_least": r.get("at_least"), **_estimated(res)}
        if got["low"] is not None:  # never below what enumeration found for certain
            got["low"] = max(got["low"], r.get("at_least") or 0)
        return got

    _recounted(records, out, timeout, lambda r: "approx", line)


def _estimates(records: list[dict], out: str, timeout: float) -> None:
    """ApproxMC (satnono count --approx, its defaults) on puzzles whose exact count is known:
    is the count within the bounds, how far off is the estimate, how long did it take."""

    def line(r: dict, res: CountResult) -> dict[str, Any]:
        got = {"count": r["count"], "exact_seconds": r["seconds"],
               "exact_method": r["method"], **_estimated(res)}
        got["within"] = (None if got["estimate"] is None
                         else got["low"] <= r["count"] <= got["high"])
        return got

    done = _recounted(records, out, timeout, lambda r: "approx", line)
    rows = [done[r["key"]] for r in records if r["key"] in done]
    print("\n| puzzle | exact count | s (exact) | estimate | bounds | within | s (estimate) |")
    print("|---|---:|---:|---:|---|---|---:|")
    for c in rows:
        est = "not in time" if c["estimate"] is None else f"{c['estimate']:,}"
        bounds = "" if c["estimate"] is None else f"{c['low']:,}–{c['high']:,}"
        within = {True: "yes", False: "**no**", None: ""}[c["within"]]
        print(f"| #{c['index']} | {c['count']:,} | {c['exact_seconds']:.1f} | {est} | "
              f"{bounds} | {within} | {c['seconds']:.1f} |")
    made = [c for c in rows if c["estimate"] is not None]
    if made:
        ratios = sorted(max(c["estimate"] / c["count"], c["count"] / c["estimate"])
                        for c in made)
        print(f"\n{len(made)} of {len(rows)} estimated in {timeout:g} s; "
              f"{sum(c['within'] for c in made)} within their bounds; off by a factor of "
              f"{ratios[len(ratios) // 2]:.3f} (median), {ratios[-1]:.3f} at most")


def _confirm(records: list[dict], out: str, timeout: float, second: str | None) -> None:
    """Each count recounted by the second method, one line per puzzle in ``out``."""

    def line(r: dict, res: CountResult) -> dict[str, Any]:
        return {"count": r["count"], "first": r["method"], "second": res.method,
                "recount": res.count if res.complete else None,
                "agree": (res.count == r["count"]) if res.complete else None}

    from satnono.analyze.counters import d4_here

    # D4 where it is installed: on taai2020's 166 counts past 1,000, Ganak left 33
    # unfinished in 60 s, of which D4 then finished 28, most in 2–17 s
    other = "d4" if d4_here() else "ganak"
    done = _recounted(records, out, timeout,
                      lambda r: second or ("compiled" if r["method"] == "ganak" else other),
                      line)
    wanted = [done[r["key"]] for r in records if r["key"] in done]
    for c in wanted:
        if c["agree"] is False:
            print(f"DISAGREE {c['key']}: {c['first']} {c['count']}, {c['second']} "
                  f"{c['recount']}")
    agree = sum(c["agree"] is True for c in wanted)
    disagree = sum(c["agree"] is False for c in wanted)
    print(f"\ncounts above the threshold recounted by a second method: {agree} agree, "
          f"{disagree} disagree, {len(wanted) - agree - disagree} not finished in "
          f"{timeout:g} s (of {len(records)})")


if __name__ == "__main__":
    main()
