"""The backends: one table says what each is, where it lives and what it takes.

Every backend is a module with one function,
``solutions(puzzle, *, ctx, deadline, limit, **options) -> Iterator[Solution]``: the
solutions of a validated puzzle, lazily, unverified (the pipeline checks each one), in
whatever order it finds them; ``ctx`` carries the counters and the observer, ``deadline``
the time limit (the backend raises :class:`~satnono.errors.SearchTimeout` when it passes),
``limit`` how many solutions are wanted at most (None: all). The command line's choices
and help, option checking, ``count``, ``bench`` and the tests all read this table, and the
module is imported only when the backend runs, so ``satnono --help`` stays instant.

A new backend is one module and one row.

>>> [b.name for b in BACKENDS.values() if "workers" in b.options]
['sat', 'cpsat', 'plain-cpsat']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import UnknownBackend, UnknownOption, UsageError

if TYPE_CHECKING:
    from ..logic.context import Context
    from ..model.puzzle import Puzzle
    from ..model.solution import Solution
    from ..runtime.deadline import Deadline

    SolveFunction = Callable[..., Iterator[Solution]]

def check_workers(workers: object) -> None:
    """Workers are a whole number from 1."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise UsageError(f"workers must be a whole number of at least 1, not {workers!r}")


def _check_switch(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise UsageError(f"{name} is True or False, not {value!r}")


def _check_solver(value: object) -> None:
    if not isinstance(value, str):
        raise UsageError(f"solver is the name of a pysat solver, not {value!r}")


def _check_search(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UsageError(f"search is the number of a racing search from 0, not {value!r}")


def _check_budget(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UsageError(f"budget is a whole number from 0 (the compiled search's work, in "
                         f"cells of the lines it solves), not {value!r}")


#: how each option's value is checked
OPTIONS: dict[str, Callable[[object], None]] = {
    "solver": _check_solver,
    "workers": check_workers,
    "search": _check_search,
    "budget": _check_budget,
    "probing": lambda v: _check_switch("probing", v),
    "learning": lambda v: _check_switch("learning", v),
}


@dataclass(frozen=True)
class Backend:
    """One row of the table.

    ``entry`` is ``module:function``; ``options`` the keyword options it takes besides
    ``ctx``, ``deadline`` and ``limit``; ``presolves`` says it propagates and probes first
    and fills ``ctx.stats`` with what that fixed and the residual CNF's size; ``colour``
    that it solves colour puzzles too (black and white, every backend does); a
    ``baseline`` is kept to measure satnono against, not to use; ``libraries`` are the
    solver libraries it imports on its first call (:meth:`warm`).
    """

    name: str
    entry: str
    summary: str
    options: tuple[str, ...] = ()
    presolves: bool = False
    colour: bool = False
    baseline: bool = False
    libraries: tuple[str, ...] = ()

    def warm(self) -> None:
        """Import this backend and its solver libraries now, in a process that will fork
        one process per puzzle (``bench``, ``batch``): each then inherits them, and its
        time is solving, not the imports every fresh process pays (a quarter of a second
        for OR-Tools). A library that is missing is left for the run to report."""
        self.load()
        for module in self.libraries:
            try:
                loaded = importlib.import_module(module)
            except ImportError:
                continue
            if callable(getattr(loaded, "warm", None)):
                loaded.warm()  # compiled code: load it now, not in each child

    def handles(self, puzzle: Puzzle) -> bool:
        """Whether this backend solves ``puzzle``."""
        return self.colour or puzzle.palette.black_and_white

    def load(self) -> SolveFunction:
        module, _, function = self.entry.partition(":")
        return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]

    def check_options(self, options: dict[str, object]) -> None:
        """An option this backend does not take, or a value it cannot, is a mistake worth
        naming."""
        for name, value in options.items():
            if name not in self.options:
                raise UnknownOption(
                    f"the {self.name} backend has no option {name!r} (its options: "
                    + (", ".join(self.options) or "none") + ")")
            OPTIONS[name](value)

    def run(self, puzzle: Puzzle, *, ctx: Context, deadline: Deadline, limit: int | None,
            **options: object) -> Iterator[Solution]:
        self.check_options(options)
        return self.load()(puzzle, ctx=ctx, deadline=deadline, limit=limit, **options)


BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("native", "satnono.backends.native:solutions",
            "the line solver with probing and conflict-driven search, no solver library",
            ("probing", "learning"), colour=True),
    Backend("sat", "satnono.backends.sat:solutions",
            "propagation and probing, then CaDiCaL on the residual CNF (the default)",
            ("solver", "probing", "workers", "search", "budget"), presolves=True,
            colour=True, libraries=("pysat.solvers", "satnono.logic.fast")),
    Backend("cpsat", "satnono.backends.cpsat:solutions",
            "propagation, then OR-Tools CP-SAT with one automaton per line", ("workers",),
            colour=True, libraries=("ortools.sat.python.cp_model",)),
    Backend("plain-sat", "satnono.backends.plain:sat_solutions",
            "baseline: the whole puzzle as a block-start CNF, no propagation, CaDiCaL",
            ("solver",), colour=True, baseline=True,
            libraries=("pysat.solvers", "pysat.card")),
    Backend("plain-cpsat", "satnono.backends.plain:cpsat_solutions",
            "baseline: one CP-SAT automaton per line over every cell, no propagation",
            ("workers",), colour=True, baseline=True,
            libraries=("ortools.sat.python.cp_model",)),
)}

DEFAULT = "sat"


def backend(name: str) -> Backend:
    """The row of ``name``; :class:`~satnono.errors.UnknownBackend` for a name not in it."""
    try:
        return BACKENDS[name]
    except (KeyError, TypeError):
        raise UnknownBackend(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})"
                             ) from None


def taking(option: str, baselines: bool = False) -> list[str]:
    """The backends that take ``option`` (the baselines too when asked)."""
    return [b.name for b in BACKENDS.values()
            if option in b.options and (baselines or not b.baseline)]
