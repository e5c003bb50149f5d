"""``satnono encode``: the residual CNF as a DIMACS file, for any SAT solver or counter."""

from __future__ import annotations

import argparse

from ..model.verdict import Depth, LineCode
from .inputs import load_one
from .options import SubParsers, add_input, add_timeout
from .status import ExitStatus

DEPTHS = ("probed", "lines", "open")


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "encode", help="write the residual CNF (DIMACS) for another solver or counter",
        description="Presolve the puzzle (line logic and probing), then write the CNF of "
        "what is left as DIMACS: each open line as an automaton (or with --encoding order, "
        "as block bounds and the cells they fill), the cells' variables named "
        "in a comment header ('c cell VARIABLE ROW COLUMN') with the cells logic fixed, and "
        "the projection onto the cells ('c p show', 'c ind') for model counters, and where "
        "each variable's likelier value is by belief propagation ('c phase', literals: a SAT "
        "solver's first values, as satnono's own solvers take them). Every model is one "
        "solution.",
        epilog="example: satnono encode cup.non -o cup.cnf && kissat cup.cnf")
    add_input(p)
    p.add_argument("-o", "--output", metavar="OUT", help="the CNF file (default: standard "
                   "output)")
    p.add_argument("--depth", choices=DEPTHS, default="probed",
                   help="how far logic goes first: probed (line logic and probing, the "
                   "default), lines (line logic only), open (none: every cell a variable)")
    p.add_argument("--encoding", choices=[c.value for c in LineCode], default="automaton",
                   help="how each line becomes clauses: automaton (unit propagation is the "
                   "complete line solver; the default) or order ('block j starts at or "
                   "before p' and the cells the blocks fill: what satnono's SAT backend gives "
                   "Kissat and CaDiCaL, often faster to a first solution where logic leaves the "
                   "puzzle open)")
    p.add_argument("--no-phases", action="store_true",
                   help="leave out the 'c phase' lines (belief propagation's first values)")
    add_timeout(p, "give up presolving and encoding after S seconds")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..io.dimacs import write_residual
    from ..io.formats import shown
    from ..io.output import atomic_output
    from ..pipeline import residual
    from ..runtime.deadline import Deadline

    puzzle = load_one(args)  # validated as it is read
    deadline = Deadline.after(args.timeout)
    res = residual(puzzle, deadline=deadline, depth=Depth(args.depth),
                   code=LineCode(args.encoding))
    if res.encoding is not None and res.board is not None and not args.no_phases:
        from ..encode.phases import phases
        from ..logic.compiled import beliefs

        found = beliefs(puzzle, res.board, deadline=deadline)
        if found is not None:
            res.encoding.phases = phases(res.encoding, found)
    with atomic_output(args.output) as out:
        write_residual(out, res, puzzle, shown(args.puzzle))
    return ExitStatus.OK
