"""Validation mode (find up to two solutions) on the survey puzzles found in the corpus.

    python -m benchmarks.survey [--backend sat|cpsat|native] [--timeout 60] [NAME ...]

Reads ../shared/corpus/INDEX.tsv (its survey column); prints one line per puzzle.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import satnono

from .corpus import CORPUS, survey_puzzles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="sat", choices=["sat", "cpsat", "native"])
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if not (CORPUS / "INDEX.tsv").exists():
        raise SystemExit(f"no corpus at {CORPUS}")
    puzzles = survey_puzzles()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"| puzzle | size | {args.backend} s | solutions |")
    print("|---|---|---:|---|")
    for name in args.names or puzzles:
        p = puzzles[name]
        start = time.monotonic()
        found, note = 0, ""
        try:
            for _ in satnono.solve(p, args.backend, limit=2, timeout=args.timeout):
                found += 1
        except satnono.SearchTimeout:
            note = " (timeout)"
        verdict = {0: "none", 1: "unique", 2: "≥2"}[found] if not note else f"{found} found"
        print(f"| {name} | {p.size} | {time.monotonic() - start:.2f}{note} | {verdict} |",
              flush=True)


if __name__ == "__main__":
    main()
