"""Another solver run beside satnono's backends: ``satnono bench --peer NAME=COMMAND``.

Researchers compare solvers puzzle by puzzle under one limit on one machine. A peer is a
command line with the puzzle's file in it, written by satnono in a format the peer reads:
``{non}``, ``{nin}``, ``{xml}`` (webpbn XML), ``{mk}``, ``{g}``, … (any format satnono
writes, by name), and ``{timeout}`` for the limit in whole seconds. Its run is a
:class:`~satnono.bench.runner.Run` like a backend's (the CSV column ``command`` says what
ran), killed with its whole process group at the limit.

What the peer found is read from what it prints: the first of the words ``unique``,
``multiple``, ``contradiction`` / ``no solution`` / ``unsolvable`` / ``unsat`` / ``none``,
``timeout`` / ``timed out``. A picture it prints (rows of ``#``, ``X``, ``1`` or ``█`` against
``.``, ``0``, ``-`` or ``·``, the puzzle's size, each cell one character or the same character
twice, as solvers that keep cells square print them) is checked against the clues: one that
breaks them makes the verdict ``wrong``; a picture and no word makes it ``found``.

>>> peer = parse_peer("pbnsolve=pbnsolve -b -u {xml}")
>>> peer.name, peer.formats
('pbnsolve', ('webpbn',))
>>> verdict_of("puzzle.xml 5x5 unique line\\n")
'unique'
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass

from ..errors import UsageError
from ..model.puzzle import Puzzle, is_solution
from ..model.solution import Solution

#: placeholder names that are not a format's
ALIASES = {"xml": "webpbn"}
#: verdict words, each with the verdict it means (first found in the output wins)
WORDS = (
    (r"multiple|not unique", "multiple"),
    (r"unique", "unique"),
    (r"contradiction|no solutions?|unsolvable|unsat(?:isfiable)?|inconsistent|none",
     "none"),
    (r"time ?out|timed out|time limit", "timeout"),
)
_WORD = re.compile("|".join(f"(?P<v{i}>\\b(?:{w})\\b)" for i, (w, _) in enumerate(WORDS)),
                   re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
FILLED, EMPTY = "#X1█", ".0-·"


@dataclass(frozen=True)
class Peer:
    name: str
    command: str  # as given, placeholders and all

    @property
    def formats(self) -> tuple[str, ...]:
        """The formats its command line names, each written once per puzzle."""
        return tuple(dict.fromkeys(
            ALIASES.get(p, p) for p in _PLACEHOLDER.findall(self.command) if p != "timeout"))


def parse_peer(spec: str, taken: frozenset[str] = frozenset()) -> Peer:
    """``NAME=COMMAND`` as ``--peer`` takes it; a UsageError says what is wrong with it."""
    from ..io.formats import PUZZLE_WRITERS

    name, eq, command = spec.partition("=")
    name = name.strip()
    if not eq or not name or not command.strip():
        raise UsageError(f"--peer {spec!r}: give NAME=COMMAND, as in "
                         "--peer pbnsolve='pbnsolve -b -u {xml}'")
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
        raise UsageError(f"--peer {spec!r}: the name may hold letters, digits and _ . + - "
                         "only (it becomes a column of the results)")
    if name in taken:
        raise UsageError(f"--peer {spec!r}: {name!r} is a satnono backend or another peer; "
                         "give the peer a name of its own")
    try:
        shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--peer {spec!r}: cannot split the command ({exc})") from None
    known = {*PUZZLE_WRITERS, *ALIASES, "timeout"}
    unknown = [p for p in _PLACEHOLDER.findall(command) if p not in known]
    if unknown:
        raise UsageError(f"--peer {spec!r}: no placeholder {{{unknown[0]}}} (puzzle files: "
                         + ", ".join(f"{{{f}}}" for f in (*sorted(ALIASES), *PUZZLE_WRITERS))
                         + "; and {timeout})")
    peer = Peer(name, command.strip())
    if not peer.formats:
        raise UsageError(f"--peer {spec!r}: the command names no puzzle file: put one of "
                         "{non}, {nin}, {xml}, … where the peer reads it")
    return peer


def parse_peers(specs: list[str], mode: str, backends: frozenset[str]) -> list[Peer]:
    """Every ``--peer`` given, each named apart from the backends and the other peers."""
    if specs and mode == "count":
        raise UsageError("--peer runs in modes first and validate (a peer's count cannot "
                         "be read from what it prints)")
    peers: list[Peer] = []
    for spec in specs:
        peers.append(parse_peer(spec, backends | {p.name for p in peers}))
    return peers


def verdict_of(output: str) -> str:
    """The verdict the first verdict word in ``output`` means, or ``""``."""
    m = _WORD.search(output)
    if m is None:
        return ""
    return next(WORDS[int(k[1:])][1] for k, v in m.groupdict().items() if v is not None)


def picture_of(output: str, puzzle: Puzzle) -> Solution | None:
    """The first picture of the puzzle's size in ``output`` (spaces between cells allowed,
    each cell one character or the same one twice), for black-and-white puzzles; None when
    there is none."""
    if not puzzle.palette.black_and_white:
        return None
    rows: list[str] = []
    for line in output.splitlines():
        cells = line.replace(" ", "").replace("\t", "")
        if len(cells) == 2 * puzzle.width and cells[::2] == cells[1::2]:
            cells = cells[::2]
        if len(cells) == puzzle.width and all(ch in FILLED + EMPTY for ch in cells):
            rows.append(cells)
            if len(rows) == puzzle.height:
                return Solution.from_strings(
                    ["".join("#" if ch in FILLED else "." for ch in r) for r in rows])
        else:
            rows = []
    return None


@dataclass
class PeerResult:
    verdict: str  # unique | multiple | none | found | timeout | wrong | error
    wall: float
    error: str = ""


def run_peer(peer: Peer, puzzle: Puzzle, timeout: float) -> PeerResult:
    """Write the puzzle, run the peer's command on it (its own process group, killed at
    ``timeout``) and read its verdict."""
    from ..errors import SatnonoError
    from ..io.formats import FORMATS, write_puzzle
    from ..runtime.child import dies_with_this_process

    with tempfile.TemporaryDirectory(prefix="satnono-peer-") as folder:
        files: dict[str, str] = {}
        for fmt in peer.formats:
            ext = (FORMATS[fmt].extensions or (f".{fmt}",))[0]
            path = os.path.join(folder, f"puzzle{ext}")
            try:
                text = write_puzzle(puzzle, fmt)
            except SatnonoError as exc:
                return PeerResult("error", 0.0, f"cannot give it the puzzle: {exc}")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            files[fmt] = path

        def fill(m: re.Match[str]) -> str:
            key = m.group(1)
            if key == "timeout":
                return str(max(1, int(timeout)))
            return shlex.quote(files[ALIASES.get(key, key)])

        argv = shlex.split(_PLACEHOLDER.sub(fill, peer.command))
        started = time.monotonic()
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, text=True, errors="replace",
                                    cwd=folder, start_new_session=True,
                                    preexec_fn=dies_with_this_process())
        except OSError as exc:
            return PeerResult("error", 0.0, f"cannot start {argv[0]!r}: {exc.strerror or exc}")
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            return PeerResult("timeout", time.monotonic() - started)
        finally:  # at the limit, and whatever it left running when it ended
            _kill_group(proc)
        wall = time.monotonic() - started
    return _judge(out, proc.returncode, puzzle, wall)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """The peer and whatever it started: killed and reaped (its CPU time then counts)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.communicate()


def _judge(out: str, status: int, puzzle: Puzzle, wall: float) -> PeerResult:
    verdict = verdict_of(out)
    picture = picture_of(out, puzzle)
    if picture is not None and not is_solution(puzzle, picture):
        return PeerResult("wrong", wall, "its picture breaks the clues")
    if picture is not None and verdict == "none":
        return PeerResult("wrong", wall, "it says no solution and prints a picture")
    if verdict:
        return PeerResult(verdict, wall)
    if picture is not None:
        return PeerResult("found", wall)
    last = out.strip().splitlines()[-1:] or [""]
    why = f"exit status {status}" if status else "no verdict word and no picture"
    return PeerResult("error", wall, f"{why}: {last[0][:200]}")
