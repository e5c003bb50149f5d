"""The Markdown report of a ``satnono bench`` CSV, with cactus and scatter plots (PNG).

Disagreements come first: two backends that both finished with different verdicts on one
puzzle mean a bug, whatever the times say.
"""

from __future__ import annotations

import os
import statistics
import time

from ..io.output import atomic_output
from .runner import Run, machine, read_csv

FAILED = ("timeout", "error")


def _label(r: Run) -> str:
    return r.backend + (f"/{r.solver}" if r.solver else "")


def _seconds(r: Run) -> float:
    """A run's time for a plot: a failed run counts as its time limit."""
    return max(r.wall, 1e-3) if r.verdict not in FAILED else r.timeout


def disagreements(runs: list[Run]) -> list[str]:
    by: dict = {}
    for r in runs:
        if r.verdict not in FAILED:
            by.setdefault((r.suite, r.puzzle, r.mode), {})[_label(r)] = r.verdict
    out = []
    for (suite, puzzle, mode), verdicts in sorted(by.items()):
        if len(set(verdicts.values())) > 1:
            got = ", ".join(f"{b}: {v}" for b, v in sorted(verdicts.items()))
            out.append(f"{suite} / {puzzle} ({mode}): {got}")
    return out


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
    if r.verdict == "error":
        return "error"
    return f"{r.wall:.2f}"


def _suite_section(suite: str, runs: list[Run], folder: str, stem: str) -> list[str]:
    labels = list(dict.fromkeys(_label(r) for r in runs))
    modes = sorted({r.mode for r in runs})
    out = [f"## Suite `{suite}` ({', '.join(modes)})", ""]
    # summary per backend
    out.append("| backend | runs | solved | timeouts | median s | total s |")
    out.append("|---|---:|---:|---:|---:|---:|")
    for b in labels:
        rs = [r for r in runs if _label(r) == b]
        ok = [r for r in rs if r.verdict not in FAILED]
        out.append(f"| {b} | {len(rs)} | {len(ok)} | "
                   f"{sum(r.verdict == 'timeout' for r in rs)} | "
                   f"{statistics.median(r.wall for r in rs):.3f} | "
                   f"{sum(r.wall for r in rs):.1f} |")
    out.append("")
    # baselines: ratio of each plain backend to its satnono counterpart, puzzle by puzzle
    pairs = [(base, mine) for base, mine in (("plain-sat", "sat"), ("plain-cpsat", "cpsat"))
             if any(lb.startswith(base) for lb in labels) and mine in labels]
    table: dict = {}
    for r in runs:
        table.setdefault((r.puzzle, r.mode), {})[_label(r)] = r
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
    ref = "sat" if "sat" in labels else labels[0]
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
