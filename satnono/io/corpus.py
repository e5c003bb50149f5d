"""The puzzle collections satnono reads in place: a corpus of real puzzle files and the
tournament sets with their reference solutions (read, never copied).

A corpus is a directory with an ``INDEX.tsv`` (repository, path, entry, format, size, kind,
survey name, …) and the files under ``raw/``, found at ``$SATNONO_CORPUS`` or
``../shared/corpus``. The tournament sets (``$SATNONO_TOURNAMENTS`` or
``../shared/tournaments``) are 1,000-puzzle files with a reference solution for each.
Where they are absent, the functions here find nothing (an empty index, no sets).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from ..model.puzzle import Puzzle
from ..model.solution import Solution
from .formats import read_file


def _shared(variable: str, name: str, marker: str) -> Path:
    """``$variable``, else ``../shared/<name>`` beside the working directory or the source
    tree (the first that holds ``marker``)."""
    env = os.environ.get(variable)
    if env:
        return Path(env)
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        cand = base.parent / "shared" / name
        if (cand / marker).exists():
            return cand
    return Path.cwd().parent / "shared" / name


def corpus_dir() -> Path:
    """``$SATNONO_CORPUS``, else ``../shared/corpus``."""
    return _shared("SATNONO_CORPUS", "corpus", "INDEX.tsv")


def tournaments_dir() -> Path:
    """``$SATNONO_TOURNAMENTS``, else ``../shared/tournaments``."""
    return _shared("SATNONO_TOURNAMENTS", "tournaments", "zxkyjimmy__NonogramRecord")


def tournament_sets() -> list[str]:
    """The names of the tournament sets there are (``icga2016`` … ``tcga2023``)."""
    folder = tournaments_dir() / "zxkyjimmy__NonogramRecord" / "question"
    return sorted(p.stem for p in folder.glob("*.txt"))


def tournament(name: str) -> list[tuple[str, Puzzle]]:
    """The puzzles of one tournament set, named ``#1`` … ``#1000``."""
    path = tournaments_dir() / "zxkyjimmy__NonogramRecord" / "question" / f"{name}.txt"
    return [(f"#{i}", p) for i, p in enumerate(read_file(str(path)), 1)]


def reference_solutions(name: str) -> list[Solution]:
    """The reference solution of each puzzle of a tournament set, in order (one of its
    solutions when it has several)."""
    import gzip

    path = tournaments_dir() / "zxkyjimmy__NonogramRecord" / "solution" / f"{name}.txt.gz"
    out: list[Solution] = []
    rows: list[int] = []
    width = 0
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            cells = line.split()
            if not cells:
                continue
            if cells[0].startswith("$"):
                if rows:
                    out.append(Solution(width, tuple(rows)))
                rows = []
                continue
            width = len(cells)
            rows.append(sum(1 << c for c, v in enumerate(cells) if v == "1"))
    if rows:
        out.append(Solution(width, tuple(rows)))
    return out


def index_rows(corpus: Path | None = None) -> list[dict]:
    corpus = corpus or corpus_dir()
    if not (corpus / "INDEX.tsv").exists():
        return []
    with open(corpus / "INDEX.tsv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def path_of(row: dict, corpus: Path | None = None) -> Path:
    corpus = corpus or corpus_dir()
    return corpus / "raw" / row["source_repo"].replace("/", "__") / row["path_in_repo"]


def pick(puzzles: list[Puzzle], entry: str) -> Puzzle:
    """The puzzle an INDEX entry names (``$n``/``#n`` or a title) among a file's puzzles."""
    if not entry:
        return puzzles[0]
    if entry[0] in "$#":
        return puzzles[int(entry[1:]) - 1]
    (p,) = [p for p in puzzles if p.title == entry]
    return p


def puzzle_of(row: dict, corpus: Path | None = None) -> Puzzle:
    return pick(read_file(str(path_of(row, corpus))), row["entry"])
