"""The order encoding of a line: where each block starts, as "block j starts at or before
p" (order variables, Crawford & Baker's encoding of integer bounds as used by Tamura et
al.'s order encoding, "Compiling finite linear CSP into SAT", Constraints 14(2), 2009), and
which cells the blocks fill.

Per block j and each start p it may take: ``y[j][p]`` ⇔ start_j ≤ p, with

* ``y[j][p] → y[j][p+1]`` (an order), and block j+1 starts after block j and its gap:
  ``y[j+1][p] → y[j][p − c_j − 1]``;
* a start the known cells rule out is skipped: ``y[j][p] → y[j][p−1]``;
* the cells with no variable between them and the blocks (Hugi's "lean" cells, its
  ``src/cnf.rs``): a cell block j covers is filled, ``y[j][i] ∧ ¬y[j][i − c_j] → x_i``; a
  filled cell has a block starting at or before it, ``x_i → y[0][i]``, and the last block
  that does covers it, as the blocks are in order:
  ``x_i ∧ y[j][i] ∧ ¬y[j+1][i] → ¬y[j][i − c_j]``.

The cells' clauses first went through a cover variable per block and cell (``v[j][i]`` ⇔
block j covers cell i); without them Kissat finds the first solution of the 40×40s at
density 0.4 in 183 s against 321 s, 20 against 18 of 20 within 60 s
(benchmarks/results/NOTES.md, "Lean cells").

Unit propagation on it is weaker than on the automaton (:mod:`.residual`): it is not the
complete line solver. What it has that the automaton lacks is a variable for every bound of
every block, so the clauses a CDCL solver learns can say "block 3 of row 7 starts at or
after column 12", and on puzzles that logic leaves wide open (random pictures of 40×40 and
more) CaDiCaL finds a first solution in a half to a quarter of the time
(benchmarks/results/NOTES.md); nonosolve's CDCL stage uses the same encoding. The starts
each block may take come from the automaton's layers given the known cells, so its bounds
are as tight as line logic makes them. Known cells are constants, as in the automaton.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from .automaton import automaton, layers

if TYPE_CHECKING:
    from .encoding import Encoding

#: literals that are always true and always false (no variable has these numbers), so that
#: a known cell or a bound past a block's range is negated like any literal
_TRUE = 1 << 62
_FALSE = -_TRUE


def encode_line_order(enc: Encoding, line: Hashable, clue: tuple[int, ...], n: int,
                      filled: int, empty: int, cell_var: Callable[[int], int]) -> None:
    """Add the order encoding of one line to ``enc`` (the same call as
    :func:`.residual.encode_line`); ``cell_var(i)`` gives the variable of unknown cell i.

    >>> from satnono.logic.board import Board
    >>> from satnono.encode.encoding import Encoding
    >>> from pysat.solvers import Solver
    >>> enc = Encoding(Board(4, 1))
    >>> x = [enc.pool.id(("x", i)) for i in range(3)]
    >>> encode_line_order(enc, "row", (2,), 4, 0, 0b1000, lambda i: x[i])  # cell 3 empty
    >>> with Solver(bootstrap_with=enc.clauses) as s:
    ...     sorted("".join(".#"[m[v - 1] > 0] for v in x) for m in s.enum_models())
    ['##.', '.##']
    """
    clauses = enc.clauses
    pool = enc.pool
    before = pool.top

    def cell(i: int) -> int:
        if filled >> i & 1:
            return _TRUE
        if empty >> i & 1:
            return _FALSE
        return cell_var(i)

    if not clue:
        for i in range(n):
            x = cell(i)
            if x == _TRUE:
                _infeasible(enc)
                return
            if x != _FALSE:
                clauses.append([-x])
        return
    nodes = layers(automaton(clue), n, filled, empty)
    if nodes is None:
        _infeasible(enc)
        return
    k = len(clue)
    # block j's first cell is read from state offset[j] into offset[j] + 1
    offset = [sum(clue[:j]) + j for j in range(k)]
    starts = [[p for p in range(n) if nodes[p + 1] >> (offset[j] + 1) & 1] for j in range(k)]
    lo = [s[0] for s in starts]
    hi = [s[-1] for s in starts]
    y: list[dict[int, int]] = []
    for j in range(k):
        ys = {}
        for p in range(lo[j], hi[j]):
            pool.top += 1
            ys[p] = pool.top
        y.append(ys)
    enc.orders[line] = [(lo[j], hi[j], y[j][lo[j]] if hi[j] > lo[j] else 0)
                        for j in range(k)]

    def order(j: int, p: int) -> int:
        """start_j ≤ p"""
        if p < lo[j]:
            return _FALSE
        if p >= hi[j]:
            return _TRUE
        return y[j][p]

    def add(*lits: int) -> None:
        if _TRUE not in lits:
            clauses.append([lit for lit in lits if lit != _FALSE])

    for j in range(k):
        possible = set(starts[j])
        for p in range(lo[j], hi[j]):
            add(-y[j][p], order(j, p + 1))
            if p > lo[j] and p not in possible:  # start_j ≤ p means start_j ≤ p − 1
                add(-y[j][p], order(j, p - 1))
        if j + 1 < k:
            for p in range(lo[j + 1], hi[j + 1] + 1):
                add(-order(j + 1, p), order(j, p - clue[j] - 1))
    # the cells, with no variable of their own between cell and block (Hugi's "lean"
    # cells): a cell some block covers is filled, and a filled cell is covered by the last
    # block that starts at or before it, since the blocks are in order
    for i in range(n):
        x = cell(i)
        add(-x, order(0, i))
        for j, length in enumerate(clue):
            start_at_or_before, ended_before = order(j, i), order(j, i - length)
            add(x, -start_at_or_before, ended_before)
            later = order(j + 1, i) if j + 1 < k else _FALSE
            add(-x, -start_at_or_before, later, -ended_before)
    enc.aux_per_line[line] = pool.top - before


def _infeasible(enc: Encoding) -> None:
    enc.infeasible = True
    enc.clauses.append([])
