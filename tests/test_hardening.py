"""Every input, signal and call gets a clear answer; nothing is silently dropped or
misreported. Each test here stands for a way a user once got a wrong or unclear result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import satnono
from satnono.cli import main
from satnono.errors import InvalidPuzzle, ParseError, SatnonoError, UsageError
from satnono.io.formats import read_bytes

from .conftest import alive as _alive
from .conftest import cpu_seconds, random_puzzle_file, run_python, wait_for
from .conftest import descendants as _children
from .conftest import killed_at_the_end as _killed_at_the_end

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def run(*args: str, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=timeout, **kw)


def perm(tmp_path: Path, n: int) -> Path:
    """An n×n puzzle with n! solutions (one 1-block per line)."""
    p = tmp_path / f"perm{n}.json"
    p.write_text(json.dumps({"rows": [[1]] * n, "columns": [[1]] * n}))
    return p


# ------------------------------------------------------------------ JSON says how it ended

@pytest.mark.full  # fresh processes: seconds
def test_json_says_why_the_list_ended_and_what_is_known(tmp_path):
    three = tmp_path / "three.json"  # three solutions
    three.write_text(json.dumps({"rows": [[1], [1], [1]], "columns": [[1], [1], [1]]}))
    r = run("solve", str(perm(tmp_path, 3)), "--to", "json", "--limit", "1")
    got = json.loads(r.stdout)
    assert got["ending"] == "limit reached" and got["complete"] is False
    assert got["verdict"] is None and got["count"] == 1  # one solution proves nothing more
    r = run("solve", str(perm(tmp_path, 3)), "--to", "json")  # the default: two
    got = json.loads(r.stdout)
    assert (got["ending"], got["complete"], got["verdict"]) == ("limit reached", False,
                                                                "multiple")
    r = run("solve", str(perm(tmp_path, 3)), "--to", "json", "--all")
    got = json.loads(r.stdout)
    assert (got["ending"], got["complete"], got["count"]) == ("all found", True, 6)
    r = run("solve", str(PUZZLES / "car.dat"), "--to", "json")
    got = json.loads(r.stdout)
    assert (got["ending"], got["complete"], got["verdict"]) == ("all found", True, "unique")


@pytest.mark.full  # fresh processes: seconds
def test_every_json_field_is_true_or_absent(tmp_path):
    two = str(PUZZLES / "two.dat")  # four open cells, two solutions
    stats = json.loads(run("solve", two, "--to", "json").stdout)["stats"]
    assert stats["fixed"] == 0 and stats["unknown_cells"] == 4  # logic fixed nothing
    from satnono.logic.compiled import available

    if available():  # the engine's search settles it: nodes, and no CNF to count
        assert stats["line_solves"] > 0 and stats["nodes"] > 0 and "variables" not in stats
    else:  # the Python logic, then CaDiCaL on the residual, which settles it
        assert stats["line_solves"] > 0 and stats["variables"] > 4 and stats["nodes"] == 0
    stats = json.loads(run("solve", two, "--to", "json", "--no-probing").stdout)["stats"]
    assert stats["unknown_cells"] == 4 and stats["variables"] > 4 and stats["clauses"] > 0
    stats = json.loads(run("solve", two, "--to", "json", "--backend", "cpsat").stdout)["stats"]
    # cpsat's line logic runs in the pipeline, which counts it; CP-SAT's search tells nothing
    assert stats["fixed"] == 0 and stats["line_solves"] > 0 and "nodes" not in stats
    stats = json.loads(run("solve", two, "--to", "json", "--backend", "plain-cpsat").stdout
                       )["stats"]
    assert "fixed" not in stats and "line_solves" not in stats  # no logic: nothing to tell
    got = json.loads(run("count", two, "--parts", "4", "--json").stdout)
    assert got["count"] == 2 and got["exact"] is True
    assert not {"unknown_cells", "variables", "clauses"} & set(got)  # many parts, no one CNF
    got = json.loads(run("count", two, "--json").stdout)
    assert got["unknown_cells"] == 4 and got["variables"] > 4
    # check: two solutions prove "multiple"; the list stopped there, it is not all of them
    got = json.loads(run("check", str(perm(tmp_path, 6)), "--json", "--no-rating").stdout)
    assert (got["verdict"], got["ending"], got["count"]) == ("multiple", "limit reached", 2)
    got = json.loads(run("check", str(PUZZLES / "car.dat"), "--json", "--no-rating").stdout)
    assert (got["verdict"], got["ending"], got["complete"]) == ("unique", "all found", True)


def _records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.full
def test_every_command_writes_records_of_one_schema(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from satnono.io.records import COMMON, SCHEMA

    schema = json.loads(SCHEMA.read_text())
    two = tmp_path / "two.txt"  # a file of two puzzles
    two.write_text("GRID a\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n"
                   "GRID b\nROWS\n[ 1 ]\n[ 1 ]\nCOLUMNS\n[ 1 ]\n[ 1 ]\n")
    outputs = {
        "solve": run("solve", str(two), "--to", "json").stdout,
        "solve -o": None,
        "count": run("count", str(two), "--json").stdout,
        "check": run("check", str(two), "--json").stdout,
        # Kissat works on it for minutes; the limit counts from the process's start, so it
        # leaves room for a slow start on a busy machine
        "check timeout": run("check", str(random_puzzle_file(tmp_path, 150)), "--json",
                             "--timeout", "4").stdout,
        "count timeout": run("count", str(perm(tmp_path, 12)), "--json", "--timeout", "1",
                             "--threshold", "10").stdout,
        "count approx, exact": run("count", str(perm(tmp_path, 7)), "--json",
                                   "--approx").stdout,
    }
    assert main(["count", str(perm(tmp_path, 7)), "--json", "--approx",
                 "--exact-first", "0"]) == 0  # the estimate alone
    outputs["count estimate"] = capsys.readouterr().out
    out = tmp_path / "o.json"
    assert main(["solve", str(two), "-o", str(out)]) == 0
    outputs["solve -o"] = out.read_text()
    for what, text in outputs.items():
        records = _records(text)
        assert records, what
        for rec in records:
            jsonschema.validate(rec, schema)
            assert set(COMMON) <= set(rec), what
    assert [r["puzzle"]["index"] for r in _records(outputs["solve"])] == [1, 2]
    assert [r["verdict"] for r in _records(outputs["check"])] == ["unique", "multiple"]
    assert _records(outputs["count"])[1]["count"] == 2
    (timed_out,) = _records(outputs["check timeout"])
    assert timed_out["ending"] == "time limit" and timed_out["verdict"] is None
    (exact,) = _records(outputs["count approx, exact"])  # 7! comes within the first seconds
    assert exact["exact"] is True and exact["count"] == 5040
    (estimate,) = _records(outputs["count estimate"])
    assert estimate["exact"] is False and estimate["low"] <= 5040 <= estimate["high"]


# ------------------------------------------------------------------ clues are never dropped

@pytest.mark.parametrize("name,text,message", [
    ("x.non", "width 2\nheight 3\nrows\n1\n1\n1\n0\n0\ncolumns\n2\n1\n",
     "x.non:7: more row clues than the height 3"),
    ("x.non", "width 2\nheight 3\nrows\n1\n1\ncolumns\n2\n1\n",
     "x.non:6: expected 3 row clues (the height), found 2 before 'columns'"),
    ("x.non", "width 2\nheight 1\nrows\n1 x\ncolumns\n1\n0\n",
     "x.non:4: the colour 'x' is not declared (a 'color' line declares it)"),
    ("x.nin", "2 2\n1\n1\n1\n", "x.nin:4: expected 2 column clues, the file ends after 1"),
    ("x.dat", "1\n1 1\n2\n1 1\n1 0\n1 1\n", "x.dat:6: unexpected text after the column clues"),
    ("x.dat", "-3\n1 1\n2\n1 1\n1 1\n", "x.dat:1: expected the number of rows, got '-3'"),
])
def test_extra_missing_or_stray_clues_are_named(name, text, message):
    with pytest.raises(ParseError) as err:
        read_bytes(text.encode(), name)
    assert str(err.value).startswith(message)


def test_an_empty_line_in_a_tournament_puzzle_is_an_empty_clue():
    # 2×2 each: the second column empty; none empty, a blank line after it; the last row
    # empty, at the end of the file
    text = "$1\n2\n\n1\n1\n$2\n1\n1\n1\n1\n\n$3\n1\n1\n2\n\n"
    a, b, c = read_bytes(text.encode(), "t.txt", "taai")
    assert a.lengths == (((1,), (1,)), ((2,), ())) and a.title == "$1"
    assert b.lengths == (((1,), (1,)), ((1,), (1,)))
    assert c.lengths == (((2,), ()), ((1,), (1,)))


# ------------------------------------------------------------------ bounded input

def test_an_endless_input_is_refused_not_read(tmp_path):
    r = run("solve", "/dev/zero", timeout=30)
    assert r.returncode == 2 and "larger than the" in r.stderr
    with open("/dev/zero", "rb") as zero:
        r2 = subprocess.run([sys.executable, "-m", "satnono", "solve", "-"], stdin=zero,
                            capture_output=True, timeout=60)
    assert r2.returncode == 2 and b"more than the" in r2.stderr
    big = tmp_path / "big.non"
    big.write_bytes(b"width 1\n" + b"#" * 2_000_000)
    env = dict(os.environ, SATNONO_MAX_BYTES="1000000")
    r = run("solve", str(big), env=env)
    assert r.returncode == 2 and "larger than the 1,000,000 bytes accepted" in r.stderr


def test_a_picture_claiming_huge_dimensions_is_refused_before_decoding(tmp_path):
    from PIL import Image

    Image.new("1", (12000, 12000)).save(tmp_path / "huge.png")  # 144 M pixels, tiny file
    r = run("make", str(tmp_path / "huge.png"), "-o", str(tmp_path / "x.non"), timeout=60)
    assert r.returncode == 2 and "pixels" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.non").exists()


def test_a_json_number_of_thousands_of_digits_is_a_parse_error(tmp_path):
    f = tmp_path / "long.json"
    f.write_text('{"rows": [[' + "9" * 5000 + ']], "columns": [[1]]}')
    for command in (["solve", str(f)], ["convert", str(f), "--to", "non"]):
        r = run(*command)
        assert r.returncode == 2 and "number too long" in r.stderr, command
        assert "Traceback" not in r.stderr


@pytest.mark.parametrize("cell", ["0", "-3", "100000", "x"])
def test_render_checks_the_cell_size(tmp_path, cell):
    r = run("render", str(PUZZLES / "car.dat"), "-o", str(tmp_path / "c.png"), "--cell", cell)
    assert r.returncode == 2 and "cell size" in r.stderr and not (tmp_path / "c.png").exists()


def test_a_drawing_too_large_is_refused_before_drawing(tmp_path):
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"rows": [[1]] * 2000, "columns": [[1]] * 2000}))
    r = run("render", str(big), "--blank", "-o", str(tmp_path / "b.png"), "--cell", "100")
    assert r.returncode == 2 and "pixels" in r.stderr and not (tmp_path / "b.png").exists()


# ------------------------------------------------------------------ statuses and messages

def test_exit_statuses_agree_across_commands(tmp_path, capsys):
    two = str(PUZZLES / "two.dat")  # two solutions
    assert main(["render", two, "-o", str(tmp_path / "t.png")]) == 0  # drawn, with a note
    assert main(["convert", two, "--to", "grid", "-o", str(tmp_path / "t.txt")]) == 0
    assert main(["check", two, "--no-rating"]) == 5
    assert main(["solve", two]) == 0
    assert "not unique" in capsys.readouterr().err


def test_bench_is_clear_about_what_it_cannot_do(tmp_path):
    r = run("bench", "--report", str(PUZZLES / "car.dat"), "-o", str(tmp_path / "r.md"))
    assert r.returncode == 2 and "not a satnono bench CSV" in r.stderr
    assert not (tmp_path / "r.md").exists()
    r = run("bench", "--report", str(tmp_path / "nope.csv"))
    assert r.returncode == 2 and "no such file" in r.stderr
    r = run("bench", "--suite", "survey", env=dict(os.environ, SATNONO_CORPUS=str(tmp_path)))
    assert r.returncode == 2 and "nothing to run" in r.stderr and "SATNONO_CORPUS" in r.stderr


def test_the_newcomers_flags():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("satnono ")
    r = run("solve", str(PUZZLES / "car.dat"), "--lmit", "3")  # a typo
    assert r.returncode == 2 and r.stderr == (
        "satnono solve: error: unrecognized arguments: --lmit 3 ('satnono solve --help' "
        "lists the options)\n")
    for command in ("solve", "count", "check", "make", "render", "convert", "bench", "formats"):
        r = run(command, "--help")
        lines = r.stdout.splitlines()
        assert r.returncode == 0 and len([ln for ln in lines if ln and not ln.startswith(
            (" ", "usage", "options", "positional"))]) >= 1, command  # a description


# ------------------------------------------------------------------ the library's contract

@pytest.mark.parametrize("call", [
    lambda: satnono.solve(None), lambda: satnono.solve("puzzles/car.dat"),
    lambda: satnono.solve({"rows": []}), lambda: satnono.solve(3),
    lambda: satnono.count(None), lambda: satnono.uniqueness(None), lambda: satnono.rate(None),
])
def test_a_call_without_a_puzzle_says_so(call):
    with pytest.raises(InvalidPuzzle, match="expected a satnono Puzzle"):
        call()


TWO = satnono.Puzzle(((1,), (1,)), ((1,), (1,)))


@pytest.mark.parametrize("call,error", [
    (lambda: satnono.Puzzle(rows=None, columns=((1,),)), InvalidPuzzle),
    (lambda: satnono.Puzzle(rows=("1",), columns=((1,),)), InvalidPuzzle),
    (lambda: satnono.Puzzle(rows=((1.5,),), columns=((1,),)), InvalidPuzzle),
    (lambda: satnono.solve(TWO, limit="3"), UsageError),
    (lambda: satnono.solve(TWO, limit=-1), UsageError),
    (lambda: satnono.solve(TWO, limit=1.5), UsageError),
    (lambda: satnono.solve(TWO, timeout="5"), UsageError),
    (lambda: satnono.solve(TWO, timeout=float("nan")), UsageError),
    (lambda: satnono.solve(TWO, timeout=-1), UsageError),
    (lambda: satnono.solve(TWO, "cpsat", timeout=0), UsageError),
    (lambda: satnono.solve(TWO, "nope"), UsageError),
    (lambda: satnono.solve(TWO, workers=2), None),  # fine: sat takes workers
    (lambda: satnono.solve(TWO, "native", workers=2), UsageError),
    (lambda: satnono.solve(TWO, workers="2"), UsageError),
    (lambda: satnono.solve(TWO, probing="no"), UsageError),
    (lambda: satnono.count(TWO, method="guess"), UsageError),
    (lambda: satnono.count(TWO, threshold=0), UsageError),
    (lambda: satnono.uniqueness(TWO, workers=0), UsageError),
    (lambda: satnono.uniqueness(TWO, solver="nope"), UsageError),
    (lambda: satnono.load(str(PUZZLES / "car.dat"), index=2), ParseError),
])
def test_wrong_values_are_the_projects_own_errors(call, error):
    if error is None:
        list(call())
        return
    with pytest.raises(error) as err:
        result = call()
        if hasattr(result, "__next__"):
            list(result)
    assert isinstance(err.value, SatnonoError) and "\n" not in str(err.value)


def test_a_multi_puzzle_file_is_explained_to_the_library_too(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("GRID a\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\nGRID b\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n")
    with pytest.raises(ParseError, match="holds 2 puzzles; pick one by its index"):
        satnono.load(str(two))


# ------------------------------------------------------------------ signals

@pytest.mark.full
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("backend,sig", [("sat:2", signal.SIGTERM), ("sat:2", signal.SIGINT),
                                          ("sat", signal.SIGINT), ("cpsat", signal.SIGINT),
                                          ("cpsat:2", signal.SIGTERM),
                                          ("native", signal.SIGTERM),
                                          ("plain-sat", signal.SIGINT)])
def test_a_signal_stops_everything_says_one_line_and_writes_nothing(tmp_path, backend, sig):
    name, _, workers = backend.partition(":")
    out = tmp_path / "all.sol"
    args = [sys.executable, "-m", "satnono", "solve", str(perm(tmp_path, 10)), "-o", str(out),
            "--backend", name] + (["--workers", workers] if workers else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    seen: set[int] = set()
    started = time.monotonic()
    racing = name == "sat" and workers  # racing searches are processes; cpsat's threads
    with _killed_at_the_end(proc):
        while time.monotonic() - started < 1.5 or (racing and not seen):  # searching
            seen |= _children(proc.pid)
            time.sleep(0.1)
            assert proc.poll() is None and time.monotonic() - started < 30
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # what Ctrl-C does: the whole foreground group
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig
    *before, last = err.strip().splitlines()  # the notice of a long enumeration, then
    assert all("solutions so far" in line for line in before) and "Traceback" not in err
    assert "solution(s) found, search incomplete" in last and "was not written" in last
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "perm10.json"]
    time.sleep(0.5)
    assert not [p for p in seen if _alive(p)]


SCRIPT = Path(sys.executable).with_name("satnono")


def _handlers_in(proc: subprocess.Popen) -> None:
    """Wait until the started ``satnono`` script has put in its own handlers (or ended).
    Its entry point installs SIGINT's and then SIGTERM's first thing; the kernel lists a
    process's caught signals in ``/proc/PID/status`` (SigCgt), and Python itself catches
    SIGINT from its start but never SIGTERM, so SIGTERM caught means both are ours. A
    signal before that lands in the interpreter's own start (and the ``import re`` of
    pip's script), which no program can handle."""
    status = Path(f"/proc/{proc.pid}/status")
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            caught = next(int(line.split()[1], 16) for line in status.read_text().splitlines()
                          if line.startswith("SigCgt:"))
        except (OSError, StopIteration):  # ended between the poll and the read
            return
        if caught >> (signal.SIGTERM - 1) & 1:
            return
        time.sleep(0.001)


@pytest.mark.full
@pytest.mark.skipif(not SCRIPT.exists(), reason="the satnono script is not installed here")
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("backend,sig", [("sat", signal.SIGINT), ("cpsat", signal.SIGINT),
                                         ("native", signal.SIGINT), ("sat", signal.SIGTERM)])
def test_ctrl_c_at_any_moment_of_a_start_is_one_line_and_130(backend, sig):
    """Ctrl-C (or SIGTERM) while the command loads (imports take a few tenths of a second),
    as the installed ``satnono`` script runs: never a traceback, never the Python logic put
    in for an engine whose load the signal cut; one line and 130 (143), or, when it came
    after the work, the work's own status and output. The sweep starts once the
    script's handlers are in (read from the kernel, not guessed from a clock) and runs
    through the whole load."""
    status, word = (130, "interrupted") if sig == signal.SIGINT else (143, "terminated")
    for delay in (0, 0.02, 0.04, 0.06, 0.09, 0.13, 0.18, 0.26, 0.36, 0.56):
        proc = subprocess.Popen([str(SCRIPT), "solve", str(PUZZLES / "cup.non"), "--backend",
                                 backend], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        _handlers_in(proc)
        time.sleep(delay)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        assert "Traceback" not in err and "Exception ignored" not in err, (delay, err)
        assert "Python logic" not in err, (delay, err)
        lines = err.strip().splitlines()
        if proc.returncode == status:
            assert len(lines) == 1 and lines[0].startswith(f"satnono: {word}"), (delay, err)
            # nothing, or the first solution when the signal came while uniqueness was proven
            assert out == "" or "solution(s) found, search incomplete" in lines[0], (delay, err)
        else:
            assert proc.returncode == 0 and "unique solution" in lines[-1], (delay, err)


@pytest.mark.full
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_root_probing_in_two_processes_stops_both(tmp_path, sig):
    """Another moment: logic is still at work on a large picture, in two processes (the
    root probing in Python, where the compiled code is not there; where it is, probing runs
    in compiled code, in one process, looking at signals between slices of its work)."""
    python = dict(os.environ, SATNONO_NO_COMPILED="1")
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "check",
                             str(random_puzzle_file(tmp_path, 300)), "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=python)
    seen: set[int] = set()
    started = time.monotonic()
    with _killed_at_the_end(proc):
        while not seen:  # the probing helper has started
            seen |= _children(proc.pid)
            time.sleep(0.05)
            assert proc.poll() is None and time.monotonic() - started < 30
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig and "Traceback" not in err
    out = tmp_path / "big.sol"
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "solve",
                             str(random_puzzle_file(tmp_path, 300)), "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    with _killed_at_the_end(proc):
        time.sleep(3)  # past the imports, into the compiled root probing
        assert proc.poll() is None
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        _, err2 = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig and "Traceback" not in err2
    assert err2.strip().splitlines()[-1].endswith("was not written") and not out.exists()
    time.sleep(0.5)
    assert not [p for p in seen if _alive(p)]


@pytest.mark.full
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_bench_stopped_leaves_no_worker_and_keeps_what_it_measured(tmp_path):
    csv = tmp_path / "b.csv"
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "bench",
                             str(perm(tmp_path, 11)), str(PUZZLES / "car.dat"), "--backend",
                             "sat:2", "--mode", "count", "-o", str(csv)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: set[int] = set()
    started = time.monotonic()
    with _killed_at_the_end(proc):
        while not seen or time.monotonic() - started < 2:
            seen |= _children(proc.pid)
            time.sleep(0.1)
            assert time.monotonic() - started < 30
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and "Traceback" not in err
    time.sleep(0.5)
    assert not [p for p in seen if _alive(p)]


# ------------------------------------------------------------------ deadlines

@pytest.mark.full
@pytest.mark.parametrize("limit", [1.0, 2.5])
def test_every_stage_keeps_the_time_limit_on_a_largerandom_puzzle_file(tmp_path, limit):
    """Presolve, encoding, loading the solver and search all give up within a second of
    the limit on a 300×300 picture that logic leaves open. The limit counts from the
    command's start: on a machine busy enough that the start-up (the interpreter, the
    imports) takes all of it, reading is the stage that gives up, and says so."""
    path = random_puzzle_file(tmp_path, 300)
    import re

    for backend in ("sat", "native", "cpsat"):
        started = time.monotonic()
        r = run("solve", str(path), "--backend", backend, "--timeout", str(limit))
        took = time.monotonic() - started
        assert r.returncode == 3, (backend, r.stderr)
        assert took < limit + 2.5, (backend, took)
        if "ran out while reading it; nothing was solved" in r.stderr:
            continue  # the start-up took the limit: reading kept it
        # the run itself, as it reports, within a second; the process's start-up (imports)
        # comes on top of that
        summary = re.search(r"\[([0-9.]+) s, backend", r.stderr)
        assert summary, (backend, r.stderr)
        assert float(summary.group(1)) < limit + 1.0, (backend, r.stderr)


@pytest.mark.full
@pytest.mark.parametrize("command,limit", [
    (["check"], 2), (["check", "--json"], 2), (["encode", "-o", "x.cnf"], 2),
    (["count", "--method", "enumerate"], 2), (["count", "--method", "approx"], 2),
    (["check"], 9), (["count", "--method", "enumerate"], 9)])  # the SAT solver loaded
def test_commands_past_the_search_keep_the_time_limit(tmp_path, command, limit):
    """A limit counts from the command's start and holds to its end, freeing included:
    the CNF of a random 150×150 (6.7 million clauses) took the collector 0.4 s after a
    limit had run out, probing for the SAT stage 0.9 s without a look at the clock, and
    deleting CaDiCaL holding that CNF a second."""
    path = random_puzzle_file(tmp_path, 150)
    started = time.monotonic()
    r = run(command[0], str(path), *command[1:], "--timeout", str(limit), cwd=tmp_path)
    took = time.monotonic() - started
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr
    assert took < limit + 0.75, (command, took)
    assert not (tmp_path / "x.cnf").exists()


@pytest.mark.full
def test_listing_every_solution_keeps_the_time_limit(tmp_path):
    """10! solutions: the compiled search lists hundreds of thousands before the SAT
    solver takes over, and ruling each out took seconds past the limit, as did a record
    of them all that only JSON output needs."""
    started = time.monotonic()
    r = run("solve", str(perm(tmp_path, 10)), "--all", "-o", str(tmp_path / "all.sol"),
            "--timeout", "8")
    took = time.monotonic() - started
    assert r.returncode == 3 and "search incomplete" in r.stderr, r.stderr
    assert took < 8.75, took
    assert not (tmp_path / "all.sol").exists()  # sol cannot say the list is incomplete


@pytest.mark.full
def test_an_animation_keeps_the_time_limit(tmp_path):
    path = random_puzzle_file(tmp_path, 120)
    gif = tmp_path / "t.gif"
    started = time.monotonic()
    r = run("solve", str(path), "--trace-gif", str(gif), "--timeout", "2")
    assert r.returncode == 3 and time.monotonic() - started < 4.5, r.stderr
    assert gif.exists()  # what was traced, cut to fit


# ------------------------------------------------------------------ progress on a terminal

def test_long_work_shows_what_is_known_and_the_time_only_on_a_terminal():
    import io

    from satnono.io import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term, pipe = Terminal(), io.StringIO()
    found = [1, 2]
    with progress.Progress("solving x", lambda: f"{len(found)} found", term, delay=0.05,
                           period=0.02) as p:
        time.sleep(0.3)
        with p.pause():  # a solution written meanwhile: the line gives way
            term.write("<solution>")
        time.sleep(0.1)
    with progress.Progress("solving x", lambda: "nothing", pipe, delay=0.05, period=0.02):
        time.sleep(0.2)
    shown = term.getvalue()
    assert "solving x… 2 found, 0 s" in shown and "\r\033[K<solution>" in shown
    assert shown.endswith("\r\033[K")  # cleared at the end
    assert pipe.getvalue() == ""  # a pipe gets no status line


@pytest.mark.full
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_batch_ends_at_once_and_keeps_every_finished_puzzle(tmp_path, sig):
    """Stopped mid-run, a local batch kills its puzzle processes, starts no more, and its
    results file holds one complete line for each puzzle finished, as the message says."""
    import random
    import re

    from satnono import Solution, puzzle_from_picture
    from satnono.io.formats import FORMATS

    rng = random.Random(7)
    text = "\n".join(FORMATS["picross"].write(puzzle_from_picture(
        Solution(20, tuple(rng.getrandbits(20) for _ in range(20))), title=f"r{i}"))
        for i in range(400))
    (tmp_path / "many.txt").write_text(text)
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "batch",
                             str(tmp_path / "many.txt"), "-o", str(out), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    seen: set[int] = set()
    with _killed_at_the_end(proc):
        started = time.monotonic()
        while not out.exists() or len(out.read_text().splitlines()) < 20:
            seen |= _children(proc.pid)
            time.sleep(0.05)
            assert proc.poll() is None and time.monotonic() - started < 120
        seen |= _children(proc.pid)
        stopped = time.monotonic()
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - stopped
    assert proc.returncode == 128 + sig and "Traceback" not in err
    assert took < 5, f"the batch took {took:.1f} s to stop"
    lines = out.read_text().splitlines()
    done = int(re.search(r"(\d+) of 400 puzzle\(s\) done", err).group(1))
    assert len(lines) == done >= 20
    records = [json.loads(line) for line in lines]
    assert all(r["verdict"] in ("unique", "multiple") for r in records)
    assert len({r["key"] for r in records}) == done
    time.sleep(0.5)
    assert not [p for p in seen | _children(proc.pid) if _alive(p)]


@pytest.mark.full
@pytest.mark.parametrize("args, words", [
    (["count", "PERM", "--method", "enumerate"], r"at least ([\d,]+) solution\(s\) found"),
    (["check", "BIG"], r"no verdict yet: stopped while proving it"),
])
def test_ctrl_c_on_count_and_check_says_how_far_it_got(tmp_path, args, words):
    import re

    from satnono import Puzzle, save

    save(Puzzle(((1,),) * 11, ((1,),) * 11), str(tmp_path / "perm.non"))
    save(Puzzle(((1,),) * 120, ((1,),) * 120), str(tmp_path / "big.non"))
    args = [str(tmp_path / "perm.non") if a == "PERM" else str(tmp_path / "big.non")
            if a == "BIG" else a for a in args]
    proc = subprocess.Popen([sys.executable, "-m", "satnono", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    with _killed_at_the_end(proc):
        time.sleep(2.5)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err and out == ""
    last = err.strip().splitlines()[-1]
    found = re.search(words, last)
    assert found and last.startswith("satnono: interrupted: "), last
    if found.groups():
        assert int(found.group(1).replace(",", "")) > 0


@pytest.mark.full
@pytest.mark.skipif(not SCRIPT.exists(), reason="the satnono script is not installed here")
def test_ctrl_c_during_a_long_search_stops_at_once(tmp_path):
    """Ctrl-C at many moments of a search that runs for minutes (a random 150×150: the
    engine's search, then Kissat): it stops at once, with one line and 130, and nothing
    printed. (With Numba, one Ctrl-C in six landed inside its compile's callbacks.)"""
    big = str(random_puzzle_file(tmp_path, 150))
    for delay in (0.5, 1.2, 2.0, 3.0, 4.0, 5.0, 6.5):
        proc = subprocess.Popen([str(SCRIPT), "solve", big],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
        assert proc.returncode == 130 and out == "", err
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert err.strip().splitlines()[-1].startswith("satnono: interrupted")
        assert took < 5, f"{took:.1f} s to stop"


def test_a_ctrl_c_python_would_swallow_is_raised_again_without_a_traceback():
    """A Ctrl-C inside a weakref callback (the import system's module locks have one) or a
    ``__del__`` is swallowed by Python, which prints "Exception ignored ... Traceback" and
    goes on (seen in CI: a solve interrupted while it loaded finished with a traceback
    above its answer). Inside :func:`swallowed_interrupts` it is raised again, quietly, on
    the next lines of Python; in a class body's ``__set_name__`` it comes out as another
    error that :func:`caused_by_interrupt` recognises."""
    code = (
        "import time\n"
        "from satnono.runtime.interrupt import caused_by_interrupt, swallowed_interrupts\n"
        "class Dropped:\n"
        "    def __del__(self):\n"
        "        raise KeyboardInterrupt\n"
        "class Named:\n"
        "    def __set_name__(self, owner, name):\n"
        "        raise KeyboardInterrupt\n"
        "try:\n"
        "    with swallowed_interrupts() as swallowed:\n"
        "        del_me = Dropped()\n"
        "        del del_me\n"
        "        start = time.monotonic()\n"
        "        while time.monotonic() - start < 5:\n"
        "            pass\n"
        "    print('went on')\n"
        "except KeyboardInterrupt:\n"
        "    print('raised again', len(swallowed), round(time.monotonic() - start, 1))\n"
        "try:\n"
        "    class Owner:\n"
        "        field = Named()\n"
        "except BaseException as exc:\n"
        "    print('caused', caused_by_interrupt(exc))\n"
        "print('plain', caused_by_interrupt(RuntimeError('no')))\n"
        "class Loud:\n"
        "    def __del__(self):\n"
        "        raise ValueError('still said')\n"
        "with swallowed_interrupts():\n"
        "    loud = Loud()\n"
        "    del loud\n"
    )
    done = run_python(code, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["raised again 1 0.0", "caused True", "plain False"]
    assert "KeyboardInterrupt" not in done.stderr  # kept quiet, the other error still said
    assert "ValueError: still said" in done.stderr


def test_a_ctrl_c_heard_in_an_earlier_run_does_not_word_a_later_error():
    """``main`` called again in the same process (a program that embeds the CLI): an
    interrupt noted in an earlier run no longer turns this run's errors into "interrupted"."""
    code = (
        "import signal\n"
        "from satnono.cli import main\n"
        "from satnono.runtime.interrupt import caused_by_interrupt, noting_interrupt\n"
        "try:\n"
        "    noting_interrupt(signal.SIGINT, None)\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
        "print('before', caused_by_interrupt(RuntimeError('plain')))\n"
        "status = main(['formats'])\n"
        "print('after', status, caused_by_interrupt(RuntimeError('plain')))\n"
    )
    done = run_python(code, timeout=60)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith(("before", "after"))]
    assert said == ["before True", "after 0 False"]


@pytest.mark.full
def test_an_animation_stopped_by_ctrl_c_keeps_the_steps_so_far(tmp_path):
    """The documented exception to "no file from an interrupted run": the trace so far
    is written, whole, and the messages say so."""
    gif = tmp_path / "t.gif"
    proc = subprocess.Popen(
        [sys.executable, "-m", "satnono", "solve", str(random_puzzle_file(tmp_path, 80)),
         "--trace-gif", str(gif)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    with _killed_at_the_end(proc):
        assert proc.stderr is not None
        assert "--trace follows" in proc.stderr.readline()
        # a CPU second in, steps are being traced (the imports take a tenth of it)
        assert wait_for(lambda: cpu_seconds(proc.pid) > 1, 120)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert f"animation written to {gif}" in err and "interrupted" in err
    assert gif.read_bytes()[:6] == b"GIF89a"
