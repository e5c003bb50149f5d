"""The residual CNF: unit propagation equals the complete line solver; the size stays linear;
the order encoding's models are the line's placements, one model each."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.encode.automaton import closed_automaton, entered_by
from satnono.encode.encoding import Encoding
from satnono.encode.order import encode_line_order
from satnono.encode.residual import encode, encode_line
from satnono.logic.board import Board
from satnono.logic.line import solve_line
from satnono.model.puzzle import line_clue
from satnono.model.verdict import LineCode

from .conftest import examples


def unit_propagate(clauses: list[list[int]], units: list[int]) -> dict[int, bool] | None:
    """Plain unit propagation to a fixed point; None on a conflict."""
    val: dict[int, bool] = {}
    for u in units:
        if val.get(abs(u), u > 0) != (u > 0):
            return None
        val[abs(u)] = u > 0
    changed = True
    while changed:
        changed = False
        for cl in clauses:
            free = None
            count = 0
            for lit in cl:
                v = val.get(abs(lit))
                if v is None:
                    free = lit
                    count += 1
                elif v == (lit > 0):
                    break
            else:
                if count == 0:
                    return None
                if count == 1:
                    val[abs(free)] = free > 0
                    changed = True
    return val


def _line_case(rng: random.Random, max_n: int):
    n = rng.randint(1, max_n)
    m = rng.getrandbits(n)
    clue = line_clue(m, n) if rng.random() < 0.85 else tuple(
        rng.randint(1, 4) for _ in range(rng.randint(0, 4)))
    values = m if rng.random() < 0.7 else rng.getrandbits(n)
    k1 = rng.getrandbits(n) & rng.getrandbits(n) & rng.getrandbits(n)  # known when encoding
    k2 = k1 | (rng.getrandbits(n) & rng.getrandbits(n))  # known later, during search
    return clue, n, values, k1, k2


def _check(clue, n, values, k1, k2) -> None:
    f1, e1 = k1 & values, k1 & ~values
    enc = Encoding(Board(n, 1))
    xs: dict[int, int] = {}
    encode_line(enc, 0, clue, n, f1, e1, lambda i: xs.setdefault(i, enc.pool.id(("x", i))))
    base = solve_line(clue, n, f1, e1)
    if base is None:
        assert enc.infeasible
        return
    f2, e2 = k2 & values, k2 & ~values
    units = [xs[i] if f2 >> i & 1 else -xs[i] for i in xs if k2 >> i & 1]
    val = unit_propagate(enc.clauses, units)
    expected = solve_line(clue, n, f2, e2)
    assert (val is None) == (expected is None), (clue, n, k1, k2)
    if expected is None:
        return
    for i, x in xs.items():
        want = 1 if expected.filled >> i & 1 else 0 if expected.empty >> i & 1 else None
        got = None if x not in val else int(val[x])
        assert got == want, (clue, n, i)


def test_unit_propagation_equals_line_solver_on_ten_thousand_lines():
    rng = random.Random(2026)
    for _ in range(examples(10_000)):
        _check(*_line_case(rng, 30))


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**64))
def test_unit_propagation_equals_line_solver_hypothesis(seed):
    _check(*_line_case(random.Random(seed), 16))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=6))
def test_every_state_of_a_closed_automaton_is_entered_by_one_value(clue):
    """What lets the CNF do without transition variables."""
    auto = closed_automaton(clue)
    for q, v, t in auto.transitions():
        assert v == entered_by(auto, t), (clue, q, v, t)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**64))
def test_a_full_line_is_decided_by_unit_propagation(n, seed):
    """With every cell given, unit propagation alone accepts or refutes the line, and an
    accepted line fixes every automaton variable: they are functions of the cells, which
    is what makes blocking clauses and projected counting over the cells exact."""
    rng = random.Random(seed)
    clue = line_clue(rng.getrandbits(n), n) if rng.random() < 0.8 else tuple(
        rng.randint(1, 3) for _ in range(rng.randint(0, 3)))
    known = rng.getrandbits(n) & rng.getrandbits(n)  # known when encoding
    picture = rng.getrandbits(n)
    enc = Encoding(Board(n, 1))
    xs: dict[int, int] = {}
    encode_line(enc, 0, clue, n, known & picture, known & ~picture,
                lambda i: xs.setdefault(i, enc.pool.id(("x", i))))
    for values in range(1 << n):
        if (values ^ picture) & known:
            continue  # disagrees with the cells known when encoding
        fits = line_clue(values, n) == tuple(clue)
        val = unit_propagate(enc.clauses, [x if values >> i & 1 else -x for i, x in xs.items()])
        assert (val is not None) == fits, (clue, n, values)
        if fits:
            assert len(val) == enc.pool.top, (clue, n, values)


def test_auxiliary_variables_stay_linear():
    rng = random.Random(11)
    for _ in range(2000):
        n = rng.randint(1, 60)
        m_ = rng.getrandbits(n)
        clue = line_clue(m_, n)
        enc = Encoding(Board(n, 1))
        encode_line(enc, 0, clue, n, 0, 0, lambda i, enc=enc: enc.pool.id(("x", i)))
        m = sum(clue) + len(clue) - 1 if clue else 0
        f = n - m
        assert enc.aux_per_line[0] <= 3 * (m + 1) * (f + 1), (clue, n)


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(1, 11), st.integers(0, 2**64))
def test_order_encoding_has_one_model_for_each_placement(n, seed):
    """Brute force: with the unknown cells set every way, the order encoding of a line is
    satisfiable exactly when the cells spell the clue (known cells as constants), and then
    by one model only (its bounds and covers are functions of the cells: blocking clauses
    over the cells and counts over them stay exact); the clues the known cells already
    contradict give an infeasible encoding."""
    from pysat.solvers import Solver

    rng = random.Random(seed)
    clue = line_clue(rng.getrandbits(n), n) if rng.random() < 0.8 else tuple(
        rng.randint(1, 3) for _ in range(rng.randint(0, 3)))
    known = rng.getrandbits(n) & rng.getrandbits(n)
    picture = rng.getrandbits(n)
    enc = Encoding(Board(n, 1))
    xs: dict[int, int] = {}
    encode_line_order(enc, 0, clue, n, known & picture, known & ~picture,
                      lambda i: xs.setdefault(i, enc.pool.id(("x", i))))
    fitting = [v for v in range(1 << n) if not (v ^ picture) & known
               and line_clue(v, n) == tuple(clue)]
    assert enc.infeasible == (not fitting) == (solve_line(clue, n, known & picture,
                                                          known & ~picture) is None)
    if enc.infeasible:
        return
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as s:
        for values in range(1 << n):
            if (values ^ picture) & known:
                continue
            cells = [x if values >> i & 1 else -x for i, x in xs.items()]
            models = 0
            while models < 2 and s.solve(assumptions=cells):
                models += 1
                s.add_clause([-lit for lit in s.get_model()])  # that model, and only it
            assert models == (1 if values in fitting else 0), (clue, n, values, models)


def test_order_encoding_of_puzzles_has_their_solutions_as_its_models():
    """A whole puzzle in the order encoding, from a board logic left open: its models,
    mapped back to the grid, are the puzzle's solutions (the native solver's set)."""
    from pysat.solvers import Solver

    import satnono
    from satnono.bench.suites import random_picture
    from satnono.encode.residual import decode_solution
    from satnono.pipeline import residual

    for seed in range(examples(40)):
        rng = random.Random(seed)
        p = random_picture(rng, rng.randint(3, 7), rng.choice((0.3, 0.5, 0.7)))
        res = residual(p)
        expected = {s for s in satnono.solve(p, "native", limit=None)}
        board = res.presolved.board
        if res.encoding is None:  # logic settled it
            continue
        enc = encode(p, board, code=LineCode.ORDER)
        got = []
        with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
            for model in s.enum_models():
                got.append(decode_solution(enc, [v for v in model if v > 0]))
        assert len(got) == len(set(got)) and set(got) == expected, seed
