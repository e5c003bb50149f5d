"""The words results are given in: verdicts, difficulty levels, counting methods, endings,
how deep presolving goes and how lines become clauses.

Each is a ``str`` enum, so it compares equal to its value (``Verdict.UNIQUE == "unique"``)
and goes into JSON as that value.
"""

from __future__ import annotations

from enum import Enum


class _Word(str, Enum):
    def __str__(self) -> str:
        return str(self.value)


class Verdict(_Word):
    """What is proven about a puzzle's solutions."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"

    @classmethod
    def of(cls, found: int) -> Verdict:
        """The verdict of a complete search that found ``found`` solutions (2 is enough)."""
        return cls.NONE if found == 0 else cls.UNIQUE if found == 1 else cls.MULTIPLE


class Level(_Word):
    """How hard a puzzle is for a person: the weakest reasoning that solves it."""

    LINE = "line"
    PROBE = "probe"
    SEARCH = "search"


class RatedBy(_Word):
    """Which search measured a rating's ``search`` level."""

    ENGINE = "engine"  # the engine's logic, then the SAT stage's proof
    NATIVE = "native"  # the native conflict-driven search in Python


class CountMethod(_Word):
    """How ``count`` is asked to count (``AUTO``: chosen from the puzzle, see
    :func:`satnono.analyze.count.count`)."""

    AUTO = "auto"
    COMPILED = "compiled"
    ENUMERATE = "enumerate"
    GANAK = "ganak"
    #: D4, CRIL's knowledge compiler and model counter (its wheels: Linux and Windows on x86-64)
    D4 = "d4"
    #: not exact: ApproxMC's estimate with bounds that hold with a given probability
    APPROX = "approx"


class Ending(_Word):
    """Why a list of solutions ended."""

    ALL_FOUND = "all found"
    LIMIT = "limit reached"
    TIME_LIMIT = "time limit"
    #: a count that is an estimate (asked for, or made when the exact count ran out of time)
    ESTIMATE = "estimate"


class Depth(_Word):
    """How far logic goes at the root before a backend searches."""

    #: nothing: every cell open (the plain baselines, which measure a solver alone)
    OPEN = "open"
    #: line propagation to its fixpoint
    LINES = "lines"
    #: propagation and probing to their fixpoint
    PROBED = "probed"


class LineCode(_Word):
    """How a black-and-white line becomes clauses (:mod:`satnono.encode`). Both have every
    solution as exactly one model (the auxiliary variables are functions of the cells), so
    either serves a counter."""

    #: the layered automaton: unit propagation is the complete line solver
    AUTOMATON = "automaton"
    #: block bounds and covers (:mod:`satnono.encode.order`): weaker propagation, but
    #: learnt clauses can speak of where blocks start; faster to a first solution where
    #: logic fixes little
    ORDER = "order"
