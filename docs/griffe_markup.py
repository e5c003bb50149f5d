"""The docstrings' reStructuredText habits made Markdown for the library reference.

satnono's docstrings are read in three places: ``help()`` and editors (plain text),
``doctest`` (its ``>>>`` examples are tests, run by tests/test_library.py) and this site
(Markdown, through mkdocstrings). Three habits read wrong as Markdown, so this Griffe
extension rewrites them as the site loads the package (the source stays as it is):

- an example (``>>>`` and ``...`` lines and the output after them, up to a blank line)
  would be a nested quote run together on one line: it becomes a fenced ``pycon`` block;
- a Sphinx role (``:func:`~satnono.count```, ``:class:`Puzzle```) would show raw: it
  becomes a link where its target is on the reference page, inline code elsewhere;
- a line of prose that starts with ``>`` ("> 1 workers" wrapped onto a new line) would
  be a quote: its ``>`` is escaped.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: a role: :func:`target`, :class:`~dotted.path`, :meth:`.relative`
ROLE = re.compile(r":(?:func|class|meth|attr|mod|data|exc|obj|const):`([~.]*)([^`]+)`")


def _linked(documented: set[str]) -> Any:
    def link(m: re.Match[str]) -> str:
        marks, target = m.group(1), m.group(2)
        name = target.rsplit(".", 1)[-1]
        shown = name if "~" in marks or "." in marks else target
        if name in documented:
            return f"[`{shown}`][satnono.{name}]"
        return f"`{shown}`"

    return link


def markdown(text: str, documented: set[str]) -> str:
    """``text`` (a docstring, dedented) with its examples fenced, its roles linked or
    made code, and a prose line's leading ``>`` escaped."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[:len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        if stripped.startswith("```"):  # a fence the docstring has already: as it is
            out.append(line)
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                out.append(lines[i])
                i += 1
            if i < len(lines):
                out.append(lines[i])
                i += 1
            continue
        line = ROLE.sub(_linked(documented), line)
        if stripped.startswith(">"):
            line = line.replace(">", "\\>", 1)
        out.append(line)
        i += 1
    return "\n".join(out)


class SphinxMarkup(griffe.Extension):
    """Rewrite every docstring of the package once it is loaded (:func:`markdown`)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        documented = {str(name) for name in getattr(pkg, "exports", None) or ()}
        seen: set[int] = set()

        def visit(obj: griffe.Object | griffe.Alias) -> None:
            if id(obj) in seen or isinstance(obj, griffe.Alias):
                return
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj.docstring.value, documented)
            for member in obj.members.values():
                visit(member)

        visit(pkg)
