"""CNF of the residual puzzle: the unknown cells after propagation, one automaton per line.

Each line that still has unknown cells becomes a layered automaton (the decomposition of
the regular constraint, Pesant 2004; its CNF form after Bacchus, "GAC via unit propagation",
2007): a variable per reachable (position, state) node. The line is read with a
closing gap after its last block, over one virtual empty cell, so that every state is
entered by one value only (1 inside a block, 0 elsewhere); the node reached after a cell
then says what the cell holds, and the transition variables of the textbook decomposition
are not needed. The clauses:

* a node implies the value that enters it, and one of the nodes it can come from;
* a node implies one of the nodes it can go to; with its cell's value, the one that value
  leads to (or the value is impossible);
* a cell value implies one of the nodes it enters.

Unit propagation on these clauses derives exactly what the complete line solver derives,
and with every cell given it fixes every node (the tests check both), so the nodes are
functions of the cells. The forward clauses with the cell's value are not needed for that;
they are there because they make CaDiCaL faster (benchmarks/results/NOTES.md). The size is linear in
nodes, at most (m+2)·(f+1) for a clue of minimum length m and slack f, with no pairwise
block constraints; against one variable per node and per transition it has less than half
the variables and fewer clauses. Known
cells are constants: they prune the graph and never become variables. Variables come from
pysat's ``IDPool``: cells by name, so every model maps back to the grid; the nodes
anonymously, since nothing reads them back.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass

from ..logic.board import Board
from ..logic.context import Context
from ..logic.presolve import Presolved
from ..model.grid import ROW, Line
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..model.verdict import LineCode
from ..runtime.deadline import NO_DEADLINE, Deadline
from ..runtime.memory import ensure_room, gc_paused
from .automaton import automaton, closed_automaton, entered_by, layers
from .encoding import Encoding
from .order import encode_line_order


def cell_literal(enc: Encoding, r: int, c: int) -> int:
    v = enc.cells.get((r, c))
    if v is None:
        v = enc.cells[(r, c)] = enc.pool.id(("x", r, c))
    return v


def encode_line(enc: Encoding, line: Hashable, clue: tuple[int, ...], n: int, filled: int,
                empty: int, cell_var: Callable[[int], int]) -> None:
    """Add the clauses of one line (``line`` names it in ``enc.aux_per_line``);
    ``cell_var(i)`` gives the variable of unknown cell i."""
    if clue:
        auto, length = closed_automaton(clue), n + 1
        empty |= 1 << n  # the virtual empty cell that the closing gap reads
    else:
        auto, length = automaton(clue), n
    nodes = layers(auto, length, filled, empty)
    if nodes is None:
        enc.infeasible = True
        enc.clauses.append([])
        return
    pool = enc.pool
    clauses = enc.clauses
    before = pool.top
    # per state: where each value leads, the value that enters it, the states it comes from
    step = [(auto.target(q, 0), auto.target(q, 1)) for q in range(auto.length + 1)]
    enters = [entered_by(auto, q) for q in range(auto.length + 1)]
    preds = [list(_states(auto.back(1 << t, enters[t]))) for t in range(auto.length + 1)]
    states = [list(_states(mask)) for mask in nodes]
    # per layer, state -> variable, made on first use (each layer's while it is the later
    # one, first in the forward clauses' order); None for a layer with one state,
    # which is a constant (always the start and the end). Variables are anonymous IDPool
    # numbers (the pool has no occupied ranges): what pool.id() would give, without
    # hashing a name for each of the line's nodes.
    var: list[dict[int, int] | None] = [None if len(st) == 1 else {} for st in states]

    for i in range(length):
        x = None if (filled | empty) >> i & 1 else cell_var(i)
        holds = (-x, x) if x is not None else None  # holds[v]: "cell i holds v"
        later = nodes[i + 1]
        here, there = var[i], var[i + 1]
        # forward: a node goes on to the node its cell's value leads to, and to some node
        if here is not None:
            for q in states[i]:
                src = here[q]  # made while layer i was the later one (layer 0 is constant)
                onward: list[int] | None = []
                for v in (0, 1):
                    t = step[q][v]
                    if t is None or not later >> t & 1:
                        if holds is not None:
                            clauses.append([-src, -holds[v]])
                        continue
                    if there is None:
                        onward = None  # a constant successor: nothing to require
                        continue
                    dst = there.get(t)
                    if dst is None:
                        pool.top += 1
                        dst = there[t] = pool.top
                    if onward is not None:
                        onward.append(dst)
                    if holds is not None:
                        clauses.append([-src, -holds[v], dst])
                if onward is not None:
                    clauses.append([-src] + onward)
        # backward: a node holds the value that enters it and comes from some node
        reads: tuple[list[int], list[int]] = ([], [])
        for t in states[i + 1]:
            v = enters[t]
            if there is None:
                if holds is not None:
                    clauses.append([holds[v]])
                continue
            dst = there.get(t)
            if dst is None:
                pool.top += 1
                dst = there[t] = pool.top
            reads[v].append(dst)
            if holds is not None:
                clauses.append([-dst, holds[v]])
            # a node always has a source on a layer pruned both ways
            if here is not None:
                clauses.append([-dst] + [here[q] for q in preds[t] if q in here])
        # support: a cell value needs a node that it enters
        if holds is not None and later & (later - 1):  # else the unit clause above
            for v in (0, 1):
                clauses.append([-holds[v]] + reads[v])
    enc.aux_per_line[line] = pool.top - before


def _states(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: clauses between two checks of the memory left while encoding
CHECK_EVERY = 100_000


def encode(puzzle: Puzzle, board: Board, deadline: Deadline = NO_DEADLINE,
           code: LineCode = LineCode.AUTOMATON) -> Encoding:
    """The CNF of every line of ``board`` that still has unknown cells, each line as
    ``code`` says (colour lines are always automata). A board that logic leaves mostly
    open can take minutes and more memory than there is (a 400×400 one, 88M clauses), so
    the deadline and the room left are checked as the clauses grow."""
    if board.colours > 1:
        return _encode_colour(puzzle, board, deadline)
    enc = Encoding(board, code=code)
    encode_one = encode_line if code is LineCode.AUTOMATON else encode_line_order
    lengths = puzzle.lengths
    check_at = CHECK_EVERY
    for line in puzzle.lines():
        may_empty, may_fill = board.line(line)
        if not may_empty & may_fill:
            continue  # solved
        n = board.length(line)
        full = (1 << n) - 1
        encode_one(enc, line, lengths[line.axis][line.index], n, full & ~may_empty,
                   full & ~may_fill, _cell_vars(enc, line))
        deadline.check()  # a line of a large board costs milliseconds, the clock nothing
        if len(enc.clauses) >= check_at:
            check_at = len(enc.clauses) + CHECK_EVERY
            ensure_room(len(enc.clauses), "encoding the puzzle")
    return enc


def _encode_colour(puzzle: Puzzle, board: Board, deadline: Deadline) -> Encoding:
    """The CNF of a colour board: a literal per (unknown cell, colour it may still take),
    exactly one true per cell, and one colour automaton per line (:mod:`.colour`).
    ``cells[(r, c, colour)]`` is the literal of each."""
    from .colour import cell_clauses, encode_colour_line

    enc = Encoding(board)
    check_at = CHECK_EVERY

    def new_var() -> int:
        enc.pool.top += 1
        return enc.pool.top

    def literal(r: int, c: int, colour: int) -> int:
        v = enc.cells.get((r, c, colour))
        if v is None:
            v = enc.cells[(r, c, colour)] = enc.pool.id(("x", r, c, colour))
        return v

    for r, c in board.unknown_cells():
        options = [k for k in range(board.colours + 1) if board.may[ROW][k][r] >> c & 1]
        enc.clauses.extend(cell_clauses([literal(r, c, k) for k in options]))
    for line in puzzle.lines():
        may = board.line(line)
        n = board.length(line)
        blocks = puzzle.indexed[line.axis][line.index]
        open_cells = 0
        seen = 0
        for m in may:  # the cells still open: a line with none needs no clauses
            open_cells |= seen & m
            seen |= m
        if not open_cells:
            continue
        before = enc.pool.top
        ok = encode_colour_line(enc.clauses, new_var, blocks, n, may, _literals(literal, line))
        enc.aux_per_line[line] = enc.pool.top - before
        if not ok:
            enc.infeasible = True
            return enc
        deadline.check()
        if len(enc.clauses) >= check_at:
            check_at = len(enc.clauses) + CHECK_EVERY
            ensure_room(len(enc.clauses), "encoding the puzzle")
    return enc


def _literals(literal: Callable[[int, int, int], int], line: Line
              ) -> Callable[[int, int], int]:
    """The literal "cell i of ``line`` has colour k", made on first use."""
    def cell(i: int, k: int) -> int:
        r, c = line.cell(i)
        return literal(r, c, k)

    return cell


def _cell_vars(enc: Encoding, line: Line) -> Callable[[int], int]:
    """The variable of each cell of ``line`` (by position), made on first use."""
    return lambda i: cell_literal(enc, *line.cell(i))


@dataclass
class Residual:
    """What is left for a solver: the presolved board and the CNF of its unknown cells.
    ``encoding`` is None when logic decided everything: the clues contradict (``board`` is
    None, or the encoding found a line with no placement) or the board is solved."""

    presolved: Presolved
    encoding: Encoding | None = None
    contradiction: bool = False

    @property
    def board(self) -> Board | None:
        return None if self.contradiction else self.presolved.board


def residual(ctx: Context, start: Presolved, deadline: Deadline = NO_DEADLINE,
             code: LineCode = LineCode.AUTOMATON) -> Residual:
    """The CNF of what presolving left (``start``), its lines as ``code`` says: what every
    CNF consumer (the sat backend, ``check``, counting, ``satnono encode``) hands to a
    solver. Its size goes into ``ctx.stats``."""
    if start.board is None:
        return Residual(start, contradiction=True)
    if start.board.solved():
        return Residual(start)
    with gc_paused(), ctx.stats.timing("encode"):
        enc = encode(ctx.puzzle, start.board, deadline, code)
    if enc.infeasible:
        return Residual(start, contradiction=True)
    ctx.stats.unknown = len(enc.cells)
    ctx.stats.variables = enc.variables
    ctx.stats.clauses = len(enc.clauses)
    return Residual(start, enc)


def add_implications(enc: Encoding, pairs: Iterable[tuple[int, int]]) -> int:
    """Add probing's implications (:meth:`satnono.logic.compiled.Search.implications` of
    ``enc.board``: pairs "literal a implies literal b", a literal 2 × cell + filled) to a
    black-and-white CNF as binary clauses (a unit where a contradicts), each once; returns
    how many were added. Every one holds in every solution, and unit propagation over the
    lines' clauses would find it too, but only through a chain of lines: as one clause it
    is a step, and CDCL's learnt clauses come out shorter (nonosolve's "probe clauses").
    On Gettys, 99×59, Kissat's first solution comes in 5.4–6.5 s instead of 5.5–8.6 s over
    the eight orientations (benchmarks/results/NOTES.md)."""
    width = enc.board.width
    var = [0] * (enc.board.width * enc.board.height)
    for (r, c), v in enc.cells.items():
        var[r * width + c] = v
    units: set[int] = set()
    binary: set[tuple[int, int]] = set()
    for a, b in pairs:
        va = var[a >> 1]
        if va == 0:
            continue
        not_a = -va if a & 1 else va  # the clause's first literal: "not a"
        if b < 0:
            units.add(not_a)
            continue
        vb = var[b >> 1]
        if vb == 0:
            continue
        lit_b = vb if b & 1 else -vb
        # "a implies b" and "not b implies not a" are one clause: each once
        binary.add((min(not_a, lit_b), max(not_a, lit_b)))
    enc.clauses.extend([u] for u in sorted(units))
    enc.clauses.extend([x, y] for x, y in sorted(binary))
    return len(units) + len(binary)


def decode_solution(enc: Encoding, model: set[int] | list[int]) -> Solution:
    """The grid a model gives (positive literals of true variables)."""
    board = enc.board
    if board.colours == 1:
        return Solution(board.width, tuple(decode(enc, model)))
    true = set(lit for lit in model if lit > 0) if not isinstance(model, set) else model
    solved = board.copy()
    for (r, c, colour), v in enc.cells.items():
        if v in true:
            solved.set(r, c, colour)
    return solved.to_solution()


def decode(enc: Encoding, model: set[int] | list[int]) -> list[int]:
    """Row masks of the full grid from a model (positive literals of true variables)."""
    true = set(lit for lit in model if lit > 0) if not isinstance(model, set) else model
    rows = enc.board.filled_rows()
    for (r, c), v in enc.cells.items():
        if v in true:
            rows[r] |= 1 << c
    return rows
