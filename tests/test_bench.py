"""satnono bench: isolated runs, streaming CSV with resume, timeouts, the report."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

from satnono.bench.runner import read_csv
from satnono.cli import main

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def test_bench_runs_every_backend_streams_csv_and_resumes(tmp_path, capsys):
    out = tmp_path / "r.csv"
    args = ["bench", str(PUZZLES / "car.dat"), str(PUZZLES / "two.dat"),
            "--backend", "sat,native,plain-sat", "--timeout", "20", "-o", str(out)]
    assert main(args + ["--jobs", "2"]) == 0
    runs = read_csv(str(out))
    assert len(runs) == 6
    verdict = {(r.puzzle, r.backend): r.verdict for r in runs}
    assert {verdict[("car.dat", b)] for b in ("sat", "native", "plain-sat")} == {"unique"}
    assert {verdict[("two.dat", b)] for b in ("sat", "native", "plain-sat")} == {"multiple"}
    car_sat = next(r for r in runs if r.puzzle == "car.dat" and r.backend == "sat")
    assert car_sat.fixed == 80 and car_sat.peak_mb > 0
    # a rerun resumes: nothing left to do, nothing appended
    capsys.readouterr()
    assert main(args) == 0
    assert "6 run(s) already" in capsys.readouterr().err
    assert len(read_csv(str(out))) == 6


def test_a_run_past_its_timeout_is_recorded_as_timeout(tmp_path):
    p = tmp_path / "perm.json"
    p.write_text(json.dumps({"rows": [[1]] * 10, "columns": [[1]] * 10}))
    out = tmp_path / "r.csv"
    assert main(["bench", str(p), "--backend", "native", "--mode", "count",
                 "--timeout", "1", "-o", str(out)]) == 0
    (run,) = read_csv(str(out))
    assert run.verdict == "timeout" and 0.9 < run.wall < 8 and run.machine and run.date


def test_report_lists_disagreements_first_and_draws_plots(tmp_path):
    out = tmp_path / "r.csv"
    assert main(["bench", str(PUZZLES / "two.dat"), str(PUZZLES / "car.dat"),
                 "--backend", "sat,plain-sat", "-o", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    rows[0]["verdict"] = "none"  # a backend that got it wrong
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    md = tmp_path / "rep" / "report.md"
    assert main(["bench", "--report", str(out), "-o", str(md)]) == 0
    text = md.read_text()
    errors = text.split("## Errors")[1].split("## Suite")[0]
    assert "DISAGREEMENT" in errors and rows[0]["puzzle"] in errors
    assert "plain-sat / sat" in text
    for name in ("report-two-dat-cactus.png", "report-two-dat-sat-vs-plain-sat.png"):
        assert (md.parent / name).read_bytes()[:4] == b"\x89PNG"


def test_report_without_baselines_has_no_empty_ratio_column(tmp_path):
    out = tmp_path / "r.csv"
    assert main(["bench", str(PUZZLES / "car.dat"), "--backend", "sat,native",
                 "-o", str(out)]) == 0
    md = tmp_path / "r.md"
    assert main(["bench", "--report", str(out), "-o", str(md)]) == 0
    lines = md.read_text().splitlines()
    # the runs carry their machine and date; the report names them, not where it was written
    from satnono.bench.runner import machine

    runs = read_csv(str(out))
    assert {r.machine for r in runs} == {machine()} and all(r.date for r in runs)
    assert lines[2].startswith(f"Runs made {runs[0].date} on {machine()}.")
    header = next(line for line in lines if line.startswith("| puzzle |"))
    assert header == "| puzzle | size | verdict | sat | native |"
    row = lines[lines.index(header) + 2]
    assert row.startswith("| car.dat | 10x8 | unique | ") and row.count("|") == header.count("|")


def test_a_csv_from_before_the_machine_column_still_reads_and_reports(tmp_path):
    out = tmp_path / "old.csv"
    out.write_text("suite,puzzle,size,backend,solver,mode,timeout,wall,cpu,solutions,verdict,"
                   "fixed,cells,variables,clauses,peak_mb,error\n"
                   "car.dat,car.dat,10x8,sat,,validate,60.0,0.05,0.04,1,unique,80,80,0,0,50,\n")
    (run,) = read_csv(str(out))
    assert run.verdict == "unique" and run.machine == "" and run.date == ""
    md = tmp_path / "old.md"
    assert main(["bench", "--report", str(out), "-o", str(md)]) == 0
    assert "The CSV does not record its machine" in md.read_text().splitlines()[2]
    # resuming it brings the header up to date, so the new run's machine is kept
    assert main(["bench", str(PUZZLES / "car.dat"), str(PUZZLES / "two.dat"),
                 "--backend", "sat", "-o", str(out)]) == 0
    old, added = read_csv(str(out))
    assert (old.puzzle, old.machine, old.wall) == ("car.dat", "", 0.05)
    assert added.puzzle == "two.dat" and added.machine and added.verdict == "multiple"


def test_bench_needs_something_to_run(capsys):
    assert main(["bench"]) == 2
    assert main(["bench", str(PUZZLES / "car.dat"), "--backend", "magic"]) == 2


def test_backends_with_workers(tmp_path):
    p = tmp_path / "perm5.json"
    p.write_text(json.dumps({"rows": [[1]] * 5, "columns": [[1]] * 5}))
    out = tmp_path / "r.csv"
    assert main(["bench", str(p), str(PUZZLES / "two.dat"), "--backend",
                 "sat,sat:2,cpsat:2", "--mode", "count", "-o", str(out)]) == 0
    runs = {(r.puzzle, r.backend): r for r in read_csv(str(out))}
    assert len(runs) == 6
    for b in ("sat", "sat:2", "cpsat:2"):
        assert runs[("perm5.json", b)].verdict == "120"
        assert runs[("two.dat", b)].verdict == "2"


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_cpu_time_counts_the_solver_processes():
    # a run with a timeout searches in a child process: its CPU time is the run's
    import multiprocessing as mp

    from satnono.bench.runner import _cpu

    before, own = _cpu(), time.process_time()
    child = mp.get_context("fork").Process(target=_spin, args=(0.5,))
    child.start()
    child.join()
    assert _cpu() - before >= 0.45 and time.process_time() - own < 0.2


def test_bad_backend_specs_are_refused(capsys):
    for spec, why in (("sat:0", "whole number from 1"), ("native:2", "workers go with"),
                      ("sat:x", "whole number"), ("kissat", "unknown backend")):
        assert main(["bench", str(PUZZLES / "car.dat"), "--backend", spec]) == 2
        assert why in capsys.readouterr().err


def test_orientations_split_the_time_and_report_each_puzzles_spread(tmp_path):
    from satnono.model.orientation import ORIENTATIONS

    out = tmp_path / "o.csv"
    assert main(["bench", str(PUZZLES / "two.dat"), "--orientations", "--backend",
                 "sat,plain-sat", "--timeout", "20", "-o", str(out)]) == 0
    runs = read_csv(str(out))
    assert sorted(r.puzzle for r in runs if r.backend == "sat") == sorted(
        f"two.dat@{o}" for o in ORIENTATIONS)
    assert {r.verdict for r in runs} == {"multiple"}
    sizes = {r.size for r in runs}
    assert len(sizes) in (1, 2)  # a transpose swaps width and height
    for r in runs:
        timed = r.line_s + r.probe_s + r.encode_s + r.load_s + r.search_s
        assert 0 < timed <= r.wall + 1e-6 and r.read_s > 0
        if r.backend == "plain-sat":  # one solver call: all of it search
            assert r.search_s == r.wall
        else:
            assert r.line_s > 0
    report = tmp_path / "o.md"
    assert main(["bench", "--report", str(out), "-o", str(report)]) == 0
    text = report.read_text()
    assert "| backend | runs | read | line | probe | encode | load | search | other | total |" \
        in text
    assert "| two.dat | sat |" in text and "| two.dat | plain-sat |" in text
    assert "| puzzle | id | lr | ud | lrud | t | tlr | tud | tlrud |" in text


def test_percentiles_take_the_nearest_rank():
    from satnono.bench.report import percentile

    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 90), percentile(values, 99),
            percentile(values, 100)) == (50.0, 90.0, 99.0, 100.0)
    assert percentile([3.0], 90) == 3.0 and percentile([], 50) == 0.0


def test_the_hard_random_suite_is_the_same_on_every_machine():
    """Its puzzles are made from the seeds in their names: the same pictures every time,
    the sizes and densities the suite says, each the clues of its own picture."""
    import random

    from satnono.bench.suites import HARD_RANDOM, hard_random
    from satnono.model.puzzle import is_solution
    from satnono.model.solution import Solution

    items = list(hard_random())
    assert len(items) == sum(n for _, _, n in HARD_RANDOM) and len({n for n, _ in items}) == 60
    for name, puzzle in items[::7]:
        size, d, s = name.split("-")
        side, density, seed = int(size.split("x")[0]), float(d[1:]), int(s[1:])
        rng = random.Random(seed)
        rows = tuple(sum(1 << c for c in range(side) if rng.random() < density)
                     for _ in range(side))
        assert puzzle.width == puzzle.height == side
        assert is_solution(puzzle, Solution(side, rows))
    assert [n for n, _ in hard_random()] == [n for n, _ in items]
    from satnono.bench.suites import suite

    assert [n for n, _ in suite("hard-random-70")] == [n for n, _ in items[40:]]


def test_the_large_colour_suite_is_made_again_from_its_names():
    """Each seeded picture of ``colour-large`` comes back from the seed in its name (as
    the suite's docstring says it is made); each has a line past 63 cells and is the clues
    of its own picture."""
    import random

    from satnono.bench.suites import suite
    from satnono.model.puzzle import is_solution
    from satnono.model.solution import Solution

    items = [(n, p) for n, p in suite("colour-large") if n[0].isdigit()]
    assert len(items) == 18 and len({n for n, _ in items}) == 18
    for name, puzzle in items:
        size, inks, d, s = name.split("-")
        width, height = (int(x) for x in size.split("x"))
        rng = random.Random(int(s[1:]))
        grid = [[rng.randint(1, int(inks[1:])) if rng.random() < float(d[1:]) else 0
                 for _ in range(width)] for _ in range(height)]
        assert (puzzle.width, puzzle.height) == (width, height) and max(width, height) > 63
        assert len(puzzle.palette.colours) == 4  # the background and three inks
        chars = puzzle.palette.chars
        picture = Solution.from_chars(["".join(chars[v] for v in row) for row in grid], chars)
        assert is_solution(puzzle, picture)
