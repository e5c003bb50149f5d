"""The compiled counter's work on seeded random pictures, to show that two versions count
alike: each puzzle's count, nodes and parts taken from the cache.

    python -m benchmarks.count_signature [--puzzles 150] [--timeout 3] [--colour]

Each puzzle is a seeded random picture (8 to 20 cells a side, densities 0.3 to 0.6; with
``--colour`` two or three block colours) counted by the engine's counter in a process of
its own, given up after ``--timeout`` seconds (the counter cannot be stopped otherwise).
Prints the totals and a signature over every puzzle counted in time: equal between two
versions exactly when their counters visited the same nodes and met the same parts again.
Run it in each checkout; puzzles that ran out of time in either are left out by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import random

from satnono import puzzle_from_picture
from satnono.bench.runner import machine
from satnono.logic.compiled import count_solutions
from satnono.model.puzzle import Colour, Palette, Puzzle, puzzle_from_colours
from satnono.model.solution import Solution

#: the block colours of ``--colour`` pictures
INKS = Palette((Colour("white", ".", "ffffff"), Colour("black", "#", "000000"),
                Colour("red", "r", "e01010"), Colour("blue", "b", "1030e0")))


def picture(seed: int, colour: bool) -> Puzzle:
    """Puzzle ``seed``: a random picture's clues."""
    rng = random.Random(seed)
    side = rng.choice([8, 10, 12, 15, 18, 20])
    density = rng.choice([0.3, 0.4, 0.5, 0.6])
    if not colour:
        rows = tuple(sum(1 << c for c in range(side) if rng.random() < density)
                     for _ in range(side))
        return puzzle_from_picture(Solution(side, rows))
    inks = rng.choice([2, 3])
    grid = [[rng.randint(1, inks) if rng.random() < density else 0 for _ in range(side)]
            for _ in range(side)]
    return puzzle_from_colours(grid, Palette(INKS.colours[:inks + 1]))


def counted(seed: int, colour: bool) -> tuple[int | None, int, int]:
    c = count_solutions(picture(seed, colour))
    return c.count, c.nodes, c.cached


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=150)
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--colour", action="store_true")
    args = ap.parse_args()
    print(f"# {machine()}")
    signature = hashlib.sha256()
    done, late, nodes = 0, [], 0
    for seed in range(args.puzzles):
        with multiprocessing.Pool(1) as pool:
            job = pool.apply_async(counted, (seed, args.colour))
            try:
                n, visited, cached = job.get(timeout=args.timeout)
            except multiprocessing.TimeoutError:
                late.append(seed)
                continue
        done += 1
        nodes += visited
        signature.update(f"{seed}:{n},{visited},{cached};".encode())
    print(f"{done} counted ({nodes:,} nodes); out of time: {late or 'none'}")
    print(f"signature {signature.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
