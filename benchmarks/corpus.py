"""The shared corpus of real puzzles (``../shared/corpus``), read in place when present.

Tests and benchmarks read it; nothing from it is copied into the project. The reading
itself lives in :mod:`satnono.suites`, which ``satnono bench`` uses too.
"""

from __future__ import annotations

from satnono import Puzzle
from satnono.suites import corpus_dir, index_rows, path_of, pick, puzzle_of, survey

CORPUS = corpus_dir()


def present() -> bool:
    return (CORPUS / "INDEX.tsv").exists()


def rows() -> list[dict]:
    return index_rows(CORPUS)


def survey_puzzles() -> dict[str, Puzzle]:
    return dict(survey(CORPUS))


__all__ = ["CORPUS", "path_of", "pick", "present", "puzzle_of", "rows", "survey_puzzles"]
