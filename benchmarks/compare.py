"""Two versions of satnono side by side: the same puzzles, the same backend, in turns.

    python -m benchmarks.compare --before REV [--after REV] [--suite survey]
                                 [--suite tcga2015/10] [--backend sat] [--repeats 3]
                                 [--timeout 60] [--mode validate]

Each version is a checkout of its revision, its engine built in place (``--after``
defaults to the working tree);
both read the same puzzles, written once as satnono JSON files into a temporary folder, and
each run is ``python -m satnono bench FOLDER`` with the checkout first on the Python path, so
every puzzle runs in its own process and is timed inside it, as ``satnono bench`` does.
The runs alternate (before, after, before, …) so that a change in the machine's speed falls
on both alike. ``--suite NAME/N`` takes every N-th puzzle of a suite.

Prints, per suite, each version's median total over the repeats, the median per-puzzle
time, the before/after ratio of the totals and the median of the per-puzzle ratios, and
checks that both versions gave the same verdict on every puzzle.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from satnono.bench.runner import machine
from satnono.bench.suites import suite
from satnono.io.formats import save

ROOT = Path(__file__).resolve().parents[1]


def checkout(rev: str | None, into: Path) -> Path:
    """A tree of ``rev`` (None: this working tree), its engine built in place: a checkout
    without it would run the Python logic that stands in for the engine, not the version
    as users install it."""
    if rev is None:
        return ROOT
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), rev],
                   check=True, capture_output=True)
    if (into / "setup.py").exists():
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=into,
                       check=True, capture_output=True)
    return into


def write_puzzles(spec: str, folder: Path) -> int:
    name, _, every = spec.partition("/")
    items = suite(name)[::int(every or 1)]
    if not items:
        raise SystemExit(f"suite {name}: no puzzles (is the corpus there?)")
    folder.mkdir(parents=True)
    for i, (label, puzzle) in enumerate(items):
        stem = "".join(ch if ch.isalnum() else "_" for ch in label)
        save(puzzle, str(folder / f"{i:04d}-{stem}.json"))
    return len(items)


def bench(tree: Path, folder: Path, out: Path, args: argparse.Namespace) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    subprocess.run([sys.executable, "-m", "satnono", "bench", str(folder), "--backend",
                    args.backend, "--mode", args.mode, "--timeout", str(args.timeout),
                    "-o", str(out)], env=env, check=True, capture_output=True,
                   cwd=tempfile.gettempdir())
    with out.open(newline="") as f:
        return list(csv.DictReader(f))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the revision to compare against")
    ap.add_argument("--after", help="the revision to compare (default: this working tree)")
    ap.add_argument("--suite", action="append", default=[], metavar="NAME[/N]")
    ap.add_argument("--backend", default="sat")
    ap.add_argument("--mode", default="validate")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--detail", type=Path, metavar="FILE.csv",
                    help="also write each puzzle's two median times and verdicts here")
    args = ap.parse_args()
    detail: list[dict[str, object]] = []
    work = Path(tempfile.mkdtemp(prefix="satnono-compare-"))
    trees = {}
    try:
        trees = {"before": checkout(args.before, work / "before"),
                 "after": checkout(args.after, work / "after")}
        print(f"# {machine()}, {time.strftime('%Y-%m-%d')}; backend {args.backend}, "
              f"{args.mode} mode, timeout {args.timeout:g} s; before = {args.before}, "
              f"after = {args.after or 'working tree'}; median of {args.repeats} "
              "alternating runs; seconds measured inside each puzzle's process")
        print("| suite | puzzles | before total | after total | after / before | "
              "median puzzle before | after | median of per-puzzle ratios | verdicts |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for spec in args.suite or ["survey"]:
            folder = work / "puzzles" / spec.replace("/", "-")
            n = write_puzzles(spec, folder)
            runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
            verdicts: dict[str, dict[str, str]] = {"before": {}, "after": {}}
            for k in range(args.repeats):
                for side in ("before", "after"):
                    out = work / f"{side}-{spec.replace('/', '-')}-{k}.csv"
                    rows = bench(trees[side], folder, out, args)
                    runs[side].append({r["puzzle"]: float(r["wall"]) for r in rows})
                    verdicts[side].update({r["puzzle"]: r["verdict"] for r in rows})
            med = {side: {p: statistics.median(r[p] for r in runs[side]) for p in runs[side][0]}
                   for side in runs}
            total = {side: statistics.median(sum(r.values()) for r in runs[side])
                     for side in runs}
            ratios = {p: med["after"][p] / max(med["before"][p], 1e-6) for p in med["before"]}
            same = verdicts["before"] == verdicts["after"]
            detail += [{"suite": spec, "puzzle": p, "before": med["before"][p],
                        "after": med["after"][p], "ratio": round(ratios[p], 3),
                        "verdict before": verdicts["before"][p],
                        "verdict after": verdicts["after"].get(p, "")} for p in med["before"]]
            print(f"| {spec} | {n} | {total['before']:.2f} | {total['after']:.2f} | "
                  f"{total['after'] / total['before']:.3f} | "
                  f"{statistics.median(med['before'].values()):.3f} | "
                  f"{statistics.median(med['after'].values()):.3f} | "
                  f"{statistics.median(ratios.values()):.3f} | "
                  f"{'the same' if same else 'DIFFER'} |", flush=True)
        if args.detail and detail:
            with args.detail.open("w", newline="") as f:
                out = csv.DictWriter(f, fieldnames=list(detail[0]))
                out.writeheader()
                out.writerows(detail)
    finally:
        for tree in trees.values():
            if tree != ROOT:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
