"""The library's front door: what ``import satnono`` offers, and the examples it documents."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import satnono

MODULES = sorted(m.name for m in pkgutil.walk_packages(satnono.__path__, "satnono.")
                 if not m.name.endswith("__main__"))
#: the modules whose public calls carry examples
DOCUMENTED = ["satnono", "satnono.pipeline", "satnono.model.puzzle", "satnono.model.solution",
              "satnono.model.grid", "satnono.logic.line", "satnono.logic.board",
              "satnono.logic.propagate", "satnono.logic.presolve", "satnono.logic.events",
              "satnono.runtime.deadline", "satnono.backends", "satnono.backends.native.cdcl",
              "satnono.backends.native.line_theory", "satnono.analyze.count",
              "satnono.analyze.uniqueness", "satnono.analyze.difficulty",
              "satnono.analyze.check", "satnono.io.formats"]


@pytest.mark.parametrize("name", MODULES)
def test_documented_examples_run(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0 or name not in DOCUMENTED


def test_every_exported_name_resolves_and_the_makers_calls_load_lazily():
    for name in satnono.__all__:  # each is satnono's own, and documented
        obj = getattr(satnono, name)
        owner = obj if isinstance(obj, type) or callable(obj) else type(obj)
        assert owner.__module__.startswith("satnono") and owner.__doc__, name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        satnono.nope  # noqa: B018
    r = subprocess.run([sys.executable, "-c",
                        "import sys, satnono; print(any(m.startswith(('ortools', 'pysat')) "
                        "for m in sys.modules), 'satnono.analyze.uniqueness' in sys.modules); "
                        "satnono.uniqueness; "
                        "print('satnono.analyze.uniqueness' in sys.modules)"],
                       capture_output=True, text=True)
    assert r.stdout.split() == ["False", "False", "True"]


def test_count_uniqueness_and_rating_from_the_library():
    two = satnono.Puzzle(((1,), (1,)), ((1,), (1,)))
    res = satnono.count(two)
    assert (res.count, res.complete) == (2, True)
    u = satnono.uniqueness(two)
    assert u.verdict == "multiple" and len(u.solutions) == 2
    assert sorted(u.ambiguous) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    car = satnono.load(str(Path(__file__).resolve().parents[1] / "puzzles" / "car.dat"))
    assert satnono.uniqueness(car).verdict == "unique"
    assert satnono.rate(car).level == "line"
