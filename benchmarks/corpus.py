"""The shared corpus of real puzzles (``../shared/corpus``), read in place when present.

Tests and benchmarks read it; nothing from it is copied into the project. ``INDEX.tsv``
names each puzzle by repository, path and entry (``$n``/``#n`` for the n-th puzzle of a
multi-puzzle file, or a title).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from satnono import Puzzle
from satnono.formats import read_file

CORPUS = Path(os.environ.get("SATNONO_CORPUS",
                             Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def present() -> bool:
    return (CORPUS / "INDEX.tsv").exists()


def rows() -> list[dict]:
    """Every row of INDEX.tsv; empty when the corpus is absent."""
    if not present():
        return []
    with open(CORPUS / "INDEX.tsv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def path_of(row: dict) -> Path:
    return CORPUS / "raw" / row["source_repo"].replace("/", "__") / row["path_in_repo"]


def pick(puzzles: list[Puzzle], entry: str) -> Puzzle:
    """The puzzle an INDEX entry names among those its file holds."""
    if not entry:
        return puzzles[0]
    if entry[0] in "$#":
        return puzzles[int(entry[1:]) - 1]
    (p,) = [p for p in puzzles if p.title == entry]
    return p


def puzzle_of(row: dict) -> Puzzle:
    return pick(read_file(str(path_of(row))), row["entry"])


def survey_puzzles() -> dict[str, Puzzle]:
    """Jan Wolter's survey puzzles found in the corpus, by survey name (first copy)."""
    out: dict[str, Puzzle] = {}
    for row in rows():
        name = row["survey_name"]
        if name and name not in out:
            out[name] = puzzle_of(row)
    return out
