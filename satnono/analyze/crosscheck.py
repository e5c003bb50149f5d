"""``--verify``: the native backtracker re-solves and the two solution sets are compared.

With a limit, two correct backends may find different first solutions, so beyond the
limit only the number is compared; below it (a complete search) the sets must be equal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import SearchTimeout
from ..model.puzzle import Puzzle
from ..model.solution import Solution
from ..pipeline import solve


@dataclass
class CrossCheck:
    agree: bool | None  # None: the native backtracker could not finish in time
    message: str
    only_backend: list[Solution]  # solutions the backend found that native did not
    only_native: list[Solution]
    seconds: float


def cross_check(puzzle: Puzzle, backend: str, found: list[Solution], limit: int | None,
                timeout: float | None = None) -> CrossCheck:
    """Compare ``found`` (a complete run of ``backend`` up to ``limit``) with native's
    (native itself is not compared with itself)."""
    if backend == "native":
        return CrossCheck(True, "--verify compares a backend with native; nothing to compare",
                          [], [], 0.0)


    started = time.monotonic()
    native: list[Solution] = []
    try:
        for sol in solve(puzzle, "native", limit=limit, timeout=timeout):
            native.append(sol)
    except SearchTimeout:
        return CrossCheck(None, f"not verified: the native backtracker found {len(native)} "
                          f"solution(s) and could not finish within {timeout or 0:g} s",
                          [], [], time.monotonic() - started)
    seconds = time.monotonic() - started
    mine, theirs = set(found), set(native)
    complete = limit is None or (len(found) < limit and len(native) < limit)
    if complete:
        only_b = [s for s in found if s not in theirs]
        only_n = [s for s in native if s not in mine]
        if not only_b and not only_n and len(found) == len(native):
            return CrossCheck(True, f"verified: native finds the same {len(native)} "
                              f"solution(s)", [], [], seconds)
        return CrossCheck(False, f"{backend} found {len(found)} solution(s), native "
                          f"{len(native)}; {len(only_b)} only from {backend}, {len(only_n)} "
                          "only from native", only_b, only_n, seconds)
    if len(found) == len(native):
        return CrossCheck(True, f"verified: native also finds {len(native)} solution(s) "
                          f"(the limit; the sets are not compared beyond it)", [], [], seconds)
    return CrossCheck(False, f"{backend} found {len(found)} solution(s), native {len(native)} "
                      f"(limit {limit})", [s for s in found if s not in theirs],
                      [s for s in native if s not in mine], seconds)
