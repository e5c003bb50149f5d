"""What results say in words: the lines ``solve``, ``check``, ``make`` and ``--verify``
print. The analyses return data (:mod:`satnono.analyze`, :mod:`satnono.pipeline`); the
wording of it lives here, beside the other outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.verdict import Ending, Level, RatedBy, Verdict
from ..pipeline import UNIQUENESS_LIMIT

if TYPE_CHECKING:
    from ..analyze.check import Check
    from ..analyze.counters import CountResult
    from ..analyze.crosscheck import CrossCheck
    from ..analyze.difficulty import Rating



def solve_summary(found: int, limit: int | None, ending: Ending | None) -> str:
    """What a run's solutions say, in the words ``satnono solve`` uses."""
    if ending is Ending.TIME_LIMIT or ending is None:
        return f"search incomplete: {found} solution(s) found before the time limit"
    if found == 0:
        return "no solution"
    if ending is Ending.ALL_FOUND or limit is None or found < limit:
        return "unique solution" if found == 1 else f"{found} solutions (all found)"
    if limit == UNIQUENESS_LIMIT and found == UNIQUENESS_LIMIT:
        return "not unique: at least 2 solutions (showing the first)"
    return f"{found} solution(s) shown (limit reached; there may be more)"


def check_report(result: Check, name: str) -> list[str]:
    """What ``satnono check`` (and ``make``) says about a puzzle; ``name`` is how the
    puzzle is called."""
    u = result.uniqueness
    if u is None:
        return [f"{name}: no verdict — {result.timeout}"]
    out: list[str] = []
    if u.verdict is Verdict.NONE:
        out.append(f"{name}: no solution (proven)")
    elif u.verdict is Verdict.UNIQUE:
        out.append(f"{name}: unique solution (proven)")
    else:
        cells = result.puzzle.width * result.puzzle.height
        if u.complete:
            differ = f"{len(u.ambiguous)} of {cells} cells differ between solutions"
            legend = "cells that differ across all solutions ('?'; the rest is forced)"
        else:
            differ = (f"at least {len(u.ambiguous)} of {cells} cells differ between "
                      "solutions (the time limit stopped the search for more)")
            legend = ("cells found to differ ('?'; the time ran out before the rest "
                      "was proven)")
        out.append(f"{name}: NOT unique — more than one solution (proven); {differ}")
        chars = result.puzzle.palette.chars
        a, b = (s.strings(chars=chars) for s in u.solutions[:2])
        out.append("  two solutions:")
        out.extend(f"    {x}   {y}" for x, y in zip(a, b))
        out.append(f"  {legend}:")
        out.extend(f"    {row}" for row in result.ambiguity)
        if not result.puzzle.palette.black_and_white:
            names = [c.name for c in result.puzzle.palette.colours]
            listed = sorted(u.takes.items())
            out.append("  the colours each of them takes:" + "".join(
                f"\n    row {r + 1}, column {c + 1}: {' or '.join(names[k] for k in ks)}"
                for (r, c), ks in listed[:12]))
            if len(listed) > 12:
                out.append(f"    and {len(listed) - 12} more (all of them in --json)")
    if result.switches:
        sw = result.switches
        where = ", ".join(f"rows {r + 1}-{r + 2} × columns {c + 1}-{c + 2}"
                          for r, c in sw[:10])
        more = f" and {len(sw) - 10} more" if len(sw) > 10 else ""
        out.append(f"  the goal picture has {len(sw)} 2×2 checkerboard(s) that flip "
                   f"without changing a clue — redraw there: {where}{more}")
    if result.rating is not None:
        out.append(f"  difficulty: {rating_words(result.rating)}")
    return out


def cross_check_report(check: CrossCheck, name: str, backend: str, chars: str = ".#"
                       ) -> list[str]:
    """``--verify``'s verdict in words, then every solution found by one side only."""
    out = [f"{name}: {check.message} [{check.seconds:.2f} s]"]
    for who, sols in ((backend, check.only_backend), ("native", check.only_native)):
        out += [f"{name}: found only by {who}:\n" + "\n".join(s.strings(chars=chars))
                for s in sols]
    return out


def count_words(res: CountResult) -> str:
    """What ``satnono count`` says of a count: exact, a lower bound or an estimate, and
    how."""
    from ..analyze.counters import COMPILED

    if res.estimate is not None:
        e = res.estimate
        known = f"; {res.count:,} found for certain" if res.count else ""
        return (f"{e.words()}: an estimate by ApproxMC (epsilon {e.epsilon:g}, delta "
                f"{e.delta:g}), not an exact count [{res.seconds:.2f} s{known}]")
    if not res.complete:
        if res.method == COMPILED and not res.count:  # it finds no solution on its way
            return (f"no count: time limit reached ({res.method}, {res.seconds:.2f} s)")
        tried = f"; {res.why}" if res.why else ""
        return (f"at least {res.count} solution(s): time limit reached "
                f"({res.method}, {res.seconds:.2f} s{tried}); count incomplete")
    how = f"by {res.method}" + (f" ({res.why})" if res.why else "")
    if res.method == "propagation":  # no solver ran: the board settled it
        how = ("line logic and probing refute the clues" if res.count == 0 else
               "line logic and probing leave one picture")
    size = (f"; {res.unknown_cells} cells left after propagation, "
            f"{res.variables} variables, {res.clauses} clauses"
            if res.variables else
            f"; {res.unknown_cells} cells left after propagation" if res.unknown_cells
            else "")
    return f"{res.count} solution(s), exact, {how} [{res.seconds:.2f} s{size}]"


def rating_words(rating: Rating) -> str:
    """A difficulty rating in words: the level, then the numbers behind it."""
    pct = (lambda n: f"{100 * n / rating.cells:.0f}%") if rating.cells else (lambda n: "-")
    head = {Level.LINE: "line — line logic alone solves it",
            Level.PROBE: "probe — solvable without guessing (line logic + probing)",
            Level.SEARCH: "search — needs guessing (branching)"}[rating.level]
    if not rating.finished:
        head = ("search — needs guessing; the search ran out of time"
                if rating.level is Level.SEARCH else
                f"{rating.level} or harder — the time ran out before the rating was done")
    if rating.contradiction:
        head = f"{rating.level} — the clues are refuted at this level (no solution)"
    parts = [f"line logic fixes {pct(rating.by_line)} ({rating.by_line}/{rating.cells} cells)",
             f"probing {pct(rating.by_probe)} more",
             f"{rating.line_solves} line solves, {rating.probes} probes"]
    if rating.level is Level.SEARCH and rating.rated_by is RatedBy.ENGINE:
        parts.append(f"{pct(rating.open_after_probing)} left to guess")
    elif rating.level is Level.SEARCH:
        parts.append(f"{rating.nodes} search nodes, depth {rating.max_depth}")
    return head + "; " + ", ".join(parts)


def batch_summary(records: list[dict[str, Any]], seconds: float) -> list[str]:
    """A batch's last lines: how many, how fast, the verdicts, the slowest, each error."""
    from collections import Counter

    if not records:
        return ["batch: nothing left to do"]
    verdicts = Counter(r["verdict"] for r in records)
    parts = ", ".join(f"{v} {n}" for v, n in verdicts.most_common())
    lines = [f"batch: {len(records)} record(s) in {seconds:.1f} s "
             f"({len(records) / seconds:.1f}/s): {parts}"]
    slow = sorted((r for r in records if r["index"]), key=lambda r: -r["seconds"])[:5]
    if slow:
        lines.append("slowest: " + "; ".join(f"{r['key']} {r['seconds']:.2f} s "
                                             f"({r['verdict']})" for r in slow))
    lines += [f"error: {r['key']}: {r['error']}" for r in records if r["verdict"] == "error"]
    return lines
