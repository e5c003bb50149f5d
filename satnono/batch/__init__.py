"""``satnono batch``: a whole collection of puzzles, one task per puzzle, on this machine's
cores or on a Dask cluster.

The pipeline of one batch reads top to bottom::

    tasks = collect(paths).tasks            # every entry of every file: work.Task
    todo = [t for t in tasks if t.key not in journal.done(out)]   # resume
    for chunk in engine.run(plan(todo, engine.workers), job):     # engines: local or Dask
        journal.append(out, chunk)          # one JSON line per puzzle, flushed as it comes

Each puzzle runs in a process of its own on whichever worker takes it, killed there at
its time limit; the worker lives on whatever the puzzle does. Dask (an optional extra,
``pip install 'satnono[cluster]'``) is imported only when ``--cluster`` asks for it.
"""

from .engines import Engine, LocalEngine, engine, plan
from .journal import done, open_journal
from .work import DOS, Collected, Job, Task, Unreadable, collect, do_chunk, do_one

__all__ = ["DOS", "Collected", "Engine", "Job", "LocalEngine", "Task", "Unreadable", "collect",
           "do_chunk", "do_one", "done", "engine", "open_journal", "plan"]
