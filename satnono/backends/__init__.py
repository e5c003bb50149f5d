"""The backends: one table says what each is, where it lives and what it takes.

A backend is the search stage of the pipeline (:mod:`satnono.pipeline`): one function,
``solutions(start, *, ctx, deadline, limit, plan) -> Iterator[Solution]``, over the
board that presolving left (``start``, a :class:`~satnono.logic.presolve.Presolved`, as
deep as the row's ``depth`` asks, neither solved nor contradicted): the puzzle's
solutions, lazily, unverified (the pipeline checks each one), in whatever order it finds
them; ``ctx`` carries the puzzle, the counters and the observer, ``deadline`` the time
limit (the backend raises :class:`~satnono.errors.SearchTimeout` when it passes),
``limit`` how many solutions are wanted at most (None: all), ``plan`` what was decided
for the run (:class:`satnono.plan.Plan`: its options and the measured choices; the
backend decides nothing of its own). A backend that can refuse an option's value only
once it knows the limit names a ``check`` function, called before any work. The command
line's choices
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
from typing import TYPE_CHECKING, Any

from ..errors import UnknownBackend, UnknownOption, UsageError
from ..model.verdict import Depth

if TYPE_CHECKING:
    from ..logic.context import Context
    from ..logic.presolve import Presolved
    from ..model.solution import Solution
    from ..plan import Plan
    from ..runtime.deadline import Deadline

    SolveFunction = Callable[..., Iterator[Solution]]

def check_workers(workers: object) -> None:
    """Workers are a whole number from 1."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise UsageError(f"workers must be a whole number of at least 1, not {workers!r}")


def _check_switch(name: str) -> Callable[[object], None]:
    def check(value: object) -> None:
        if not isinstance(value, bool):
            raise UsageError(f"{name} is True or False, not {value!r}")
    return check


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


def whole_number(text: str) -> int:
    """A command line's whole number from 1 (ValueError otherwise)."""
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"expected a whole number ≥ 1, got {text!r}")
    return int(text)


def count_number(text: str) -> int:
    """A command line's whole number from 0 (ValueError otherwise)."""
    if not text.isdigit():
        raise ValueError(f"expected a whole number ≥ 0, got {text!r}")
    return int(text)


@dataclass(frozen=True)
class Option:
    """A backend option, defined once: the library's keyword (``name``), how its value is
    checked, and the command line's flag that sets it — a value flag read with ``parse``,
    or, without ``parse``, a ``--no-…`` switch that sets it to False. An option with no
    ``flag`` is the library's alone (a racer's setting, chosen by the race)."""

    name: str
    check: Callable[[object], None]
    flag: str | None = None
    help: str = ""
    parse: Callable[[str], object] | None = None
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The attribute argparse keeps the flag's value in."""
        assert self.flag is not None
        return self.flag.lstrip("-").replace("-", "_")

    def asked(self, value: object) -> object:
        """The option's value from the flag's (None: the flag was not given)."""
        if self.parse is None:  # a --no-… switch
            return False if value else None
        return value


#: every backend option; the command line's flags, the library's checks and the mapping
#: between them are all read from here
OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("solver", _check_solver, "--solver", "sat backend: the pysat solver (default "
           "cadical195)", str, "NAME"),
    Option("workers", check_workers, "--workers", "sat backend: race N searches (Kissat or "
           "CaDiCaL, the same with another seed, the compiled search going on, CaDiCaL set "
           "otherwise) on what the compiled search leaves after its budget, the first to "
           "find a solution going on alone (default: one per free core; 1 stays on one "
           "core); cpsat backend: search workers (default 1)", whole_number, "N"),
    Option("probing", _check_switch("probing"), "--no-probing",
           "skip probing (at the root; native --no-learning: at every node)"),
    Option("learning", _check_switch("learning"), "--no-learning",
           "native backend: plain depth-first search, probing at every node, no clause "
           "learning (slower on hard puzzles; its --trace reads like a tree of guesses)"),
    Option("budget", _check_budget, "--budget", "sat backend: the compiled search's work "
           "before the CNF stage, in cells of the lines it solves (default: chosen by the "
           "puzzle; 0: straight to the CNF stage)", count_number, "N"),
    Option("phases", _check_switch("phases"), "--no-phases",
           "sat backend: give the SAT solver no first values (default: each variable's "
           "likelier value by belief propagation between rows and columns)"),
    Option("search", _check_search),
)}


@dataclass(frozen=True)
class Backend:
    """One row of the table.

    ``entry`` is ``module:function``; ``options`` the keyword options it takes besides
    ``ctx``, ``deadline`` and ``limit``; ``depth`` how far logic goes before it searches
    (``probing=False`` stops at the lines), and ``compiled`` that the compiled engine may
    do that logic (the native backend is the Python reference, so not there); every
    backend solves every palette; a ``baseline`` is kept to measure another backend
    (``baseline_of``) against, not to use;
    ``libraries`` are the solver libraries it imports on its first call (:meth:`warm`);
    ``check`` is ``module:function`` checking options against the limit (see above);
    ``nodes`` that its search is satnono's own, which counts its nodes in ``ctx.stats``.
    """

    name: str
    entry: str
    summary: str
    options: tuple[str, ...] = ()
    depth: Depth = Depth.PROBED
    compiled: bool = False
    baseline_of: str | None = None
    libraries: tuple[str, ...] = ()
    check: str | None = None
    nodes: bool = False

    @property
    def baseline(self) -> bool:
        return self.baseline_of is not None

    def depth_with(self, options: dict[str, object]) -> Depth:
        """How deep presolving goes for these options."""
        if self.depth is Depth.PROBED and options.get("probing", True) is False:
            return Depth.LINES
        return self.depth

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

    def load(self) -> SolveFunction:
        return _function(self.entry)

    def check_limit(self, limit: int | None, plan: Plan) -> None:
        """Refuse, before any work, an option value this backend cannot use for ``limit``
        solutions (a solver that cannot enumerate, asked for more than one)."""
        if self.check is not None:
            _function(self.check)(limit, plan)

    def check_options(self, options: dict[str, object]) -> None:
        """An option this backend does not take, or a value it cannot, is a mistake worth
        naming."""
        for name, value in options.items():
            if name not in self.options:
                raise UnknownOption(
                    f"the {self.name} backend has no option {name!r} (its options: "
                    + (", ".join(self.options) or "none") + ")")
            OPTIONS[name].check(value)

    def run(self, start: Presolved, *, ctx: Context, deadline: Deadline, limit: int | None,
            plan: Plan) -> Iterator[Solution]:
        return self.load()(start, ctx=ctx, deadline=deadline, limit=limit, plan=plan)


def _function(entry: str) -> Callable[..., Any]:
    module, _, function = entry.partition(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("native", "satnono.backends.native:solutions",
            "the line solver with probing and conflict-driven search, no solver library",
            ("probing", "learning"), nodes=True),
    Backend("sat", "satnono.backends.sat:solutions",
            "propagation and probing, then CaDiCaL on the residual CNF (the default)",
            ("solver", "probing", "workers", "search", "budget", "phases"), compiled=True,
            libraries=("pysat.solvers", "satnono.engine.search"),
            check="satnono.backends.solver:check_limit", nodes=True),
    Backend("cpsat", "satnono.backends.cpsat:solutions",
            "propagation, then OR-Tools CP-SAT with one automaton per line", ("workers",),
            depth=Depth.LINES, libraries=("ortools.sat.python.cp_model",)),
    Backend("plain-sat", "satnono.backends.plain:sat_solutions",
            "baseline: the whole puzzle as a block-start CNF, no propagation, CaDiCaL",
            ("solver",), depth=Depth.OPEN, baseline_of="sat",
            libraries=("pysat.solvers", "pysat.card"),
            check="satnono.backends.solver:check_limit"),
    Backend("plain-cpsat", "satnono.backends.plain:cpsat_solutions",
            "baseline: one CP-SAT automaton per line over every cell, no propagation",
            ("workers",), depth=Depth.OPEN, baseline_of="cpsat",
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


def pinned(name: str, workers: int) -> dict[str, object]:
    """The options that keep backend ``name`` to ``workers`` processes, where it takes
    ``workers``: what work that is already spread over the cores (``batch``, ``bench``, a
    count in parts, the web page's requests) passes, since the sat backend otherwise races
    a hard puzzle on every free core.

    >>> pinned("sat", 1), pinned("native", 1)
    ({'workers': 1}, {})
    """
    return {"workers": workers} if "workers" in backend(name).options else {}


def baselines() -> list[tuple[str, str]]:
    """Each baseline and the backend it measures."""
    return [(b.name, b.baseline_of) for b in BACKENDS.values() if b.baseline_of is not None]


def taking(option: str, baselines: bool = False) -> list[str]:
    """The backends that take ``option`` (the baselines too when asked)."""
    return [b.name for b in BACKENDS.values()
            if option in b.options and (baselines or not b.baseline)]
