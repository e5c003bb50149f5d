"""One hard puzzle raced on a Dask cluster: ``solve --cluster ADDRESS --workers N``.

Each of N tasks runs the sat backend with one of the racers' settings
(:func:`satnono.backends.sat.searches`: saved phases, forced phases in focused mode, other
seeds as N grows), asked for the same solutions the local run would be. The first task to
finish wins; a Dask event tells the others to stop, and each kills its search process
(a solver busy in C hears nothing else). A race takes the luckiest of N draws from the
wide spread one puzzle's search time has; on N machines it costs no one any time.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import SearchTimeout, SolverFailed
from ..logic.context import Context, Stats
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..pipeline import Run
from ..runtime.deadline import Deadline
from .engines import DaskEngine

#: seconds past the time limit a racer's process gets to say what it found
GRACE = 5.0


@dataclass
class Finish:
    """What a racer found: its solutions, whether its time ran out, its counters."""

    search: int
    worker: str
    solutions: list[Solution]
    timed_out: bool
    stats: Stats = field(default_factory=Stats)


def _search(puzzle: Puzzle, search: int, limit: int | None, timeout: float | None,
            options: dict[str, Any]) -> Iterator[tuple[list[Solution], bool, Stats]]:
    from ..pipeline import solve
    from ..runtime.child import allow_children

    allow_children()  # the sat backend runs its solver in a child of its own
    run = solve(puzzle, "sat", limit=limit, timeout=timeout, search=search, **options)
    found = []
    timed_out = False
    try:
        for sol in run:
            found.append(sol)
    except SearchTimeout:
        timed_out = True
    yield found, timed_out, run.stats


def racer(puzzle: Puzzle, search: int, limit: int | None, timeout: float | None,
          stop: str, options: dict[str, object] | None = None) -> Finish | None:
    """One racer, as a Dask task: the search in a process of its own (with the sat
    backend's ``options`` the command line gave), killed when the ``stop`` event is set
    (another racer finished) or past its time limit; None when stopped."""
    from distributed import Event, get_worker

    from ..runtime.child import allow_children, stream

    allow_children()
    event = Event(stop)
    deadline = Deadline.after(None if timeout is None else timeout + GRACE)
    try:
        answers = list(stream(_search, (puzzle, search, limit, timeout, options or {}),
                              deadline,
                              what=f"racing search {search}", always=True,
                              stopped=event.is_set))
    except SearchTimeout:  # the search's own clock did not stop it
        return None
    if not answers:  # another racer finished first
        return None
    found, timed_out, stats = answers[0]
    return Finish(search, get_worker().address, found, timed_out, stats)


def race(engine: DaskEngine, puzzle: Puzzle, racers: int, limit: int | None,
         timeout: float | None, options: dict[str, object] | None = None) -> Finish:
    """Start ``racers`` searches on the cluster, each with the sat backend's ``options``,
    and return the first to finish (SolverFailed when every one failed)."""
    from distributed import Event, as_completed

    stop = f"satnono-race-{uuid.uuid4().hex}"
    event = Event(stop, client=engine.client)
    futures = [engine.client.submit(racer, puzzle, i, limit, timeout, stop, options,
                                    pure=False)
               for i in range(racers)]
    failures = []
    try:
        for fut in as_completed(futures):
            try:
                finish = fut.result()
            except Exception as exc:  # a racer whose worker died, or whose search failed
                failures.append(f"{type(exc).__name__}: {exc}")
                continue
            if finish is not None:
                return finish
    finally:
        event.set()
        for fut in futures:
            fut.cancel()
    raise SolverFailed("every racing search failed on the cluster: "
                       + "; ".join(failures)[:500])


def race_run(engine: DaskEngine, puzzle: Puzzle, racers: int, limit: int | None,
             timeout: float | None, options: dict[str, object] | None = None
             ) -> tuple[Run, list[Finish]]:
    """:func:`race` as a :class:`~satnono.pipeline.Run`, so that the command line shows,
    checks and writes its solutions as it does a local run's; the list gets the winner's
    :class:`Finish` when the run starts."""
    ctx = Context(puzzle)
    winner: list[Finish] = []

    def solutions() -> Iterator[Solution]:
        finish = race(engine, puzzle, racers, limit, timeout, options)
        winner.append(finish)
        ctx.stats = finish.stats
        yield from finish.solutions
        if finish.timed_out:
            raise SearchTimeout(len(finish.solutions), timeout or 0.0)

    return Run(puzzle, "sat", solutions(), ctx, limit, Deadline.after(timeout)), winner
