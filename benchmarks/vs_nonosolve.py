"""One tournament set, puzzle by puzzle, beside nonosolve: where the two searches differ.

    python -m benchmarks.vs_nonosolve SET [--nonosolve PATH] [--worst 20] [-o CSV]

Runs ``nonosolve --taai SET -n 2 --log LOG`` (validation, one core; build it as
``../shared/peers/README.md`` says), then satnono on each puzzle of the set in this
process, as ``satnono solve`` does it on one core (``solve(puzzle, limit=2, workers=1)``):
each puzzle's seconds, search nodes and whether the SAT stage ran, on both sides. Prints
the time by nonosolve's own bins (as issue tables give them), the puzzles where satnono
loses most, and, with ``-o``, every row as CSV. The set is a name (``taai2017``) or a file.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from satnono.bench.runner import machine
from satnono.bench.suites import tournaments_dir

BINS = ((0.0, 0.01), (0.01, 0.1), (0.1, 1.0), (1.0, float("inf")))


@dataclass
class Row:
    index: int
    nono_seconds: float
    nono_nodes: int
    nono_sat: bool
    seconds: float
    nodes: int
    cnf: bool
    verdict: str


def nonosolve_log(program: str, path: Path) -> dict[int, tuple[float, int, bool]]:
    """nonosolve's --log of the set: puzzle -> (seconds, nodes, SAT stage ran)."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log"
        subprocess.run([program, "--taai", str(path), "-n", "2", "-o",
                        str(Path(folder) / "out"), "--log", str(log)], check=True,
                       capture_output=True)
        out = {}
        for line in log.read_text().splitlines():
            if not line.startswith("#"):
                continue
            fields = line[1:].split("\t")
            stats = dict(f.split("=") for f in fields[3].split())
            out[int(fields[0])] = (float(fields[1]), int(stats["nodes"]), stats["sat"] == "1")
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set")
    ap.add_argument("--nonosolve", default=os.environ.get("NONOSOLVE", "nonosolve"))
    ap.add_argument("--worst", type=int, default=20)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    import satnono
    from satnono.io.formats import read_file

    path = Path(args.set)
    if not path.exists():
        path = tournaments_dir() / f"{args.set}.txt"
    theirs = nonosolve_log(args.nonosolve, path)
    rows = []
    for i, puzzle in enumerate(read_file(str(path)), 1):
        start = time.process_time()
        run = satnono.solve(puzzle, limit=2, workers=1)
        found = len(list(run))
        seconds = time.process_time() - start
        verdict = "multiple" if found > 1 else "unique" if found else "none"
        t = theirs.get(i, (float("nan"), 0, False))
        rows.append(Row(i, t[0], t[1], t[2], seconds, run.stats.nodes,
                        bool(run.stats.unknown), verdict))
    print(f"# {machine()}; {path.name}: satnono in process, one core; nonosolve --taai -n 2")
    print("| nonosolve's time | puzzles | nonosolve s | satnono s | nonosolve SAT | satnono SAT |")
    print("|---|---:|---:|---:|---:|---:|")
    for lo, hi in BINS:
        ins = [r for r in rows if lo <= r.nono_seconds < hi]
        print(f"| {lo:g}–{hi:g} s | {len(ins)} | {sum(r.nono_seconds for r in ins):.1f} | "
              f"{sum(r.seconds for r in ins):.1f} | {sum(r.nono_sat for r in ins)} | "
              f"{sum(r.cnf for r in ins)} |")
    print(f"| all | {len(rows)} | {sum(r.nono_seconds for r in rows):.1f} | "
          f"{sum(r.seconds for r in rows):.1f} | {sum(r.nono_sat for r in rows)} | "
          f"{sum(r.cnf for r in rows)} |")
    print("\nwhere satnono loses most:\n")
    print("| puzzle | nonosolve s | nodes | SAT | satnono s | nodes | SAT |")
    print("|---:|---:|---:|---|---:|---:|---|")
    for r in sorted(rows, key=lambda r: r.nono_seconds - r.seconds)[:args.worst]:
        print(f"| {r.index} | {r.nono_seconds:.3f} | {r.nono_nodes} | {r.nono_sat} | "
              f"{r.seconds:.3f} | {r.nodes} | {r.cnf} |")
    if args.output:
        with open(args.output, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["puzzle", "nonosolve_s", "nonosolve_nodes", "nonosolve_sat",
                        "satnono_s", "satnono_nodes", "satnono_sat", "verdict"])
            for r in rows:
                w.writerow([r.index, r.nono_seconds, r.nono_nodes, int(r.nono_sat),
                            f"{r.seconds:.4f}", r.nodes, int(r.cnf), r.verdict])


if __name__ == "__main__":
    main()
