"""What a command reads, and within which limits: its input read within ``--timeout``
(which counts from the command's start), and ``--workers`` and ``--jobs`` kept to the
processors this machine has."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

from ..errors import UnknownFormat, UsageError
from ..model.puzzle import Puzzle
from ..runtime import crash
from .options import say

T = TypeVar("T")


def capped(args: argparse.Namespace) -> None:
    """``--workers`` and ``--jobs`` past this machine's processors (where the processes are
    started here, not on a cluster) come down to their number, with one line saying so:
    ``--workers 100000`` would fork a hundred thousand solvers."""
    from ..runtime.child import cores

    if getattr(args, "cluster", None):
        return
    have = cores()
    for flag in ("workers", "jobs"):
        asked = getattr(args, flag, None)
        if isinstance(asked, int) and asked > have:
            say(f"satnono: --{flag} {asked} is more than the {have} processor(s) this machine "
                f"has; using {have}")
            setattr(args, flag, have)


def within_the_limit(args: argparse.Namespace, read: Callable[[], T]) -> T:
    """``read()`` (the command's input) within ``--timeout``, which counts from the
    command's start: a read that overruns says so and stops (a FIFO no one writes to, a
    picture of millions of cells), and ``args.timeout`` becomes what the read left of the
    limit, for the stages after it."""
    from ..io.formats import shown
    from ..runtime.deadline import counted_from, reading

    started = getattr(args, "started", None)
    deadline = counted_from(time.monotonic() if started is None else started,
                            getattr(args, "timeout", None))
    with reading(deadline, shown(getattr(args, "puzzle", None) or args.picture)):
        try:
            got = read()
        except UnknownFormat as exc:
            raise exc.hinted("--from FORMAT names one ('satnono formats' lists them)"
                             ) from None
    if deadline.limited:
        args.timeout = deadline.left()
    return got


def load_one(args: argparse.Namespace) -> Puzzle:
    """The one puzzle the command works on (``--index`` picks it from a file of several),
    read within the time limit (:func:`within_the_limit`)."""
    from ..io.formats import load, shown

    crash.working_on(shown(args.puzzle))
    return within_the_limit(args, lambda: load(args.puzzle, args.index, args.fmt))


def chosen(args: argparse.Namespace) -> tuple[list[tuple[int, Puzzle]], int]:
    """The (index, puzzle) pairs the command works on, and how many the file holds, read
    within the time limit (:func:`within_the_limit`)."""
    from ..io.formats import read_file, shown

    crash.working_on(shown(args.puzzle))
    puzzles = within_the_limit(args, lambda: read_file(args.puzzle, args.fmt))
    pairs = list(enumerate(puzzles, 1))
    if args.index is not None:
        if not 1 <= args.index <= len(puzzles):
            raise UsageError(f"--index {args.index} is outside 1..{len(puzzles)}")
        pairs = [pairs[args.index - 1]]
    return pairs, len(puzzles)


def label(args: argparse.Namespace, index: int, total: int) -> str:
    """How messages name a puzzle: its file, and its index when the file holds several."""
    from ..io.formats import shown

    return shown(args.puzzle) + (f" #{index}" if total > 1 else "")
