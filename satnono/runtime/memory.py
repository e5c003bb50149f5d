"""Memory: room for a CNF, and no garbage collector where it only costs time.

Room for a CNF: refuse with a message what would otherwise make the kernel kill us.

Under Linux a process that asks for more memory than there is does not get an error: the
kernel kills it (or one of its children) outright, and the user sees "Killed" and nothing
else. A residual CNF's size is known clause by clause, and so is what a SAT solver's copy
of it costs, so the one case that ends that way in practice — a huge puzzle that logic
leaves almost entirely open — is caught before it happens, with the numbers.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import OutOfMemory

#: memory a SAT solver takes per clause of a residual CNF (about 2.5 literals each):
#: CaDiCaL 1.9.5 through pysat took 153–180 bytes after loading and a first solve on
#: CNFs of 0.5M–12.5M clauses, the Python lists holding them 147–151; the lower figure,
#: so that only what cannot fit is refused
BYTES_PER_CLAUSE = 140


def _field(path: str, key: str) -> int | None:
    """A ``key: value kB`` line of a /proc file, in bytes."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _number(path: str) -> int | None:
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def available() -> int | None:
    """Bytes this process can still take (None: not known here): the least of what the
    machine has free without swapping, what is left under the process's own address-space
    limit (``ulimit -v``, ``prlimit --as``), and what is left in its control group
    (cgroup v2 ``memory.max``, the limit of a container or a systemd unit)."""
    limits = []
    free = _field("/proc/meminfo", "MemAvailable:")
    if free is not None:
        limits.append(free)
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            used = _field("/proc/self/status", "VmSize:") or 0
            limits.append(max(soft - used, 0))
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        pass
    cap = _number("/sys/fs/cgroup/memory.max")
    if cap is not None:
        limits.append(max(cap - (_number("/sys/fs/cgroup/memory.current") or 0), 0))
    return min(limits) if limits else None


def ensure_room(clauses: int, doing: str) -> None:
    """OutOfMemory unless a SAT solver's copy of ``clauses`` clauses still fits."""
    needed = clauses * BYTES_PER_CLAUSE
    free = available()
    if free is not None and needed > free:
        raise OutOfMemory(
            f"out of memory {doing}: a SAT solver's copy of {clauses:,} clauses of the "
            f"residual CNF needs about {_gb(needed)}, more than the {_gb(free)} this process "
            "can still take (logic leaves too much of this puzzle open to search it here)")


def ensure_engine_room(puzzle: object, needed: int) -> None:
    """OutOfMemory unless the engine's ``needed`` bytes for ``puzzle`` (its grid and what
    goes with it, :func:`satnono.engine.search.footprint`) still fit: refused before a
    byte is asked for, with the numbers, instead of a process the kernel kills."""
    free = available()
    if free is not None and needed > free:
        size = getattr(puzzle, "size", "")
        raise OutOfMemory(
            f"out of memory: the engine for a {size} puzzle needs about {_gb(needed)} for its "
            f"grid and lines, more than the {_gb(free)} this process can still take")


def _gb(n: int) -> str:
    return f"{n / 2**30:.2f} GB"


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: presolve and encoding make no cycles, but
    they make millions of short-lived objects beside a growing line cache and clause
    list, and the collections that triggers cost them a tenth of their time or more
    (benchmarks/results/NOTES.md). Reference counting still frees everything as it goes.

    What is built inside lives on and is all young, so the collector's first pass after
    would walk all of it (0.4 s for a random 150×150's 6.7 million clauses, past a time
    limit that had already run out): it is moved out of the collector's sight
    (``gc.freeze``, meant for long-lived objects), and freed by reference counting as
    before."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


#: whether this process ends with the command it runs (the ``satnono`` program sets it,
#: :mod:`satnono.entry`): then what is slow to free after a time limit ran out is left
#: until the next piece of work begins, or to the process's end, which hands its memory
#: back at once
ENDS_WITH_COMMAND = False
_LEFT: list[object] = []


def left_to_the_end(thing: object) -> bool:
    """Keep ``thing`` (not freed) until the next piece of work begins
    (:func:`release_left`) or the process ends, where it ends with its command, and say
    whether it was kept. CaDiCaL holding a random 150×150's 6.7 million clauses took a
    second to delete, the Python lists of them half a second to free, after the time
    limit the work was stopped at."""
    if ENDS_WITH_COMMAND:
        _LEFT.append(thing)
    return ENDS_WITH_COMMAND


def release_left() -> None:
    """Free what :func:`left_to_the_end` kept: a new piece of work begins (a new time limit
    is set), so a file of many puzzles that each run out of time keeps one's leftovers at
    a time, not all of them."""
    while _LEFT:
        thing = _LEFT.pop()
        delete = getattr(thing, "delete", None)  # a SAT solver's memory is not Python's
        if callable(delete):
            delete()
