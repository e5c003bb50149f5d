"""solve --trace: the steps the native solver takes, as text and as an animation."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from satnono import load, solve
from satnono.cli import main
from satnono.io.trace import Tracer
from satnono.logic.events import Contradiction, Found, Learnt, LineSolved, Refuted

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def test_trace_reports_each_kind_of_step(capsys):
    assert main(["solve", str(PUZZLES / "two.dat"), "--trace", "--no-learning"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "satnono: --trace follows the native backend's steps"  # said, not hidden
    assert err[1] == "branch (depth 1): assume cell (1, 1) filled"
    assert "row 1: 0 filled, 1 empty" in err
    assert err.count("solution 1 found") == 1 and "solution 2 found" in err
    assert "branch (depth 1): assume cell (1, 1) empty" in err


def test_learning_trace_shows_the_blocked_solution_and_learnt_clauses(capsys):
    assert main(["solve", str(PUZZLES / "two.dat"), "--trace"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[1] == "branch (depth 1): assume cell (1, 1) filled"
    assert "solution 1 blocked by a clause over its 1 decision(s), back to depth 0" in err
    assert err.count("solution 2 found") == 1
    # the 13×13 staircase needs search with conflicts: each is reported with its clause
    from satnono import puzzle_from_picture

    from .test_native import staircase

    seen = []
    p = puzzle_from_picture(staircase(13))
    list(solve(p, "native", observer=lambda event, board: seen.append(event)))
    learnt = [e for e in seen if isinstance(e, Learnt)]
    assert learnt and all(e.back < e.depth and e.size >= 1 for e in learnt)
    assert any(isinstance(e, Contradiction) for e in seen)


def test_trace_events_replay_to_the_solution():
    # every line step only adds cells, and the last board the tracer sees is the solution
    p = load(str(PUZZLES / "cup.non"))
    seen = []

    def record(event, board):
        seen.append((event, board.known()))

    (sol,) = list(solve(p, "native", observer=record))
    lines = [e for e, _ in seen if isinstance(e, LineSolved)]
    assert lines and all(e.filled + e.empty > 0 for e in lines)
    known = [k for e, k in seen if isinstance(e, LineSolved)]
    assert known == sorted(known)
    assert any(isinstance(e, Refuted) for e, _ in seen)  # cup needs probing
    assert isinstance(seen[-1][0], Found) and seen[-1][1] == p.width * p.height
    assert sol.strings() == list(p.goal)


def test_trace_gif_is_an_animation_ending_on_the_solution(tmp_path):
    out = tmp_path / "cup.gif"
    assert main(["solve", str(PUZZLES / "cup.non"), "--trace-gif", str(out)]) == 0
    img = Image.open(out)
    assert img.n_frames > 5
    img.seek(img.n_frames - 1)
    last = img.convert("L")
    p = load(str(PUZZLES / "cup.non"))
    cell = last.width // p.width
    for r, row in enumerate(p.goal):
        for c, ch in enumerate(row):
            dark = last.getpixel((c * cell + cell // 2, r * cell + cell // 2)) < 60
            assert dark == (ch == "#")


def test_trace_needs_the_native_solver(capsys):
    assert main(["solve", str(PUZZLES / "two.dat"), "--trace", "--backend", "sat"]) == 2
    assert "native" in capsys.readouterr().err


def test_tracer_live_view_renders_the_grid():
    import io

    p = load(str(PUZZLES / "two.dat"))
    buf = io.StringIO()
    t = Tracer(p, live=True, out=buf)
    list(solve(p, "native", observer=t))
    t.close()
    assert "██" in buf.getvalue() and "solution 2 found" in buf.getvalue()


def test_a_colour_branch_says_the_colour_decided_or_ruled_out():
    """The colour search decides one colour of a cell at a time: each branch names that
    colour, as taken or as ruled out, and the board it shows agrees (a colour ruled out is
    gone from the cell; a colour taken is still possible). Random pictures in three
    colours, until branches of both kinds have been seen."""
    import random

    from satnono import puzzle_from_colours
    from satnono.logic.events import Branch
    from satnono.model.grid import ROW

    from .conftest import RGB_PALETTE, random_colour_grid

    kinds = set()
    for seed in range(300):
        rng = random.Random(seed)
        p = puzzle_from_colours(random_colour_grid(rng, 6, 6, 3, 0.6), RGB_PALETTE)
        seen: list[tuple[Branch, int]] = []

        def record(event, board, seen=seen):
            if isinstance(event, Branch):
                (r, c) = event.cell
                seen.append((event, board.may[ROW][event.colour][r] >> c & 1))

        list(solve(p, "native", observer=record))
        for event, possible in seen:
            assert possible == (not event.ruled_out), event.describe()
            colour = {0: "empty", 1: "filled"}.get(event.colour, f"colour {event.colour}")
            assert event.describe().endswith(
                ("is not " if event.ruled_out else "") + colour), event.describe()
            kinds.add(event.ruled_out)
        if kinds == {True, False}:
            break
    assert kinds == {True, False}
