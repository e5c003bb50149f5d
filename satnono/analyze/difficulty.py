"""How hard is the puzzle for a person? Rated by the weakest reasoning that solves it.

``line``: iterated line logic alone (each row and column on its own, seed 000);
``probe``: line logic plus one-cell contradiction probing — no guessing, what a patient
human can do; ``search``: needs branching (the decisions and depth of the native
conflict-driven search, the line solver its only propagator, say how much). The numbers
behind the class come with it, so puzzles within a class compare too. The search is the
learning one, not plain backtracking: on the survey's 9-Dom the plain one needs 16,000 nodes
and over a minute to tell the class, which a puzzle maker checking each draft cannot wait for.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

from ..backends.native.cdcl import search_learning
from ..errors import SearchTimeout
from ..logic.board import Board
from ..logic.presolve import deadline_of
from ..logic.probe import probe
from ..logic.propagate import Context, propagate
from ..model.puzzle import Puzzle, validate

LEVELS = ("line", "probe", "search")


@dataclass
class Rating:
    level: str  # one of LEVELS; "search?" when the search ran out of time
    cells: int
    by_line: int  # cells fixed by line logic alone
    by_probe: int  # further cells fixed by probing
    line_solves: int
    probes: int
    nodes: int = 0  # search nodes (0 unless the level is search)
    max_depth: int = 0
    solutions_seen: int = 0
    contradiction: bool = False  # the clues were refuted (no solution) at this level
    seconds: float = 0.0

    def describe(self) -> str:
        pct = (lambda n: f"{100 * n / self.cells:.0f}%") if self.cells else (lambda n: "-")
        head = {"line": "line — line logic alone solves it",
                "probe": "probe — solvable without guessing (line logic + probing)",
                "search": "search — needs guessing (branching)",
                "search?": "search — needs guessing; the search ran out of time"}[self.level]
        if self.contradiction:
            head = f"{self.level} — the clues are refuted at this level (no solution)"
        parts = [f"line logic fixes {pct(self.by_line)} ({self.by_line}/{self.cells} cells)",
                 f"probing {pct(self.by_probe)} more",
                 f"{self.line_solves} line solves, {self.probes} probes"]
        if self.level.startswith("search"):
            parts.append(f"{self.nodes} search nodes, depth {self.max_depth}")
        return head + "; " + ", ".join(parts)

    def as_dict(self) -> dict:
        return asdict(self)


def rate(puzzle: Puzzle, *, timeout: float | None = None) -> Rating:
    """Never raises on a timeout: an unfinished search is rated ``search?``."""
    validate(puzzle)
    started = time.monotonic()
    deadline = deadline_of(timeout)
    ctx = Context(puzzle)
    board = Board(puzzle.width, puzzle.height)
    cells = puzzle.width * puzzle.height
    st = ctx.stats

    def result(level: str, by_line: int, by_probe: int, contradiction: bool = False) -> Rating:
        return Rating(level, cells, by_line, by_probe, st.line_solves, st.probes, st.nodes,
                      st.max_depth, st.solutions, contradiction, time.monotonic() - started)

    if not propagate(ctx, board):
        return result("line", 0, 0, True)
    by_line = board.known()
    if board.solved():
        return result("line", by_line, 0)
    try:
        consistent, _ = probe(ctx, board, deadline)
    except SearchTimeout:
        return result("search?", by_line, board.known() - by_line)
    if not consistent:
        return result("probe", by_line, 0, True)
    by_probe = board.known() - by_line
    if board.solved():
        return result("probe", by_line, by_probe)
    found = 0
    try:
        for _ in search_learning(ctx, board, deadline=deadline):
            found += 1
            if found >= 2:
                break
    except SearchTimeout:
        return result("search?", by_line, by_probe)
    return result("search", by_line, by_probe, contradiction=found == 0)
