"""Colour lines as automata, and their CNF: one literal per (cell, colour).

A colour clue is read by a deterministic automaton over the colour alphabet (0 is the
background). Its states: the start, a chain of states per block (entered by the block's
colour), and after each block a background state (entered by 0) that loops on 0. Between
two blocks of the same colour the background state must be passed; between blocks of
different colours the next block may also start right after the last cell of the one
before. Every state is entered by one symbol only, so — as for black and white
(:mod:`.residual`) — the node a path reaches after a cell says what colour the cell has,
and the CNF needs no transition variables. Read "closed" (one more background cell after
the line), it has one accepting state.

The CNF of a line, over the layered graph of (position, state) nodes reachable both ways
given what each cell may still be:

* a node implies the colour that enters it, and one of the nodes it can come from;
* a node implies one of the nodes it can go to; with its cell's colour, the one that colour
  leads to (or the colour is impossible there);
* a cell's colour implies one of the nodes that colour enters.

Each unknown cell has one literal per colour it may still take, and exactly one of them is
true (:func:`cell_clauses`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ColourAutomaton:
    """``delta[q]`` maps a symbol to the state it leads to; ``enters[q]`` is the symbol
    every transition into q reads; ``accept`` are the accepting states.

    Every transition goes one state on, two (from the end of a block straight into the
    next block of another colour) or stays (the background loops), so a set of states is
    a bit mask and a step is two shifts: ``on1[v]``, ``on2[v]`` and ``stay[v]`` are the
    states that reading symbol ``v`` moves one on, two on, or keeps (as for black and
    white, :mod:`.automaton`)."""

    delta: tuple[dict[int, int], ...]
    enters: tuple[int, ...]
    accept: frozenset[int]
    on1: tuple[int, ...]
    on2: tuple[int, ...]
    stay: tuple[int, ...]
    #: per state, the states it is entered from (by the one symbol that enters it)
    preds: tuple[tuple[int, ...], ...]

    @property
    def states(self) -> int:
        return len(self.delta)

    def transitions(self) -> list[tuple[int, int, int]]:
        return [(q, v, t) for q, moves in enumerate(self.delta) for v, t in moves.items()]

    def step(self, states: int, v: int) -> int:
        """The states reading ``v`` leads to from ``states``."""
        return (states & self.on1[v]) << 1 | (states & self.on2[v]) << 2 | \
            states & self.stay[v]

    def back(self, states: int, v: int) -> int:
        """The states from which reading ``v`` lands in ``states``."""
        return (states >> 1) & self.on1[v] | (states >> 2) & self.on2[v] | \
            states & self.stay[v]


def colour_automaton(blocks: Sequence[tuple[int, int]], closed: bool = False
                     ) -> ColourAutomaton:
    """The automaton of a colour clue; ``closed``: read over the line plus one background
    cell, so that only the background state after the last block accepts.

    >>> a = colour_automaton([(1, 2), (1, 1)])
    >>> a.transitions()  # red then black, touching or not
    [(0, 0, 0), (0, 2, 1), (1, 0, 2), (1, 1, 3), (2, 0, 2), (2, 1, 3), (3, 0, 4), (4, 0, 4)]
    """
    delta: list[dict[int, int]] = [{0: 0}]
    enters = [0]
    waiting = [0]  # the states from which the next block may start
    accept = {0}
    for j, (length, colour) in enumerate(blocks):
        first = len(delta)
        for q in waiting:
            delta[q][colour] = first
        for k in range(length):
            delta.append({})
            enters.append(colour)
            if k:
                delta[first + k - 1][colour] = first + k
        end = len(delta) - 1
        gap = len(delta)
        delta.append({0: gap})
        enters.append(0)
        delta[end][0] = gap
        following = blocks[j + 1][1] if j + 1 < len(blocks) else None
        waiting = [gap] if following == colour else [end, gap]
        accept = {end, gap}
    if closed:
        accept = {q for q in accept if enters[q] == 0}
    symbols = 1 + max((colour for _, colour in blocks), default=0)
    on1, on2, stay = [0] * symbols, [0] * symbols, [0] * symbols
    preds: list[list[int]] = [[] for _ in delta]
    for q, moves in enumerate(delta):
        for v, t in moves.items():
            by = (stay, on1, on2)[t - q]  # the construction moves 0, 1 or 2 states on
            by[v] |= 1 << q
            preds[t].append(q)
    return ColourAutomaton(tuple(delta), tuple(enters), frozenset(accept), tuple(on1),
                           tuple(on2), tuple(stay), tuple(map(tuple, preds)))


def colour_layers(auto: ColourAutomaton, n: int, may: Sequence[int]) -> list[int] | None:
    """Per position 0..n, the states (a bit mask) on some accepting path that agrees with
    ``may`` (per colour, the cells that may take it); None when there is no such path."""
    symbols = range(min(len(may), len(auto.on1)))
    fwd = [1]
    for i in range(n):
        here = fwd[-1]
        nxt = 0
        for v in symbols:
            if may[v] >> i & 1:
                nxt |= auto.step(here, v)
        fwd.append(nxt)
    end = fwd[n] & sum(1 << q for q in auto.accept)
    if not end:
        return None
    out = [0] * (n + 1)
    out[n] = end
    for i in range(n - 1, -1, -1):
        later = out[i + 1]
        prev = 0
        for v in symbols:
            if may[v] >> i & 1:
                prev |= auto.back(later, v)
        out[i] = prev & fwd[i]
    return out


def _states(mask: int) -> list[int]:
    """The states of a bit mask, in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def encode_colour_line(clauses: list[list[int]], new_var: Callable[[], int],
                       blocks: Sequence[tuple[int, int]], n: int, may: Sequence[int],
                       cell_var: Callable[[int, int], int]) -> bool:
    """Add the clauses of one line (read closed, over one more background cell);
    ``cell_var(i, colour)`` is the literal "cell i has that colour" of an unknown cell,
    ``new_var()`` a fresh variable. False when the line has no placement left.

    Black and white is a palette of one colour: with ``cell_var(i, 0) = -x`` and
    ``cell_var(i, 1) = x`` for the cell's one variable these are the clauses of the
    two-symbol automaton, a variable a cell and no exactly-one clauses."""
    auto = colour_automaton(blocks, closed=True)
    full = may[0] | (1 << n)  # the virtual background cell the closing reads
    may = [full] + [m for m in may[1:]]
    length = n + 1
    nodes = colour_layers(auto, length, may)
    if nodes is None:
        clauses.append([])
        return False
    symbols = range(len(may))
    states = [_states(mask) for mask in nodes]
    enters, preds = auto.enters, auto.preds
    # per state, where each symbol leads (None: nowhere)
    delta = [[moves.get(v) for v in symbols] for moves in auto.delta]
    # per layer, state -> variable, made on first use; None for a layer of one node
    # (a constant: always the start and the end)
    var: list[dict[int, int] | None] = [None if len(st) == 1 else {} for st in states]

    for i in range(length):
        opts = [v for v in symbols if may[v] >> i & 1]
        known = len(opts) == 1
        holds = {} if known else {v: cell_var(i, v) for v in opts}
        later = nodes[i + 1]
        here, there = var[i], var[i + 1]
        # forward: a node goes on to where its cell's colour leads, and to some node
        if here is not None:
            for q in states[i]:
                src = here[q]  # made while layer i was the later one (layer 0 is constant)
                onward: list[int] | None = []
                for v in opts:
                    t = delta[q][v]
                    if t is None or not later >> t & 1:
                        if not known:
                            clauses.append([-src, -holds[v]])
                        continue
                    if there is None:
                        onward = None  # a constant successor: nothing to require
                        continue
                    dst = there.get(t)
                    if dst is None:
                        dst = there[t] = new_var()
                    if onward is not None:
                        onward.append(dst)
                    if not known:
                        clauses.append([-src, -holds[v], dst])
                if onward is not None:
                    clauses.append([-src] + onward)
        # backward: a node holds the colour that enters it and comes from some node
        reads: dict[int, list[int]] = {v: [] for v in opts}
        for t in states[i + 1]:
            v = enters[t]
            if there is None:
                if not known:
                    clauses.append([holds[v]])
                continue
            dst = there.get(t)
            if dst is None:
                dst = there[t] = new_var()
            reads[v].append(dst)
            if not known:
                clauses.append([-dst, holds[v]])
            if here is not None:  # a node always has a source on a layer pruned both ways
                clauses.append([-dst] + [here[q] for q in preds[t] if q in here])
        # support: a colour of the cell needs a node it enters
        if not known and there is not None:
            for v in opts:
                clauses.append([-holds[v]] + reads[v])
    return True


def cell_clauses(literals: Sequence[int]) -> list[list[int]]:
    """Exactly one of a cell's colour literals: at least one, and no two."""
    out = [list(literals)]
    for a in range(len(literals)):
        for b in range(a + 1, len(literals)):
            out.append([-literals[a], -literals[b]])
    return out
