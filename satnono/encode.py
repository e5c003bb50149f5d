"""CNF of the residual puzzle: the unknown cells after propagation, one automaton per line.

Each line that still has unknown cells becomes a layered automaton (the regular-constraint
decomposition): a variable per reachable (position, state) node and per transition, with

* a transition implies its source node, its target node and its cell value;
* a node implies one of its outgoing and one of its incoming transitions;
* a cell value implies one of the transitions at its position that read it.

Unit propagation on these clauses derives exactly what the complete line solver derives
(the tests check it line by line), and the size is linear in nodes, which are at most
(m+1)·(f+1) for a clue of minimum length m and slack f — no pairwise block constraints.
Known cells are constants: they prune the graph and never become variables. Variables
come from pysat's ``IDPool``: cells by name, so every model maps back to the grid; the
automaton's nodes and transitions anonymously, since nothing reads them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysat.formula import IDPool

from .automaton import automaton, layers
from .board import Board
from .presolve import presolve
from .propagate import Context
from .puzzle import Puzzle


@dataclass
class Encoding:
    """Clauses plus the map back to cells. ``cells[(r, c)]`` is the variable of an unknown
    cell (true = filled); ``board`` holds the known ones."""

    board: Board
    pool: IDPool = field(default_factory=IDPool)
    clauses: list[list[int]] = field(default_factory=list)
    cells: dict[tuple[int, int], int] = field(default_factory=dict)
    infeasible: bool = False
    aux_per_line: dict[int, int] = field(default_factory=dict)

    @property
    def variables(self) -> int:
        return self.pool.top


def cell_literal(enc: Encoding, r: int, c: int) -> int:
    v = enc.cells.get((r, c))
    if v is None:
        v = enc.cells[(r, c)] = enc.pool.id(("x", r, c))
    return v


def encode_line(enc: Encoding, lid: int, clue: tuple[int, ...], n: int, filled: int,
                empty: int, cell_var) -> None:
    """Add the clauses of one line; ``cell_var(i)`` gives the variable of unknown cell i."""
    auto = automaton(clue)
    nodes = layers(auto, n, filled, empty)
    if nodes is None:
        enc.infeasible = True
        enc.clauses.append([])
        return
    pool = enc.pool
    clauses = enc.clauses
    before = pool.top

    def new() -> int:
        # an anonymous IDPool variable (the pool has no occupied ranges): the same number
        # pool.id() would give, without hashing a name for each of the line's many nodes
        pool.top += 1
        return pool.top

    node_var: dict[tuple[int, int], int] = {}

    def node(i: int, q: int) -> int | None:
        # layers with a single state are constants (always the start and the end)
        if nodes[i] & (nodes[i] - 1) == 0:
            return None
        v = node_var.get((i, q))
        if v is None:
            v = node_var[(i, q)] = new()
        return v

    incoming: dict[int, list[int]] = {}
    for i in range(n):
        known = 1 if filled >> i & 1 else 0 if empty >> i & 1 else None
        x = None if known is not None else cell_var(i)
        reads: dict[int, list[int]] = {0: [], 1: []}
        states = nodes[i]
        while states:
            low = states & -states
            q = low.bit_length() - 1
            states ^= low
            src = node(i, q)
            outgoing = []
            for v in (0, 1):
                if known is not None and v != known:
                    continue
                t = auto.target(q, v)
                if t is None or not nodes[i + 1] >> t & 1:
                    continue
                dst = node(i + 1, t)
                tv = new()
                outgoing.append(tv)
                if src is not None:
                    clauses.append([-tv, src])
                if dst is not None:
                    clauses.append([-tv, dst])
                    incoming.setdefault(dst, []).append(tv)
                if x is not None:
                    clauses.append([-tv, x if v else -x])
                reads[v].append(tv)
            clauses.append(([-src] if src is not None else []) + outgoing)
        if x is not None:
            clauses.append([-x] + reads[1])
            clauses.append([x] + reads[0])
    for dst, ins in incoming.items():
        clauses.append([-dst] + ins)
    enc.aux_per_line[lid] = pool.top - before


def encode(puzzle: Puzzle, board: Board) -> Encoding:
    """The CNF of every line of ``board`` that still has unknown cells."""
    enc = Encoding(board)
    h, w = puzzle.height, puzzle.width
    for r in range(h):
        full = (1 << w) - 1
        if (board.rf[r] | board.re[r]) != full:
            encode_line(enc, r, puzzle.rows[r], w, board.rf[r], board.re[r],
                        lambda i, r=r: cell_literal(enc, r, i))
    for c in range(w):
        full = (1 << h) - 1
        if (board.cf[c] | board.ce[c]) != full:
            encode_line(enc, h + c, puzzle.columns[c], h, board.cf[c], board.ce[c],
                        lambda i, c=c: cell_literal(enc, i, c))
    return enc


def residual(ctx: Context, *, probing: bool = True, deadline: float | None = None,
             timeout: float | None = None) -> tuple[Board | None, Encoding | None]:
    """Presolve, then the CNF of what is left (also kept in ``ctx.encoding``): what every
    CNF consumer starts from. ``(None, None)``: the clues contradict; ``(board, None)``:
    propagation and probing solved the puzzle; else ``(board, encoding)``."""
    board = presolve(ctx, probing=probing, deadline=deadline, timeout=timeout)
    if board is None:
        return None, None
    if board.solved():
        return board, None
    enc = ctx.encoding = encode(ctx.puzzle, board)
    return (None, None) if enc.infeasible else (board, enc)


def decode(enc: Encoding, model: set[int] | list[int]) -> list[int]:
    """Row masks of the full grid from a model (positive literals of true variables)."""
    true = set(lit for lit in model if lit > 0) if not isinstance(model, set) else model
    rows = list(enc.board.rf)
    for (r, c), v in enc.cells.items():
        if v in true:
            rows[r] |= 1 << c
    return rows
