"""Validation mode (find up to two solutions) on the survey puzzles, backends side by side.

    python -m benchmarks.survey [--backends sat,plain-sat,cpsat,native] [--timeout 60] [NAME ...]

Reads ../shared/corpus/INDEX.tsv (its survey column); prints a Markdown table, one row per
puzzle as it finishes, with each backend's wall time and sat's ratio to the baselines.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import satnono

from .corpus import CORPUS, survey_puzzles


def validate_time(p: satnono.Puzzle, backend: str, timeout: float) -> tuple[float, str]:
    start = time.monotonic()
    found = 0
    try:
        for _ in satnono.solve(p, backend, limit=2, timeout=timeout):
            found += 1
    except satnono.SearchTimeout:
        return time.monotonic() - start, "timeout"
    return time.monotonic() - start, {0: "none", 1: "unique", 2: "≥2"}[found]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backends", default="sat,plain-sat,cpsat,native")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if not (CORPUS / "INDEX.tsv").exists():
        raise SystemExit(f"no corpus at {CORPUS}")
    backends = args.backends.split(",")
    puzzles = survey_puzzles()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}; timeout {args.timeout:g} s; times in seconds")
    ratios = [b for b in backends if b.startswith("plain-")] if "sat" in backends else []
    print("| puzzle | size | verdict | " + " | ".join(backends) + " | "
          + " | ".join(f"{b} / sat" for b in ratios) + " |")
    print("|---|---|---|" + "---:|" * (len(backends) + len(ratios)))
    for name in args.names or puzzles:
        p = puzzles[name]
        times, verdicts = {}, set()
        for b in backends:
            times[b], v = validate_time(p, b, args.timeout)
            if v != "timeout":
                verdicts.add(v)
        cells = [f"{times[b]:.2f}" if times[b] < args.timeout else f">{args.timeout:g}"
                 for b in backends]
        cells += [(">" if times[b] >= args.timeout else "") + f"{times[b] / times['sat']:.1f}×"
                  for b in ratios]
        verdict = "/".join(sorted(verdicts)) or "?"
        if len(verdicts) > 1:
            verdict = "DISAGREE " + verdict
        print(f"| {name} | {p.size} | {verdict} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
