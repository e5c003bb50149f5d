"""Shared helpers: brute-force oracles and the optional corpus of real puzzles."""

from __future__ import annotations

import itertools

import pytest

from satnono.bench.suites import corpus_dir, index_rows, path_of, pick, puzzle_of
from satnono.model.puzzle import Puzzle, lengths
from satnono.model.solution import Solution, line_clue

CORPUS = corpus_dir()


def corpus_rows() -> list[dict]:
    return index_rows(CORPUS)


corpus_path = path_of
corpus_puzzle = puzzle_of
corpus_pick = pick

needs_corpus = pytest.mark.skipif(not (CORPUS / "INDEX.tsv").exists(),
                                  reason="../shared/corpus is not present")


def brute_line(clue: tuple[int, ...], n: int, filled: int, empty: int):
    """All placements by trying every filling: the oracle for the line solvers."""
    fits = [m for m in range(1 << n)
            if m & filled == filled and not m & empty and line_clue(m, n) == tuple(clue)]
    if not fits:
        return None
    full = (1 << n) - 1
    always, ever = full, 0
    for m in fits:
        always &= m
        ever |= m
    return always, full & ~ever


def brute_solutions(puzzle: Puzzle) -> set[Solution]:
    """Every solution of a small puzzle: each row from its own placements, columns checked."""
    w = puzzle.width
    options = [[m for m in range(1 << w) if line_clue(m, w) == lengths(clue)]
               for clue in puzzle.rows]
    out = set()
    for rows in itertools.product(*options):
        sol = Solution(w, tuple(rows))
        if all(line_clue(col, puzzle.height) == lengths(clue)
               for col, clue in zip(sol.columns(), puzzle.columns)):
            out.add(sol)
    return out


def random_picture(rng, width: int, height: int, density: float) -> Solution:
    return Solution(width, tuple(sum(1 << c for c in range(width) if rng.random() < density)
                                 for _ in range(height)))
