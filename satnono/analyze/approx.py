"""An estimate with a guarantee where an exact count is out of reach: ApproxMC (Chakraborty,
Meel & Vardi, "Algorithmic Improvements in Approximate Counting for Probabilistic
Inference: From Linear to Logarithmic SAT Calls", IJCAI 2016), through pyapproxmc, on the
same residual CNF that Ganak counts, projected on the unknown cells.

ApproxMC returns ``c`` with ``Pr[n / (1 + ε) ≤ c ≤ n · (1 + ε)] ≥ 1 − δ`` for the true count
``n``; so ``n`` lies between ``c / (1 + ε)`` and ``c · (1 + ε)`` with that probability. An
estimate is never a count: :class:`Estimate` carries its bounds, ε and δ, and every output
says "≈" and "with probability".

pyapproxmc 4.4's binding drops a factor of 2^k, k the sampling variables its preprocessing
finds unconstrained ("total empties now: k" in its verbose log): on tcga2015 #1 it says 86
for 656. So each count reads k from the log, and a two-clause formula whose count is known
(6) decides first whether this build of the binding needs the factor: a build that has it
right is left alone, one that is wrong another way is refused.
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import CounterMissing, UsageError

#: ApproxMC's own defaults: within a factor 1.8 with probability at least 0.8
EPSILON = 0.8
DELTA = 0.2
#: a formula with a known count over its sampling set: (1 ∨ 2) gives 3, and 3 is free
#: because 4 (outside the set) is its negation: 6 in all, one of them "empty"
_KNOWN = ([[1, 2], [3, 4], [-3, -4]], [1, 2, 3], 6)
_EMPTIES = re.compile(rb"total empties now:\s*(\d+)")


@dataclass(frozen=True)
class Estimate:
    """An approximate count: ``value``, and ``low`` ≤ n ≤ ``high`` with probability at
    least 1 − ``delta`` (``low`` also never below a count known for certain).

    >>> Estimate.of(4_587_520, 0.8, 0.2)
    Estimate(value=4587520, low=2548623, high=8257536, epsilon=0.8, delta=0.2)
    """

    value: int
    low: int
    high: int
    epsilon: float
    delta: float

    @classmethod
    def of(cls, value: int, epsilon: float, delta: float, at_least: int = 0) -> Estimate:
        # the count is a whole number: the bounds round inwards
        low = max(math.ceil(value / (1 + epsilon) - 1e-9), at_least)
        high = max(math.floor(value * (1 + epsilon) + 1e-9), low)
        return cls(value, low, high, epsilon, delta)

    @property
    def confidence(self) -> float:
        return round(1 - self.delta, 6)

    def words(self) -> str:
        """``≈ 4,587,520 (between 2,548,623 and 8,257,536 with probability ≥ 0.8)``"""
        return (f"≈ {self.value:,} (between {self.low:,} and {self.high:,} with probability "
                f"≥ {self.confidence:g})")


def check_parameters(epsilon: float, delta: float) -> None:
    """UsageError unless ε > 0 and 0 < δ < 1."""
    for name, value in (("epsilon", epsilon), ("delta", delta)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise UsageError(f"{name} must be a positive number, not {value!r}")
    if not delta < 1:
        raise UsageError(f"delta is a probability of failure below 1, not {delta!r}")


def need_approxmc() -> None:
    """CounterMissing unless pyapproxmc imports (before a child is forked to run it)."""
    try:
        import pyapproxmc  # noqa: F401
    except ImportError:  # pragma: no cover - pyapproxmc is a dependency
        raise CounterMissing("approximate counting needs pyapproxmc "
                             "(pip install pyapproxmc)") from None


def approx_models(clauses: list[list[int]], sampling: list[int], epsilon: float,
                  delta: float, seed: int) -> Iterator[int]:
    """ApproxMC's estimate of the models projected on ``sampling`` (run in a child: a call
    into ApproxMC cannot be stopped otherwise)."""
    clauses_known, sampling_known, known = _KNOWN
    reported, empties = _count(clauses_known, sampling_known, EPSILON, DELTA, 1)
    if reported == known:
        fix = False  # this build counts its empty variables itself
    elif reported << empties == known:
        fix = True
    else:  # pragma: no cover - a build of the binding wrong in a way not seen here
        raise CounterMissing(f"pyapproxmc counts {reported} models of a formula that has "
                             f"{known}: its estimates cannot be trusted here")
    value, empties = _count(clauses, sampling, epsilon, delta, seed)
    yield value << empties if fix else value


def _count(clauses: list[list[int]], sampling: list[int], epsilon: float, delta: float,
           seed: int) -> tuple[int, int]:
    """(ApproxMC's count as the binding gives it, the empties its log reports)."""
    from pyapproxmc import Counter

    counter = Counter(verbosity=1, seed=seed, epsilon=epsilon, delta=delta)
    counter.add_clauses(clauses)
    # the log goes to standard output, which is the caller's: it is read from a file
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as log:
        try:
            os.dup2(log.fileno(), 1)
            cells, hashes = counter.count(sampling)
        finally:
            _flush_c()
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        found = _EMPTIES.findall(log.read())
    return cells << hashes, int(found[-1]) if found else 0


def _flush_c() -> None:
    """Flush the C library's standard output (ApproxMC may write through it) into the log
    before the descriptor is put back."""
    import ctypes

    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # pragma: no cover - no C library to flush
        pass
