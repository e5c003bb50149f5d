"""The plain line solver: the reference the fast one is held to.

The dynamic programme over (block, position) of the classic line-solving papers, written
for reading rather than speed (O(n·k) table cells): ``fwd[j][p]`` says blocks 0..j-1 fit in
cells [0, p), ``bwd[j][p]`` that blocks j..k-1 fit in [p, n). A block may start at s when
the blocks before it fit to its left and the ones after it to its right; a cell may be
empty when some split point leaves it between two blocks. The property tests hold it and
:func:`satnono.logic.line.solve_line` to brute force and to each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .line import LineResult


def solve_line_reference(clue: Sequence[int], n: int, filled: int = 0, empty: int = 0
                         ) -> LineResult | None:
    """The dynamic programme over (block, position), written plainly: the reference."""
    k = len(clue)

    def may0(i: int) -> bool:
        return not filled >> i & 1

    # prefix count of known-empty cells, to test "cells a..b-1 may all be filled" in O(1)
    pe = [0] * (n + 1)
    for i in range(n):
        pe[i + 1] = pe[i] + (empty >> i & 1)

    def may1(a: int, b: int) -> bool:
        return 0 <= a <= b <= n and pe[b] == pe[a]

    # fwd[j][p]: blocks 0..j-1 placed inside cells [0, p), every other cell there empty
    fwd = [[False] * (n + 1) for _ in range(k + 1)]
    fwd[0][0] = True
    for p in range(1, n + 1):
        fwd[0][p] = fwd[0][p - 1] and may0(p - 1)
    for j in range(1, k + 1):
        b = clue[j - 1]
        for p in range(1, n + 1):
            ok = fwd[j][p - 1] and may0(p - 1)
            s = p - b
            if not ok and s >= 0 and may1(s, p):
                if j == 1:
                    ok = fwd[0][s]
                else:
                    ok = s >= 1 and may0(s - 1) and fwd[j - 1][s - 1]
            fwd[j][p] = ok
    # bwd[j][p]: blocks j..k-1 placed inside cells [p, n), every other cell there empty
    bwd = [[False] * (n + 1) for _ in range(k + 1)]
    bwd[k][n] = True
    for p in range(n - 1, -1, -1):
        bwd[k][p] = bwd[k][p + 1] and may0(p)
    for j in range(k - 1, -1, -1):
        b = clue[j]
        for p in range(n - 1, -1, -1):
            ok = bwd[j][p + 1] and may0(p)
            e = p + b
            if not ok and may1(p, e):
                if j == k - 1:
                    ok = bwd[k][e]
                else:
                    ok = e < n and may0(e) and bwd[j + 1][e + 1]
            bwd[j][p] = ok
    if not fwd[k][n]:
        return None
    may_fill = 0
    may_empty = 0
    starts = []
    for j in range(k):
        b = clue[j]
        sj = 0
        for s in range(0, n - b + 1):
            if not may1(s, s + b):
                continue
            left = fwd[0][s] if j == 0 else (s >= 1 and may0(s - 1) and fwd[j][s - 1])
            if not left:
                continue
            e = s + b
            right = bwd[k][e] if j == k - 1 else (e < n and may0(e) and bwd[j + 1][e + 1])
            if right:
                sj |= 1 << s
                may_fill |= ((1 << b) - 1) << s
        starts.append(sj)
    for c in range(n):
        if may0(c) and any(fwd[j][c] and bwd[j][c + 1] for j in range(k + 1)):
            may_empty |= 1 << c
    full = (1 << n) - 1
    return LineResult(full & ~may_empty, full & ~may_fill, tuple(starts))


def solve_colour_reference(blocks: tuple[tuple[int, int], ...], n: int,
                           may: Sequence[int]) -> tuple[int, ...] | None:
    """The colour line solver written plainly: the reference for
    :func:`satnono.logic.line.narrow_colour`.

    A dynamic programme over (blocks placed j, position p, whether block j-1 ends exactly
    at p): the last says whether a block of the same colour may start at p (it may not —
    blocks of one colour need a background cell between them; blocks of different colours
    may touch). ``fwd`` holds the states reachable from the start, ``bwd`` those from which
    the end is reachable; a colour is possible at a cell when a step that gives it the
    colour joins the two.
    """
    k = len(blocks)

    def may_take(colour: int, a: int, b: int) -> bool:
        return all(may[colour] >> i & 1 for i in range(a, b))

    def moves(j: int, p: int, touching: bool) -> list[tuple[int, int, bool, int, int]]:
        """(next j, next p, touching, colour, cells from p) of each step from a state."""
        out = []
        if p < n and may[0] >> p & 1:
            out.append((j, p + 1, False, 0, 1))
        if j < k:
            b, colour = blocks[j]
            if (p + b <= n and may_take(colour, p, p + b)
                    and not (touching and blocks[j - 1][1] == colour)):
                out.append((j + 1, p + b, True, colour, b))
        return out

    fwd = {(0, 0, False)}
    order = [(j, p, t) for p in range(n + 1) for j in range(k + 1) for t in (False, True)]
    for state in order:  # positions only grow, so this order reaches every state in time
        if state in fwd:
            for j, p, t, _, _ in moves(*state):
                fwd.add((j, p, t))
    bwd = {(k, n, False), (k, n, True)}
    for state in reversed(order):
        if any((j, p, t) in bwd for j, p, t, _, _ in moves(*state)):
            bwd.add(state)
    if not fwd & {(k, n, False), (k, n, True)}:
        return None
    out = [0] * len(may)
    for state in fwd & bwd:
        for j, p, t, colour, cells in moves(*state):
            if (j, p, t) in bwd:
                for i in range(state[1], state[1] + cells):
                    out[colour] |= 1 << i
    return tuple(out)
