"""Hostile and careless use, at scale: how many tries satnono answers cleanly.

    python -m benchmarks.robustness [--mutations 6600] [--timeouts 150] [--signals 100]
                                    [--corpus] [--seed 1]

Each campaign prints ``tried / passed`` and the first failures:

* **mutations**: corpus files broken at random (bytes flipped, inserted, deleted, digits
  changed, lines dropped or doubled, cut short, NUL bytes) and read; passing is a valid
  puzzle or satnono's own parse error within 2 s;
* **timeouts**: ``satnono solve`` with a random time limit (0.2–4 s) on large generated
  pictures and hard survey puzzles, every backend; passing is exit 3 (or an answer) with
  the run's own time within a second of the limit;
* **signals**: ``satnono solve`` or ``bench`` stopped by SIGINT or SIGTERM at a random
  moment; passing is exit 130/143 (or done before the signal), one line, no traceback, no
  output file, no process left;
* **corpus**: every corpus file solved with a 5 s limit; passing is no traceback and an
  exit status from the documented table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from satnono.bench.runner import machine
from satnono.bench.suites import corpus_dir, index_rows, path_of, survey
from satnono.errors import ParseError
from satnono.io.formats import read_bytes
from satnono.model.puzzle import problems, puzzle_from_picture
from satnono.model.solution import Solution

STATUSES = {0, 1, 2, 3, 4, 5, 6, 130, 143}


def report(name: str, tried: int, failures: list[str]) -> None:
    print(f"| {name} | {tried} | {tried - len(failures)} |", flush=True)
    for f in failures[:5]:
        print(f"|   failure | {f[:160]} | |", flush=True)


def mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.choice(["flip", "insert", "delete", "digit", "drop", "double", "cut", "nul"])
        pos = rng.randrange(len(b)) if b else 0
        if op == "flip" and b:
            b[pos] = rng.randrange(256)
        elif op == "insert":
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == "delete" and b:
            del b[pos:pos + rng.randint(1, 8)]
        elif op == "digit" and b:
            b[pos] = ord(rng.choice("0123456789"))
        elif op in ("drop", "double"):
            lines = bytes(b).split(b"\n")
            k = rng.randrange(len(lines))
            if op == "drop":
                del lines[k]
            else:
                lines.insert(k, lines[k])
            b = bytearray(b"\n".join(lines))
        elif op == "cut":
            del b[pos:]
        elif op == "nul":
            b[pos:pos] = b"\0" * rng.randint(1, 20)
    return bytes(b)


def mutations(rng: random.Random, n: int) -> None:
    files = [path_of(r) for r in index_rows() if r["kind"] == "bw"]
    files = [f for f in dict.fromkeys(files) if f.exists() and f.stat().st_size < 200_000]
    failures = []
    for k in range(n):
        f = rng.choice(files)
        data = mutate(rng, f.read_bytes())
        name = "x" + f.suffix
        started = time.monotonic()
        try:
            puzzles = read_bytes(data, name)
            ok = bool(puzzles) and all(not problems(p) for p in puzzles)
        except ParseError as exc:
            ok = str(exc).startswith(name) and "\n" not in str(exc)
        except Exception as exc:  # anything else is a failure to report
            ok = False
            failures.append(f"{f.name} #{k}: {type(exc).__name__}: {exc}")
            continue
        if not ok or time.monotonic() - started > 2:
            failures.append(f"{f.name} #{k}: {'slow' if ok else 'invalid result'}")
    report("mutated corpus files read", n, failures)


def _satnono(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True,
                          text=True, timeout=timeout)


def _pictures(folder: Path) -> list[Path]:
    from satnono import save

    out = []
    for side, seed in ((150, 1), (300, 2), (400, 3)):
        rng = random.Random(seed)
        pic = Solution(side, tuple(rng.getrandbits(side) for _ in range(side)))
        path = folder / f"random{side}.non"
        save(puzzle_from_picture(pic), str(path))
        out.append(path)
    for name, p in survey():
        if name in ("Gettys", "Thing", "Sierp"):
            path = folder / f"{name}.non"
            save(p, str(path))
            out.append(path)
    return out


def timeouts(rng: random.Random, n: int, folder: Path) -> None:
    puzzles = _pictures(folder)
    failures = []
    for _ in range(n):
        path = rng.choice(puzzles)
        backend = rng.choice(["sat", "sat", "native", "cpsat", "plain-sat"])
        limit = round(rng.uniform(0.2, 4.0), 2)
        r = _satnono("solve", str(path), "--backend", backend, "--timeout", str(limit))
        m = re.search(r"\[([0-9.]+) s, backend", r.stderr)
        took = float(m.group(1)) if m else None
        if r.returncode not in (0, 3) or took is None or took > limit + 1.0:
            failures.append(f"{path.name} {backend} --timeout {limit}: exit {r.returncode}, "
                            f"{took} s: {r.stderr.strip()[-120:]}")
    report("runs past their time limit", n, failures)


def _descendants(pid: int) -> set[int]:
    parents = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                with open(f"/proc/{e}/stat") as f:
                    parents[int(e)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for c, par in parents.items():
            if par == p and c not in out:
                out.add(c)
                todo.append(c)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def signals(rng: random.Random, n: int, folder: Path) -> None:
    perm = folder / "perm10.json"
    perm.write_text(json.dumps({"rows": [[1]] * 10, "columns": [[1]] * 10}))
    puzzles = _pictures(folder) + [perm]
    failures = []
    for k in range(n):
        out = folder / f"out{k}.sol"
        path = rng.choice(puzzles)
        if rng.random() < 0.15:
            args = ["bench", str(path), "--backend", "sat:2", "-o", str(folder / f"b{k}.csv")]
        else:
            backend = rng.choice(["sat", "sat", "native", "cpsat", "plain-sat"])
            args = ["solve", str(path), "--all", "-o", str(out), "--backend", backend]
            if backend in ("sat", "cpsat") and rng.random() < 0.5:
                args += ["--workers", "2"]
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        proc = subprocess.Popen([sys.executable, "-m", "satnono", *args], text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        wait = rng.uniform(0.3, 4.0)
        seen: set[int] = set()
        end = time.monotonic() + wait
        while time.monotonic() < end and proc.poll() is None:
            seen |= _descendants(proc.pid)
            time.sleep(0.05)
        if proc.poll() is None:
            if sig == signal.SIGINT:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # the signal did not stop it
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
            failures.append(f"{' '.join(args[:4])} {sig.name} after {wait:.1f} s: still "
                            "running a minute later")
            continue
        time.sleep(0.3)
        left = [p for p in seen if _alive(p)]
        lines = [ln for ln in err.strip().splitlines() if "solutions so far" not in ln]
        stopped = proc.returncode in (130, 143)
        bad = (proc.returncode not in STATUSES or "Traceback" in err or left
               or (stopped and args[0] == "solve" and (out.exists() or len(lines) > 2)))
        if bad:
            failures.append(f"{' '.join(args[:4])} {sig.name} after {wait:.1f} s: exit "
                            f"{proc.returncode}, left {left}: {err.strip()[-120:]}")
    report("runs stopped by a signal", n, failures)


def corpus() -> None:
    files = sorted({path_of(r) for r in index_rows()})
    failures = []
    for f in files:
        r = _satnono("solve", str(f), "--timeout", "5", "--index", "1", timeout=60)
        if "Traceback" in r.stderr or r.returncode not in STATUSES:
            failures.append(f"{f.name}: exit {r.returncode}: {r.stderr.strip()[-120:]}")
    report("corpus files solved", len(files), failures)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutations", type=int, default=6600)
    ap.add_argument("--timeouts", type=int, default=150)
    ap.add_argument("--signals", type=int, default=100)
    ap.add_argument("--corpus", action="store_true", help="also solve every corpus file")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (corpus_dir() / "INDEX.tsv").exists():
        raise SystemExit(f"no corpus at {corpus_dir()}")
    rng = random.Random(args.seed)
    print(f"# {machine()}, {time.strftime('%Y-%m-%d')}, seed {args.seed}")
    print("| campaign | tried | passed |\n|---|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="satnono-robust-") as tmp:
        folder = Path(tmp)
        if args.mutations:
            mutations(rng, args.mutations)
        if args.timeouts:
            timeouts(rng, args.timeouts, folder)
        if args.signals:
            signals(rng, args.signals, folder)
        if args.corpus:
            corpus()


if __name__ == "__main__":
    main()
