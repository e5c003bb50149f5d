"""Validation mode (find up to two solutions) on the survey puzzles found in the corpus.

    python -m benchmarks.survey [--backend sat|cpsat|native] [--timeout 60] [NAME ...]

Reads ../shared/corpus/INDEX.tsv (its survey column); prints one line per puzzle.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import time
from pathlib import Path

import satnono
from satnono.formats import read_file

CORPUS = Path(os.environ.get("SATNONO_CORPUS",
                             Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def survey_puzzles() -> dict[str, satnono.Puzzle]:
    out: dict[str, satnono.Puzzle] = {}
    with open(CORPUS / "INDEX.tsv", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            name = row["survey_name"]
            if not name or name in out:
                continue
            path = CORPUS / "raw" / row["source_repo"].replace("/", "__") / row["path_in_repo"]
            puzzles = read_file(str(path))
            entry = row["entry"]
            if not entry:
                out[name] = puzzles[0]
            elif entry[0] in "$#":
                out[name] = puzzles[int(entry[1:]) - 1]
            else:
                out[name] = next(p for p in puzzles if p.title == entry)
    return out


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
