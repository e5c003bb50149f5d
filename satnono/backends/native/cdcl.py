"""A conflict-driven clause-learning search over boolean variables, with a theory beside it.

The search of a CDCL SAT solver (Marques-Silva & Sakallah's GRASP; MiniSat's watched
literals, activity heap and phase saving, Eén & Sörensson 2003), written for a theory that
does most of the propagating: here the clauses are only the learnt ones, and everything else
is derived by the theory (the line solver, :mod:`.line_theory`), which explains each
derivation lazily, only when a conflict needs it:

* clauses propagate by two watched literals, the theory one step at a time after them;
* conflict analysis resolves explanations back to the first unique implication point
  (1-UIP), learns the clause, and jumps back to the level where it becomes unit;
* decisions take the most active variable (variables in recent conflicts first) with its
  saved phase; restarts follow the Luby sequence (Luby, Sinclair & Zuckerman 1993);
* every solution is blocked by the negation of its decisions — sound, because decisions
  and propagation fix every variable — so enumeration is complete and yields each
  solution once.

Literals are ``2*var + value``: "variable ``var`` takes ``value``" (0 or 1).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import Generic, Protocol, TypeVar

from ...logic.context import Stats
from ...logic.events import Blocked, Branch, Event, Found, Learnt
from ...runtime.deadline import Deadline

T = TypeVar("T")

#: what :meth:`Theory.step` returns when its queue is empty, or after a step without conflict
IDLE, BUSY = -1, -2

_RESTART_BASE = 64  # conflicts per Luby unit


class Theory(Protocol[T]):
    """What the search asks of its theory. Reasons are the theory's own tokens (ints from
    0); the theory explains them only when conflict analysis asks."""

    def assigned(self, var: int, value: int) -> None:
        """``var`` took ``value`` (decision, clause or theory): queue the work it makes."""

    def unassigned(self, var: int) -> None:
        """``var`` is free again (a backjump)."""

    def forget_queue(self) -> None:
        """Drop pending work (a backjump undid what queued it)."""

    def step(self, search: CDCL[T]) -> int:
        """Propagate one piece of pending work, assigning what it derives through
        :meth:`CDCL.imply`. Returns IDLE (nothing pending), BUSY (done, no conflict), or a
        conflict token (>= 0) for :meth:`conflict_reason`."""

    def reason(self, var: int, token: int) -> list[int]:
        """Variables whose current values force ``var``'s (its value was derived with
        ``token``)."""

    def conflict_reason(self, token: int) -> list[int]:
        """Variables whose current values contradict (the conflict ``token``)."""

    def solution(self) -> T:
        """What a full assignment is (called when every variable has a value)."""

    def branch(self, var: int, value: int, depth: int) -> Branch:
        """The observer's event for a decision: ``var`` takes ``value``, ``depth`` deep."""


def luby(i: int) -> int:
    """The i-th (1-based) term of the Luby sequence 1 1 2 1 1 2 4 …

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class CDCL(Generic[T]):
    """One search over ``n`` variables with ``theory``; :meth:`run` yields solutions.

    ``val[v]`` is -1 while free; ``lvl``/``pos`` the decision level and trail position it
    was assigned at; ``rsn`` its reason: None for a decision, a theory token (>= 0), or
    ``-(clause index + 1)``.
    """

    def __init__(self, n: int, theory: Theory[T], stats: Stats,
                 trace: Callable[[Event], None] | None = None):
        self.theory = theory
        self.stats = stats
        self.trace = trace
        self.val = [-1] * n
        self.lvl = [0] * n
        self.pos = [0] * n
        self.rsn: list[int | None] = [None] * n
        self.trail: list[int] = []
        self.lims: list[int] = []  # trail length at each decision
        self.qhead = 0
        self.clauses: list[list[int]] = []
        self.watches: list[list[int]] = [[] for _ in range(2 * n)]
        self.act = [0.0] * n
        self.inc = 1.0
        self.phase = [1] * n
        self.heap = [(0.0, v) for v in range(n)]

    # -- assignment -------------------------------------------------------------------

    def imply(self, var: int, value: int, reason: int | None) -> None:
        """Assign ``var`` at the current level (``reason``: see the class)."""
        self.val[var] = value
        self.lvl[var] = len(self.lims)
        self.pos[var] = len(self.trail)
        self.rsn[var] = reason
        self.trail.append(var)
        self.theory.assigned(var, value)

    def _backjump(self, level: int) -> None:
        if len(self.lims) <= level:
            return
        stop = self.lims[level]
        val, act, heap, phase = self.val, self.act, self.heap, self.phase
        unassigned = self.theory.unassigned
        for var in self.trail[stop:]:
            unassigned(var)
            phase[var] = val[var]
            val[var] = -1
            heapq.heappush(heap, (-act[var], var))
        del self.trail[stop:]
        del self.lims[level:]
        self.qhead = stop
        self.theory.forget_queue()

    # -- propagation ------------------------------------------------------------------

    def _propagate(self) -> list[int] | int | None:
        """Clauses, then the theory, to a fixed point. A conflict is the variables of the
        clause whose literals are all false, or the theory's conflict token (explained
        only if the conflict is analysed)."""
        val, trail, watches, clauses = self.val, self.trail, self.watches, self.clauses
        theory = self.theory
        while True:
            while self.qhead < len(trail):
                var = trail[self.qhead]
                self.qhead += 1
                false_lit = 2 * var + 1 - val[var]
                ws = watches[false_lit]
                if not ws:
                    continue
                keep: list[int] = []
                for k, ci in enumerate(ws):
                    cl = clauses[ci]
                    if cl[0] == false_lit:
                        cl[0], cl[1] = cl[1], false_lit
                    first = cl[0]
                    v = val[first >> 1]
                    if v == first & 1:
                        keep.append(ci)
                        continue
                    for j in range(2, len(cl)):
                        lit = cl[j]
                        lv = val[lit >> 1]
                        if lv < 0 or lv == lit & 1:
                            cl[1], cl[j] = lit, false_lit
                            watches[lit].append(ci)
                            break
                    else:
                        keep.append(ci)
                        if v >= 0:  # every literal false
                            keep.extend(ws[k + 1:])
                            watches[false_lit] = keep
                            return [lit >> 1 for lit in cl]
                        self.imply(first >> 1, first & 1, -(ci + 1))
                watches[false_lit] = keep
            status = theory.step(self)
            if status == IDLE:
                return None
            if status >= 0:
                return status

    # -- learning ---------------------------------------------------------------------

    def _reason(self, var: int) -> list[int]:
        """The other variables of the clause (or theory explanation) that forced ``var``."""
        r = self.rsn[var]
        assert r is not None
        if r >= 0:
            return self.theory.reason(var, r)
        return [lit >> 1 for lit in self.clauses[-r - 1] if lit >> 1 != var]

    def _bump(self, var: int) -> None:
        a = self.act[var] + self.inc
        self.act[var] = a
        if a > 1e100:
            self.act = [x * 1e-100 for x in self.act]
            self.inc *= 1e-100
            self.heap = [(-self.act[v], v) for v in range(len(self.act)) if self.val[v] < 0]
            heapq.heapify(self.heap)
        elif self.val[var] < 0:
            heapq.heappush(self.heap, (-a, var))

    def _analyze(self, conflict: list[int] | int) -> tuple[list[int], int]:
        """First-UIP clause (literals, asserting one first) and the level to jump to."""
        if isinstance(conflict, int):
            conflict = self.theory.conflict_reason(conflict)
        level = len(self.lims)
        lvl, trail, val = self.lvl, self.trail, self.val
        seen = set()
        rest: list[int] = []
        count = 0
        i = len(trail) - 1
        reason = conflict
        while True:
            for y in reason:
                if y not in seen and lvl[y] > 0:
                    seen.add(y)
                    self._bump(y)
                    if lvl[y] == level:
                        count += 1
                    else:
                        rest.append(y)
            while trail[i] not in seen:
                i -= 1
            p = trail[i]
            i -= 1
            count -= 1
            if count == 0:
                break
            reason = self._reason(p)
        self.inc /= 0.95
        learnt = [2 * p + 1 - val[p]] + [2 * y + 1 - val[y] for y in rest]
        back = 0
        if rest:
            j = max(range(len(rest)), key=lambda k: lvl[rest[k]])
            back = lvl[rest[j]]
            learnt[1], learnt[j + 1] = learnt[j + 1], learnt[1]  # watch the latest one
        return learnt, back

    def _add(self, clause: list[int], back: int) -> None:
        """Jump back to ``back`` and assert ``clause[0]`` (the other literals are false)."""
        self._backjump(back)
        first = clause[0]
        if len(clause) == 1:
            self.imply(first >> 1, first & 1, None)
            return
        ci = len(self.clauses)
        self.clauses.append(clause)
        self.watches[clause[0]].append(ci)
        self.watches[clause[1]].append(ci)
        self.imply(first >> 1, first & 1, -(ci + 1))

    def _decide(self) -> bool:
        """Assign the most active free variable its saved phase; False if none is left."""
        heap, val = self.heap, self.val
        while heap:
            _, var = heapq.heappop(heap)
            if val[var] < 0:
                self.lims.append(len(self.trail))
                self.imply(var, self.phase[var], None)
                return True
        return False

    # -- the loop ---------------------------------------------------------------------

    def run(self, deadline: Deadline) -> Iterator[T]:
        """Every solution, each once; SearchTimeout when ``deadline`` passes."""
        stats, trace = self.stats, self.trace
        restart_at, luby_i = _RESTART_BASE, 1
        since_restart = 0
        while True:
            conflict = self._propagate()
            if conflict is not None:
                stats.conflicts += 1
                since_restart += 1
                if not self.lims:
                    return  # a conflict with no decision: nothing (more) to find
                # each conflict costs theory steps, milliseconds on large puzzles: a clock
                # read per conflict (and per decision) keeps the time limit to the letter
                deadline.check()
                learnt, back = self._analyze(conflict)
                depth = len(self.lims)
                self._add(learnt, back)
                if trace is not None:
                    trace(Learnt(depth, len(learnt), back))
                continue
            if len(self.trail) == len(self.val):
                stats.solutions += 1
                if trace is not None:
                    trace(Found(stats.solutions))
                yield self.theory.solution()
                if not self.lims:
                    return
                # block this solution: not all of its decisions again
                decisions = [self.trail[k] for k in self.lims]
                block = [2 * d + 1 - self.val[d] for d in reversed(decisions)]
                self._add(block, len(self.lims) - 1)
                if trace is not None:
                    trace(Blocked(stats.solutions, len(block), len(self.lims)))
                continue
            if since_restart >= restart_at:
                luby_i += 1
                restart_at = _RESTART_BASE * luby(luby_i)
                since_restart = 0
                self._backjump(0)
                continue
            deadline.check()
            stats.nodes += 1
            self._decide()
            stats.max_depth = max(stats.max_depth, len(self.lims))
            if trace is not None:
                var = self.trail[-1]
                trace(self.theory.branch(var, self.val[var], len(self.lims)))
