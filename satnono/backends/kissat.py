"""Kissat for a puzzle's first solution: the residual's DIMACS piped into the ``kissat``
program, its model read back.

On puzzles that logic leaves open, Kissat 4 on the order encoding (:mod:`satnono.encode.order`)
finds a first model in a half to a third of CaDiCaL's time (benchmarks/results/NOTES.md;
nonosolve's CDCL stage is the same pair). It has no incremental interface here, so the
solutions after the first come from CaDiCaL as before, with the first one blocked.

The program is the one the ``passagemath-kissat`` wheel ships (a dependency where it has a
wheel), else ``kissat`` on the ``PATH``; where neither is there, CaDiCaL does it all. It
runs as a child process: a time limit or a Ctrl-C kills it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import cache

from ..errors import SolverFailed
from ..runtime.child import dies_with_this_process
from ..runtime.deadline import Deadline

#: set to a path to run that kissat, or to "none" to do without it
ENVIRONMENT = "SATNONO_KISSAT"


@cache
def program() -> str | None:
    """The kissat program to run, or None where there is none."""
    chosen = os.environ.get(ENVIRONMENT, "")
    if chosen:
        return None if chosen == "none" else chosen
    try:
        import importlib.util

        spec = importlib.util.find_spec("sage_wheels")
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "bin", "kissat")
        if os.access(path, os.X_OK):
            return path
    return shutil.which("kissat")


def first_model(clauses: list[list[int]], variables: int, deadline: Deadline,
                seed: int | None = None, phases: list[int] | None = None) -> list[int] | None:
    """A model of the clauses (the literal of every variable), or None when there is none;
    raises :class:`~satnono.errors.SearchTimeout` at the deadline. ``seed`` picks another
    of Kissat's searches (its ``--seed``; a racer's). ``phases`` (literals) are where its
    decisions go, always: Kissat has no call for that, and decides every variable true
    first, so each variable whose phase is false is renamed to its negation in the CNF
    it is given (and back in its model), and ``--forcephase`` keeps the phase from
    drifting (nonosolve's way, src/sat.cpp; on Knotty 0.08 s forced against 3.9 s as a
    mere start, shared/notes/knotty-phases.md).

    >>> from satnono.runtime.deadline import NO_DEADLINE
    >>> first_model([[1, 2], [-1]], 2, NO_DEADLINE) if program() else [-1, 2]
    [-1, 2]
    >>> first_model([[1, 2], [-1, -2]], 2, NO_DEADLINE, phases=[-1, 2]) if program() else [-1, 2]
    [-1, 2]
    """
    kissat = program()
    if kissat is None:
        raise SolverFailed("kissat is not installed")
    flip = {-lit for lit in phases or () if lit < 0}
    if flip:
        text = f"p cnf {variables} {len(clauses)}\n" + "".join(
            " ".join(str(-x if abs(x) in flip else x) for x in c) + " 0\n" for c in clauses)
    else:
        text = f"p cnf {variables} {len(clauses)}\n" + "".join(
            " ".join(map(str, c)) + " 0\n" for c in clauses)
    try:
        argv = [kissat, "-q"] + ([] if seed is None else [f"--seed={seed}"]) + \
            (["--forcephase=true"] if phases else [])
        done = subprocess.run(argv, input=text, capture_output=True, text=True,
                              timeout=deadline.left(), preexec_fn=dies_with_this_process())
    except subprocess.TimeoutExpired:
        raise deadline.expired() from None
    except OSError as exc:  # not there, or not a program
        raise SolverFailed(f"kissat could not be run ({kissat}: {exc.strerror or exc}); "
                           f"set {ENVIRONMENT}=none to do without it") from None
    if done.returncode == 20:
        return None
    if done.returncode != 10:
        why = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SolverFailed(f"kissat ended with status {done.returncode}: {why[0][:200]}")
    model = [int(w) for line in done.stdout.splitlines() if line.startswith("v ")
             for w in line[2:].split() if w != "0"]
    return [-x if abs(x) in flip else x for x in model] if flip else model
