"""The plan: what a run does, decided once from the backend's row, the options and the
presolved root (satnono.plan), and read by the backend instead of module globals."""

from __future__ import annotations

import dataclasses

import pytest

from satnono import solve
from satnono.backends import BACKENDS, OPTIONS, backend
from satnono.errors import UnknownOption, UsageError
from satnono.logic import compiled
from satnono.logic.board import Board
from satnono.model.puzzle import Puzzle
from satnono.model.verdict import Depth
from satnono.plan import TUNING, Plan, Tuning, choices, plan_for


def test_every_option_is_a_field_of_the_plan():
    """An option of the table reaches the backend through the plan: each is a field."""
    fields = {f.name for f in dataclasses.fields(Plan)}
    assert set(OPTIONS) <= fields
    for row in BACKENDS.values():
        plan = plan_for(row, {})
        assert plan.backend == row.name and plan.depth is row.depth


def test_the_options_given_are_the_plans():
    sat = backend("sat")
    plan = plan_for(sat, {"workers": 3, "probing": False, "budget": 7, "solver": "glucose4"})
    assert (plan.workers, plan.probing, plan.budget, plan.solver) == (3, False, 7, "glucose4")
    assert plan.depth is Depth.LINES and plan.compiled  # no probing: presolve stops at lines
    assert not plan_for(sat, {}, observed=True).compiled  # steps followed: Python's logic
    assert plan_for(backend("native"), {"learning": False}).learning is False
    with pytest.raises(UnknownOption, match="no option 'budget'"):
        plan_for(backend("native"), {"budget": 1})
    with pytest.raises(UsageError, match="budget is a whole number"):
        plan_for(sat, {"budget": -1})
    with pytest.raises(UsageError, match="tuning is a satnono.plan.Tuning"):
        plan_for(sat, {}, tuning={"budget": 0})  # type: ignore[arg-type]


def _open(width: int, height: int, colours: int = 1) -> Board:
    return Board(width, height, colours=colours)


def test_the_root_decides_the_budget_and_who_looks_first():
    """Kissat looks first past ``kissat_cells`` open choices, with the default solver, a
    Kissat present (the pipeline says whether one is), and not as one racer of a race run
    elsewhere; the budget follows: the large one where Kissat follows, else black and
    white's or colour's, unless one was given; belief propagation informs the search
    looking for one or two solutions, with first values."""
    sat = plan_for(backend("sat"), {})
    small, large = _open(30, 30), _open(40, 40)
    assert choices(small) == 900 < TUNING.kissat_cells < choices(large) == 1600
    assert sat.at_root(small, True, kissat=True).budget == TUNING.budget
    assert not sat.at_root(small, True, kissat=True).kissat_first
    assert sat.at_root(small, False, kissat=True).budget == TUNING.colour_budget
    past = sat.at_root(large, True, kissat=True)
    assert past.kissat_first and past.budget == TUNING.large_budget
    assert not plan_for(backend("sat"), {"solver": "glucose4"}).at_root(
        large, True, kissat=True).kissat_first
    assert not plan_for(backend("sat"), {"search": 1}).at_root(
        large, True, kissat=True).kissat_first
    assert plan_for(backend("sat"), {"budget": 5}).at_root(large, True).budget == 5
    tuned = plan_for(backend("sat"), {}, tuning=Tuning(kissat_cells=2000, budget=9))
    assert tuned.at_root(large, True, kissat=True).budget == 9
    assert not tuned.at_root(large, True, kissat=True).kissat_first
    # colour: a cell counts once for each colour it may still take
    assert choices(_open(20, 20, colours=2)) == 1200
    assert sat.at_root(_open(20, 20, colours=2), False, kissat=True).kissat_first
    assert not sat.at_root(large, True, kissat=False).kissat_first
    # belief propagation before the search: one or two solutions, with first values
    assert sat.at_root(small, True, 2).inform_rounds == TUNING.inform_rounds > 0
    assert sat.at_root(small, True, None).inform_rounds == 0
    assert plan_for(backend("sat"), {"phases": False}).at_root(small, True, 1).inform_rounds == 0
    assert plan_for(backend("sat"), {"budget": 0}).at_root(small, True, 1).inform_rounds == 0
    # in colour no first values unless the tuning asks (measured: they cost, no puzzle gains)
    colour = _open(20, 20, colours=2)
    assert not sat.at_root(colour, False, 2).phases
    assert sat.at_root(colour, False, 2).inform_rounds == 0
    asked = plan_for(backend("sat"), {}, tuning=Tuning(colour_phases=True))
    assert asked.at_root(colour, False, 2).phases
    assert asked.at_root(colour, False, 2).inform_rounds == TUNING.inform_rounds
    assert sat.at_root(small, True, 2).phases
    # probing's implications as clauses: black and white, colour only when asked
    assert sat.at_root(small, True, 2).implications
    assert not sat.at_root(colour, False, 2).implications
    assert plan_for(backend("sat"), {}, tuning=Tuning(colour_implications=True)).at_root(
        colour, False, 2).implications
    # only the sat backend has choices at the root
    cpsat = plan_for(backend("cpsat"), {})
    assert cpsat.at_root(large, True) == cpsat


def test_a_tuning_given_to_solve_is_the_one_the_backend_reads():
    """Budget 0 in the tuning sends a puzzle straight to the CNF stage: a CNF is built
    and loaded."""
    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    run = solve(p, "sat", limit=2, workers=1, tuning=Tuning(budget=0))
    assert len(list(run)) == 2 and run.stats.variables > 0 and "load" in run.stats.seconds


@pytest.mark.skipif(not compiled.available(), reason="the compiled engine is not here (the "
                    "Python logic alone sends every puzzle to the CNF stage)")
def test_the_default_tuning_lets_the_compiled_search_settle_a_small_puzzle():
    """The same puzzle with the default tuning is settled by the compiled search within
    its budget, with no CNF: the budget of the test above is what made the difference."""
    p = Puzzle(((1,),) * 5, ((1,),) * 5)
    run = solve(p, "sat", limit=2, workers=1)
    assert len(list(run)) == 2 and run.stats.nodes > 0 and run.stats.variables == 0
    assert "load" not in run.stats.seconds
