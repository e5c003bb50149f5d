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
