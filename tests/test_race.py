"""``solve --cluster``: differently set sat searches race on a real Dask LocalCluster; the
first to finish gives the answer a local run gives, and the others are stopped."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from satnono import Puzzle, solve
from satnono.io.formats import save

#: the full suite only (python -m pytest); the fast tier (--fast) leaves these out
pytestmark = pytest.mark.full

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def engine():
    from satnono.batch.engines import DaskEngine

    # started as a user starts one (daemon worker processes): the racers must still be
    # able to start their search processes
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        eng = DaskEngine(cluster.scheduler_address)
        try:
            yield eng
        finally:
            eng.close()


def permutation(k: int) -> Puzzle:
    return Puzzle(((1,),) * k, ((1,),) * k)


THREE = Puzzle(((1, 1), (1,), (1,)), ((1,), (1, 1), (1,)))  # small, several solutions


@pytest.mark.parametrize("limit", [1, 2, None])
def test_the_race_gives_what_a_local_run_gives(engine, limit):
    from satnono.batch.race import race

    for puzzle in (permutation(4), THREE, permutation(1)):
        local = {s.rows for s in solve(puzzle, limit=limit)}
        finish = race(engine, puzzle, 3, limit, 60)
        assert finish is not None and not finish.timed_out
        assert 0 <= finish.search < 3 and finish.worker.startswith("tcp://")
        got = [s.rows for s in finish.solutions]
        assert len(got) == len(set(got)) == len(local)
        if limit is None:
            assert set(got) == local


def test_a_racer_stops_when_told_to(engine):
    from distributed import Event

    from satnono.batch.race import racer

    stop = "satnono-test-stop"
    fut = engine.client.submit(racer, permutation(12), 0, None, 120, stop, pure=False)
    time.sleep(2)  # 12! solutions: it is still enumerating
    assert not fut.done()
    Event(stop, client=engine.client).set()
    started = time.monotonic()
    assert fut.result(timeout=30) is None
    assert time.monotonic() - started < 10


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=180)


def test_solve_command_races_on_a_cluster(tmp_path):
    path = tmp_path / "perm.non"
    save(permutation(5), str(path))
    r = _run("solve", str(path), "--cluster", "local:2", "--workers", "3", "--all",
             "--to", "json")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)
    assert record["complete"] and len({tuple(s) for s in record["solutions"]}) == 120
    assert "first to finish: racing search" in r.stderr
    big = tmp_path / "perm12.non"
    save(permutation(12), str(big))
    r = _run("solve", str(big), "--cluster", "local:1", "--all", "--timeout", "2",
             "--to", "json")
    assert r.returncode == 3 and "time limit" in r.stderr
    record = json.loads(r.stdout)
    assert record["ending"] == "time limit" and not record["complete"]
    r = _run("solve", str(path), "--cluster", "local:1", "--backend", "cpsat")
    assert r.returncode == 2 and "--cluster races the sat backend" in r.stderr
