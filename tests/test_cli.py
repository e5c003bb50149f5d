"""The ``satnono`` command as a user runs it: the olympiad's files byte for byte, errors,
atomic output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import satnono
from satnono.cli import main

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"

# The expected japan.sol files, as the olympiad problem prints them.
CAR_SOL = """\
....******
...**.*..*
...*..*..*
.*********
.*********
**********
..**...**.
..**...**.
<end>
"""
TWO_SOL = """\
*.
.*
<next>
.*
*.
<end>
"""


def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    if isinstance(stdin, bytes):
        r = subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                           input=stdin, timeout=120)
        return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode(),
                                           r.stderr.decode())
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=120, input=stdin)


@pytest.mark.parametrize("name,expected", [("car.dat", CAR_SOL), ("two.dat", TWO_SOL)])
def test_olympiad_examples_reproduce_japan_sol(tmp_path, name, expected):
    out = tmp_path / "japan.sol"
    assert main(["solve", str(PUZZLES / name), "-o", str(out)]) == 0
    got = out.read_text()
    assert [ln.rstrip() for ln in got.splitlines()] == expected.splitlines()


def test_infeasible_puzzle_writes_no_solutions(tmp_path):
    dat = tmp_path / "japan.dat"
    dat.write_text("3\n1 1\n1 1\n2 1 1\n3\n1 1\n2 1 1\n1 1\n")
    out = tmp_path / "japan.sol"
    assert main(["solve", str(dat), "-o", str(out)]) == 1
    assert out.read_text() == "<no solutions>\n"


def test_default_run_says_whether_the_solution_is_unique():
    r = run("solve", str(PUZZLES / "two.dat"))
    assert r.returncode == 0
    assert r.stdout.splitlines() == ["#.", ".#"]
    assert "not unique" in r.stderr
    r = run("solve", str(PUZZLES / "car.dat"))
    assert "unique solution" in r.stderr and len(r.stdout.splitlines()) == 8


def test_json_output_lists_solutions_and_completeness(tmp_path):
    out = tmp_path / "s.json"
    assert main(["solve", str(PUZZLES / "two.dat"), "-o", str(out), "--all"]) == 0
    data = json.loads(out.read_text())
    assert data["solutions"] == [["#.", ".#"], [".#", "#."]]
    assert (data["complete"], data["ending"], data["verdict"]) == (True, "all found", "multiple")


def test_limit_and_all(tmp_path, capsys):
    p = tmp_path / "perm.json"
    p.write_text(json.dumps({"rows": [[1]] * 5, "columns": [[1]] * 5}))
    assert main(["solve", str(p), "--all", "--to", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["solutions"]) == 120
    assert main(["solve", str(p), "--limit", "7", "--to", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["solutions"]) == 7


@pytest.mark.full  # processes of processes: seconds
def test_workers_in_solve_count_check_and_refused_by_native(tmp_path, capsys):
    p = tmp_path / "perm.json"
    p.write_text(json.dumps({"rows": [[1]] * 5, "columns": [[1]] * 5}))
    assert main(["solve", str(p), "--all", "--workers", "2", "--to", "json"]) == 0
    sols = json.loads(capsys.readouterr().out)["solutions"]
    assert len(sols) == len({tuple(s) for s in sols}) == 120
    r = run("solve", str(p), "--backend", "native", "--workers", "2")
    assert r.returncode == 2 and r.stderr.strip() == (
        "satnono: --workers goes with --backend sat or cpsat")
    assert main(["count", str(p), "--workers", "2", "--method", "enumerate"]) == 0
    assert capsys.readouterr().out.strip() == "120"
    assert main(["check", str(p), "--workers", "2", "--no-rating"]) == 5
    assert "NOT unique" in capsys.readouterr().out
    r = run("count", str(p), "--workers", "2", "--method", "ganak")  # parts, by Ganak
    assert r.returncode == 0 and r.stdout.strip() == "120"
    r = run("count", str(p), "--backend", "cpsat", "--method", "ganak")
    assert r.returncode == 2 and "ganak counts on its own" in r.stderr
    r = run("count", str(p), "--workers", "2", "--backend", "native")
    assert r.returncode == 2 and "--workers goes with --backend sat or cpsat" in r.stderr


def test_each_backend_option_is_one_flag_mapped_to_the_library(tmp_path, capsys):
    """One row per option (backends.OPTIONS) makes the flag, its check and the mapping:
    every row with a flag is on solve's command line and reaches the library as itself."""
    import argparse

    from satnono.backends import OPTIONS
    from satnono.cli.options import add_backend_options, backend_options

    parser = argparse.ArgumentParser()
    add_backend_options(parser)
    given = {"solver": ["--solver", "glucose4"], "workers": ["--workers", "3"],
             "probing": ["--no-probing"], "learning": ["--no-learning"],
             "budget": ["--budget", "0"], "phases": ["--no-phases"]}
    flagged = {name for name, o in OPTIONS.items() if o.flag is not None}
    assert flagged == set(given)
    for name, argv in given.items():
        args = parser.parse_args(argv)
        backend = "native" if name == "learning" else "sat"
        assert backend_options(args, backend) == {
            name: {"solver": "glucose4", "workers": 3, "probing": False,
                   "learning": False, "budget": 0, "phases": False}[name]}
    assert backend_options(parser.parse_args([]), "sat") == {}
    p = tmp_path / "perm.json"
    p.write_text(json.dumps({"rows": [[1]] * 3, "columns": [[1]] * 3}))
    assert main(["solve", str(p), "--all", "--budget", "0", "--to", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["solutions"]) == 6
    assert main(["solve", str(p), "--backend", "native", "--budget", "0"]) == 2
    assert "--budget goes with --backend sat" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", str(p), "--budget", "-1"])
    assert "expected a whole number ≥ 0" in capsys.readouterr().err


@pytest.mark.full  # fresh processes: seconds
def test_timeout_is_reported_and_leaves_no_partial_sol_file(tmp_path):
    p = tmp_path / "perm.json"
    p.write_text(json.dumps({"rows": [[1]] * 10, "columns": [[1]] * 10}))  # 3,628,800
    out = tmp_path / "out.sol"
    # 1.5 s: loading the compiled code takes up to half a second of it, and with 0.5 s the
    # time sometimes ran out before the first solution (1 run in 3 here)
    r = run("solve", str(p), "-o", str(out), "--timeout", "1.5")
    assert r.returncode == 3
    assert "search incomplete" in r.stderr and not out.exists()
    assert list(tmp_path.iterdir()) == [p]  # no temporary file left behind either
    r = run("solve", str(p), "-o", str(tmp_path / "o.json"), "--timeout", "1.5", "--all")
    data = json.loads((tmp_path / "o.json").read_text())
    assert r.returncode == 3 and data["complete"] is False and data["solutions"]


@pytest.mark.parametrize("content,message", [
    ("2\n1 1\n1 x\n2\n1 1\n1 1\n", "bad.dat:3: expected a block length, got 'x'"),
    ("1\n1 5\n2\n1 1\n1 1\n", "bad.dat:2: row 1: clue 5 needs 5 cells, the row has 2"),
    ("2\n1 1\n1 1\n2\n1 1\n1 2\n", "bad.dat: the row clues fill 2 cells but the column clues"),
    ("1\n1 1\n", "bad.dat: expected the number of columns, found the end of the file"),
    ("2\n1 1\n", "bad.dat: expected 2 row lines, the file ends after 1"),
])
def test_bad_input_is_one_line_exit_2_no_traceback(tmp_path, content, message):
    bad = tmp_path / "bad.dat"
    bad.write_text(content)
    out = tmp_path / "out.sol"
    r = run("solve", str(bad), "-o", str(out))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert message in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_missing_file_and_unknown_format(tmp_path):
    r = run("solve", str(tmp_path / "nope.non"))
    assert r.returncode == 2 and "cannot read the file" in r.stderr
    (tmp_path / "x.txt").write_text("what is this\n")
    r = run("solve", str(tmp_path / "x.txt"))
    assert r.returncode == 2 and "x.txt: not a puzzle in any format satnono reads (json, " \
        in r.stderr
    assert r.stderr.rstrip().endswith("; --from FORMAT names one ('satnono formats' lists them)")


@pytest.mark.parametrize("command", [
    ["solve", "car.dat", "-o", "{out}.sol"],
    ["solve", "car.dat", "--backend", "native", "--trace-gif", "{out}.gif"],
    ["convert", "car.dat", "-o", "{out}.non"],
    ["render", "car.dat", "-o", "{out}.png"],
    ["make", "key.txt", "-o", "{out}.non"],
    ["bench", "car.dat", "--backend", "sat", "-o", "{out}.csv"],
])
def test_an_output_path_that_cannot_work_is_refused_before_the_work(tmp_path, command):
    """A missing folder, a folder given as file, a file used as folder: one line, exit 2."""
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    cases = [(tmp_path / "nope" / "out", "the folder"), (tmp_path / "file" / "out", "not a folder")]
    for out, message in cases:
        args = [str(PUZZLES / a) if a in ("car.dat", "key.txt") else a.format(out=out)
                for a in command]
        r = run(*args)
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith(f"satnono: cannot write {out}") and message in r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    flag = command.index("-o") if "-o" in command else command.index("--trace-gif")
    args = [str(PUZZLES / a) if a in ("car.dat", "key.txt") else a for a in command]
    args[flag + 1] = str(tmp_path / "dir")
    r = run(*args)
    assert r.returncode == 2 and "it is a folder" in r.stderr and "Traceback" not in r.stderr
    args[flag + 1] = ""
    r = run(*args)
    assert r.returncode == 2 and "output file name is empty" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "file"]
    assert list((tmp_path / "dir").iterdir()) == []


def test_a_failed_rename_leaves_neither_file_nor_temporary(tmp_path, monkeypatch):
    import os

    from satnono.errors import OutputError
    from satnono.io.output import atomic_output

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match="cannot write .*out.sol: Permission denied"):
        with atomic_output(str(tmp_path / "out.sol")) as fh:
            fh.write("x")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.full  # a fresh process each: seconds
@pytest.mark.parametrize("name", ["car.dat", "cup.non", "key.non"])
def test_dash_reads_the_puzzle_from_standard_input(tmp_path, name):
    """No file name, so no extension: the format comes from the content alone."""
    from_file = run("solve", str(PUZZLES / name), "--all")
    piped = run("solve", "-", "--all", stdin=(PUZZLES / name).read_bytes())
    assert piped.returncode == from_file.returncode == 0
    assert piped.stdout == from_file.stdout and piped.stdout.strip()
    assert piped.stderr.startswith("<stdin>: ")
    r = run("solve", "-", stdin="width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n")
    assert r.returncode == 2 and r.stderr.startswith("satnono: <stdin>:4: row 1: clue 3")
    assert run("count", "-", stdin=(PUZZLES / "two.dat").read_text()).stdout == "2\n"


def test_make_reads_a_picture_from_standard_input(tmp_path):
    grid = (PUZZLES / "key.txt").read_text()
    from_file = run("make", str(PUZZLES / "key.txt"), "--no-rating")
    piped = run("make", "-", "--no-rating", stdin=grid)
    assert piped.returncode == from_file.returncode == 0
    # the same clues and goal; only the title (the file's name) differs
    strip = [line for line in piped.stdout.splitlines() if not line.startswith("title")]
    assert strip == [line for line in from_file.stdout.splitlines()
                     if not line.startswith("title")]
    from PIL import Image

    rows = [line for line in grid.splitlines() if line.strip()]
    img = Image.new("L", (len(rows[0]), len(rows)), 255)
    for y, line in enumerate(rows):
        for x, ch in enumerate(line):
            if ch == "#":
                img.putpixel((x, y), 0)
    png = tmp_path / "key.png"
    img.save(png)
    r = run("make", "-", "--no-rating", stdin=png.read_bytes())
    assert r.returncode == 0, r.stderr
    assert [line for line in r.stdout.splitlines() if not line.startswith("title")] == strip


def test_convert_between_formats_keeps_the_clues(tmp_path):
    from satnono.io.formats import load

    src = PUZZLES / "car.dat"
    previous = load(str(src))
    for ext in (".non", ".json", ".nin", ".mk", ".g", ".xml", ".toml"):
        out = tmp_path / ("car" + ext)
        assert main(["convert", str(src), "-o", str(out)]) == 0
        again = load(str(out))
        assert (again.rows, again.columns) == (previous.rows, previous.columns)
    out = tmp_path / "car.pbm"
    assert main(["convert", str(src), "-o", str(out)]) == 0
    pic = load(str(out))
    assert (pic.rows, pic.columns) == (previous.rows, previous.columns)


def test_multi_puzzle_file_solves_each_and_index_picks_one(tmp_path, capsys):
    f = tmp_path / "two.txt"
    f.write_text("GRID a\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n"
                 "GRID b\nROWS\n[ 2 ]\nCOLUMNS\n[ 1 ]\n[ 1 ]\n")
    assert main(["solve", str(f)]) == 0
    out = capsys.readouterr().out
    assert "== puzzle 1: a" in out and "== puzzle 2: b" in out
    assert main(["solve", str(f), "--index", "2"]) == 0
    assert capsys.readouterr().out == "##\n"
    assert main(["solve", str(f), "--index", "3"]) == 2


def test_help_does_not_import_solver_backends():
    r = subprocess.run([sys.executable, "-c",
                        "import sys; from satnono.cli import build_parser; build_parser(); "
                        "print(any(m.startswith(('ortools', 'pysat')) for m in sys.modules))"],
                       capture_output=True, text=True)
    assert r.stdout.strip() == "False"


def test_a_command_loads_no_other_commands_library():
    """``satnono solve`` builds its own parser only: count's options name the counting
    methods, and loading that library cost a fresh solve a sixth of its start."""
    code = ("import sys; from satnono.cli import build_parser; p = build_parser(['solve']); "
            "print(sorted(p.get_default('commands')), 'satnono.analyze.count' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "['solve'] False"


def test_version_is_read_when_asked(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    version, engine = capsys.readouterr().out.splitlines()
    assert version == f"satnono {satnono.__version__}"
    from satnono.engine import built

    # which engine runs is the first question when satnono is slow
    assert engine.startswith("engine: compiled" if built() else "engine: not built")


@pytest.mark.full  # fresh processes: seconds
def test_count_prints_the_number_and_how(tmp_path):
    r = run("count", str(PUZZLES / "two.dat"))
    assert r.returncode == 0 and r.stdout == "2\n"
    assert "exact" in r.stderr and "enumerate" in r.stderr
    # 7x7 permutation matrices: 5040 solutions, beyond auto's threshold of 1000
    f = tmp_path / "perm.json"
    f.write_text(json.dumps({"rows": [[1]] * 7, "columns": [[1]] * 7}))
    r = run("count", str(f), "--json")
    got = json.loads(r.stdout)
    assert r.returncode == 0 and got["count"] == 5040 and got["exact"]
    # raced, past the threshold
    assert got["method"] in ("compiled counter", "ganak", "enumerate (sat)")
    r = run("count", str(f), "--method", "enumerate", "--backend", "native")
    assert r.stdout == "5040\n"


def test_count_timeout_and_no_solution_exit_codes(tmp_path):
    f = tmp_path / "perm.json"
    f.write_text(json.dumps({"rows": [[1]] * 12, "columns": [[1]] * 12}))
    r = run("count", str(f), "--threshold", "20", "--timeout", "1")
    # the lower bound found by then (21 once enumeration passed the threshold: usually,
    # but a stalled second is not the property here), the same on both streams
    bound = re.fullmatch(r"(\d+)\+\n", r.stdout)
    assert r.returncode == 3 and bound and "incomplete" in r.stderr, (r.stdout, r.stderr)
    assert f"at least {bound[1]} solution(s)" in r.stderr
    g = tmp_path / "none.json"
    g.write_text(json.dumps({"rows": [[1], [3], []], "columns": [[2], [], [1, 1]]}))
    r = run("count", str(g))
    assert r.returncode == 1 and r.stdout == "0\n"


def test_verify_agrees_and_reports_a_disagreement(monkeypatch, capsys):
    assert main(["solve", str(PUZZLES / "two.dat"), "--all", "--verify"]) == 0
    assert "verified: native finds the same 2 solution(s)" in capsys.readouterr().err
    import satnono.backends.sat as sat

    real = sat.solutions
    # a broken backend that loses the second solution
    monkeypatch.setattr(sat, "solutions", lambda s, **kw: iter(list(real(s, **kw))[:1]))
    assert main(["solve", str(PUZZLES / "two.dat"), "--all", "--verify"]) == 4
    err = capsys.readouterr().err
    assert "sat found 1 solution(s), native 2" in err
    assert "found only by native:\n.#\n#." in err


def test_a_killed_solver_process_is_exit_6_with_the_cnf_size_and_no_output(tmp_path,
                                                                          monkeypatch, capsys):
    import os
    import signal

    import satnono.backends.sat as sat

    def killed(*args):  # what the kernel does to a process when memory runs out
        os.kill(os.getpid(), signal.SIGKILL)
        yield []

    monkeypatch.setattr(sat, "steered", killed)  # each CaDiCaL racer of the sat backend
    out = tmp_path / "out.sol"
    # --budget 0: the compiled search would settle it first
    assert main(["solve", str(PUZZLES / "two.dat"), "--workers", "2", "--budget", "0",
                 "-o", str(out)]) == 6
    err = capsys.readouterr().err
    assert err.startswith(f"satnono: {PUZZLES / 'two.dat'}: all 2 racing search processes ended; "
                          "the first was killed "
                          "(SIGKILL: by the system when memory ran out, or by another "
                          "process) "
                          "(the residual CNF has ")
    assert "Traceback" not in err and not out.exists()


def test_the_documented_command_list_names_every_option():
    """Each command's block in docs/commands.md names each of its options."""
    import re

    from satnono.cli import build_parser

    text = (Path(__file__).resolve().parents[1] / "docs" / "commands.md").read_text()
    block = text.split("# Commands", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    usage: dict[str, str] = {}
    common = "".join(line for line in block.splitlines() if line.startswith("#"))
    for line in block.splitlines():
        m = re.match(r"satnono (\w+)", line)
        if m:
            current = m.group(1)
            usage[current] = usage.get(current, "") + line
        elif line.startswith(" ") and usage:
            usage[current] += line
    parser = build_parser()
    missing = []
    for name, sub in parser.get_default("commands").items():
        if name == "formats":
            continue
        for action in sub._actions:
            names = [o for o in action.option_strings if o not in ("-h", "--help")]
            if names and not any(re.search(rf"(?<![\w-]){o}(?![\w-])",
                                           usage.get(name, "") + common) for o in names):
                missing.append(f"{name} {names[-1]}")
    assert missing == []


def test_the_documented_formats_are_those_satnono_lists(capsys):
    """docs/formats.md's table holds a row for each line ``satnono formats`` prints, with
    the same columns, and no other."""
    import html

    from satnono.cli import main

    assert main(["formats"]) == 0
    listed = capsys.readouterr().out.split("\n\n")[0].splitlines()[1:]
    want = {tuple(line[i:j].strip() for i, j in ((0, 10), (11, 20), (21, 31), (32, 42),
                                                  (43, 57), (58, None)))
            for line in listed}
    text = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text()
    rows = [line.strip("|").split(" | ") for line in text.splitlines()
            if line.startswith("| `")]
    got = {tuple(html.unescape(cell.strip().strip("`")) for cell in row) for row in rows}
    assert got == want and len(rows) == len(want)


@pytest.mark.parametrize("argv,says", [
    (["solve", "x.non", "--timeout", "0"],
     "satnono solve: error: argument --timeout: must be a number greater than 0"),
    (["solve", "x.non", "--to", "png"], "satnono solve: error: argument --to: invalid choice"),
    (["serve", "--port", "99999"],
     "satnono serve: error: argument --port: expected a port from 1 to 65535"),
    (["sovle", "x.non"], "satnono: error: argument COMMAND: invalid choice: 'sovle'"),
    ([], "satnono: error: the following arguments are required: COMMAND"),
])
def test_a_usage_error_is_one_line_with_a_hint(capsys, argv, says):
    """Not argparse's usage block before it: the one line says what is wrong and where the
    options are listed."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    command = says.split(":")[0]
    assert err.count("\n") == 1 and err.startswith(says), err
    assert err.endswith(f"('{command} --help' lists the options)\n")


def test_convert_to_an_unknown_format_lists_the_formats_it_writes(capsys, tmp_path):
    out = tmp_path / "x.foo"
    assert main(["convert", str(PUZZLES / "cup.non"), "--to", "foo", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("satnono: cannot write 'foo': the formats written are json, ")
    assert "webpbn" in err and "sol" in err and not out.exists()
    assert main(["convert", str(PUZZLES / "cup.non"), "-o", str(tmp_path / "x.png")]) == 2
    assert "'satnono render' draws PNG and SVG" in capsys.readouterr().err


def test_make_refuses_an_output_name_no_puzzle_format_has(capsys, tmp_path):
    """``make pic -o m.sol`` wrote a .non puzzle into m.sol: a name whose extension no
    puzzle format has is refused unless --to says the format; no file is written."""
    pic = tmp_path / "pic.txt"
    pic.write_text("#.#\n.#.\n#.#\n")
    out = tmp_path / "m.sol"
    assert main(["make", str(pic), "-o", str(out)]) == 2
    assert "m.sol: no puzzle format has that extension" in capsys.readouterr().err
    assert not out.exists()
    assert main(["make", str(pic), "-o", str(out), "--to", "non"]) == 0
    assert out.read_text().startswith('title "pic"')
    assert main(["make", str(pic), "-o", str(tmp_path / "m")]) == 0  # no extension: non


def test_make_with_a_wrong_size_says_so_without_a_file_name(capsys, tmp_path):
    pic = tmp_path / "pic.txt"
    pic.write_text("#.#\n.#.\n#.#\n")
    for size, says in (("0x5", "each side must be 1..10000"),
                       ("5by5", "expected WIDTHxHEIGHT")):
        assert main(["make", str(pic), "--size", size]) == 2
        assert capsys.readouterr().err == f"satnono: --size {size!r}: {says}" + (
            ", e.g. 30x20\n" if "WIDTH" in says else "\n")


def test_make_brings_a_photo_down_to_a_size_people_solve_and_says_so(tmp_path, capsys):
    from PIL import Image, ImageDraw

    from satnono.io.formats import load

    photo = tmp_path / "photo.png"
    im = Image.new("RGB", (800, 600), "white")
    ImageDraw.Draw(im).ellipse((100, 100, 700, 500), fill="black")
    im.save(photo)
    out = tmp_path / "p.non"
    assert main(["make", str(photo), "-o", str(out), "--no-rating"]) == 0
    assert f"{photo}: an image of 800x600 pixels, made into 100x75 cells" in \
        capsys.readouterr().err
    assert load(str(out)).size == "100x75"
    assert main(["make", str(photo), "-o", str(out), "--size", "40x30", "--no-rating"]) == 0
    assert "made into" not in capsys.readouterr().err and load(str(out)).size == "40x30"
    small = tmp_path / "small.png"
    im.resize((60, 45)).save(small)
    assert main(["make", str(small), "-o", str(out), "--no-rating"]) == 0
    assert "made into" not in capsys.readouterr().err and load(str(out)).size == "60x45"
