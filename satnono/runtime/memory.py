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


def available() -> int | None:
    """Bytes the kernel can still hand out without swapping (None: not known here)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def ensure_room(clauses: int, doing: str) -> None:
    """OutOfMemory unless a SAT solver's copy of ``clauses`` clauses still fits."""
    needed = clauses * BYTES_PER_CLAUSE
    free = available()
    if free is not None and needed > free:
        raise OutOfMemory(
            f"out of memory {doing}: a SAT solver's copy of {clauses:,} clauses of the "
            f"residual CNF needs about {_gb(needed)}, more than the {_gb(free)} free "
            "(logic leaves too much of this puzzle open to search it on this machine)")


def _gb(n: int) -> str:
    return f"{n / 2**30:.2f} GB"


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: presolve and encoding make no cycles, but
    they make millions of short-lived objects beside a growing line cache and clause
    list, and the collections that triggers cost them a tenth of their time or more
    (benchmarks/results/NOTES.md). Reference counting still frees everything as it goes."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
