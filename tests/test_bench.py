"""satnono bench: isolated runs, streaming CSV with resume, timeouts, the report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from satnono.bench import read_csv
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
    assert run.verdict == "timeout" and 0.9 < run.wall < 8


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


def test_bench_needs_something_to_run(capsys):
    assert main(["bench"]) == 2
    assert main(["bench", str(PUZZLES / "car.dat"), "--backend", "magic"]) == 2
