"""satnono bench --peer: another solver's command run on the same puzzles, judged by what
it prints (its verdict word, its picture checked against the clues)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

import satnono
from satnono.bench.peer import Peer, parse_peer, picture_of, run_peer, verdict_of
from satnono.bench.runner import read_csv
from satnono.cli import main
from satnono.errors import UsageError
from satnono.model.puzzle import Colour, Palette, Puzzle

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
SCRIPT = Path(sys.executable).with_name("satnono")
needs_script = pytest.mark.skipif(not SCRIPT.exists(), reason="the satnono script is not "
                                  "installed here")
CROSS = Puzzle(((1,), (3,), (1,)), ((1,), (3,), (1,)))  # one solution: a plus sign


@pytest.mark.parametrize("spec, says", [
    ("pbnsolve", "NAME=COMMAND"),
    ("=pbnsolve {xml}", "NAME=COMMAND"),
    ("p b=x {xml}", "letters, digits"),
    ("sat=pbnsolve {xml}", "satnono backend"),
    ("p=pbnsolve {png}", "no placeholder {png}"),
    ("p=pbnsolve -u", "names no puzzle file"),
    ("p=pbnsolve '{xml}", "cannot split"),
])
def test_bad_peer_specs_say_what_is_wrong(spec, says):
    from satnono.backends import BACKENDS

    with pytest.raises(UsageError, match=says.replace("{", r"\{").replace("}", r"\}")):
        parse_peer(spec, frozenset(BACKENDS))


def test_a_peer_names_the_formats_it_reads():
    assert parse_peer("x=solve --in {xml} --also {non} -t {timeout}").formats == (
        "webpbn", "non")


@pytest.mark.parametrize("output, verdict", [
    ("puzzle.xml: UNIQUE LINE SOLUTION\n", "unique"),
    ("unique line\n", "unique"),
    ("FOUND MULTIPLE SOLUTIONS\n", "multiple"),
    ("x.non 5x5 multiple time=0.1\n", "multiple"),
    ("contradiction\n", "none"),
    ("p.non: no solution [0.1 s]\n", "none"),
    ("UNSATISFIABLE\n", "none"),
    ("timeout\n", "timeout"),
    ("solutions: 3\n", ""),
    ("the uniqueness check\n", ""),  # a word inside another is not the word
])
def test_the_first_verdict_word_is_the_verdict(output, verdict):
    assert verdict_of(output) == verdict


def test_a_printed_picture_is_read_in_several_alphabets():
    for rows in ([".#.", "###", ".#."], ["0 1 0", "1 1 1", "0 1 0"], [".X.", "XXX", ".X."]):
        text = "solved:\n" + "\n".join(rows) + "\nbye\n"
        picture = picture_of(text, CROSS)
        assert picture is not None and picture.strings() == [".#.", "###", ".#."]
    assert picture_of("##\n##\n", CROSS) is None


def test_a_picture_with_each_cell_printed_twice_is_read():
    for rows in (["..##..", "######", "..##.."], ["··██··", "██████", "··██··"]):
        picture = picture_of("\n".join(rows) + "\nunique solution\n", CROSS)
        assert picture is not None and picture.strings() == [".#.", "###", ".#."]
    # a row of six cells is not read as three doubled ones when its halves differ
    assert picture_of(".#.#..\n######\n..##..\n", CROSS) is None


def _shell(name: str, script: str) -> Peer:
    return Peer(name, f"sh -c {_q(script)} sh {{non}}")


def _q(text: str) -> str:
    import shlex

    return shlex.quote(text)


def test_a_peer_that_prints_a_wrong_picture_is_caught():
    right = run_peer(_shell("good", "cat \"$1\" >/dev/null; echo unique; "
                            "printf '.#.\\n###\\n.#.\\n'"), CROSS, 10)
    assert right.verdict == "unique", right
    wrong = run_peer(_shell("bad", "echo unique; printf '##.\\n###\\n.#.\\n'"), CROSS, 10)
    assert wrong.verdict == "wrong" and "breaks the clues" in wrong.error
    found = run_peer(_shell("quiet", "printf '.#.\\n###\\n.#.\\n'"), CROSS, 10)
    assert found.verdict == "found"
    lost = run_peer(_shell("lost", "echo huh; exit 3"), CROSS, 10)
    assert lost.verdict == "error" and "exit status 3" in lost.error


def test_a_peer_past_its_limit_is_killed_with_what_it_started(tmp_path):
    marker = tmp_path / "child.pid"
    peer = _shell("slow", f"sleep 60 & echo $! > {marker}; wait")
    started = time.monotonic()
    got = run_peer(peer, CROSS, 1.0)
    assert got.verdict == "timeout" and time.monotonic() - started < 10
    child = int(marker.read_text())
    time.sleep(0.2)
    status = Path(f"/proc/{child}/status")
    # gone, or a zombie waiting for whoever adopted it to reap it: not running
    assert not status.exists() or "State:\tZ" in status.read_text()


def test_a_peer_that_cannot_start_or_read_the_puzzle_is_an_error():
    got = run_peer(Peer("ghost", "no-such-solver-here {non}"), CROSS, 5)
    assert got.verdict == "error" and "no-such-solver-here" in got.error
    palette = Palette((Colour("white", ".", "fff"), Colour("black", "#", "000"),
                       Colour("red", "r", "f00")))
    colour = satnono.puzzle_from_colours([[1, 2], [2, 1]], palette)
    got = run_peer(Peer("bw-only", "cat {nin}"), colour, 5)
    assert got.verdict == "error" and "black-and-white" in got.error


@needs_script
@pytest.mark.parametrize("clues, verdict", [
    (CROSS, "unique"),
    (Puzzle(((1,), (1,)), ((1,), (1,))), "multiple"),
    (Puzzle(((0,), (0,), (1, 1)), ((0,), (0,), (1, 1))), "none"),
])
def test_the_satnono_command_is_a_peer(clues, verdict):
    """A real solver process: satnono's own command line, reading the file it was given."""
    got = run_peer(Peer("cli", f"{SCRIPT} solve {{non}}"), clues, 60)
    assert got.verdict == verdict, got


@needs_script
def test_bench_with_a_peer_interleaves_records_and_reports(tmp_path, capsys):
    out = tmp_path / "r.csv"
    args = ["bench", str(PUZZLES / "car.dat"), str(PUZZLES / "two.dat"), "--backend", "native",
            "--peer", f"cli={SCRIPT} solve {{non}}", "--timeout", "60", "-o", str(out)]
    assert main(args) == 0
    runs = read_csv(str(out))
    assert [(r.puzzle, r.backend) for r in runs] == [
        ("car.dat", "native"), ("car.dat", "cli"), ("two.dat", "native"), ("two.dat", "cli")]
    assert {(r.puzzle, r.verdict) for r in runs} == {("car.dat", "unique"),
                                                     ("two.dat", "multiple")}
    peer = [r for r in runs if r.backend == "cli"]
    assert all(r.command.endswith("solve {non}") and r.wall > 0 and r.cpu > 0 for r in peer)
    err = capsys.readouterr().err
    assert "peers" in err and "DISAGREEMENT" not in err
    # a rerun resumes, peers included
    assert main(args) == 0
    assert "4 run(s) already" in capsys.readouterr().err
    md = tmp_path / "rep" / "r.md"
    assert main(["bench", "--report", str(out), "-o", str(md)]) == 0
    text = md.read_text()
    assert "## Peers" in text and "| cli | native | 1 | 1 | 1 | 1 |" in text
    assert "cli / native" in text


def test_a_peer_that_disagrees_is_put_first(tmp_path, capsys):
    out = tmp_path / "r.csv"
    liar = _shell("liar", "echo contradiction")
    assert main(["bench", str(PUZZLES / "two.dat"), "--backend", "native", "--peer",
                 f"{liar.name}={liar.command}", "-o", str(out)]) == 0
    assert "DISAGREEMENT" in capsys.readouterr().err
    md = tmp_path / "r.md"
    assert main(["bench", "--report", str(out), "-o", str(md)]) == 0
    errors = md.read_text().split("## Errors")[1].split("## ")[0]
    assert "DISAGREEMENT" in errors and "liar: none" in errors


def test_peers_do_not_count(capsys):
    assert main(["bench", str(PUZZLES / "two.dat"), "--mode", "count", "--peer",
                 "x=cat {non}"]) != 0
    assert "--peer runs in modes first and validate" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which(os.environ.get("PBNSOLVE", "pbnsolve")) is None,
                    reason="pbnsolve is not built (set PBNSOLVE to its binary)")
def test_pbnsolve_as_a_peer():
    pbn = shutil.which(os.environ.get("PBNSOLVE", "pbnsolve"))
    for fmt in ("xml", "non"):
        got = run_peer(Peer("pbnsolve", f"{pbn} -b -u {{{fmt}}}"), CROSS, 30)
        assert got.verdict == "unique", got
    got = run_peer(Peer("pbnsolve", f"{pbn} -u {{xml}}"),
                   Puzzle(((1,), (1,)), ((1,), (1,))), 30)
    assert got.verdict == "multiple", got
