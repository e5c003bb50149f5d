"""Benchmark suites: named lists of puzzles, read from a puzzle corpus or made on the fly.

The corpus and the tournament sets are read in place (:mod:`satnono.io.corpus`); every
tournament set is a suite of its own, named as its file (``icga2020``, ``taai2011``, …).
Where they are absent, the suites that need them are empty and ``random`` still runs.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import ParseError
from ..io.corpus import (
    corpus_dir,
    index_rows,
    path_of,
    pick,
    puzzle_of,
    reference_solutions,
    tournament,
    tournament_sets,
    tournaments_dir,
)
from ..io.formats import read_file
from ..model.puzzle import Colour, Palette, Puzzle, puzzle_from_colours, puzzle_from_picture
from ..model.solution import Solution

SUITES = ("survey", "tcga2015", "random", "hard-random", "large", "colour", "colour-large",
          "colour-random", "tournaments")
__all__ = ["SUITES", "corpus_dir", "gather", "index_rows", "path_of", "pick", "puzzle_of",
           "random_picture", "reference_solutions", "suite", "tournament", "tournament_sets",
           "tournaments_dir"]


def survey(corpus: Path | None = None) -> Iterator[tuple[str, Puzzle]]:
    """Jan Wolter's survey puzzles found in the corpus (first copy of each)."""
    seen = set()
    for row in index_rows(corpus):
        name = row["survey_name"]
        if name and name not in seen:
            seen.add(name)
            yield name, puzzle_of(row, corpus)


def tcga2015(corpus: Path | None = None) -> Iterator[tuple[str, Puzzle]]:
    """The 1000 puzzles of the TCGA 2015 tournament file."""
    for row in index_rows(corpus):
        if row["path_in_repo"].endswith("tcga2015-question.txt"):
            for i, p in enumerate(read_file(str(path_of(row, corpus))), 1):
                yield f"#{i}", p
            return


def random_picture(rng: random.Random, side: int, density: float) -> Puzzle:
    """The clues of a side × side picture drawn row by row, a cell filled when the next
    number of ``rng`` is below ``density``: how every seeded random suite is made."""
    rows = tuple(sum(1 << c for c in range(side) if rng.random() < density)
                 for _ in range(side))
    return puzzle_from_picture(Solution(side, rows))


def random_suite(seed: int = 2026) -> Iterator[tuple[str, Puzzle]]:
    """Seeded random pictures, 10×10 to 60×60, densities 0.3–0.7; the name holds the seed."""
    for side in (10, 20, 30, 40, 60):
        for density in (0.3, 0.5, 0.7):
            s = seed + side * 100 + int(density * 10)
            yield f"{side}x{side}-d{density}-s{s}", random_picture(random.Random(s), side,
                                                                   density)


#: the classes of :func:`hard_random`: side, density, how many
HARD_RANDOM = ((40, 0.4, 20), (50, 0.5, 20), (70, 0.5, 20))


def hard_random(seed: int = 2026) -> Iterator[tuple[str, Puzzle]]:
    """Seeded random pictures of the sizes where search, not line logic, decides: 40×40
    at density 0.4 (many solutions; line logic fixes almost nothing), 50×50 and 70×70 at
    0.5 (lines past 63 cells); 20 of each, the seed in the name, so that anyone can make
    the same ones (``random.Random(seed)``, a row at a time, a cell filled when the next
    number is below the density)."""
    for side, density, many in HARD_RANDOM:
        for i in range(many):
            s = seed * 1000 + side * 100 + int(density * 10) * 1000 + i
            yield f"{side}x{side}-d{density}-s{s}", random_picture(random.Random(s), side,
                                                                   density)


#: the classes of :func:`random_colour`: side, block colours, how many (density 0.5)
RANDOM_COLOUR = ((40, 3, 5), (40, 5, 5), (60, 3, 5), (60, 5, 5))

#: the block colours of :func:`random_colour`'s palettes, in order
_RANDOM_INKS = (("red", "r", "e02020"), ("green", "g", "20a020"), ("blue", "b", "2040e0"),
                ("yellow", "y", "e0c000"), ("purple", "p", "9020c0"))


def random_colour(seed: int = 2026) -> Iterator[tuple[str, Puzzle]]:
    """Seeded random colour pictures where the search decides: 40×40 and 60×60 in three
    and five colours, each cell filled at even odds and then given one of the colours at
    even odds (``random.Random(seed)``, a row at a time); the seed in the name."""
    for side, colours, many in RANDOM_COLOUR:
        palette = Palette((Colour("white", ".", "ffffff"),
                           *(Colour(*ink) for ink in _RANDOM_INKS[:colours])))
        for i in range(many):
            s = seed * 1000 + side * 100 + colours * 10 + i
            rng = random.Random(s)
            grid = [[rng.randint(1, colours) if rng.random() < 0.5 else 0
                     for _ in range(side)] for _ in range(side)]
            yield (f"{side}x{side}-c{colours}-s{s}",
                   puzzle_from_colours(grid, palette, title=f"random colour {s}"))


def large(corpus: Path | None = None) -> Iterator[tuple[str, Puzzle]]:
    """The biggest black-and-white corpus puzzles (≥ 200×200) and large dense pictures."""
    seen = set()
    for row in index_rows(corpus):
        if row["kind"] == "bw" and int(row["width"] or 0) * int(row["height"] or 0) >= 40000:
            if row["clue_hash"] not in seen:
                seen.add(row["clue_hash"])
                name = Path(row["path_in_repo"]).stem + (f" {row['entry']}" if row["entry"]
                                                         else "")
                yield name, puzzle_of(row, corpus)
    for side, density in ((200, 0.75), (400, 0.8)):
        yield (f"random-{side}x{side}-d{density}-s{side}",
               random_picture(random.Random(side), side, density))


#: the block colours of the random colour pictures, in order of use
_INKS = (("black", "#", "000000"), ("red", "r", "e01010"), ("blue", "b", "1030e0"),
         ("green", "g", "10a020"), ("yellow", "y", "f0c800"))


def colour(corpus: Path | None = None, seed: int = 2026) -> Iterator[tuple[str, Puzzle]]:
    """The corpus's colour puzzles (those of square cells, first copy of each), then seeded
    random colour pictures: 20×20, 30×30 and 45×45, 2, 3 and 5 block colours, densities
    0.3, 0.5 and 0.8 (each filled cell a colour drawn evenly). As in black and white, the
    sparse pictures are the hard ones: many solutions, little for line logic to hold."""
    seen = set()
    for row in index_rows(corpus):
        if row["kind"] == "color" and row["clue_hash"] not in seen:
            seen.add(row["clue_hash"])
            try:
                puzzle = puzzle_of(row, corpus)
            except ParseError:  # a file of triangle cells, which satnono does not read
                continue
            yield Path(row["path_in_repo"]).stem, puzzle
    for side in (20, 30, 45):
        for inks in (2, 3, 5):
            for density in (0.3, 0.5, 0.8):
                s = seed + side * 100 + inks * 10 + int(density * 10)
                yield _colour_picture(s, side, side, inks, density)


def colour_large(corpus: Path | None = None, seed: int = 2026
                 ) -> Iterator[tuple[str, Puzzle]]:
    """Colour puzzles with lines past 63 cells, where the colour line solver runs on
    several machine words a colour: the corpus's (its colour suite's puzzles wider or
    taller than 63), then seeded random colour pictures of 70×70, 100×70 and 128×96 cells,
    3 block colours, densities 0.65 and 0.8, three of each (made as :func:`colour`'s)."""
    for name, puzzle in colour(corpus, seed):
        if max(puzzle.width, puzzle.height) > 63:
            yield name, puzzle
    for width, height in ((70, 70), (100, 70), (128, 96)):
        for density in (0.65, 0.8):
            for i in range(3):
                s = seed * 1000 + width * 10 + int(density * 100) * 10_000 + i
                yield _colour_picture(s, width, height, 3, density)


def _colour_picture(s: int, width: int, height: int, inks: int, density: float
                    ) -> tuple[str, Puzzle]:
    """A seeded random colour picture's puzzle and its name (the seed in it): each cell,
    row by row, filled when the next random number is below ``density``, with one of
    ``inks`` block colours drawn evenly."""
    rng = random.Random(s)
    grid = [[rng.randint(1, inks) if rng.random() < density else 0 for _ in range(width)]
            for _ in range(height)]
    palette = Palette((Colour("white", ".", "ffffff"),)
                      + tuple(Colour(*ink) for ink in _INKS[:inks]))
    return f"{width}x{height}-k{inks}-d{density}-s{s}", puzzle_from_colours(grid, palette)


def suite(name: str, corpus: Path | None = None) -> list[tuple[str, Puzzle]]:
    """The puzzles of a suite: one of ``SUITES`` or a tournament set's name."""
    makers = {"survey": survey, "tcga2015": tcga2015, "large": large, "colour": colour,
              "color": colour, "colour-large": colour_large, "color-large": colour_large}
    if name == "random":
        return list(random_suite())
    if name == "hard-random":
        return list(hard_random())
    if name in ("colour-random", "color-random"):
        return list(random_colour())
    side = name.removeprefix("hard-random-")
    if side != name and side in {str(c[0]) for c in HARD_RANDOM}:
        return [(n, p) for n, p in hard_random() if n.startswith(f"{side}x")]
    if name in makers:
        return list(makers[name](corpus))
    if name in tournament_sets():
        return tournament(name)
    if name == "tournaments":
        return [(f"{s} {n}", p) for s in tournament_sets() for n, p in tournament(s)]
    from ..errors import UsageError

    raise UsageError(f"unknown suite {name!r} (known: {', '.join(SUITES)}, or a tournament "
                     "set such as icga2020)")


Item = tuple[str, str, Puzzle, float]


def gather(suites: list[str], paths: list[str], say: Callable[[str], None]
           ) -> list[Item]:
    """(suite, name, puzzle, seconds) for every suite and every puzzle file (or folder of
    them) asked for, ``seconds`` being the puzzle's share of the time its file took to
    read; ``say`` hears what is skipped. The suite ``tournaments`` is every tournament set,
    each under its own name."""
    from ..errors import SatnonoError

    out: list[Item] = []
    names = [s for name in suites
             for s in (tournament_sets() or [name] if name == "tournaments" else [name])]
    for name in names:
        started = time.perf_counter()
        items = suite(name) if name != "tournaments" else []
        if not items:
            say(f"suite {name}: no puzzles (is the corpus at {corpus_dir()}, the "
                f"tournament sets at {tournaments_dir()}?); skipped")
            continue
        share = (time.perf_counter() - started) / len(items)
        out += [(name, n, p, share) for n, p in items]
    for path in paths:
        files = [path]
        if os.path.isdir(path):
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)
        for f in files:
            started = time.perf_counter()
            try:
                puzzles = read_file(f)
            except SatnonoError as exc:
                if f == path:
                    raise
                say(f"skipping {exc}")
                continue
            base = os.path.basename(f)
            share = (time.perf_counter() - started) / max(1, len(puzzles))
            out += [(os.path.basename(path.rstrip("/")) if f != path else base,
                     base + (f" #{i}" if len(puzzles) > 1 else ""), p, share)
                    for i, p in enumerate(puzzles, 1)]
    return out
