"""Where a SAT solver's first decisions go: each variable of the residual CNF given the
value belief propagation finds more likely (:func:`satnono.logic.compiled.beliefs`).

A cell takes its likeliest value; in the order encoding "block j starts at or before p"
is true where the block's start distribution, given the crossing lines' messages, has
half its weight at or before p (nonosolve's phases, src/sat.h). Both are needed: on Knotty
(40×40), CaDiCaL finds a first solution in 0.1–0.3 s with them all, in 13 s with the
cells' alone, and not in 90 s with none (shared/notes/knotty-phases.md). Automaton nodes
get none: they follow from the cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.grid import Line

if TYPE_CHECKING:
    from ..logic.compiled import Beliefs
    from .encoding import Encoding


def phases(enc: Encoding, beliefs: Beliefs) -> list[int]:
    """The literals of ``enc``'s variables that ``beliefs`` finds more likely: its cells,
    and its order variables where it has them.

    >>> from satnono.model.puzzle import Puzzle
    >>> from satnono.logic.board import Board
    >>> from satnono.logic.compiled import available, beliefs
    >>> from satnono.encode.residual import encode
    >>> p = Puzzle(((2,), (1,)), ((2,), (1,)))  # ##/#.: the corner's cell is empty
    >>> enc = encode(p, Board(2, 2))
    >>> lits = phases(enc, beliefs(p, Board(2, 2))) if available() else []
    >>> got = [enc.cells[cell] in lits for cell in sorted(enc.cells)]
    >>> got if lits else [True, True, True, False]  # the same where the engine is missing
    [True, True, True, False]
    """
    out = []
    if enc.board.colours == 1:
        for (r, c), v in enc.cells.items():
            shares = beliefs.cell(r, c)
            if shares is not None:
                out.append(v if shares[1] >= shares[0] else -v)
    else:
        best: dict[tuple[int, int], int] = {}
        for (r, c, colour), v in enc.cells.items():
            if (r, c) not in best:
                shares = beliefs.cell(r, c)
                best[(r, c)] = -1 if shares is None else max(range(len(shares)),
                                                              key=shares.__getitem__)
            out.append(v if best[(r, c)] == colour else -v)
    for line, blocks in enc.orders.items():
        if not isinstance(line, Line) or not beliefs.finished:  # cut off: no starts
            continue
        for j, (lo, hi, first) in enumerate(blocks):
            for p in range(lo, hi):
                v = first + p - lo
                out.append(v if beliefs.at_most(line, j, p) >= 0.5 else -v)
    return out
