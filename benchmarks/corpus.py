"""The shared corpus of real puzzles (``../shared/corpus``), read in place when present.

Tests and benchmarks read it; nothing from it is copied into the project. The reading
itself lives in :mod:`satnono.suites`, which ``satnono bench`` uses too.
"""

from __future__ import annotations

from satnono import Puzzle
from satnono.bench.suites import corpus_dir, index_rows, path_of, pick, puzzle_of, survey

CORPUS = corpus_dir()


def present() -> bool:
    return (CORPUS / "INDEX.tsv").exists()


def rows() -> list[dict]:
    return index_rows(CORPUS)


def survey_puzzles() -> dict[str, Puzzle]:
    return dict(survey(CORPUS))


def survey_named(names: list[str]) -> dict[str, Puzzle]:
    """Every survey puzzle, once the corpus is there and each of ``names`` is among them:
    a benchmark script's clear exit otherwise."""
    if not present():
        raise SystemExit(f"no corpus at {CORPUS}")
    puzzles = survey_puzzles()
    unknown = [n for n in names if n not in puzzles]
    if unknown:
        raise SystemExit(f"not in the survey: {', '.join(unknown)} "
                         f"(expected one of: {', '.join(sorted(puzzles))})")
    return puzzles


__all__ = ["CORPUS", "path_of", "pick", "present", "puzzle_of", "rows", "survey_named",
           "survey_puzzles"]
