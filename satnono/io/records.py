"""Machine output: one JSON object per puzzle, the same shape from every command.

``solve --to json``, ``count --json`` and ``check --json`` each write one object per puzzle,
one per line (JSON Lines: a file of one puzzle is a JSON document as it is). Every object
has the fields of :data:`COMMON`; each command adds its own. The JSON Schema is shipped
beside this module (``schema.json``) for tools that check what they read.

The fields every object has:

``schema``
    the version of this shape (1).
``command``
    ``solve``, ``count`` or ``check``.
``puzzle``
    ``{"file", "index", "title", "width", "height", "colours"}``: the file (``<stdin>`` for
    standard input), the puzzle's index in it (from 1), its title (or null), its size, and
    its palette: a list of ``{"char", "name", "rgb"}``, the background first (``.`` white
    and ``#`` black for a black-and-white puzzle).
``verdict``
    what is proven: ``unique``, ``multiple``, ``none``, or null when the time ran out first.
``ending``
    why the work stopped: ``all found`` (nothing is left to find), ``limit reached`` (the
    solutions asked for were found; there may be more), ``time limit``, ``estimate`` (count
    only: ApproxMC's estimate, asked for or made when the exact count ran out of time; then
    ``estimate``, ``low``, ``high``, ``epsilon`` and ``delta`` are given).
``complete``
    true when the list of solutions (solve), the count (count) or the ambiguity (check) is
    whole.
``solutions``
    the solutions found (all of them when ``complete``), each a list of row strings, a
    cell as its colour's character (``#`` filled, ``.`` empty).
``count``
    how many solutions: those listed (solve), the count or a lower bound of it (count).
``seconds``
    how long the work took.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..analyze.check import Check
    from ..analyze.count import CountResult
    from ..model.puzzle import Puzzle
    from ..model.solution import Solution
    from ..model.verdict import Ending, Verdict
    from ..pipeline import Run

SCHEMA_VERSION = 1
SCHEMA = Path(__file__).with_name("schema.json")
COMMON = ("schema", "command", "puzzle", "verdict", "ending", "complete", "solutions", "count",
          "seconds")


def _record(command: str, file: str, index: int, puzzle: Puzzle, verdict: Verdict | None,
            ending: str, complete: bool, solutions: list[Solution], count: int,
            seconds: float) -> dict[str, Any]:
    return {"schema": SCHEMA_VERSION, "command": command,
            "puzzle": {"file": file, "index": index, "title": puzzle.title,
                       "width": puzzle.width, "height": puzzle.height,
                       "colours": [{"char": c.char, "name": c.name, "rgb": c.rgb}
                                   for c in puzzle.palette.colours]},
            "verdict": None if verdict is None else verdict.value, "ending": ending,
            "complete": complete,
            "solutions": [s.strings(chars=puzzle.palette.chars) for s in solutions],
            "count": count, "seconds": round(seconds, 3)}


def solve_record(file: str, index: int, puzzle: Puzzle, solutions: list[Solution],
                 ending: Ending | None, verdict: Verdict | None, seconds: float,
                 backend: str, run: Run | None = None) -> dict[str, Any]:
    """What ``solve`` found: the solutions, why the list ended, what that proves."""
    from ..backends import backend as backend_row
    from ..model.verdict import Ending

    out = _record("solve", file, index, puzzle, verdict,
                  (ending or Ending.TIME_LIMIT).value, ending is Ending.ALL_FOUND, solutions,
                  len(solutions), seconds)
    out["backend"] = backend
    if run is not None:
        st = run.stats
        stats: dict[str, int] = {}
        if st.fixed is not None or st.line_solves:  # logic ran: what it did
            stats.update(line_solves=st.line_solves, probes=st.probes)
        if st.nodes or backend_row(backend).nodes:  # satnono's own search: its nodes
            stats.update(nodes=st.nodes)
        if st.fixed is not None:  # the backend propagated: what logic fixed, what it left open
            stats.update(fixed=st.fixed, unknown_cells=puzzle.width * puzzle.height - st.fixed)
        if st.variables:  # a residual CNF was built (else there is no size to give)
            stats.update(variables=st.variables, clauses=st.clauses)
        out["stats"] = stats
    return out


def count_record(file: str, index: int, puzzle: Puzzle, res: CountResult) -> dict[str, Any]:
    """What ``count`` found: the exact count (or a lower bound), and how."""
    from ..model.verdict import Ending, Verdict

    verdict = Verdict.of(min(res.count, 2)) if res.complete else (
        Verdict.MULTIPLE if res.count >= 2 else None)
    ending = (Ending.ALL_FOUND if res.complete else
              Ending.TIME_LIMIT if res.estimate is None else Ending.ESTIMATE)
    out = _record("count", file, index, puzzle, verdict, ending.value,
                  res.complete, [], res.count, res.seconds)
    out.update({"exact": res.complete, "method": res.method})
    if res.why:
        out["why"] = res.why
    if res.estimate is not None:
        out.update(estimate_fields(res))
    if res.variables:  # one residual CNF was counted (not a split count's many)
        out.update({"unknown_cells": res.unknown_cells, "variables": res.variables,
                    "clauses": res.clauses})
    elif res.method == "propagation":  # logic alone settled it
        out["unknown_cells"] = 0
    return out


def estimate_fields(res: CountResult) -> dict[str, Any]:
    """An estimate's fields: the value, its bounds, and the ε and δ they hold with."""
    e = res.estimate
    assert e is not None
    return {"estimate": e.value, "low": e.low, "high": e.high, "epsilon": e.epsilon,
            "delta": e.delta}


def check_record(file: str, index: int, puzzle: Puzzle, check: Check) -> dict[str, Any]:
    """What ``check`` found: the verdict, the ambiguous cells, switches and difficulty (rows
    and columns count from 1)."""
    from ..model.verdict import Ending, Verdict

    u = check.uniqueness
    if u is None:
        return _record("check", file, index, puzzle, None, Ending.TIME_LIMIT.value, False, [],
                       0, check.seconds)
    # two solutions prove "multiple": the list stopped there (Centerpiece has 5·10^15)
    ending = (Ending.TIME_LIMIT if not u.complete else
              Ending.LIMIT if u.verdict is Verdict.MULTIPLE else Ending.ALL_FOUND)
    out = _record("check", file, index, puzzle, u.verdict, ending.value, u.complete,
                  u.solutions, len(u.solutions), check.seconds)
    if u.verdict is Verdict.MULTIPLE:
        out["ambiguous"] = [[r + 1, c + 1] for r, c in u.ambiguous]
        chars = puzzle.palette.chars
        out["ambiguous_colours"] = ["".join(chars[k] for k in u.takes.get(cell, ()))
                                    for cell in u.ambiguous]
        out["ambiguity_grid"] = check.ambiguity
    if check.switches is not None:
        out["switches"] = [[r + 1, c + 1] for r, c in check.switches]
    if check.rating is not None:
        out["difficulty"] = check.rating.as_dict()
    return out


def line(record: dict[str, Any]) -> str:
    """One record as one line of JSON."""
    return json.dumps(record, ensure_ascii=False) + "\n"
