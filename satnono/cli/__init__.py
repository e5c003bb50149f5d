"""The ``satnono`` command. Thin: parse arguments, call the library, report.

Exit status: 0 done; 1 the puzzle has no solution; 2 bad input or usage;
3 the time limit ran out (what was found so far is reported, the search is incomplete);
4 --verify found the backend and the native backtracker disagree (a bug, reported in full);
5 check and make: the puzzle has more than one solution; 6 a solver process failed or was
killed (most often because the machine ran out of memory; the message says how big the CNF was).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

from ..backends import BACKENDS, WORKER_BACKENDS
from ..errors import SatnonoError, SearchTimeout, SolverFailed
from ..io.formats import shown
from ..io.output import atomic_output, check_writable

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_TIMEOUT, EXIT_DISAGREE = 0, 1, 2, 3, 4
EXIT_FAILED = 6
WORKERS_HELP = ("sat backend: root probing shared by up to N cores, then N solvers with "
                "different search settings raced, the first to find a solution going on "
                "alone; cpsat backend: search workers (default 1)")


class Usage(SatnonoError):
    """A command line that asks for something impossible."""


# ---------------------------------------------------------------- output helpers

def _say(msg: str) -> None:
    print(msg, file=sys.stderr)


# ---------------------------------------------------------------- solve

def _solution_format(args: argparse.Namespace) -> str:
    from ..io.render import SOLUTION_FORMATS, format_for

    fmt = args.to or format_for(args.output) or "text"
    if fmt not in SOLUTION_FORMATS:
        raise Usage(f"--to {fmt}: solutions are written as one of {', '.join(SOLUTION_FORMATS)}")
    return fmt


def _verdict(n: int, limit: int | None, complete: bool) -> str:
    if not complete:
        return f"search incomplete: {n} solution(s) found before the time limit"
    if n == 0:
        return "no solution"
    if limit is None:
        return "unique solution" if n == 1 else f"{n} solutions (all found)"
    if n < limit:
        return "unique solution" if n == 1 else f"{n} solutions (all found)"
    if limit == 2 and n == 2:
        return "not unique: at least 2 solutions (showing the first)"
    return f"{n} solution(s) shown (limit reached; there may be more)"


def cmd_solve(args: argparse.Namespace) -> int:
    from ..pipeline import solve

    fmt = _solution_format(args)
    chosen, total = _chosen(args)
    if len(chosen) > 1 and fmt != "text" and args.output not in (None, "-") and fmt != "json":
        raise Usage(f"{shown(args.puzzle)} holds {len(chosen)} puzzles; pick one with --index to "
                    f"write {fmt}")
    # how many solutions to look for, and how many to show
    if args.all:
        limit = None
    elif args.limit is not None:
        limit = args.limit
    elif fmt == "sol":
        limit = None  # the seed's format lists every solution
    else:
        limit = 2  # enough to tell unique from not unique
    show_all = args.all or args.limit is not None or fmt in ("sol", "json")
    tracing = args.trace or args.trace_gif
    if tracing:
        if args.backend not in (None, "native"):
            raise Usage("--trace follows the native solver's steps; drop --backend or use "
                        "--backend native")
        if args.trace_gif and len(chosen) > 1:
            raise Usage(f"{shown(args.puzzle)} holds {len(chosen)} puzzles; pick one with --index "
                        "for --trace-gif")
    args.backend = args.backend or ("native" if tracing else "sat")

    worst = EXIT_OK
    results = []
    for idx, puzzle in chosen:
        found = []
        complete = True
        started = time.monotonic()
        stream = None
        if fmt == "text" and args.output in (None, "-"):
            stream = sys.stdout  # print solutions as they are found
            if len(chosen) > 1:
                stream.write(f"== puzzle {idx}{': ' + puzzle.title if puzzle.title else ''} "
                             f"({puzzle.size})\n")
        options = _backend_options(args)
        tracer = None
        if tracing:
            from ..io.trace import Tracer
            from ..logic.propagate import Context

            tracer = Tracer(puzzle, show=args.trace, gif=args.trace_gif)
            options["ctx"] = Context(puzzle, trace=tracer)
        try:
            for sol in solve(puzzle, args.backend, limit=limit, timeout=args.timeout,
                             **options):
                found.append(sol)
                if stream is not None and (show_all or len(found) == 1):
                    if len(found) > 1:
                        stream.write("\n")
                    stream.write("\n".join(sol.strings()) + "\n")
                    stream.flush()
        except SearchTimeout:
            complete = False
        finally:
            if tracer is not None:
                from ..logic.board import Board

                tracer.close(Board.from_solution(found[-1]) if found else None)
                _say(f"trace: {tracer.steps} steps"
                     + (f"; animation written to {args.trace_gif}" if args.trace_gif else ""))
        seconds = time.monotonic() - started
        verdict = _verdict(len(found), limit, complete)
        label = shown(args.puzzle) + (f" #{idx}" if total > 1 else "")
        _say(f"{label}: {verdict} [{seconds:.2f} s, backend {args.backend}]")
        results.append((idx, puzzle, found, complete))
        if args.verify and complete:
            worst = max(worst, _verify(label, puzzle, args, found, limit))
        if not complete:
            worst = max(worst, EXIT_TIMEOUT)
        elif not found:
            worst = max(worst, EXIT_NO_SOLUTION)

    if fmt == "text" and args.output in (None, "-"):
        return worst
    _write_solutions(args, fmt, results, show_all)
    return worst


def _verify(label: str, puzzle, args: argparse.Namespace, found: list, limit: int | None
            ) -> int:
    from ..analyze.crosscheck import cross_check

    if args.backend == "native":
        _say(f"{label}: --verify compares a backend with native; nothing to compare")
        return EXIT_OK
    check = cross_check(puzzle, args.backend, found, limit, args.timeout)
    _say(f"{label}: {check.message} [{check.seconds:.2f} s]")
    if check.agree is None:
        return EXIT_TIMEOUT
    if check.agree:
        return EXIT_OK
    for who, sols in ((args.backend, check.only_backend), ("native", check.only_native)):
        for sol in sols:
            _say(f"{label}: found only by {who}:\n" + "\n".join(sol.strings()))
    return EXIT_DISAGREE


def _write_solutions(args: argparse.Namespace, fmt: str, results: list, show_all: bool) -> None:
    from ..io import render

    if fmt == "json":
        items = [render.json_solutions(found, complete,
                                       **({"index": i, "title": p.title} if len(results) > 1
                                          else {}))
                 for i, p, found, complete in results]
        import json

        with atomic_output(args.output) as out:
            json.dump(items if len(results) > 1 else items[0], out, indent=1)
            out.write("\n")
        return
    if any(not complete for *_, complete in results):
        _say(f"not writing {args.output or 'the output'}: the search is incomplete and "
             f"{fmt} cannot say so (use --to json)")
        return
    if fmt == "sol":
        (_, _, found, _), = results
        # canonical order ('*' before '.', row by row): the seed's order, and the same
        # file whichever backend found the solutions
        found = sorted(found, key=lambda sol: sol.strings("*", "."))
        with atomic_output(args.output) as out:
            render.write_sol(out, found)
    elif fmt == "text":
        with atomic_output(args.output) as out:
            for i, p, found, _ in results:
                if len(results) > 1:
                    out.write(f"== puzzle {i}{': ' + p.title if p.title else ''}\n")
                render.write_text(out, found if show_all else found[:1])
    elif fmt in ("pbm", "non"):
        (_, puzzle, found, _), = results
        if not found:
            _say(f"not writing {args.output or 'the output'}: there is no solution to draw")
            return
        if fmt == "pbm":
            with atomic_output(args.output, binary=True) as out:
                out.write(render.pbm(found if show_all else found[:1]))
        else:
            with atomic_output(args.output) as out:
                out.write(render.non_with_goal(puzzle, found[0]))


def _backend_options(args: argparse.Namespace) -> dict:
    opts: dict = {}
    if args.no_probing and args.backend in ("native", "sat"):
        opts["probing"] = False
    if args.no_learning:
        if args.backend != "native":
            raise Usage("--no-learning goes with --backend native")
        opts["learning"] = False
    if args.solver:
        if args.backend not in ("sat", "plain-sat"):
            raise Usage("--solver goes with --backend sat")
        opts["solver"] = args.solver
    if args.workers:
        _check_workers(args)
        opts["workers"] = args.workers
    return opts


def _check_workers(args: argparse.Namespace) -> None:
    if args.backend not in WORKER_BACKENDS:
        raise Usage("--workers goes with --backend sat or cpsat")


# ---------------------------------------------------------------- count

def _chosen(args: argparse.Namespace) -> tuple[list, int]:
    """The (index, puzzle) pairs the command works on, and how many the file holds."""
    from ..io.formats import read_file

    puzzles = read_file(args.puzzle, args.fmt)
    chosen = list(enumerate(puzzles, 1))
    if args.index is not None:
        if not 1 <= args.index <= len(puzzles):
            raise Usage(f"--index {args.index} is outside 1..{len(puzzles)}")
        chosen = [chosen[args.index - 1]]
    return chosen, len(puzzles)


def cmd_count(args: argparse.Namespace) -> int:
    import json

    from ..analyze.count import count

    if args.method == "ganak" and (args.backend != "sat" or args.workers):
        raise Usage("--backend and --workers choose how to enumerate; ganak counts on its own")
    if args.workers:
        _check_workers(args)
    chosen, total = _chosen(args)
    worst = EXIT_OK
    for idx, puzzle in chosen:
        label = shown(args.puzzle) + (f" #{idx}" if total > 1 else "")
        res = count(puzzle, args.method, backend=args.backend, timeout=args.timeout,
                    threshold=args.threshold, workers=args.workers or 1)
        if args.json:
            print(json.dumps({"puzzle": label, "title": puzzle.title, "count": res.count,
                              "exact": res.complete, "method": res.method,
                              "seconds": round(res.seconds, 3),
                              "unknown_cells": res.unknown_cells, "variables": res.variables,
                              "clauses": res.clauses}))
        else:
            prefix = f"{label}: " if len(chosen) > 1 else ""
            print(f"{prefix}{res.count}" + ("" if res.complete else "+"))
            _say(f"{label}: {res.describe()}")
        if not res.complete:
            worst = max(worst, EXIT_TIMEOUT)
        elif res.count == 0:
            worst = max(worst, EXIT_NO_SOLUTION)
    return worst


# ---------------------------------------------------------------- convert

def cmd_convert(args: argparse.Namespace) -> int:
    from ..io.formats import FORMATS, PUZZLE_WRITERS, format_for_extension, load, write_puzzle
    from ..model.puzzle import Solution

    fmt = args.to or format_for_extension(args.output or "") or None
    pictures = ("pbm", "grid", "text", "sol")
    if fmt is None:
        ext = os.path.splitext(args.output or "")[1].lower()
        fmt = {".txt": "grid", ".sol": "sol"}.get(ext)
    if fmt is None:
        raise Usage("say which format to write with --to (one of "
                    + ", ".join((*PUZZLE_WRITERS, *pictures)) + ")")
    puzzle = load(args.puzzle, args.index, args.fmt)
    if fmt in FORMATS and FORMATS[fmt].write is not None:
        text = write_puzzle(puzzle, fmt)
        with atomic_output(args.output) as out:
            out.write(text)
        return EXIT_OK
    if fmt not in pictures:
        raise Usage(f"cannot write {fmt!r}")
    # a picture: the goal when the file has one, else the solution
    if puzzle.goal:
        sols = [Solution.from_strings(puzzle.goal)]
    else:
        from ..pipeline import solve

        sols = list(solve(puzzle, limit=2, timeout=args.timeout))
        if not sols:
            _say(f"{shown(args.puzzle)}: no solution, nothing to draw")
            return EXIT_NO_SOLUTION
        if len(sols) > 1:
            _say(f"{shown(args.puzzle)}: not unique; drawing the first solution")
        sols = sols[:1]
    from ..io import render

    if fmt == "pbm":
        with atomic_output(args.output, binary=True) as out:
            out.write(render.pbm(sols))
    else:
        with atomic_output(args.output) as out:
            (render.write_sol if fmt == "sol" else render.write_text)(out, sols)
    return EXIT_OK


def cmd_formats(args: argparse.Namespace) -> int:
    from ..io.formats import FORMATS

    for f in FORMATS.values():
        exts = " ".join(f.extensions) or "(by content)"
        mode = "read/write" if f.write else "read"
        print(f"{f.name:10} {mode:10} {exts:14} {f.description}")
    return EXIT_OK


# ---------------------------------------------------------------- argument parsing

def _add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("puzzle", help="puzzle file (format detected from extension and content; "
                   "- reads standard input)")
    p.add_argument("--from", dest="fmt", metavar="FORMAT",
                   help="input format, overriding detection (see 'satnono formats')")
    p.add_argument("--index", type=int, metavar="N",
                   help="the N-th puzzle (from 1) of a file holding several")


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return v


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="satnono",
        description="Solve, enumerate and count black-and-white nonograms.",
        epilog="Exit status: 0 done, 1 no solution, 2 bad input, 3 time limit reached, "
        "4 backends disagree (--verify), 5 not unique (check, make), 6 a solver process "
        "failed or was killed (most often: out of memory).")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("solve", help="solve a puzzle; say whether the solution is unique",
                       description="Solve a puzzle. With no --limit it looks for two solutions "
                       "and says whether the one shown is unique; the seed's .sol format lists "
                       "every solution.")
    _add_input(p)
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--to", choices=["sol", "text", "non", "pbm", "json"],
                   help="output format (default: from OUT's extension, else text)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--limit", type=_count, metavar="N", help="stop after N solutions")
    g.add_argument("--all", action="store_true", help="find every solution")
    p.add_argument("--timeout", type=_positive, metavar="S", help="give up after S seconds")
    p.add_argument("--backend", choices=BACKENDS,
                   help="sat: propagation + CaDiCaL (default); cpsat: OR-Tools CP-SAT; "
                   "native: the line solver with probing and conflict-driven search, no solver "
                   "library; "
                   "plain-sat, plain-cpsat: baselines with no propagation")
    p.add_argument("--solver", metavar="NAME",
                   help="sat backend: the pysat solver (default cadical195)")
    p.add_argument("--workers", type=_count, metavar="N", help=WORKERS_HELP)
    p.add_argument("--no-probing", action="store_true",
                   help="skip probing (at the root; native --no-learning: at every node)")
    p.add_argument("--no-learning", action="store_true",
                   help="native backend: plain depth-first search, probing at every node, "
                   "no clause learning (slower on hard puzzles; its --trace reads like a "
                   "tree of guesses)")
    p.add_argument("--trace", action="store_true",
                   help="show the native solver's steps: live on a terminal, one line per "
                   "step otherwise (on standard error)")
    p.add_argument("--trace-gif", metavar="OUT.gif", help="record the steps as an animation")
    p.add_argument("--verify", action="store_true",
                   help="also solve with the native backtracker and compare the solution "
                   "sets (up to the limit); exit 4 if they differ")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("count", help="count the solutions exactly",
                       description="Print the exact number of solutions (on standard output; "
                       "how it was obtained on standard error). auto enumerates up to "
                       "--threshold solutions, then counts with Ganak.")
    _add_input(p)
    p.add_argument("--method", default="auto", choices=["auto", "enumerate", "ganak"],
                   help="enumerate: blocking clauses, one solution at a time; ganak: exact "
                   "projected model counting; auto (default): enumerate, then ganak")
    p.add_argument("--backend", default="sat", choices=BACKENDS,
                   help="the backend that enumerates (default sat)")
    p.add_argument("--workers", type=_count, metavar="N", help=WORKERS_HELP)
    p.add_argument("--threshold", type=_count, default=1000, metavar="N",
                   help="auto: switch to ganak after N solutions (default 1000)")
    p.add_argument("--timeout", type=_positive, metavar="S", help="give up after S seconds "
                   "(the solutions enumerated so far are reported as a lower bound)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    p.set_defaults(run=cmd_count)

    p = sub.add_parser("convert", help="write a puzzle in another format")
    _add_input(p)
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--to", metavar="FORMAT", help="output format (default: from OUT's extension)")
    p.add_argument("--timeout", type=_positive, metavar="S",
                   help="time limit when a picture has to be solved for")
    p.set_defaults(run=cmd_convert)

    from .make import add_parsers

    add_parsers(sub, _add_input, _positive)
    from .bench import add_parser as add_bench

    add_bench(sub, _positive, _count)

    p = sub.add_parser("formats", help="list the file formats satnono reads and writes")
    p.set_defaults(run=cmd_formats)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        # before the work, not after it; a report makes its own folder for the plots
        if not getattr(args, "report", None):
            check_writable(getattr(args, "output", None))
        check_writable(getattr(args, "trace_gif", None))
        return run(args)
    except SatnonoError as exc:
        _say(f"satnono: {exc}")
        return EXIT_FAILED if isinstance(exc, SolverFailed) else EXIT_BAD_INPUT
    except MemoryError:
        _say("satnono: out of memory: this puzzle needs more than this machine has")
        return EXIT_FAILED
    except KeyboardInterrupt:
        _say("satnono: interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
