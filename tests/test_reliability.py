"""What a hostile campaign found, each held by a test: nothing of the user's machine is
harmed, no process is left behind, every limit is kept, every misuse is answered in one
line."""

from __future__ import annotations

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
            with open(fifo, "wb"):
                pass
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


def test_a_batch_journal_on_a_device_is_never_replaced(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    from satnono.batch.journal import done, drop

    assert done(str(fifo)) == {}  # nothing read back from a FIFO (it would block)
    drop(str(fifo), {"x"})
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# ------------------------------------------------------------------ no process left behind

def _random_puzzle(tmp_path: Path, side: int, seed: int = 5) -> Path:
    import random

    from satnono import Solution, puzzle_from_picture, save

    rng = random.Random(seed)
    pic = Solution(side, tuple(rng.getrandbits(side) for _ in range(side)))
    path = tmp_path / f"random{side}.non"
    save(puzzle_from_picture(pic), str(path))
    return path


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


def _cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for(what, seconds: float):
    """``what()`` once it is true, looked at every 20 ms; its last value after
    ``seconds``."""
    import time

    end = time.monotonic() + seconds
    while True:
        got = what()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.02)


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

    from .conftest import alive, descendants, killed_at_the_end

    if kissat.program() is None:
        pytest.skip("no kissat here")
    path = _random_puzzle(tmp_path, 150)  # Kissat works on it for minutes
    args = [sys.executable, "-m", "satnono", "solve", str(path), "--no-probing"]
    proc = subprocess.Popen(args + (["--timeout", timeout] if timeout else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with killed_at_the_end(proc):
        found = _wait_for(lambda: _named(descendants(proc.pid), "kissat"), 120)
        assert found, "Kissat never started"
        # two CPU seconds in, Kissat has read all its input and is searching (killed while
        # it reads, it would end on its own at the cut input)
        assert _wait_for(lambda: all(_cpu_seconds(pid) > 2 for pid in found), 120)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        _wait_for(lambda: not any(alive(pid) for pid in found), 5)
        left = {pid for pid in found if alive(pid)}
        assert not left, f"Kissat outlived its parent: {left}"


# ------------------------------------------------------------------ a signal while loading

@pytest.mark.parametrize("terminated", [False, True])
def test_a_signal_that_an_extension_loader_turns_into_an_error_still_stops(terminated):
    """NumPy's C part, interrupted while it loads, reports "ImportError: " and drops the
    Ctrl-C (or SIGTERM): loading the compiled engine then failed, and the command went on
    with the Python logic, slower, instead of stopping."""
    from satnono.errors import Interrupted
    from satnono.logic import compiled
    from satnono.runtime.interrupt import forget_interrupts, note

    stop = Interrupted("terminated", 143) if terminated else KeyboardInterrupt()

    def loading() -> None:
        note(stop)  # what the signal handler does, before the loader swallows it
        raise ImportError("")

    forget_interrupts()
    try:
        with pytest.raises(KeyboardInterrupt) as got:
            compiled._load(loading)
        assert got.value is stop
    finally:
        forget_interrupts()


@pytest.mark.parametrize("terminated", [False, True])
def test_a_signal_turned_into_an_import_error_is_one_line_and_its_status(
        monkeypatch, capsys, terminated):
    from satnono import cli
    from satnono.errors import Interrupted
    from satnono.runtime.interrupt import note

    def run(args):
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
