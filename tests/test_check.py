"""Uniqueness verdicts, ambiguity (the complement of the backbone), switches, difficulty."""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Puzzle, Solution, is_solution, puzzle_from_picture
from satnono.analyze.difficulty import rate
from satnono.analyze.uniqueness import switches, uniqueness
from satnono.cli import main
from satnono.errors import UsageError

from .conftest import (
    brute_solutions,
    corpus_puzzle,
    corpus_rows,
    examples,
    needs_corpus,
    random_picture,
)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_verdict_and_ambiguous_cells_equal_brute_force(w, h, density, seed):
    p = puzzle_from_picture(random_picture(random.Random(seed), w, h, density))
    sols = sorted(brute_solutions(p), key=lambda s: s.rows)
    u = uniqueness(p)
    assert u.verdict == ("unique" if len(sols) == 1 else "multiple")
    assert all(s in sols for s in u.solutions) and len(set(u.solutions)) == len(u.solutions)
    differ = {(r, c) for r in range(h) for c in range(w)
              if len({s.rows[r] >> c & 1 for s in sols}) > 1}
    assert set(u.ambiguous) == differ


def test_no_solution_verdict():
    assert uniqueness(Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))).verdict == "none"


@pytest.mark.parametrize("seed", range(8))
def test_racing_workers_give_the_same_verdict_and_ambiguous_cells(seed):
    from satnono.pipeline import residual

    if seed == 0:  # 120 solutions, every cell ambiguous
        p = Puzzle(((1,),) * 5, ((1,),) * 5)
    elif seed == 1:  # no solution, though every clue fits
        p = Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))
    else:
        rng = random.Random(2000 + seed)
        while True:  # a picture that line solving and probing leave to the SAT solver
            w, h = rng.randint(4, 16), rng.randint(4, 16)
            p = puzzle_from_picture(random_picture(rng, w, h, rng.choice([0.3, 0.5])))
            if residual(p).encoding is not None:
                break
    one = uniqueness(p)
    for workers in (2, 3):
        raced = uniqueness(p, workers=workers, timeout=120 if workers == 3 else None)
        assert raced.verdict == one.verdict
        # the ambiguous cells are the complement of the backbone, whichever search ran
        assert raced.ambiguous == one.ambiguous
        assert len(set(raced.solutions)) == len(raced.solutions) == len(one.solutions)
        assert all(is_solution(p, s) for s in raced.solutions)
    with pytest.raises(UsageError, match="workers must be a whole number of at least 1"):
        uniqueness(p, workers=0)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32))
def test_switches_flip_without_changing_a_clue_and_make_puzzles_ambiguous(w, h, seed):
    pic = random_picture(random.Random(seed), w, h, 0.5)
    found = switches(pic)
    # brute force: every 2x2 checkerboard whose flip leaves the clues as they are
    expect = []
    for r in range(h - 1):
        for c in range(w - 1):
            a, b = pic.rows[r] >> c & 3, pic.rows[r + 1] >> c & 3
            if {a, b} == {1, 2}:
                rows = list(pic.rows)
                rows[r] ^= 3 << c
                rows[r + 1] ^= 3 << c
                if puzzle_from_picture(Solution(w, tuple(rows))).rows == \
                        puzzle_from_picture(pic).rows and \
                        puzzle_from_picture(Solution(w, tuple(rows))).columns == \
                        puzzle_from_picture(pic).columns:
                    expect.append((r, c))
    assert found == expect
    if found:
        assert uniqueness(puzzle_from_picture(pic)).verdict == "multiple"


@pytest.mark.parametrize("engine", [True, False])
def test_difficulty_levels(engine, monkeypatch):
    """Rated from the engine's logic and the SAT stage's proof, or (where the engine is
    not there) by the native search in Python: the same levels either way."""
    import satnono.analyze.difficulty as difficulty

    if not engine or not difficulty.usable(Puzzle(((1,),), ((1,),))):
        monkeypatch.setattr(difficulty, "usable", lambda puzzle: False)
    line = puzzle_from_picture(Solution.from_strings(["##.", "#..", "..."]))
    assert rate(line).level == "line"
    two = Puzzle(((1,), (1,)), ((1,), (1,)))
    r = rate(two)
    assert r.level == "search" and r.open_after_probing == 4
    assert r.solutions_seen == 2 and not r.contradiction
    if r.rated_by == "native":
        # one decision, then the learnt block of the first solution leads to the second
        assert r.nodes >= 1 and r.max_depth >= 1
    else:
        assert r.sat_calls == 2  # a solution, then a second
    # a puzzle line logic alone cannot finish but probing can (found by search below)
    rng = random.Random(7)
    for _ in range(2000):
        p = puzzle_from_picture(random_picture(rng, 8, 8, 0.5))
        r = rate(p)
        if r.level == "probe":
            assert r.by_line < r.cells and r.by_line + r.by_probe == r.cells
            assert uniqueness(p).verdict == "unique"
            break
    else:
        raise AssertionError("no probe-level puzzle among 2000 random 8x8 pictures")
    refuted = Puzzle(((2,), ()), ((2,), ()))  # line logic alone refutes it
    r = rate(refuted)
    assert r.level == "line" and r.contradiction


@needs_corpus
@pytest.mark.full  # the corpus's 89 rated puzzles, each rated both ways: a minute or two
def test_both_ratings_agree_with_the_corpus_documented_line_solvable_puzzles(monkeypatch):
    """Each corpus puzzle whose sources say whether line logic alone solves it: the
    engine's rating and the Python one give the same level, ``line`` exactly for those
    documented as line-solvable."""
    import satnono.analyze.difficulty as difficulty

    rows = [r for r in corpus_rows() if r["line_solvable_documented"]]
    assert len(rows) >= 80
    for row in rows:
        puzzle = corpus_puzzle(row)
        engine = rate(puzzle, timeout=120)
        with monkeypatch.context() as m:
            m.setattr(difficulty, "usable", lambda p: False)
            python = rate(puzzle, timeout=120)
        where = f"{row['source_repo']}/{row['path_in_repo']}"
        assert engine.finished, where
        # the Python search may run out of time: its level is known once probing is done
        assert python.level == engine.level or not python.finished, where
        assert (engine.level == "line") == (row["line_solvable_documented"] == "LINE"), where


def test_check_command(capsys):
    from pathlib import Path

    puzzles = Path(__file__).resolve().parents[1] / "puzzles"
    assert main(["check", str(puzzles / "car.dat")]) == 0
    assert "unique solution (proven)" in capsys.readouterr().out
    assert main(["check", str(puzzles / "two.dat"), "--json"]) == 5
    got = json.loads(capsys.readouterr().out)
    assert got["verdict"] == "multiple" and len(got["solutions"]) == 2
    assert sorted(got["ambiguous"]) == [[1, 1], [1, 2], [2, 1], [2, 2]]
    assert got["difficulty"]["level"] == "search"
    assert main(["check", str(puzzles / "two.dat"), "--json", "--no-rating"]) == 5
    got = json.loads(capsys.readouterr().out)
    assert got["verdict"] == "multiple" and "difficulty" not in got
    assert main(["check", str(puzzles / "car.dat"), "--no-rating"]) == 0
    assert "difficulty" not in capsys.readouterr().out


def test_check_timeout_covers_verdict_and_rating_together(monkeypatch, capsys):
    """Where the rating runs a search of its own (no engine: the Python one), it gets only
    what the verdict left of --timeout, not a second full budget."""
    from pathlib import Path

    import satnono.analyze.check
    import satnono.analyze.difficulty
    import satnono.analyze.uniqueness

    real_uniqueness = satnono.analyze.uniqueness.uniqueness
    real_rate = satnono.analyze.difficulty.rate
    budgets: list[float | None] = []

    def slow_uniqueness(puzzle, **kw):
        time.sleep(0.5)
        return real_uniqueness(puzzle, **kw)

    def spy_rate(puzzle, *, timeout=None):
        budgets.append(timeout)
        return real_rate(puzzle, timeout=timeout)

    monkeypatch.setattr(satnono.analyze.uniqueness, "uniqueness", slow_uniqueness)
    monkeypatch.setattr(satnono.analyze.difficulty, "rate", spy_rate)
    monkeypatch.setattr(satnono.analyze.check, "usable", lambda puzzle: False)
    car = Path(__file__).resolve().parents[1] / "puzzles" / "car.dat"
    assert main(["check", str(car), "--timeout", "2"]) == 0
    assert budgets and budgets[0] is not None and budgets[0] <= 1.5
    assert main(["check", str(car)]) == 0
    assert budgets[1] is None
    capsys.readouterr()


@pytest.mark.full
def test_a_time_limit_after_the_second_solution_keeps_the_verdict(monkeypatch, tmp_path,
                                                                   capsys):
    import satnono.analyze.uniqueness

    p = Puzzle(((1,),) * 5, ((1,),) * 5)  # 120 solutions; every cell differs
    full = set(uniqueness(p).ambiguous)
    real = satnono.analyze.uniqueness._backbone

    def stalls_after_two(*args):  # the search for more ambiguous cells outlasts the limit
        for i, item in enumerate(real(*args)):
            yield item
            if i == 1:
                time.sleep(60)

    monkeypatch.setattr(satnono.analyze.uniqueness, "_backbone", stalls_after_two)
    for workers in (1, 2):
        u = uniqueness(p, timeout=1.5, workers=workers)
        assert u.verdict == "multiple" and not u.complete
        assert 0 < len(u.ambiguous) < len(full) and set(u.ambiguous) <= full
        assert all(is_solution(p, s) for s in u.solutions)
    path = tmp_path / "perm.json"
    path.write_text(json.dumps({"rows": [[1]] * 5, "columns": [[1]] * 5}))
    assert main(["check", str(path), "--timeout", "1.5", "--no-rating", "--json"]) == 5
    got = json.loads(capsys.readouterr().out)
    assert got["verdict"] == "multiple" and got["complete"] is False  # ambiguity unfinished
    assert main(["check", str(path), "--timeout", "1.5", "--no-rating"]) == 5
    assert "the time limit stopped the search for more" in capsys.readouterr().out


def test_make_from_png_and_text(tmp_path, capsys):
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (60, 40), "white")
    ImageDraw.Draw(im).rectangle((10, 10, 49, 29), fill=(30, 30, 30))
    im.save(tmp_path / "box.png")
    out = tmp_path / "box.non"
    assert main(["make", str(tmp_path / "box.png"), "--size", "6x4", "-o", str(out)]) == 0
    from satnono import load

    p = load(str(out))
    assert p.goal == ("......", ".####.", ".####.", "......")
    assert p.lengths[0] == ((), (4,), (4,), ())  # the row clues
    # a checkerboard: not unique, exit 5, and the switch is named
    (tmp_path / "x.txt").write_text("#.\n.#\n")
    assert main(["make", str(tmp_path / "x.txt"), "-o", str(tmp_path / "x.non")]) == 5
    assert "rows 1-2 × columns 1-2" in capsys.readouterr().err
    # bad input: clear error, exit 2, nothing written
    (tmp_path / "bad.png").write_bytes(b"not an image")
    assert main(["make", str(tmp_path / "bad.png"), "-o", str(tmp_path / "bad.non")]) == 2
    assert not (tmp_path / "bad.non").exists()
