"""satnono batch on local processes and on a real Dask LocalCluster: the same verdicts as
one process, every puzzle once when a worker is killed mid-run, resume after a cut."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import satnono
from satnono.cli import main
from satnono.io.formats import read_file, write_puzzle
from satnono.model.puzzle import puzzle_from_picture

from .conftest import random_picture

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"

#: the full suite only (python -m pytest); the fast tier (--fast) leaves these out
pytestmark = pytest.mark.full

distributed = pytest.importorskip("distributed")


def _collection(folder, n: int, seed: int = 7) -> dict[str, str]:
    """``n`` random pictures' puzzles in one TAAI file of many puzzles (as the tournament
    sets are): key -> the verdict one process gives."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        side = rng.randint(3, 14)
        puzzles.append(puzzle_from_picture(random_picture(rng, side, side,
                                                          rng.choice([0.3, 0.5, 0.7]))))
    path = folder / "set.txt"
    path.write_text("".join(write_puzzle(p, "taai").replace("$1", f"${i}", 1)
                            for i, p in enumerate(puzzles, 1)))
    verdicts = {}
    for i, p in enumerate(read_file(str(path)), 1):
        found = sum(1 for _ in satnono.solve(p, limit=2))
        verdicts[f"{path}#{i}"] = {0: "none", 1: "unique"}.get(found, "multiple")
    return verdicts


def _records(path) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


@pytest.fixture(scope="module")
def cluster():
    import dask

    with dask.config.set({"distributed.worker.daemon": False}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as c:
            yield c


def test_batch_on_local_processes_and_on_a_cluster_gives_one_process_verdicts(
        tmp_path, cluster):
    expected = _collection(tmp_path, 200)
    assert set(expected.values()) == {"unique", "multiple"}
    for how in (["--jobs", "2"], ["--cluster", cluster.scheduler_address]):
        out = tmp_path / f"{how[0][2:]}.jsonl"
        assert main(["batch", str(tmp_path / "set.txt"), "-o", str(out), *how]) == 0
        records = _records(out)
        assert len(records) == 200
        assert {r["key"]: r["verdict"] for r in records} == expected
        workers = {r["worker"] for r in records}
        if how[0] == "--cluster":  # the records name the cluster's workers
            assert workers <= set(cluster.scheduler_info["workers"])
        assert all(r["seconds"] > 0 and r["size"] and r["error"] == "" for r in records)


def test_a_worker_killed_mid_batch_loses_nothing_and_repeats_nothing(tmp_path, cluster):
    expected = _collection(tmp_path, 400, seed=11)
    out = tmp_path / "r.jsonl"
    client = distributed.Client(cluster)
    pids = client.run(os.getpid)
    runner = subprocess.Popen(  # started as a user starts it
        [sys.executable, "-m", "satnono", "batch", str(tmp_path / "set.txt"), "-o", str(out),
         "--cluster", cluster.scheduler_address])
    deadline = time.monotonic() + 60
    while (not out.exists() or len(out.read_text().splitlines()) < 10) and \
            time.monotonic() < deadline:
        time.sleep(0.02)
    victim = next(iter(pids.values()))
    os.kill(victim, signal.SIGKILL)  # mid-run: some chunks are on it
    assert len(out.read_text().splitlines()) < 400
    status = [runner.wait(120)]
    client.wait_for_workers(2, timeout=30)  # the nanny starts a new worker in its place
    assert victim not in client.run(os.getpid).values()
    client.close()
    assert status == [0]
    records = _records(out)
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)) == 400  # every puzzle once
    assert {r["key"]: r["verdict"] for r in records} == expected


def test_a_cut_results_file_resumes_where_it_stopped(tmp_path, capsys):
    expected = _collection(tmp_path, 30, seed=3)
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(tmp_path / "set.txt"), "-o", str(out), "--do", "solve"]) == 0
    lines = out.read_text().splitlines(keepends=True)
    solved = [json.loads(line) for line in lines]
    for r in solved:  # --do solve carries the solution, and it fits the clues
        p = satnono.load(r["source"], index=r["index"])
        assert satnono.is_solution(p, satnono.Solution.from_strings(r["solution"]))
    # a run killed after 12 puzzles, in the middle of the 13th line
    out.write_text("".join(lines[:12]) + lines[12][:25])
    capsys.readouterr()
    assert main(["batch", str(tmp_path / "set.txt"), "-o", str(out)]) == 0
    assert "12 of 30 puzzle(s) already" in capsys.readouterr().err
    records = _records(out)
    assert len(records) == 30 and {r["key"]: r["verdict"] for r in records} == expected
    assert main(["batch", str(tmp_path / "set.txt"), "-o", str(out)]) == 0
    assert len(_records(out)) == 30  # nothing left to do, nothing added


def test_the_time_limit_holds_on_the_worker_and_bad_requests_are_refused(tmp_path, capsys):
    perm = tmp_path / "perm.json"
    perm.write_text(json.dumps({"rows": [[1]] * 9, "columns": [[1]] * 9}))
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    assert main(["batch", str(perm), "--do", "count", "--backend", "native",
                 "--timeout", "1", "-o", str(out)]) == 0
    assert time.monotonic() - started < 6
    (record,) = _records(out)
    # a count that did not finish: no count, and the lower bound named as one
    assert record["verdict"] == "timeout" and record["count"] is None
    assert record["exact"] is False and record["solutions"] is None
    assert 0 < record["at_least"] < 362880
    # done again with a longer limit, its line replaced
    assert main(["batch", str(perm), "--do", "count", "--timeout", "120", "-o", str(out),
                 "--retry-timeouts"]) == 0
    assert "1 timed out before, again with --timeout 120" in capsys.readouterr().err
    (record,) = _records(out)
    assert record["verdict"] == "multiple" and record["count"] == 362880
    assert record["exact"] is True and "at_least" not in record
    assert main(["batch", str(perm), "--retry-timeouts"]) == 2
    assert "--retry-timeouts goes with -o" in capsys.readouterr().err
    assert main(["batch", str(perm), "--cluster", "local:x"]) == 2
    assert "local:N takes a number" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "nothing.txt")]) == 2


def test_counts_by_three_methods_agree(tmp_path):
    _collection(tmp_path, 12, seed=5)
    got = {}
    from satnono.engine import DISABLE

    compiled = os.environ.get(DISABLE, "") in ("", "0")  # the compiled counter runs here
    for method in ("enumerate", "ganak") + (("compiled",) if compiled else ()):
        out = tmp_path / f"{method}.jsonl"
        assert main(["batch", str(tmp_path / "set.txt"), "--do", "count", "--method", method,
                     "-o", str(out)]) == 0
        got[method] = {r["key"]: r["count"] for r in _records(out)}
        for r in _records(out):  # a count's verdict is what the count says
            assert r["exact"] and r["verdict"] == {1: "unique"}.get(r["count"], "multiple")
    assert got["enumerate"] == got["ganak"] == got.get("compiled", got["ganak"])
    assert all(got["ganak"].values())
    # an estimate is never written as a count, and its bounds hold the exact one here
    out = tmp_path / "approx.jsonl"
    assert main(["batch", str(tmp_path / "set.txt"), "--do", "count", "--method", "approx",
                 "--exact-first", "0", "-o", str(out)]) == 0  # the estimate alone
    estimates = 0
    for r in _records(out):
        if r["method"] == "propagation":  # logic settles it: proven, nothing to estimate
            assert r["exact"] and r["count"] == got["ganak"][r["key"]], r
            continue
        estimates += 1
        assert (r["verdict"], r["count"], r["solutions"], r["exact"]) == (
            "estimate", None, None, False)
        assert r["low"] <= got["ganak"][r["key"]] <= r["high"], r
        assert (r["epsilon"], r["delta"], r["method"]) == (0.8, 0.2, "approxmc")
    assert estimates >= 2  # the puzzles of the set that logic leaves open


def test_bench_runs_on_the_cluster_as_it_does_here(tmp_path, cluster):
    from pathlib import Path

    from satnono.bench.runner import read_csv

    puzzles = Path(__file__).resolve().parents[1] / "puzzles"
    results = {}
    for how in (["--jobs", "1"], ["--cluster", cluster.scheduler_address]):
        out = tmp_path / f"{how[0][2:]}.csv"
        assert main(["bench", str(puzzles / "car.dat"), str(puzzles / "two.dat"),
                     "--backend", "sat,native", "--timeout", "20", "-o", str(out), *how]) == 0
        results[how[0]] = {(r.puzzle, r.backend): r.verdict for r in read_csv(str(out))}
    assert results["--jobs"] == results["--cluster"]
    assert set(results["--cluster"].values()) == {"unique", "multiple"}


def test_chunks_keep_large_puzzles_alone_and_slow_work_small():
    from satnono.batch import Task, plan
    from satnono.model.solution import Solution

    small = puzzle_from_picture(Solution.from_strings(["#."] * 2))
    large = puzzle_from_picture(Solution.from_strings(["#" * 50] * 50))
    tasks = [Task("a", i, small) for i in range(1, 1001)] + [Task("b", 1, large)]
    for slow, timeout, most in ((False, None, 32), (True, None, 4), (True, 10, 4),
                                (False, 300, 32), (True, 60, 2), (True, 300, 1)):
        chunks = plan(tasks, 2, slow=slow, timeout=timeout)
        assert chunks[0] == [tasks[-1]]  # the large one alone, first
        assert max(len(c) for c in chunks) == most, (slow, timeout)
        assert sorted(t.key for c in chunks for t in c) == sorted(t.key for t in tasks)


def test_the_published_count_table_cannot_be_misread():
    """The count records in benchmarks/results (every set's): an unfinished count carries
    no number where a count goes, says it is not exact and gives its lower bound as such."""
    import json
    from pathlib import Path

    results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    paths = sorted(results.glob("count-*.jsonl"))
    assert results / "count-tcga2015.jsonl" in paths
    records = [json.loads(line) for path in paths for line in path.read_text().splitlines()]
    unfinished = [r for r in records if r["count"] is None]
    assert unfinished, "the table has unfinished counts to check"
    for r in unfinished:
        assert r["solutions"] is None and r["exact"] is False, r["key"]
        assert isinstance(r["at_least"], int) and r["at_least"] > 0, r["key"]
    for r in records:
        if r["count"] is not None:
            assert r["solutions"] == r["count"] and r.get("exact", True), r["key"]


def test_count_table_says_which_method_settled_each_bin_and_what_is_open(tmp_path, capsys):
    """The summary of a count file: one row per bin with how many each method settled,
    and every puzzle still open named with its lower bound, never counted."""
    import json

    from benchmarks.count_table import main

    def rec(i: int, verdict: str, count: int | None, method: str, **more: object) -> dict:
        return {"key": f"s.txt#{i}", "index": i, "verdict": verdict, "count": count,
                "solutions": count, "exact": count is not None, "method": method,
                "seconds": float(i), **more}

    lines = [rec(1, "multiple", 5, "enumerate (sat)"), rec(2, "multiple", 7, "enumerate (sat)"),
             rec(3, "multiple", 50_000, "compiled counter"), rec(4, "multiple", 60_000, "ganak"),
             rec(5, "timeout", None, "ganak", at_least=1001),
             rec(6, "timeout", None, "compiled counter", at_least=2_000_000),
             rec(7, "timeout", None, "compiled counter", at_least=30_000_000)]
    out = tmp_path / "counts.jsonl"
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    main([str(out)])
    text = capsys.readouterr().out
    assert "4 counted exactly, 3 timeout" in text
    head = next(x for x in text.splitlines() if x.startswith("| solutions"))
    columns = [c.strip() for c in head.strip("|").split("|")]
    assert columns[2:5] == ["enumerate (sat)", "compiled counter", "ganak"]
    row = next(x for x in text.splitlines() if x.startswith("| 10,001–100,000"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:5] == ["2", "", "1", "1"]
    assert "Open: #5 (at least 1,001), #6 (at least 2,000,000), #7 (at least 30,000,000)" \
        in text
    # the open ones by the bin of their lower bound, one row a bin
    assert "| not finished, at least 1,001–10,000 (a lower bound, not a count) | 1 |" in text
    assert "| not finished, at least 1,000,001–1,000,000,000 (a lower bound, not a count) " \
        "| 2 |" in text


def test_count_table_retries_only_the_unfinished_recounts(tmp_path):
    """--retry-unfinished drops the confirmations that did not finish, keeps the rest."""
    import json

    from benchmarks.count_table import _drop_unfinished

    out = tmp_path / "confirm.jsonl"
    lines = [{"key": "a", "recount": 5, "agree": True},
             {"key": "b", "recount": None, "agree": None},
             {"key": "c", "recount": 7, "agree": False}]
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    _drop_unfinished(str(out))
    assert [json.loads(x)["key"] for x in out.read_text().splitlines()] == ["a", "c"]
    _drop_unfinished(str(tmp_path / "none.jsonl"))  # nothing recounted yet: nothing to do
    assert not (tmp_path / "none.jsonl").exists()


@pytest.mark.full
def test_count_table_confirms_each_count_by_a_method_that_shares_no_code(tmp_path, capsys):
    """Ganak's count is recounted by the compiled counter (where the engine runs), the
    compiled counter's by D4 where it is installed and by Ganak where not; a wrong count
    in the table is found out."""
    import json

    from benchmarks.count_table import main
    from satnono.analyze.counters import d4_here
    from satnono.logic.compiled import available

    puzzle = tmp_path / "perm7.dat"  # 7×7 permutation matrices: 7! = 5,040 solutions
    puzzle.write_text("7\n" + "1 1\n" * 7 + "7\n" + "1 1\n" * 7)  # the olympiad's .dat

    def rec(i: int, count: int, method: str) -> dict:
        return {"key": f"{puzzle}#{i}", "source": str(puzzle), "index": 1, "count": count,
                "verdict": "multiple", "exact": True, "method": method, "seconds": 1.0}

    first = "ganak" if available() else "enumerate (sat)"
    lines = [rec(1, 5040, first), rec(2, 5040, "compiled counter"),
             rec(3, 5041, "compiled counter")]
    counts = tmp_path / "counts.jsonl"
    counts.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "confirm.jsonl"
    main([str(counts), "--confirm", str(out), "--timeout", "120"])
    got = {c["key"].rsplit("#")[1]: c for c in map(json.loads, out.read_text().splitlines())}
    other = "d4" if d4_here() else "ganak"
    assert got["1"]["second"] == ("compiled counter" if available() else other)
    assert [got[k]["second"] for k in "23"] == [other, other]
    assert [got[k]["recount"] for k in "123"] == [5040] * 3
    assert [got[k]["agree"] for k in "123"] == [True, True, False]
    assert f"DISAGREE {puzzle}#3" in capsys.readouterr().out


def test_a_puzzle_process_is_kept_while_puzzles_end_quickly_and_replaced_after_trouble(
        tmp_path, monkeypatch):
    """Easy puzzles one after another go to the same puzzle process; a puzzle killed at
    its limit, or one whose process dies, ends it, and the next puzzle gets a new one with
    the right verdict; nothing is left running."""
    from satnono.batch import work
    from satnono.batch.work import Job, Task, collect, do_one

    verdicts = _collection(tmp_path, 6)
    tasks = collect([str(tmp_path / "set.txt")]).tasks
    perm = satnono.Puzzle(rows=((1,),) * 9, columns=((1,),) * 9)  # 362,880 to count
    die = satnono.Puzzle(rows=((1,),), columns=((1,),), title="die")
    real_work = work._work
    # a puzzle whose process dies (the kept process is forked after this)
    monkeypatch.setattr(work, "_work", lambda p, job: os._exit(3) if p.title == "die"
                        else real_work(p, job))
    job = Job(do="validate", timeout=1)

    def pid() -> int | None:
        kept = getattr(work._KEPT, "process", None)
        return None if kept is None else kept[0].pid

    def check(task: Task) -> None:
        assert do_one(task, job)["verdict"] == verdicts[task.key]

    check(tasks[0])
    first = pid()
    check(tasks[1])
    assert pid() == first is not None  # kept
    slow = do_one(Task("perm", 1, perm), Job(do="count", backend="native", timeout=1))
    assert slow["verdict"] == "timeout" and pid() is None
    check(tasks[2])
    assert pid() not in (None, first)
    second = pid()
    dead = do_one(Task("die", 1, die), job)
    assert dead["verdict"] == "error" and "exit" in dead["error"] and pid() is None
    check(tasks[3])
    assert pid() not in (None, first, second)
    work._retire()
    assert pid() is None and not work.LIVE


def test_every_input_of_a_folder_gets_a_record_and_a_failure_its_status(tmp_path, capsys):
    """An empty file and clues that contradict in a folder: each gets a record (verdict
    error, the message), the summary names them, the status is 2; a rerun writes them no
    second time, and a file that reads now gets its puzzles' records in place of its
    error. A picture, a README and a LICENSE beside them are passed by with one line, and
    a hidden folder is not looked in."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "cup.non").write_text((PUZZLES / "cup.non").read_text())
    (folder / "empty.non").write_text("")
    bad = folder / "bad.non"
    bad.write_text("width 2\nheight 2\nrows\n2\n2\ncolumns\n1\n1\n")
    (folder / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (folder / "README.md").write_text("# My puzzles\n\nDrawn in 2025; solve them.\n")
    (folder / "LICENSE").write_text((ROOT / "LICENSE").read_text())
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD.non").write_text("")
    out = tmp_path / "r.jsonl"

    def records() -> dict[str, dict]:
        return {r["key"]: r for r in map(json.loads, out.read_text().splitlines())}

    assert main(["batch", str(folder), "-o", str(out)]) == 2
    got = records()
    assert {k for k, r in got.items() if r["verdict"] == "error"} == {
        f"{folder}/{n}#0" for n in ("bad.non", "empty.non")}
    assert got[f"{folder}/empty.non#0"]["error"] == "the file is empty"
    assert got[f"{folder}/cup.non#1"]["verdict"] == "unique"
    assert len(got) == 3
    err = capsys.readouterr().err
    assert f"error: {folder}/bad.non#0: the row clues fill 4 cells" in err
    assert (f"passed by 3 file(s) that hold no puzzle: {folder}/LICENSE, {folder}/README.md, "
            f"{folder}/pic.png\n") in err
    assert main(["batch", str(folder), "-o", str(out)]) == 2  # once only
    assert len(out.read_text().splitlines()) == 3
    assert "2 file(s) still cannot be read" in capsys.readouterr().err
    bad.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")  # two solutions
    assert main(["batch", str(folder), "-o", str(out)]) == 2  # the empty file still bad
    got = records()
    assert f"{folder}/bad.non#0" not in got and got[f"{folder}/bad.non#1"]["verdict"] == \
        "multiple"
    (folder / "empty.non").unlink()
    assert main(["batch", str(folder)]) == 0  # puzzles, and files that hold none: all well
