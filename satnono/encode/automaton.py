"""The clue automaton as bit masks, and its layered graph for one line.

A clue read as a finite automaton over the line's cells, as in Posov's "Solving Japanese
crosswords with finite automata".

Pattern of clue b1..bk: ``1^b1 0 1^b2 0 … 1^bk``, length m = Σb + k − 1. State q means
"the first q pattern symbols read". Reading 1 needs pattern symbol q to be 1 and goes to
q+1; reading 0 goes to q+1 over a mandatory gap, or stays at q in the free stretches
(before the first block, right after a gap, after the last block). The automaton is
deterministic, so a line's placements are exactly its paths from (0, 0) to (n, m).

The encoders use only the (position, state) nodes reachable forward from the start and
backward from the accepting state given the known cells — the same pruning the line
solver does — so solved lines and dead states cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Automaton:
    length: int  # m: the accepting state
    one: int  # states that may read 1 (pattern symbol q is 1)
    gap: int  # states whose next symbol is a mandatory 0
    loop: int  # states that may read 0 and stay

    def step(self, states: int, value: int) -> int:
        if value:
            return (states & self.one) << 1
        return ((states & self.gap) << 1) | (states & self.loop)

    def back(self, states: int, value: int) -> int:
        """States from which reading ``value`` lands in ``states``."""
        if value:
            return (states >> 1) & self.one
        return ((states >> 1) & self.gap) | (states & self.loop)

    def target(self, q: int, value: int) -> int | None:
        if value:
            return q + 1 if self.one >> q & 1 else None
        if self.gap >> q & 1:
            return q + 1
        return q if self.loop >> q & 1 else None

    def transitions(self) -> list[tuple[int, int, int]]:
        return [(q, v, t) for q in range(self.length + 1) for v in (0, 1)
                if (t := self.target(q, v)) is not None]


def automaton(clue: Sequence[int]) -> Automaton:
    return _from_pattern(_pattern(clue))


def closed_automaton(clue: Sequence[int]) -> Automaton:
    """The automaton of ``clue`` followed by one mandatory gap, to be read over the line
    plus one virtual empty cell. Then every state is entered by one symbol only (1 inside
    a block, 0 before the first block or after a gap), so a state says what the cell just
    read holds: what lets the CNF do without transition variables. Needs at least one
    block (the empty clue's automaton, a single state, has that property already)."""
    if not clue:
        raise ValueError("closed_automaton needs a clue with at least one block")
    return _from_pattern(_pattern(clue) + [0])


def entered_by(auto: Automaton, q: int) -> int:
    """The symbol every transition into state q reads (closed automata; in a plain one
    the accepting state is entered by both)."""
    return auto.one >> (q - 1) & 1 if q else 0


def _pattern(clue: Sequence[int]) -> list[int]:
    pattern: list[int] = []
    for j, b in enumerate(clue):
        if j:
            pattern.append(0)
        pattern += [1] * b
    return pattern


def _from_pattern(pattern: list[int]) -> Automaton:
    m = len(pattern)
    one = sum(1 << q for q, s in enumerate(pattern) if s == 1)
    gap = sum(1 << q for q, s in enumerate(pattern) if s == 0)
    loop = 1 | (1 << m) | sum(1 << q for q in range(1, m) if pattern[q - 1] == 0)
    return Automaton(m, one, gap, loop & ~gap)


def layers(auto: Automaton, n: int, filled: int, empty: int) -> list[int] | None:
    """Per position 0..n, the states on some accepting path that agrees with the known
    cells (bit q = state q); None when there is no such path."""
    fwd = [1]
    for i in range(n):
        s = fwd[-1]
        nxt = 0
        if not empty >> i & 1:
            nxt |= auto.step(s, 1)
        if not filled >> i & 1:
            nxt |= auto.step(s, 0)
        fwd.append(nxt)
    if not fwd[n] >> auto.length & 1:
        return None
    out = [0] * (n + 1)
    b = 1 << auto.length
    out[n] = b
    for i in range(n - 1, -1, -1):
        prev = 0
        if not empty >> i & 1:
            prev |= auto.back(b, 1)
        if not filled >> i & 1:
            prev |= auto.back(b, 0)
        b = prev & fwd[i]
        out[i] = b
    return out
