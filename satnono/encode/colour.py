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
    every transition into q reads; ``accept`` are the accepting states."""

    delta: tuple[dict[int, int], ...]
    enters: tuple[int, ...]
    accept: frozenset[int]

    @property
    def states(self) -> int:
        return len(self.delta)

    def transitions(self) -> list[tuple[int, int, int]]:
        return [(q, v, t) for q, moves in enumerate(self.delta) for v, t in moves.items()]


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
    return ColourAutomaton(tuple(delta), tuple(enters), frozenset(accept))


def colour_layers(auto: ColourAutomaton, n: int, may: Sequence[int]) -> list[set[int]] | None:
    """Per position 0..n, the states on some accepting path that agrees with ``may`` (per
    colour, the cells that may take it); None when there is no such path."""
    fwd = [{0}]
    for i in range(n):
        nxt = set()
        for q in fwd[-1]:
            for v, t in auto.delta[q].items():
                if may[v] >> i & 1:
                    nxt.add(t)
        fwd.append(nxt)
    end = fwd[n] & auto.accept
    if not end:
        return None
    out: list[set[int]] = [set() for _ in range(n + 1)]
    out[n] = set(end)
    for i in range(n - 1, -1, -1):
        out[i] = {q for q in fwd[i]
                  if any(may[v] >> i & 1 and t in out[i + 1] for v, t in auto.delta[q].items())}
    return out


def encode_colour_line(clauses: list[list[int]], new_var: Callable[[], int],
                       blocks: Sequence[tuple[int, int]], n: int, may: Sequence[int],
                       cell_var: Callable[[int, int], int]) -> bool:
    """Add the clauses of one colour line (read closed, over one more background cell);
    ``cell_var(i, colour)`` is the literal "cell i has that colour" of an unknown cell,
    ``new_var()`` a fresh variable. False when the line has no placement left."""
    auto = colour_automaton(blocks, closed=True)
    full = may[0] | (1 << n)  # the virtual background cell the closing reads
    may = [full] + [m for m in may[1:]]
    length = n + 1
    nodes = colour_layers(auto, length, may)
    if nodes is None:
        clauses.append([])
        return False
    colours = range(len(may))

    def options(i: int) -> list[int]:
        return [v for v in colours if may[v] >> i & 1]

    var: list[dict[int, int] | None] = [None if len(st) == 1 else {} for st in nodes]

    def node(i: int, q: int) -> int | None:
        """The variable of node (i, q); None for a layer of one node (a constant)."""
        layer = var[i]
        if layer is None:
            return None
        v = layer.get(q)
        if v is None:
            v = layer[q] = new_var()
        return v

    for i in range(length):
        opts = options(i)
        known = len(opts) == 1
        holds = {v: cell_var(i, v) for v in opts} if not known else {}
        later = nodes[i + 1]
        # forward: a node goes on to where its cell's colour leads, and to some node
        for q in sorted(nodes[i]):
            src = node(i, q)
            if src is None:
                continue
            onward: list[int] | None = []
            for v in opts:
                t = auto.delta[q].get(v)
                if t is None or t not in later:
                    if not known:
                        clauses.append([-src, -holds[v]])
                    continue
                dst = node(i + 1, t)
                if dst is None:
                    onward = None
                    continue
                if onward is not None:
                    onward.append(dst)
                if not known:
                    clauses.append([-src, -holds[v], dst])
            if onward is not None:
                clauses.append([-src] + onward)
        # backward: a node holds the colour that enters it and comes from some node
        reads: dict[int, list[int]] = {v: [] for v in opts}
        for t in sorted(later):
            v = auto.enters[t]
            dst = node(i + 1, t)
            if dst is None:
                if not known:
                    clauses.append([holds[v]])
                continue
            reads[v].append(dst)
            if not known:
                clauses.append([-dst, holds[v]])
            here = [node(i, q) for q in nodes[i] if auto.delta[q].get(v) == t]
            if all(h is not None for h in here):
                clauses.append([-dst] + [h for h in here if h is not None])
        # support: a colour of the cell needs a node it enters
        if not known and var[i + 1] is not None:
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
