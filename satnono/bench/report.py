"""The Markdown report of a ``satnono bench`` CSV, with cactus and scatter plots (PNG).

Disagreements come first: two backends that both finished with different verdicts on one
puzzle mean a bug, whatever the times say.
"""

from __future__ import annotations

import os
import statistics
import time

from ..backends import DEFAULT, baselines
from ..io.output import atomic_output
from ..model.orientation import ORIENTATIONS
from .runner import STAGES, Run, machine, read_csv

FAILED = ("timeout", "error", "wrong")
#: verdicts that say what the puzzle is (a peer's "found" says only that it has a solution)
DEFINITE = ("unique", "multiple", "none")


def _label(r: Run) -> str:
    return r.backend + (f"/{r.solver}" if r.solver else "")


def _seconds(r: Run) -> float:
    """A run's time for a plot: a failed run counts as its time limit."""
    return max(r.wall, 1e-3) if r.verdict not in FAILED else r.timeout


def disagreements(runs: list[Run]) -> list[str]:
    """Puzzles on which two runs that finished say different things (``found`` agrees
    with anything but ``none``), and every picture a peer gave that breaks the clues."""
    by: dict = {}
    for r in runs:
        if r.verdict not in ("timeout", "error"):
            by.setdefault((r.suite, r.puzzle, r.mode), {})[_label(r)] = r.verdict
    out = []
    for (suite, puzzle, mode), verdicts in sorted(by.items()):
        said = set(verdicts.values())
        definite = said & set(DEFINITE)
        if len(definite) > 1 or "wrong" in said or ("found" in said and "none" in said):
            got = ", ".join(f"{b}: {v}" for b, v in sorted(verdicts.items()))
            out.append(f"{suite} / {puzzle} ({mode}): {got}")
    return out


def peer_pairs(runs: list[Run]) -> list[tuple[str, str]]:
    """Each peer in ``runs`` with the satnono backend it is measured against: the default
    backend where it ran, else the first one run (none without a satnono run)."""
    peers = list(dict.fromkeys(r.backend for r in runs if r.command))
    ours = list(dict.fromkeys(_label(r) for r in runs if not r.command))
    if not ours:
        return []
    ref = DEFAULT if DEFAULT in ours else ours[0]
    return [(peer, ref) for peer in peers]


def peer_lines(runs: list[Run]) -> list[list[str]]:
    """Each peer against satnono's default backend (or the first backend run), over the
    puzzles both were given: how many each solved, the totals over the puzzles both
    solved and their ratio, and the median of the per-puzzle ratios (peer over satnono:
    above 1, satnono is faster)."""
    pairs = peer_pairs(runs)
    if not pairs:
        return []
    ref = pairs[0][1]
    mine = {(r.suite, r.puzzle, r.mode): r for r in runs if _label(r) == ref}
    rows = []
    for peer, _ in pairs:
        theirs = {(r.suite, r.puzzle, r.mode): r for r in runs if r.backend == peer
                  and r.command}
        keys = [k for k in theirs if k in mine]
        solved_m = sum(mine[k].verdict not in FAILED for k in keys)
        solved_t = sum(theirs[k].verdict not in FAILED for k in keys)
        both = [k for k in keys if mine[k].verdict not in FAILED
                and theirs[k].verdict not in FAILED]
        tm = sum(mine[k].wall for k in both)
        tt = sum(theirs[k].wall for k in both)
        ratios = [theirs[k].wall / max(mine[k].wall, 1e-3) for k in both]
        rows.append([peer, ref, str(len(keys)), str(solved_t), str(solved_m), str(len(both)),
                     f"{tt:.2f}", f"{tm:.2f}", f"{tt / max(tm, 1e-3):.2f}" if both else "",
                     f"{statistics.median(ratios):.2f}" if ratios else ""])
    return rows


#: peer, the satnono backend it is measured against, puzzles given to both, solved by the
#: peer, by satnono, by both; seconds of each over the puzzles both solved, their ratio (peer
#: over satnono) and the median of the per-puzzle ratios
PEER_COLUMNS = ("peer", "vs", "puzzles", "peer ok", "ours ok", "both", "peer s", "ours s",
                "ratio", "median ratio")


def write_report(csv_path: str, out_path: str) -> str:
    from ..errors import ParseError

    if not os.path.exists(csv_path):
        raise ParseError("no such file (give the CSV a 'satnono bench -o' run wrote)", csv_path)
    runs = read_csv(csv_path)
    if not runs:
        raise ParseError("no benchmark results in it", csv_path)
    folder = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(folder, exist_ok=True)
    stem = os.path.splitext(os.path.basename(out_path))[0]
    lines = [f"# satnono benchmark report — {os.path.basename(csv_path)}", "",
             _provenance(runs) + " Times are wall-clock seconds per run, each run in its own "
             "process; `>T` is a timeout at T s.", ""]
    bad = disagreements(runs)
    errors = [r for r in runs if r.verdict == "error"]
    lines.append("## Errors")
    lines.append("")
    if not bad and not errors:
        lines.append("None: every backend that finished agrees on every verdict.")
    for b in bad:
        lines.append(f"- **DISAGREEMENT** {b}")
    for r in errors:
        lines.append(f"- error: {r.suite} / {r.puzzle} on {_label(r)}: {r.error}")
    lines.append("")
    for suite in dict.fromkeys(r.suite for r in runs):
        peers = peer_lines([r for r in runs if r.suite == suite])
        if not peers:
            continue
        if "## Peers" not in lines:
            lines += ["## Peers", "",
                      "Other solvers run on the same puzzles, each right after satnono's runs "
                      "of the puzzle, under the same limit; times are the peer's whole "
                      "process (with its start-up) against satnono's run in its worker. "
                      "`peer ok` / `ours ok`: puzzles each solved within the limit; `peer s` "
                      "/ `ours s`: seconds over the puzzles both solved; `ratio`: peer over "
                      "satnono on those totals (above 1, satnono is faster), then the median "
                      "of the per-puzzle ratios.", "",
                      "| suite | " + " | ".join(PEER_COLUMNS) + " |",
                      "|---|---|---|" + "---:|" * (len(PEER_COLUMNS) - 2)]
        lines += [f"| {suite} | " + " | ".join(row) + " |" for row in peers]
    if "## Peers" in lines:
        lines.append("")
    for suite in dict.fromkeys(r.suite for r in runs):
        lines += _suite_section(suite, [r for r in runs if r.suite == suite], folder, stem)
    text = "\n".join(lines) + "\n"
    with atomic_output(out_path) as fh:
        fh.write(text)
    return out_path


def _provenance(runs: list[Run]) -> str:
    """Where the runs were made, from the CSV itself: the report may be written elsewhere."""
    machines = sorted({r.machine for r in runs if r.machine})
    dates = sorted({r.date for r in runs if r.date})
    if not machines:
        return (f"The CSV does not record its machine (written before satnono recorded it); "
                f"this report was written {time.strftime('%Y-%m-%d')} on {machine()}.")
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    unrecorded = sum(1 for r in runs if not r.machine)
    more = f" ({unrecorded} run(s) without a record)" if unrecorded else ""
    return f"Runs made {when} on {'; '.join(machines)}{more}."


def _fmt(r: Run | None) -> str:
    if r is None:
        return ""
    if r.verdict == "timeout":
        return f">{r.timeout:g}"
    if r.verdict in ("error", "wrong"):
        return r.verdict
    return f"{r.wall:.2f}"


def _suite_section(suite: str, runs: list[Run], folder: str, stem: str) -> list[str]:
    labels = list(dict.fromkeys(_label(r) for r in runs))
    modes = sorted({r.mode for r in runs})
    out = [f"## Suite `{suite}` ({', '.join(modes)})", ""]
    # summary per backend: the per-puzzle distribution, then where the time went
    out.append("| backend | runs | solved | timeouts | median s | 90th pct s | 99th pct s "
               "| max s | total s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for b in labels:
        rs = [r for r in runs if _label(r) == b]
        ok = [r for r in rs if r.verdict not in FAILED]
        walls = sorted(_seconds(r) for r in rs)
        out.append(f"| {b} | {len(rs)} | {len(ok)} | "
                   f"{sum(r.verdict == 'timeout' for r in rs)} | "
                   f"{statistics.median(r.wall for r in rs):.3f} | "
                   f"{percentile(walls, 90):.3f} | {percentile(walls, 99):.3f} | "
                   f"{walls[-1]:.2f} | {sum(r.wall for r in rs):.1f} |")
    out.append("")
    out += _stages_table([r for r in runs if r.verdict not in FAILED and not r.command],
                         labels)
    out += _orientations_table(runs, labels)
    # baselines: ratio of each plain backend to its satnono counterpart, puzzle by puzzle
    pairs = [(base, mine) for base, mine in baselines()
             if any(lb.startswith(base) for lb in labels) and mine in labels]
    table: dict = {}
    for r in runs:
        table.setdefault((r.puzzle, r.mode), {})[_label(r)] = r
    pairs += peer_pairs(runs)
    ratio_cols = [f"{base} / {mine}" for base, mine in pairs]
    out.append("| " + " | ".join(["puzzle", "size", "verdict", *labels, *ratio_cols]) + " |")
    out.append("|---|---|---|" + "---:|" * (len(labels) + len(ratio_cols)))
    for (puzzle, _mode), row in table.items():
        verdicts = {r.verdict for r in row.values() if r.verdict not in FAILED}
        verdict = "/".join(sorted(verdicts)) or "?"
        cells = [_fmt(row.get(b)) for b in labels]
        for base, mine in pairs:
            a, m = row.get(base), row.get(mine)
            if a is None or m is None or m.verdict in FAILED or m.wall <= 0:
                cells.append("")
            elif a.verdict in ("error", "wrong"):
                cells.append(a.verdict)
            else:
                more = ">" if a.verdict == "timeout" else ""
                cells.append(f"{more}{a.wall / max(m.wall, 1e-3):.1f}×")
        size = next(iter(row.values())).size
        out.append(f"| {puzzle} | {size} | {verdict} | " + " | ".join(cells) + " |")
    out.append("")
    images = _plots(suite, runs, labels, folder, stem)
    out += [f"![{alt}]({name})" for alt, name in images]
    out.append("")
    return out


def percentile(ordered: list[float], pct: float) -> float:
    """The ``pct``-th percentile of sorted values (nearest rank)."""
    if not ordered:
        return 0.0
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(min(rank, len(ordered))) - 1]


def _stages_table(runs: list[Run], labels: list[str]) -> list[str]:
    """Where the time of the finished runs went, summed per backend (runs made before
    satnono timed its stages have none to show)."""
    rows = []
    for b in labels:
        rs = [r for r in runs if _label(r) == b]
        sums = {s: sum(getattr(r, f"{s}_s") for r in rs) for s in STAGES}
        if not any(sums[s] for s in STAGES[1:]):
            continue
        wall = sum(r.wall for r in rs)
        other = max(0.0, wall - sum(v for s, v in sums.items() if s != "read"))
        cells = [f"{sums[s]:.2f}" for s in STAGES]
        rows.append(f"| {b} | {len(rs)} | " + " | ".join(cells)
                    + f" | {other:.2f} | {wall + sums['read']:.2f} |")
    if not rows:
        return []
    return ["Where the time of the finished runs went (seconds summed over them; reading is "
            "each puzzle's share of its file, outside the run; other is the rest of the "
            "run: checking solutions, starting processes):", "",
            "| backend | runs | " + " | ".join(STAGES) + " | other | total |",
            "|---|---:|" + "---:|" * (len(STAGES) + 2), *rows, ""]


def _orientations_table(runs: list[Run], labels: list[str]) -> list[str]:
    """For puzzles run in their eight orientations (``name@o``): each backend's fastest,
    median and slowest orientation, and per orientation the ratio of each plain baseline
    to its satnono counterpart."""
    turned = [r for r in runs if "@" in r.puzzle]
    if not turned:
        return []
    out = ["Each puzzle in its eight orientations: seconds of the fastest, median and "
           "slowest (a timeout counts as its limit), and the slowest over the fastest.", "",
           "| puzzle | backend | min s | median s | max s | max / min |",
           "|---|---|---:|---:|---:|---:|"]
    by: dict = {}
    for r in turned:
        base, _, orientation = r.puzzle.rpartition("@")
        by.setdefault((base, _label(r)), {})[orientation] = r
    for (base, b), rs in by.items():
        times = sorted(_seconds(r) for r in rs.values())
        out.append(f"| {base} | {b} | {times[0]:.2f} | {statistics.median(times):.2f} | "
                   f"{times[-1]:.2f} | {times[-1] / max(times[0], 1e-3):.1f}× |")
    out.append("")
    pairs = [(base, mine) for base, mine in baselines() if base in labels and mine in labels]
    pairs += peer_pairs(turned)
    for base_b, mine in pairs:
        out += [f"{base_b} over {mine}, orientation by orientation:", "",
                "| puzzle | " + " | ".join(ORIENTATIONS) + " |",
                "|---|" + "---:|" * len(ORIENTATIONS)]
        for base in dict.fromkeys(k[0] for k in by):
            theirs, ours = by.get((base, base_b), {}), by.get((base, mine), {})
            cells = []
            for o in ORIENTATIONS:
                a, m = theirs.get(o), ours.get(o)
                if a is None or m is None or m.verdict in FAILED:
                    cells.append("")
                else:
                    more = ">" if a.verdict == "timeout" else ""
                    cells.append(f"{more}{_seconds(a) / max(m.wall, 1e-3):.1f}×")
            out.append(f"| {base} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def _plots(suite: str, runs: list[Run], labels: list[str], folder: str, stem: str
           ) -> list[tuple[str, str]]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    safe = "".join(ch if ch.isalnum() else "-" for ch in suite)
    images = []
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for b in labels:
        times = sorted(r.wall for r in runs if _label(r) == b and r.verdict not in FAILED)
        if times:
            ax.plot(range(1, len(times) + 1), times, marker=".", label=b)
    ax.set_yscale("log")
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel("time per puzzle (s, log)")
    ax.set_title(f"{suite}: puzzles solved within a time")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    name = f"{stem}-{safe}-cactus.png"
    fig.tight_layout()
    fig.savefig(os.path.join(folder, name))
    plt.close(fig)
    images.append((f"{suite} cactus plot", name))
    ref = DEFAULT if DEFAULT in labels else labels[0]
    for other in labels:
        if other == ref:
            continue
        pts = []
        for key in dict.fromkeys((r.puzzle, r.mode) for r in runs):
            mine = next((r for r in runs if (r.puzzle, r.mode) == key and _label(r) == ref),
                        None)
            theirs = next((r for r in runs if (r.puzzle, r.mode) == key and _label(r) == other),
                          None)
            if mine and theirs:
                pts.append((_seconds(mine), _seconds(theirs)))
        if not pts:
            continue
        fig, ax = plt.subplots(figsize=(4.6, 4.6), dpi=110)
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=14)
        lo = min(min(p) for p in pts)
        hi = max(max(p) for p in pts)
        ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"{ref} (s)")
        ax.set_ylabel(f"{other} (s)")
        ax.set_title(f"{suite}: above the line, {ref} is faster")
        ax.grid(True, which="both", alpha=0.3)
        name = f"{stem}-{safe}-{ref}-vs-{''.join(c if c.isalnum() else '-' for c in other)}.png"
        fig.tight_layout()
        fig.savefig(os.path.join(folder, name))
        plt.close(fig)
        images.append((f"{suite}: {ref} vs {other}", name))
    return images


def summary(results: list[Run]) -> None:
    """The table ``bench`` prints when a run ends: per backend and solver, how many runs
    were solved, timed out or failed, and their median and total time."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="satnono bench")
    for col in ("backend", "solver", "runs", "solved", "timeouts", "errors", "median s",
                "total s"):
        table.add_column(col, justify="right" if col not in ("backend", "solver") else "left")
    groups: dict = {}
    for r in results:
        groups.setdefault((r.backend, r.solver), []).append(r)
    for (b, s), rs in sorted(groups.items()):
        ok = [r for r in rs if r.verdict not in ("timeout", "error")]
        table.add_row(b, s or "-", str(len(rs)), str(len(ok)),
                      str(sum(r.verdict == "timeout" for r in rs)),
                      str(sum(r.verdict == "error" for r in rs)),
                      f"{statistics.median(r.wall for r in rs):.3f}" if rs else "-",
                      f"{sum(r.wall for r in rs):.1f}")
    Console(stderr=True).print(table)
    peers = peer_lines(results)
    if peers:
        against = Table(title="peers (totals over the puzzles both solved)")
        for col in PEER_COLUMNS:
            against.add_column(col, justify="left" if col in ("peer", "against") else "right")
        for row in peers:
            against.add_row(*row)
        Console(stderr=True).print(against)
    for line in disagreements(results):
        Console(stderr=True).print(f"DISAGREEMENT {line}", markup=False, highlight=False)
