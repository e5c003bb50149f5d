"""Validation mode (find up to two solutions) on the survey puzzles, backends side by side.

    python -m benchmarks.survey [--backends sat,plain-sat,cpsat,native] [--timeout 60]
                                [--repeats 1] [NAME ...]

A backend written ``sat:2`` is the sat backend with two racing workers (``--workers 2``).

Reads ../shared/corpus/INDEX.tsv (its survey column); prints a Markdown table, one row per
puzzle as it finishes, with each backend's median wall time over the repeats and the ratio
of each baseline's median to sat's. The repeats are interleaved (sat, plain-sat, sat, …) so
that a change in machine load falls on every backend alike, not on whichever ran last.
"""

from __future__ import annotations

import argparse
import statistics
import time

import satnono
from satnono.bench.runner import backend_spec, machine

from .corpus import survey_named


def validate_time(p: satnono.Puzzle, backend: str, timeout: float | None
                  ) -> tuple[float, str]:
    name, workers = backend_spec(backend)
    options = {"workers": workers} if workers > 1 else {}
    start = time.monotonic()
    found = 0
    try:
        for _ in satnono.solve(p, name, limit=2, timeout=timeout, **options):
            found += 1
    except satnono.SearchTimeout:
        return time.monotonic() - start, "timeout"
    return time.monotonic() - start, {0: "none", 1: "unique", 2: "≥2"}[found]


def median_time(times: list[float], timeout: float) -> float:
    """The median, a run that timed out counting as the timeout itself."""
    return statistics.median(min(t, timeout) for t in times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backends", default="sat,plain-sat,cpsat,native")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--repeats", type=int, default=1, help="runs per backend; medians shown")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    backends = args.backends.split(",")
    puzzles = survey_named(args.names)
    print(f"# {machine()}, {time.strftime('%Y-%m-%d')}; timeout {args.timeout:g} s; "
          f"median of {args.repeats} interleaved run(s); times in seconds")
    ratios = [(b, s) for s in backends if s.startswith("sat")
              for b in backends if b.startswith("plain-")]
    print("| puzzle | size | verdict | " + " | ".join(
        backends + [f"{b} / {s}" for b, s in ratios]) + " |")
    print("|---|---|---|" + "---:|" * (len(backends) + len(ratios)))
    for name in args.names or puzzles:
        p = puzzles[name]
        times: dict[str, list[float]] = {b: [] for b in backends}
        verdicts = set()
        for _ in range(args.repeats):
            for b in backends:
                t, v = validate_time(p, b, args.timeout)
                times[b].append(t)
                if v != "timeout":
                    verdicts.add(v)
        med = {b: median_time(times[b], args.timeout) for b in backends}
        cells = [f">{args.timeout:g}" if med[b] >= args.timeout else f"{med[b]:.2f}"
                 for b in backends]
        cells += [(">" if med[b] >= args.timeout else "") + f"{med[b] / med[s]:.1f}×"
                  for b, s in ratios]
        verdict = "/".join(sorted(verdicts)) or "?"
        if len(verdicts) > 1:
            verdict = "DISAGREE " + verdict
        print(f"| {name} | {p.size} | {verdict} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
