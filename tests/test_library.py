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


LIBRARY_PAGE = Path(__file__).resolve().parents[1] / "docs" / "library.md"


def test_the_library_pages_examples_run_as_written(monkeypatch, capsys):
    """Each Python block of docs/library.md, run from the source folder as the page says."""
    import re

    blocks = re.findall(r"```python\n(.*?)```", LIBRARY_PAGE.read_text(), re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(LIBRARY_PAGE.parents[1])
    for code in blocks:
        exec(compile(code, str(LIBRARY_PAGE), "exec"), {})
    out = capsys.readouterr().out
    assert "2 True" in out and "multiple 2 [(0, 0), (0, 1), (1, 0), (1, 1)]" in out


def test_the_library_pages_calls_are_the_real_signatures():
    """Every ``satnono.name(…)`` the page writes out names parameters the call has, with
    the defaults it has, and keyword-only ones after ``*`` (docs/library.md once gave
    ``solve`` a default backend it did not have)."""
    import ast
    import inspect
    import re

    text = LIBRARY_PAGE.read_text()
    calls = re.findall(r"`satnono\.(\w+)\(([^`]*)\)`", text)
    checked = 0
    for name, params in calls:
        if "=" not in params and "*" not in params:
            continue
        real = inspect.signature(getattr(satnono, name)).parameters
        keyword_only = False
        for part in (p.strip() for p in params.split(",")):
            if part == "*":
                keyword_only = True
                continue
            if part.startswith("**"):
                assert any(p.kind is p.VAR_KEYWORD for p in real.values()), name
                continue
            key, _, default = part.partition("=")
            assert key in real, (name, key)
            assert (real[key].kind is inspect.Parameter.KEYWORD_ONLY) == keyword_only, \
                (name, key)
            if default and default != "TUNING":
                got = real[key].default
                got = got.value if hasattr(got, "value") else got
                assert ast.literal_eval(default) == got, (name, key, default, got)
        checked += 1
    assert checked >= 5


@pytest.mark.full
def test_the_docs_site_builds_with_examples_as_code_and_roles_as_links(tmp_path):
    """``mkdocs build --strict`` (the docs extra): the library reference shows each
    docstring example as a code block (not quotes run together on one line), no Sphinx
    role raw, and links to what the page documents."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    root = LIBRARY_PAGE.parents[1]
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                           str(tmp_path / "site")], cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    assert "&gt;&gt;&gt;" in api and api.count("language-pycon") >= 10
    assert "<blockquote>" not in api
    for role in (":func:", ":class:", ":meth:", ":attr:", ":mod:", ":data:"):
        assert role not in api, role
    assert 'href="#satnono.count"' in api  # a role's target on the page, linked
    assert (tmp_path / "site" / "web-api" / "index.html").exists()
    assert not (tmp_path / "site" / "griffe_markup.py").exists()
