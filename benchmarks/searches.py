"""Which searches to race: each CaDiCaL setting alone on the same residual CNFs, and pairs.

    python -m benchmarks.searches [--groups tcga,survey,corpus,random] [--budget 100000]
                                  [--jobs 2] [--settings NAME,...]

A race on two cores takes, per puzzle, the faster of its two searches; so the searches
are measured one by one on one residual CNF per puzzle (built once, probing included),
and every pair's total is the sum of its per-puzzle minimums. Each search looks for two
solutions (validation mode) with at most ``--budget`` conflicts; one that hits the budget
counts twice its time. ``--jobs`` puzzles run at once, one per core, as racers do.

Groups: ``tcga`` the 100 slowest tcga2015 puzzles of benchmarks/results/tcga2015.csv,
``survey`` the survey puzzles that probing leaves open, ``corpus`` the other
black-and-white corpus puzzles of 600 to 40,000 cells that it leaves open, ``random``
seeded random pictures 35×35 to 55×55 at densities 0.3–0.5. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from multiprocessing import Pool

from satnono.backends.solver import DEFAULT_SOLVER, new_solver, steer
from satnono.bench.runner import machine
from satnono.bench.suites import index_rows, puzzle_of, random_picture, survey, tcga2015
from satnono.model.puzzle import Puzzle
from satnono.pipeline import residual
from satnono.tuning import TUNING

from .corpus import present
from .workers import RESULTS, slowest

CADICAL_FOCUSED = dict(TUNING.cadical_focused)
#: name: (forced phase, extra CaDiCaL options) on top of the backend's "sat" configuration
SETTINGS: dict[str, tuple[bool | None, dict]] = {
    "stable saved": (None, {}),
    "stable false": (False, {}),
    "stable true": (True, {}),
    "focused saved": (None, CADICAL_FOCUSED),
    "focused false": (False, CADICAL_FOCUSED),
    "focused true": (True, CADICAL_FOCUSED),
    "both modes true": (True, {"stabilizeonly": 0}),
}


def group(name: str) -> list[tuple[str, Puzzle]]:
    if name == "tcga":
        puzzles = dict(tcga2015())
        return [(n, puzzles[n]) for n in slowest(RESULTS, 100)]
    if name == "survey":
        return list(survey())
    if name == "corpus":
        seen, out = set(), []
        for row in index_rows():
            cells = int(row["width"] or 0) * int(row["height"] or 0)
            if (row["kind"] != "bw" or "tcga2015" in row["path_in_repo"] or row["survey_name"]
                    or not 600 <= cells < 40000 or row["clue_hash"] in seen):
                continue
            seen.add(row["clue_hash"])
            out.append((row["path_in_repo"] + row["entry"], puzzle_of(row)))
        return out
    if name == "random":
        out = []
        for side in (35, 40, 45, 50, 55):
            for density in (0.3, 0.4, 0.5):
                rng = random.Random(side * 10 + int(density * 10))
                out.append((f"{side}x{side}-d{density}", random_picture(rng, side, density)))
        return out
    raise SystemExit(f"unknown group {name!r} (expected tcga, survey, corpus or random)")


def search(clauses: list[list[int]], cells: list[int], setting: str, budget: int
           ) -> tuple[float, int, bool]:
    """Seconds, conflicts, and whether the search ended within the budget."""
    forced, options = SETTINGS[setting]
    start = time.monotonic()
    with new_solver(DEFAULT_SOLVER, clauses) as s:
        if options:
            s.configure(dict(options))
        steer(s, DEFAULT_SOLVER, forced=forced)
        found, status = 0, None
        while found < 2:
            s.conf_budget(max(1, budget - s.accum_stats().get("conflicts", 0)))
            status = s.solve_limited()
            if not status:
                break
            model = s.get_model()
            found += 1
            if forced is not None:
                s.set_phases(model)
            s.add_clause([-v if model[v - 1] > 0 else v for v in cells])
        conflicts = s.accum_stats().get("conflicts", 0)
    return time.monotonic() - start, conflicts, status is False or found == 2


def measure(job: tuple[str, str, Puzzle, list[str], int]) -> tuple[str, str, dict] | None:
    tag, name, puzzle, settings, budget = job
    enc = residual(puzzle).encoding
    if enc is None:  # solved (or refuted) by propagation and probing: no search to pick
        return None
    cells = list(enc.cells.values())
    return tag, name, {k: search(enc.clauses, cells, k, budget) for k in settings}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", default="tcga,survey,corpus,random")
    ap.add_argument("--settings", default=",".join(SETTINGS))
    ap.add_argument("--budget", type=int, default=100_000, help="conflicts per search")
    ap.add_argument("--jobs", type=int, default=2, help="puzzles measured at once")
    args = ap.parse_args()
    if not present():
        raise SystemExit("no corpus: the groups are read from ../shared/corpus")
    settings = args.settings.split(",")
    unknown = [k for k in settings if k not in SETTINGS]
    if unknown:
        raise SystemExit(f"unknown settings {unknown} (expected some of {list(SETTINGS)})")
    tags = args.groups.split(",")
    jobs = [(tag, n, p, settings, args.budget) for tag in tags for n, p in group(tag)]
    with Pool(args.jobs) as pool:
        rows = [r for r in pool.imap(measure, jobs) if r is not None]

    def cost(res: dict, names: tuple[str, ...]) -> float:
        """What a race of ``names`` takes on one puzzle: its fastest search."""
        return min(res[k][0] * (1 if res[k][2] else 2) for k in names)

    print(f"# {machine()}, {time.strftime('%Y-%m-%d')}; at most {args.budget} conflicts "
          "per search (one that hits it counts twice its time); seconds in all")
    print("| search | " + " | ".join(f"{t} ({sum(r[0] == t for r in rows)})" for t in tags)
          + " | over budget |")
    print("|---|" + "---:|" * (len(tags) + 1))
    for names in [(k,) for k in settings] + list(itertools.combinations(settings, 2)):
        totals = [sum(cost(res, names) for t, _, res in rows if t == tag) for tag in tags]
        over = sum(not any(res[k][2] for k in names) for _, _, res in rows)
        print(f"| {' + '.join(names)} | " + " | ".join(f"{x:.1f}" for x in totals)
              + f" | {over} |")

if __name__ == "__main__":
    main()
