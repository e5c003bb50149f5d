"""The plain CNF of a whole puzzle: one variable per (block, start), no propagation.

What a user would write first, kept as the baseline the ``plain-sat`` backend measures
satnono against: each block starts exactly once (pairwise at-most-one), blocks keep their
order with a gap, and a cell is filled exactly when some block covering it starts where it
must. Every cell is a variable.
"""

from __future__ import annotations

import itertools

from ..model.puzzle import Puzzle


def block_start_cnf(puzzle: Puzzle) -> tuple[list[list[int]], dict[tuple[int, int], int], int]:
    """Clauses, the cell variables, and the number of variables."""
    from pysat.formula import IDPool

    pool = IDPool()
    h, w = puzzle.height, puzzle.width
    cells = {(r, c): pool.id(("x", r, c)) for r in range(h) for c in range(w)}
    clauses: list[list[int]] = []
    rows, columns = puzzle.lengths
    lines = [(("r", r), clue, [cells[(r, c)] for c in range(w)])
             for r, clue in enumerate(rows)]
    lines += [(("c", c), clue, [cells[(r, c)] for r in range(h)])
              for c, clue in enumerate(columns)]
    for lid, clue, xs in lines:
        n = len(xs)
        if not clue:
            clauses.extend([-x] for x in xs)
            continue
        # block j may start from the room the blocks before it need up to the room the
        # blocks after it leave: plain bounds, no line solving
        lo = [sum(clue[:j]) + j for j in range(len(clue))]
        last = [n - (sum(clue[j:]) + len(clue) - j - 1) for j in range(len(clue))]
        starts = [{p: pool.id(("s", lid, j, p)) for p in range(lo[j], last[j] + 1)}
                  for j in range(len(clue))]
        covering: dict[int, list[int]] = {i: [] for i in range(n)}
        for j, length in enumerate(clue):
            vs = list(starts[j].values())
            clauses.append(vs)  # at least one start
            clauses.extend([-a, -b] for a, b in itertools.combinations(vs, 2))  # at most one
            for p, s in starts[j].items():
                for i in range(p, p + length):
                    clauses.append([-s, xs[i]])
                    covering[i].append(s)
                if j + 1 < len(clue):  # the next block starts after a gap
                    clauses.append([-s] + [t for q, t in starts[j + 1].items()
                                           if q >= p + length + 1])
        for i, x in enumerate(xs):
            clauses.append([-x] + covering[i])
    return clauses, cells, pool.top
