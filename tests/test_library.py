"""The library's front door: what ``import satnono`` offers, and the examples it documents."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import satnono
import satnono.pipeline


@pytest.mark.parametrize("module", [satnono, satnono.pipeline])
def test_documented_examples_run(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_every_exported_name_resolves_and_the_makers_calls_load_lazily():
    for name in satnono.__all__:
        assert getattr(satnono, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        satnono.nope  # noqa: B018
    r = subprocess.run([sys.executable, "-c",
                        "import sys, satnono; print(any(m.startswith(('ortools', 'pysat')) "
                        "for m in sys.modules)); satnono.uniqueness; "
                        "print(any(m.startswith('pysat') for m in sys.modules))"],
                       capture_output=True, text=True)
    assert r.stdout.split() == ["False", "True"]


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
