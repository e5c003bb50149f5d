"""What a hostile campaign found, each held by a test: nothing of the user's machine is
harmed, no process is left behind, every limit is kept, every misuse is answered in one
line."""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from pathlib import Path

import pytest

from satnono.cli import main

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
CAR = str(PUZZLES / "car.dat")


# ------------------------------------------------------------------ -o onto what is not a file

@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_output_onto_a_device_writes_into_it_and_keeps_the_node(tmp_path):
    null = tmp_path / "nulldev"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the null device's numbers
    assert main(["solve", CAR, "-o", str(null)]) == 0
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["nulldev"]  # no temporary file left


def test_output_onto_a_fifo_writes_through_it(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    try:
        assert main(["solve", CAR, "-o", str(fifo)]) == 0
    finally:
        if reader.is_alive():  # the command failed before opening it: let the reader go
            # without blocking: a reader that has just read everything has closed its end,
            # and a plain open would then wait for a new one for ever
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(60)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and got[0].decode().splitlines()[0] == "....######"
    assert sorted(os.listdir(tmp_path)) == ["p"]


def test_output_through_a_link_replaces_its_target_and_keeps_the_link(tmp_path):
    assert main(["solve", CAR, "-o", str(tmp_path / "plain.sol")]) == 0
    want = (tmp_path / "plain.sol").read_text()
    target = tmp_path / "real.sol"
    target.write_text("old\n")
    link = tmp_path / "link.sol"
    link.symlink_to(target.name)
    assert main(["solve", CAR, "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == "real.sol"
    assert target.read_text() == want
    dangling = tmp_path / "dangling.sol"
    dangling.symlink_to("made.sol")
    assert main(["solve", CAR, "-o", str(dangling)]) == 0
    assert dangling.is_symlink() and (tmp_path / "made.sol").read_text() == want


def test_output_through_a_link_to_standard_output_writes_it(tmp_path, capfd):
    link = tmp_path / "so"
    link.symlink_to("/proc/self/fd/1")
    assert main(["solve", CAR, "-o", str(link)]) == 0
    assert link.is_symlink()
    assert "....######" in capfd.readouterr().out


@pytest.mark.full  # fresh processes
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["formats"], ["solve", CAR], ["solve", CAR, "-o", "-"],
                                     ["count", CAR, "--json"]])
def test_standard_output_on_a_full_disk_is_one_line_and_a_status(command):
    """Standard output refused (``/dev/full`` fails every write as a full disk does):
    one line, the status a refused ``-o`` file has, no traceback."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "satnono", *command], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.splitlines()[-1] == \
        "satnono: cannot write standard output: No space left on device", r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr


def test_a_batch_journal_on_a_device_is_never_replaced(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    from satnono.batch.journal import done, drop

    assert done(str(fifo)) == {}  # nothing read back from a FIFO (it would block)
    drop(str(fifo), {"x"})
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# ------------------------------------------------------------------ no process left behind

def _named(pids: set[int], name: str) -> set[int]:
    out = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == name:
                    out.add(pid)
        except OSError:
            pass
    return out


@pytest.mark.full  # a fresh process that runs Kissat
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("timeout", [None, "60"])
def test_kissat_dies_with_the_process_that_started_it(tmp_path, timeout):
    """``kill -9`` of a ``solve`` while Kissat works (in the command's own process, or in
    the child a time limit runs the work in): no Kissat is left running."""
    import signal
    import subprocess
    import sys

    from satnono.backends import kissat

    from .conftest import (
        alive,
        cpu_seconds,
        descendants,
        killed_at_the_end,
        random_puzzle_file,
        wait_for,
    )

    if kissat.program() is None:
        pytest.skip("no kissat here")
    path = random_puzzle_file(tmp_path, 150)  # Kissat works on it for minutes
    args = [sys.executable, "-m", "satnono", "solve", str(path), "--no-probing"]
    proc = subprocess.Popen(args + (["--timeout", timeout] if timeout else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with killed_at_the_end(proc):
        found = wait_for(lambda: _named(descendants(proc.pid), "kissat"), 120)
        assert found, "Kissat never started"
        # two CPU seconds in, Kissat has read all its input and is searching (killed while
        # it reads, it would end on its own at the cut input)
        assert wait_for(lambda: all(cpu_seconds(pid) > 2 for pid in found), 120)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        wait_for(lambda: not any(alive(pid) for pid in found), 5)
        left = {pid for pid in found if alive(pid)}
        assert not left, f"Kissat outlived its parent: {left}"


# ------------------------------------------------------------------ a signal while loading

@pytest.mark.parametrize("terminated", [False, True])
def test_a_signal_turned_into_an_import_error_is_one_line_and_its_status(
        monkeypatch, capsys, terminated):
    from satnono import cli
    from satnono.errors import Interrupted
    from satnono.runtime.interrupt import note

    def run(args, started):
        note(Interrupted("terminated", 143) if terminated else KeyboardInterrupt())
        raise ImportError("PyCapsule_Import could not import module")

    monkeypatch.setattr(cli, "_run", run)
    assert main(["solve", CAR]) == (143 if terminated else 130)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "satnono: terminated" if terminated else "satnono: interrupted")


# ------------------------------------------------------------------ time limits

@pytest.mark.parametrize("limit", ["2200000", "1e30"])
def test_a_time_limit_past_the_longest_is_a_usage_error(capsys, limit):
    with pytest.raises(SystemExit) as stop:
        main(["solve", CAR, "--timeout", limit])
    assert stop.value.code == 2
    assert "at most 2,000,000 seconds" in capsys.readouterr().err


def test_the_library_refuses_a_time_limit_past_the_longest_and_keeps_the_longest():
    import satnono
    from satnono.errors import UsageError

    p = satnono.load(CAR)
    with pytest.raises(UsageError, match="at most 2,000,000 seconds"):
        list(satnono.solve(p, timeout=10**30))
    for backend in ("sat", "cpsat", "native"):  # in a child with a limit: every wait holds
        assert len(list(satnono.solve(p, backend, timeout=2_000_000))) == 1
    assert satnono.count(p, timeout=2_000_000).count == 1


def _pbm(path: Path, side: int, seed: int = 3) -> Path:
    import random

    rng = random.Random(seed)
    path.write_bytes(b"P4\n%d %d\n" % (side, side) + rng.randbytes(side * side // 8))
    return path


@pytest.mark.full  # fresh processes, seconds each
@pytest.mark.parametrize("what", ["fifo", "deep-xml", "huge-pbm"])
def test_the_time_limit_covers_reading_the_input(tmp_path, what):
    """A FIFO no one writes to, XML nested a million deep, a 4000×4000 picture: the
    limit counts from the command's start, and a read that overruns says so and stops."""
    import subprocess
    import sys
    import time

    if what == "fifo":
        path = tmp_path / "p.non"
        os.mkfifo(path)
    elif what == "deep-xml":
        path = tmp_path / "deep.xml"
        path.write_text("<?xml version='1.0'?><puzzleset><puzzle>" + "<a>" * 10**6
                        + "</a>" * 10**6 + "</puzzle></puzzleset>")
    else:
        path = _pbm(tmp_path / "big.pbm", 4000)
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "satnono", "solve", str(path), "--timeout",
                        "1", "-o", str(tmp_path / "out.sol")], capture_output=True, text=True,
                       timeout=120)
    took = time.monotonic() - started
    assert r.returncode == 3, r.stderr
    assert r.stderr.strip().splitlines() == [
        f"satnono: {path}: the time limit of 1 s ran out while reading it; nothing was solved"]
    assert not (tmp_path / "out.sol").exists()
    assert took < 1 + 5  # the limit counts from the start; slack for a busy machine's exit


def test_clues_of_a_large_picture_are_built_at_the_pace_of_reading_it(tmp_path):
    """A 2000×2000 random picture (two million blocks) is read into a puzzle whose clues
    are the picture's, line by line: checked against the plain bit-by-bit reading."""
    from satnono.io.formats import read_file

    path = _pbm(tmp_path / "big.pbm", 2000)
    (p,) = read_file(path)
    body = path.read_bytes()[len(b"P4\n2000 2000\n"):]
    rows = [int.from_bytes(body[r * 250:(r + 1) * 250], "big") for r in range(2000)]

    def runs(cells: list[bool]) -> tuple[int, ...]:
        out, run = [], 0
        for filled in [*cells, False]:
            if filled:
                run += 1
            elif run:
                out.append(run)
                run = 0
        return tuple(out)

    for r in (0, 999, 1999):
        cells = [bool(rows[r] >> (1999 - c) & 1) for c in range(2000)]
        assert tuple(b.length for b in p.rows[r]) == runs(cells)
    for c in (0, 1234, 1999):
        cells = [bool(rows[r] >> (1999 - c) & 1) for r in range(2000)]
        assert tuple(b.length for b in p.columns[c]) == runs(cells)
    assert p.goal is not None and p.goal[7] == "".join(
        "#" if rows[7] >> (1999 - c) & 1 else "." for c in range(2000))


# ------------------------------------------------------------------ the library's boundary

def _misuses():
    import satnono

    p = satnono.load(CAR)
    bad = satnono.Puzzle(((5,),), ((1,),), )
    return [
        ("load(None)", lambda: satnono.load(None), "path"),
        ("load(123)", lambda: satnono.load(123), "path"),
        ("load(bytes)", lambda: satnono.load(CAR.encode()), "read_bytes"),
        ("load(index='1')", lambda: satnono.load(CAR, index="1"), "index"),
        ("read_file(None)", lambda: satnono.read_file(None), "path"),
        ("save(p, 5)", lambda: satnono.save(p, 5), "path"),
        ("save(None, ...)", lambda: satnono.save(None, "x.json"), "Puzzle"),
        ("save(invalid)", lambda: satnono.save(bad, "x.json"), "needs 5 cells"),
        ("count(foo=1)", lambda: satnono.count(p, foo=1), "'foo'"),
        ("uniqueness(foo=1)", lambda: satnono.uniqueness(p, foo=1), "'foo'"),
        ("rate(foo=1)", lambda: satnono.rate(p, foo=1), "'foo'"),
        ("solve(observer=5)", lambda: list(satnono.solve(p, "native", observer=5)),
         "observer"),
        ("puzzle_from_picture(None)", lambda: satnono.puzzle_from_picture(None), "picture"),
        ("puzzle_from_picture([])", lambda: satnono.puzzle_from_picture([]), "empty"),
        ("Palette(None)", lambda: satnono.Palette(None), "palette"),
        ("is_solution(p, None)", lambda: satnono.is_solution(p, None), "Solution"),
        ("is_solution(None, s)", lambda: satnono.is_solution(None, satnono.Solution(1, (1,))),
         "Puzzle"),
        ("count_split(workers=0)", lambda: satnono.count_split(p, 4, workers=0), "workers"),
        ("count_split(parts=0)", lambda: satnono.count_split(p, 0), "parts"),
        ("Block(-1)", lambda: satnono.Block(-1), "length"),
        ("Block('a')", lambda: satnono.Block("a"), "length"),
        ("Block(2, 5)", lambda: satnono.Block(2, 5), "colour"),
        ("Colour(rgb='zzzzzz')", lambda: satnono.Colour("red", "r", "zzzzzz"), "hex"),
        ("Colour(char='rr')", lambda: satnono.Colour("red", "rr", "ff0000"), "character"),
    ]


@pytest.mark.parametrize("name", [m[0] for m in _misuses()])
def test_every_misuse_of_the_library_is_its_own_error_naming_the_argument(
        tmp_path, monkeypatch, name):
    from satnono.errors import SatnonoError

    monkeypatch.chdir(tmp_path)  # nothing may be written: the folder stays empty
    call, word = next((c, w) for n, c, w in _misuses() if n == name)
    with pytest.raises(SatnonoError) as err:
        call()
    assert word in str(err.value) and "\n" not in str(err.value)
    assert os.listdir(tmp_path) == []


def test_the_boundary_checks_keep_what_was_right():
    import satnono

    assert satnono.Block(0).length == 0  # an empty clue's mark in files, refused at validation
    assert satnono.Colour("red", "r", "f00").rgb == "f00"
    assert satnono.puzzle_from_picture(iter([iter([True, False]), [False, True]])).size == "2x2"
    assert satnono.load(Path(CAR), index=1).size == "10x8"


# ------------------------------------------------------------------ smaller things

def test_workers_past_the_machines_processors_come_down_to_them(capsys):
    from satnono.runtime.child import cores

    assert main(["solve", CAR, "--workers", "100000"]) == 0
    err = capsys.readouterr().err
    assert f"--workers 100000 is more than the {cores()} processor(s) this machine has; " \
           f"using {cores()}" in err


def test_an_error_quoting_a_huge_line_quotes_a_part_of_it(tmp_path, capsys):
    long = tmp_path / "long.non"
    long.write_text("width 5\nheight 1\nrows\n" + ",".join(["1"] * 300_000)
                    + "\ncolumns\n1\n1\n1\n1\n1\n")
    assert main(["solve", str(long)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 1000 and " … " in err


def test_a_puzzle_whose_process_was_killed_is_run_again_by_a_rerun(tmp_path, monkeypatch,
                                                                   capsys):
    """The batch record of a puzzle whose process died (SIGKILL: the system when memory
    ran out, or a hand) says so, no more, and a rerun on the same results file runs that
    puzzle again."""
    import json
    import signal

    import satnono
    from satnono.batch import work

    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("car.dat", "two.dat"):
        (folder / name).write_bytes((PUZZLES / name).read_bytes())
    real = work._work

    def killed_on_two(puzzle, job):
        if puzzle.size == "2x2":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(puzzle, job)

    out = tmp_path / "r.jsonl"
    monkeypatch.setattr(work, "_work", killed_on_two)
    main(["batch", str(folder), "-o", str(out)])
    records = {r["source"].rsplit("/", 1)[-1]: r for r in map(json.loads, out.open())}
    assert records["two.dat"]["verdict"] == "error" and records["two.dat"]["died"]
    assert "SIGKILL" in records["two.dat"]["error"]
    assert "most likely" not in records["two.dat"]["error"]
    assert records["car.dat"]["verdict"] == "unique"
    monkeypatch.setattr(work, "_work", real)
    capsys.readouterr()
    assert main(["batch", str(folder), "-o", str(out)]) == 0
    assert "1 whose process was killed, again" in capsys.readouterr().err
    records = {r["source"].rsplit("/", 1)[-1]: r for r in map(json.loads, out.open())}
    assert len(records) == 2 and records["two.dat"]["verdict"] == "multiple"
    assert satnono.load(str(folder / "two.dat")).size == "2x2"
