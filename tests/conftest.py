"""Shared helpers: brute-force oracles and the optional corpus of real puzzles."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from hypothesis import settings

from satnono.io.corpus import corpus_dir, index_rows, path_of, pick, puzzle_of
from satnono.model.puzzle import Colour, Palette, Puzzle, colour_runs, lengths
from satnono.model.solution import Solution, line_clue

# The signal tests send Ctrl-C to a command as a terminal would. A shell without job
# control starts its background jobs with SIGINT ignored, and children inherit that: the
# commands would never see it. Handled (not ignored) here, children start with the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

CORPUS = corpus_dir()

#: set by ``--fast``: the tier a developer runs between changes (about a minute); the full
#: suite, which CI runs, is ``python -m pytest`` with nothing added
FAST = False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true",
                     help="the fast tier: leave out the tests marked full (a real browser, a "
                     "Dask cluster, signals, whole suites in subprocesses) and run a tenth of "
                     "each property test's examples")


#: Hypothesis profiles: ``ci`` (the full suite) runs every property test's examples,
#: ``dev`` (the fast tier's) a tenth; ``--hypothesis-profile NAME`` picks one by hand.
#: A test asks for its examples with :func:`examples`, which scales by the profile.
settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=10)


def pytest_configure(config: pytest.Config) -> None:
    global FAST
    FAST = bool(config.getoption("--fast"))
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("dev" if FAST else "ci")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not FAST:
        return
    left_out = [item for item in items if item.get_closest_marker("full")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("full")]


@pytest.fixture(scope="session")
def libraries_loaded() -> None:
    """The state ``batch``, ``bench`` and ``serve`` put their process in before they fork
    one process per puzzle (:meth:`satnono.backends.Backend.warm`): every backend's solver
    libraries imported once, so that each CP-SAT run's child does not import OR-Tools
    again (a third of a second each: 12 s of 40 four-cell colour puzzles). For tests
    that run every backend over many small puzzles; a fresh process's first run has its
    own tests (test_cli, test_library)."""
    from satnono.backends import BACKENDS

    for row in BACKENDS.values():
        row.warm()


def examples(n: int) -> int:
    """How many examples a property test runs: ``n`` under the ``ci`` profile (the full
    suite), a tenth (at least 5) under ``dev`` (the fast tier): ``n`` scaled by the loaded
    profile's ``max_examples`` against Hypothesis' default of 100. Test modules are
    imported after the profile is loaded."""
    return max(5, n * settings.default.max_examples // 100)


def corpus_rows() -> list[dict]:
    return index_rows(CORPUS)


corpus_path = path_of
corpus_puzzle = puzzle_of
corpus_pick = pick

needs_corpus = pytest.mark.skipif(not (CORPUS / "INDEX.tsv").exists(),
                                  reason="../shared/corpus is not present")


def brute_line(clue: tuple[int, ...], n: int, filled: int, empty: int):
    """All placements by trying every filling: the oracle for the line solvers."""
    fits = [m for m in range(1 << n)
            if m & filled == filled and not m & empty and line_clue(m, n) == tuple(clue)]
    if not fits:
        return None
    full = (1 << n) - 1
    always, ever = full, 0
    for m in fits:
        always &= m
        ever |= m
    return always, full & ~ever


def brute_solutions(puzzle: Puzzle) -> set[Solution]:
    """Every solution of a small puzzle: each row from its own placements, columns checked."""
    w = puzzle.width
    options = [[m for m in range(1 << w) if line_clue(m, w) == lengths(clue)]
               for clue in puzzle.rows]
    out = set()
    for rows in itertools.product(*options):
        sol = Solution(w, tuple(rows))
        if all(line_clue(col, puzzle.height) == lengths(clue)
               for col, clue in zip(sol.columns(), puzzle.columns)):
            out.add(sol)
    return out


def random_picture(rng, width: int, height: int, density: float) -> Solution:
    return Solution(width, tuple(sum(1 << c for c in range(width) if rng.random() < density)
                                 for _ in range(height)))


def random_puzzle_file(folder, side: int, seed: int = 5):
    """A side × side random picture's puzzle (a cell filled at even odds) written as .non
    in ``folder``: from 70 cells a side logic leaves it wide open, and at 150 Kissat works
    on it for minutes."""
    import random

    from satnono import Solution, puzzle_from_picture, save

    rng = random.Random(seed)
    pic = Solution(side, tuple(rng.getrandbits(side) for _ in range(side)))
    path = folder / f"random{side}.non"
    save(puzzle_from_picture(pic), str(path))
    return path


def past_small(folder) -> str:
    """A 34×34 picture's puzzle written as .non in ``folder``: past the small puzzles a
    single solve settles without the compiled code (1,156 cells), and open after line
    logic, so a single solve of it loads (or compiles) that code."""
    import random

    from satnono.io.formats import save
    from satnono.model.puzzle import puzzle_from_picture

    path = str(folder / "big.non")
    save(puzzle_from_picture(random_picture(random.Random(3), 34, 34, 0.5)), path)
    return path


def colour_placements(blocks, n):
    """Every line colour blocks ``((length, colour index), ...)`` make, as one colour index
    per cell (a background cell needed only between two blocks of one colour)."""
    def place(j, p, line):
        if j == len(blocks):
            yield tuple(line + [0] * (n - p))
            return
        b, colour = blocks[j]
        gap = 1 if j and blocks[j - 1][1] == colour else 0
        for s in range(p + gap, n - b + 1):
            yield from place(j + 1, s + b, line + [0] * (s - p) + [colour] * b)

    yield from place(0, 0, [])


def brute_colour_solutions(puzzle: Puzzle) -> set[tuple[str, ...]]:
    """Every solution of a small colour puzzle, as row strings of the palette's characters:
    each row from its own placements, the columns checked."""
    index = {c.name: i for i, c in enumerate(puzzle.palette.colours)}

    def blocks(clue):
        return tuple((b.length, index[b.colour]) for b in clue)

    chars = puzzle.palette.chars
    options = [list(colour_placements(blocks(clue), puzzle.width)) for clue in puzzle.rows]
    columns = [blocks(clue) for clue in puzzle.columns]
    out = set()
    for rows in itertools.product(*options):
        if all(colour_runs([row[c] for row in rows]) == columns[c]
               for c in range(puzzle.width)):
            out.add(tuple("".join(chars[k] for k in row) for row in rows))
    return out


#: three block colours on white, for tests
RGB_PALETTE = Palette((Colour("white", ".", "ffffff"), Colour("black", "#", "000000"),
                       Colour("red", "r", "e01010"), Colour("blue", "b", "1030e0")))


def random_colour_grid(rng, width: int, height: int, colours: int, density: float
                       ) -> list[list[int]]:
    """A picture as a colour index per cell: each cell a block colour 1..colours with
    probability ``density``, else background."""
    return [[rng.randint(1, colours) if rng.random() < density else 0 for _ in range(width)]
            for _ in range(height)]


def run_python(code: str, *args: str, env: dict | None = None, cwd=None,
               timeout: float = 300) -> subprocess.CompletedProcess:
    """``code`` in a fresh Python process (this one's interpreter, its environment plus
    ``env``), its output captured as text."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})


def printed(code: str, timeout: float = 300) -> list[str]:
    """The words ``code`` prints in a fresh Python process (:func:`run_python`), which must
    end well."""
    done = run_python(code, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def search_budgets_agree(puzzles, make_search, reference: str) -> None:
    """The sat backend's solutions whatever the compiled search's budget: 0 (straight to
    the CNF), a third and two thirds into the search's own work past its root (it stops part
    way and the CNF gets the rest, with what it found ruled out), and more than it needs:
    each solution once, the set ``reference``'s; and some puzzle was handed over part way
    with solutions found. ``make_search`` builds the compiled search of a puzzle. On one
    core: the handover is the property here, the race after it has its own tests
    (test_portfolio)."""
    from satnono import solve

    handed_over = 0
    for p in puzzles:
        want = set(solve(p, reference, limit=None, **({"budget": 0} if reference == "sat"
                                                      else {})))
        s = make_search(p)
        s.root_only()
        root = s.cost
        list(s.solutions(None))
        budgets = [root + (s.cost - root) // 3, root + 2 * (s.cost - root) // 3]
        before = len(list(make_search(p).solutions(None, budgets[0])))
        handed_over += 0 < before < len(want)
        for budget in [0, *budgets, 10**9]:
            got = list(solve(p, "sat", limit=None, budget=budget, workers=1))
            assert len(got) == len(set(got)) and set(got) == want
            for limit in (1, 2):
                part = list(solve(p, "sat", limit=limit, budget=budget, workers=1))
                assert len(part) == len(set(part)) == min(limit, len(want))
                assert set(part) <= want
    assert handed_over >= 2  # the search found some solutions, the CNF the others


# ------------------------------------------------------------------ processes

def descendants(pid: int) -> set[int]:
    """Every process descended from ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


@contextmanager
def killed_at_the_end(proc: subprocess.Popen) -> Iterator[None]:
    """Whatever the test finds, no process of it outlives it."""
    try:
        yield
    finally:
        if proc.poll() is None:
            for pid in descendants(proc.pid) | {proc.pid}:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            proc.wait()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def ctrl_c_after(seconds: float) -> Iterator[None]:
    """Within the block, a KeyboardInterrupt raised ``seconds`` in, as Ctrl-C's handler
    raises it (a timer's signal in this process); the timer and handler put back after."""
    def ctrl_c(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, ctrl_c)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def wait_for(what, seconds: float):
    """``what()`` once it is true, looked at every 20 ms; its last value after
    ``seconds``."""
    import time

    end = time.monotonic() + seconds
    while True:
        got = what()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.02)
