"""Options every command shares, defined once: the input, --timeout, --workers, --json,
--backend, --cluster; the puzzles a command works on; messages on standard error."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ..backends import BACKENDS, OPTIONS, taking, whole_number
from ..errors import SolverFailed, UsageError, WrongSolution

if TYPE_CHECKING:
    from ..batch.engines import DaskEngine

T = TypeVar("T")
SubParsers = Any  # argparse's _SubParsersAction, which typeshed keeps private


def say(message: str) -> None:
    """A message for the user, on standard error."""
    print(message, file=sys.stderr)


@contextmanager
def about(name: str) -> Iterator[None]:
    """Errors that are not the input's (a solver process that died, memory, a bug) say
    which puzzle they happened on; bad input names its file already."""
    try:
        yield
    except (SolverFailed, WrongSolution) as exc:
        if exc.args and not str(exc.args[0]).startswith(name):
            exc.args = (f"{name}: {exc.args[0]}", *exc.args[1:])
        raise


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def positive(text: str) -> float:
    v = _number(text)
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError("must be a number greater than 0")
    return v


def some_seconds(text: str) -> float:
    """A number of seconds from 0 (a share of the time given to one method first)."""
    from ..runtime.deadline import LONGEST, too_long

    v = _number(text)
    if not v >= 0:
        raise argparse.ArgumentTypeError("must be a number of seconds from 0")
    if v > LONGEST:
        raise argparse.ArgumentTypeError(too_long(v))
    return v


def add_exact_first(p: argparse.ArgumentParser) -> None:
    """--exact-first, for count and batch: how long an estimate waits for the exact count."""
    from ..tuning import TUNING

    p.add_argument("--exact-first", type=some_seconds, metavar="S",
                   help="with --method approx: the seconds the exact methods get first, an "
                   f"exact count that comes that soon being the answer (default "
                   f"{TUNING.exact_first:g}; 0: the estimate at once)")


def exact_first(args: argparse.Namespace) -> float | None:
    """--exact-first's value, refused without --method approx."""
    if args.exact_first is not None and args.method != "approx":
        raise UsageError("--exact-first goes with --method approx (how long the estimate "
                         "waits for an exact count)")
    return args.exact_first


def seconds(text: str) -> float:
    """A time limit: a positive number of seconds, at most the longest the system can
    wait for."""
    from ..runtime.deadline import LONGEST, too_long

    v = positive(text)
    if v > LONGEST:
        raise argparse.ArgumentTypeError(too_long(v))
    return v


def argument_type(parse: Callable[[str], T], name: str) -> Callable[[str], T]:
    """``parse`` as argparse takes a type: its ValueError a usage error saying why, and
    ``name`` what argparse calls the type in messages."""
    def typed(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    typed.__name__ = name
    return typed


#: a whole number from 1, as every command's counts take it
whole = argument_type(whole_number, "whole")


def add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("puzzle", help="puzzle file (format detected from extension and content; "
                   "- reads standard input)")
    p.add_argument("--from", dest="fmt", metavar="FORMAT",
                   help="input format, overriding detection (see 'satnono formats')")
    p.add_argument("--index", type=whole, metavar="N",
                   help="the N-th puzzle (from 1) of a file holding several")


def add_timeout(p: argparse.ArgumentParser, what: str = "give up after S seconds") -> None:
    p.add_argument("--timeout", type=seconds, metavar="S", help=what)


WORKERS_HELP = OPTIONS["workers"].help


def add_workers(p: argparse.ArgumentParser, what: str = WORKERS_HELP,
                default: int | None = None) -> None:
    p.add_argument("--workers", type=whole, default=default, metavar="N", help=what)


def add_json(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--json", action="store_true", help=what)


def add_backend(p: argparse.ArgumentParser, what: str, default: str | None = None) -> None:
    p.add_argument("--backend", choices=list(BACKENDS), default=default,
                   help=what + ": " + "; ".join(f"{b.name}: {b.summary}"
                                                for b in BACKENDS.values()))


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """The flags that set a backend's options, one per :data:`~satnono.backends.OPTIONS`
    row that has a flag (:func:`backend_options` maps them back)."""
    for option in OPTIONS.values():
        if option.flag is None:
            continue
        if option.parse is None:
            p.add_argument(option.flag, action="store_true", help=option.help)
        else:
            p.add_argument(option.flag, type=argument_type(option.parse,
                                                           option.metavar or option.name),
                           metavar=option.metavar, help=option.help)


def backend_options(args: argparse.Namespace, backend: str) -> dict[str, Any]:
    """The backend options the command line asks for, each refused with a one-line message
    when the chosen backend does not take it."""
    options: dict[str, Any] = {}  # each value checked by the option's own check
    for option in OPTIONS.values():
        if option.flag is None:
            continue
        value = option.asked(getattr(args, option.dest, None))
        if value is None:
            continue
        if option.name not in BACKENDS[backend].options:
            raise UsageError(f"{option.flag} goes with --backend "
                             + " or ".join(taking(option.name)))
        options[option.name] = value
    return options


def add_cluster(p: Any, what: str) -> None:
    """``--cluster ADDRESS`` on a parser or an argument group."""
    p.add_argument("--cluster", metavar="ADDRESS",
                   help=what + ": tcp://HOST:8786, or local:N for a cluster of N worker "
                   "processes here (needs satnono[cluster])")


def add_where(p: argparse.ArgumentParser, jobs: str, default: int | None = 1) -> None:
    """``--jobs N`` (this machine) or ``--cluster ADDRESS`` (Dask), not both; None as the
    default: every core the process may use."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=whole, default=default, metavar="N", help=jobs)
    add_cluster(where, "run on a Dask cluster, the engine batch and bench share")


def cluster_engine(address: str | None) -> DaskEngine | None:
    """The Dask engine ``--cluster ADDRESS`` asks for (None without one)."""
    if not address:
        return None
    from ..batch.engines import DaskEngine
    return DaskEngine(address)
