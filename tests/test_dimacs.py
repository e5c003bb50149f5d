"""``satnono encode``: the residual CNF as a DIMACS file that another solver reads, and whose
models, decoded from the file's header alone, are exactly the puzzle's solutions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from satnono import Puzzle, puzzle_from_picture, solve
from satnono.cli import main
from satnono.io.formats import save
from satnono.model.puzzle import puzzle_from_colours

from .conftest import RGB_PALETTE, random_colour_grid, random_picture

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def read_file(path: Path) -> tuple[list[list[int]], int, dict[int, tuple], list[str],
                                   list[int], list[int]]:
    """Clauses, variable count, cell map, known rows and both projections, read as another
    program would: from the text, with nothing of satnono's."""
    cells: dict[int, tuple] = {}
    known: list[str] = []
    show: list[int] = []
    ind: list[int] = []
    clauses: list[list[int]] = []
    top = -1
    for line in path.read_text().splitlines():
        if line.startswith("c cell "):  # every such line is data
            v, *where = map(int, line.split()[2:])
            cells[v] = tuple(where)
        elif line.startswith("c known "):
            known.append(line.split(" ", 3)[3])
        elif line.startswith("c p show "):
            show += [int(x) for x in line.split()[3:-1]]
        elif line.startswith("c ind "):
            ind += [int(x) for x in line.split()[2:-1]]
        elif line.startswith("p cnf "):
            top = int(line.split()[2])
        elif line and not line.startswith("c"):
            lits = [int(x) for x in line.split()]
            assert lits[-1] == 0
            clauses.append(lits[:-1])
    return clauses, top, cells, known, show, ind


def pictures(path: Path, chars: str) -> tuple[set[tuple[str, ...]], int]:
    """Every model of the file by a solver that is not satnono's (MiniSat, blocking each
    whole model, so that a model per solution is checked too), drawn from the header; and
    the number of models."""
    from pysat.solvers import Minisat22

    clauses, top, cells, known, show, ind = read_file(path)
    assert sorted(show) == sorted(ind) == sorted(cells)
    out: set[tuple[str, ...]] = set()
    models = 0
    with Minisat22(bootstrap_with=clauses) as s:
        while s.solve():
            model = s.get_model() or []
            models += 1
            grid = [list(row) for row in known]
            for lit in model:
                if lit > 0 and lit in cells:
                    r, c, *colour = cells[lit]
                    grid[r - 1][c - 1] = chars[colour[0]] if colour else chars[1]
            for lit in model:  # an open black-and-white cell not filled is empty
                if lit < 0 and -lit in cells and len(cells[-lit]) == 2:
                    r, c = cells[-lit]
                    grid[r - 1][c - 1] = chars[0]
            out.add(tuple("".join(row) for row in grid))
            s.add_clause([-lit for lit in model])
            if top == 0:
                break
    return out, models


def _puzzles() -> list[tuple[str, Puzzle]]:
    rng = random.Random(11)
    colour = puzzle_from_colours(random_colour_grid(rng, 5, 4, 3, 0.6), RGB_PALETTE)
    while len(list(solve(colour, limit=2))) < 2:
        colour = puzzle_from_colours(random_colour_grid(rng, 5, 4, 3, 0.6), RGB_PALETTE)
    return [
        ("two", Puzzle(((1,), (1,)), ((1,), (1,)))),
        ("perm5", Puzzle(((1,),) * 5, ((1,),) * 5)),  # 120 solutions
        ("none", Puzzle(((1,), (3,), ()), ((2,), (), (1, 1)))),  # no solution
        ("solved", Puzzle(((2,), (1,)), ((2,), (1,)))),  # logic alone
        ("random", puzzle_from_picture(random_picture(random.Random(8), 12, 12, 0.5))),
        ("colour", colour),
    ]


@pytest.mark.parametrize("encoding", ["automaton", "order"])
@pytest.mark.parametrize("depth", ["probed", "lines", "open"])
@pytest.mark.parametrize("name,puzzle", _puzzles(), ids=[n for n, _ in _puzzles()])
def test_another_solver_finds_exactly_the_solutions_in_the_file(tmp_path, name, puzzle,
                                                                depth, encoding):
    """In either encoding (colour is always automata)."""
    src = tmp_path / f"{name}.json"
    save(puzzle, str(src))
    cnf = tmp_path / f"{name}.cnf"
    assert main(["encode", str(src), "-o", str(cnf), "--depth", depth, "--encoding",
                 encoding]) == 0
    chars = puzzle.palette.chars
    got, models = pictures(cnf, chars)
    want = {tuple(s.strings(chars=chars)) for s in solve(puzzle, "native")}
    assert got == want
    assert models == len(want)  # one model per solution: a plain counter counts right


def test_a_model_counter_counts_the_file_through_its_projection(tmp_path):
    from pyganak import Counter

    src = tmp_path / "perm6.json"
    save(Puzzle(((1,),) * 6, ((1,),) * 6), str(src))
    cnf = tmp_path / "perm6.cnf"
    assert main(["encode", str(src), "-o", str(cnf)]) == 0
    clauses, top, _, _, show, _ = read_file(cnf)
    counter = Counter()
    counter.new_vars(top)
    counter.add_clauses(clauses)
    counter.set_sampling_set(show)
    assert counter.count() == 720


def test_the_header_names_the_puzzle_and_what_logic_fixed(tmp_path, capsys):
    assert main(["encode", str(PUZZLES / "cup.non")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("c satnono residual CNF: ") and "cup.non" in out[0]
    assert "logic fixed" in out[0]
    assert sum(1 for line in out if line.startswith("p cnf ")) == 1


def test_bad_input_is_a_clear_error_and_no_file(tmp_path, capsys):
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 2\nrows\n1\nx\ncolumns\n1\n1\n")
    out = tmp_path / "out.cnf"
    assert main(["encode", str(bad), "-o", str(out)]) != 0
    err = capsys.readouterr().err
    assert "bad.non" in err and "Traceback" not in err and not out.exists()


@pytest.mark.parametrize("encoding", ["automaton", "order"])
def test_the_phase_lines_are_a_first_assignment_a_real_kissat_takes(tmp_path, encoding):
    """The 'c phase' lines give each variable one literal, the cells and (order) the
    blocks' bounds; the kissat program, given the file with every variable whose phase is
    false renamed to its negation and told to keep its first values, finds a model that is
    one of the puzzle's solutions."""
    import subprocess

    from satnono.backends import kissat
    from satnono.logic import compiled

    puzzle = puzzle_from_picture(random_picture(random.Random(4), 25, 25, 0.5))
    src = tmp_path / "p.json"
    save(puzzle, str(src))
    cnf = tmp_path / "p.cnf"
    assert main(["encode", str(src), "-o", str(cnf), "--encoding", encoding]) == 0
    text = cnf.read_text().splitlines()
    phases = [int(x) for line in text if line.startswith("c phase ")
              for x in line.split()[2:-1]]
    clauses, top, cells, known, _, _ = read_file(cnf)
    if not compiled.available():
        assert phases == []
        return
    assert len({abs(x) for x in phases}) == len(phases) and set(cells) <= {abs(x) for x in phases}
    assert all(0 < abs(x) <= top for x in phases)
    if encoding == "order":
        assert len(phases) > len(cells)  # the bounds too
    program = kissat.program()
    if program is None:
        pytest.skip("no kissat program here")
    flip = {-x for x in phases if x < 0}
    dimacs = f"p cnf {top} {len(clauses)}\n" + "".join(
        " ".join(str(-x if abs(x) in flip else x) for x in c) + " 0\n" for c in clauses)
    done = subprocess.run([program, "-q", "--forcephase=true"], input=dimacs,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 10
    model = {abs(int(w)) if (int(w) > 0) != (abs(int(w)) in flip) else -abs(int(w))
             for line in done.stdout.splitlines() if line.startswith("v ")
             for w in line.split()[1:] if w != "0"}
    grid = [list(row) for row in known]
    for v, (r, c) in cells.items():
        grid[r - 1][c - 1] = "#" if v in model else "."
    assert tuple("".join(row) for row in grid) in {
        tuple(s.strings()) for s in solve(puzzle, limit=10**6, timeout=60)}
