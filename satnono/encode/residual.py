"""CNF of the residual puzzle: the unknown cells after propagation, one automaton per line.

Each line that still has unknown cells becomes a layered automaton (the decomposition of
the regular constraint, Pesant 2004; its CNF form after Bacchus, "GAC via unit propagation",
2007): a variable per reachable (position, state) node. The line is read with a closing
gap after its last block, over one virtual background cell, so that every state is
entered by one symbol only; the node reached after a cell then says what the cell holds,
and the transition variables of the textbook decomposition are not needed. The clauses
(written once, for any palette, in :func:`.colour.encode_colour_line`):

* a node implies the colour that enters it, and one of the nodes it can come from;
* a node implies one of the nodes it can go to; with its cell's colour, the one that
  colour leads to (or the colour is impossible);
* a cell's colour implies one of the nodes it enters.

Unit propagation on these clauses derives exactly what the complete line solver derives,
and with every cell given it fixes every node (the tests check both), so the nodes are
functions of the cells. The forward clauses with the cell's value are not needed for that;
they are there because they make CaDiCaL faster (benchmarks/results/NOTES.md). The size is
linear in nodes, with no pairwise block constraints. Black and white is a palette of one
colour with one variable a cell ("filled", its negation the background); in colour a cell
has a literal per colour it may still take, exactly one of them true. Black and white may
instead take the order encoding (:mod:`.order`, the sat backend's). Known cells are
constants: they prune the graph and never become variables. Variables come from pysat's
``IDPool``: cells by name, so every model maps back to the grid; the nodes anonymously,
since nothing reads them back.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
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
from ..tuning import TUNING
from .encoding import Encoding
from .order import encode_line_order


def cell_literal(enc: Encoding, r: int, c: int) -> int:
    v = enc.cells.get((r, c))
    if v is None:
        v = enc.cells[(r, c)] = enc.pool.id(("x", r, c))
    return v




def encode_line(enc: Encoding, line: Hashable, clue: tuple[int, ...], n: int, filled: int,
                empty: int, cell_var: Callable[[int], int]) -> None:
    """Add the automaton clauses of one black-and-white line (``line`` names it in
    ``enc.aux_per_line``), ``cell_var(i)`` the variable of unknown cell i: the colour
    encoder over a palette of one colour (the same signature as
    :func:`.order.encode_line_order`)."""
    full = (1 << n) - 1
    _automaton_line(enc, line, [(b, 1) for b in clue], n, (full & ~filled, full & ~empty),
                    _filled_literals(cell_var))


def _automaton_line(enc: Encoding, line: Hashable, blocks: Sequence[tuple[int, int]], n: int,
                    may: Sequence[int], literal: Callable[[int, int], int]) -> None:
    """Add the automaton clauses of one line of any palette (:func:`.colour.
    encode_colour_line`; ``literal(i, k)``: "cell i has colour k"), counting its nodes in
    ``enc.aux_per_line``; a line with no placement left makes ``enc`` infeasible."""
    from .colour import encode_colour_line

    before = enc.pool.top
    if not encode_colour_line(enc.clauses, enc.new_var, blocks, n, may, literal):
        enc.infeasible = True
    enc.aux_per_line[line] = enc.pool.top - before


def _filled_literals(cell_var: Callable[[int], int]) -> Callable[[int, int], int]:
    """Black and white's literal "cell i has colour k": the cell's one variable, negated
    for the background."""
    return lambda i, k: cell_var(i) if k else -cell_var(i)


def encode(puzzle: Puzzle, board: Board, deadline: Deadline = NO_DEADLINE,
           code: LineCode = LineCode.AUTOMATON, check_every: int = TUNING.check_every
           ) -> Encoding:
    """The CNF of every line of ``board`` that still has unknown cells, each line an
    automaton (:func:`.colour.encode_colour_line`), or in black and white as ``code``
    says. A board that logic leaves mostly open can take minutes and more memory than
    there is (a 400×400 one, 88M clauses), so the deadline and the room left are checked
    as the clauses grow (the room every ``check_every`` clauses)."""
    from .colour import cell_clauses

    black_and_white = board.colours == 1
    enc = Encoding(board, code=code if black_and_white else LineCode.AUTOMATON)
    by_order = black_and_white and code is LineCode.ORDER
    check_at = check_every
    if not black_and_white:  # a literal per colour a cell may take, exactly one true
        for r, c in board.unknown_cells():
            options = [k for k in range(board.colours + 1) if board.may[ROW][k][r] >> c & 1]
            enc.clauses.extend(cell_clauses([_colour_literal(enc, r, c, k) for k in options]))
    for line in puzzle.lines():
        may = board.line(line)
        open_cells = seen = 0
        for m in may:  # the cells still open: a line with none needs no clauses
            open_cells |= seen & m
            seen |= m
        if not open_cells:
            continue
        n = board.length(line)
        if by_order:
            full = (1 << n) - 1
            encode_line_order(enc, line, puzzle.lengths[line.axis][line.index], n,
                              full & ~may[0], full & ~may[1], _cell_vars(enc, line))
        else:
            literal = _filled_literals(_cell_vars(enc, line)) if black_and_white else \
                _literals(enc, line)
            _automaton_line(enc, line, puzzle.indexed[line.axis][line.index], n, may, literal)
        if enc.infeasible:
            return enc
        deadline.check()  # a line of a large board costs milliseconds, the clock nothing
        if len(enc.clauses) >= check_at:
            check_at = len(enc.clauses) + check_every
            ensure_room(len(enc.clauses), "encoding the puzzle")
    return enc


def _colour_literal(enc: Encoding, r: int, c: int, colour: int) -> int:
    """The literal "cell (r, c) has ``colour``", made on first use."""
    v = enc.cells.get((r, c, colour))
    if v is None:
        v = enc.cells[(r, c, colour)] = enc.pool.id(("x", r, c, colour))
    return v


def _literals(enc: Encoding, line: Line) -> Callable[[int, int], int]:
    """The literal "cell i of ``line`` has colour k", made on first use."""
    def cell(i: int, k: int) -> int:
        r, c = line.cell(i)
        return _colour_literal(enc, r, c, k)

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
        enc = encode(ctx.puzzle, start.board, deadline, code, ctx.tuning.check_every)
    if enc.infeasible:
        return Residual(start, contradiction=True)
    ctx.stats.unknown = len(enc.cells)
    ctx.stats.variables = enc.variables
    ctx.stats.clauses = len(enc.clauses)
    return Residual(start, enc)


def add_implications(enc: Encoding, pairs: Iterable[tuple[int, int]]) -> int:
    """Add probing's implications (:meth:`satnono.logic.compiled.Search.implications` of
    ``enc.board``: pairs "a implies not b", a literal ``cell × (colours + 1) + value`` the
    cell taking that value, b = -1 where a contradicts) to the CNF as binary clauses (a
    unit where a contradicts), each once, in either palette; returns how many were added.
    Every one holds in every solution, and unit propagation over the lines' clauses would
    find it too, but only through a chain of lines: as one clause it is a step, and CDCL's
    learnt clauses come out shorter (nonosolve's "probe clauses"). On Gettys, 99×59,
    Kissat's first solution comes in 5.4–6.5 s instead of 5.5–8.6 s over the eight
    orientations (benchmarks/results/NOTES.md)."""
    board = enc.board
    width, values = board.width, board.colours + 1
    lit: dict[int, int] = {}  # literal -> the CNF's literal "the cell takes that value"
    if board.colours == 1:
        for (r, c), v in enc.cells.items():
            lit[2 * (r * width + c)] = -v
            lit[2 * (r * width + c) + 1] = v
    else:
        for (r, c, colour), v in enc.cells.items():
            lit[(r * width + c) * values + colour] = v
    units: set[int] = set()
    binary: set[tuple[int, int]] = set()
    for a, b in pairs:
        la = lit.get(a)
        if la is None:
            continue
        if b < 0:
            units.add(-la)
            continue
        lb = lit.get(b)
        if lb is None:
            continue
        # "a implies not b" and "b implies not a" are one clause: each once
        binary.add((min(-la, -lb), max(-la, -lb)))
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
