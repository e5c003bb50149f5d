"""GNU MathProg data (``.dat`` with ``param row : … :=`` tables), as GLPK's pbn example uses."""

from __future__ import annotations

import re

from ...errors import ParseError
from ...model.puzzle import Puzzle
from ._common import checked, clue, lines_of, number

NAME = "mathprog"
EXTENSIONS = (".dat",)

_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def sniff(text: str) -> bool:
    return bool(re.search(r"\bparam\s+(row|col|m|n)\b", text))


def _strip_comments(text: str) -> str:
    # keep line numbers: replace each comment by as many newlines as it spans
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return "\n".join(ln.split("#", 1)[0] for ln in lines_of(text))


def read(text: str, path: str | None = None) -> list[Puzzle]:
    lines = lines_of(_strip_comments(text))
    sizes: dict[str, tuple[int, int]] = {}
    tables: dict[str, list[tuple[int, int, list[str]]]] = {}
    i = 0
    while i < len(lines):
        ln = lines[i].strip()
        mm = re.match(r"param\s+(m|n)\s*:=\s*(\S+?)\s*;", ln)
        if mm:
            sizes[mm.group(1)] = (number(mm.group(2), path, i + 1), i + 1)
            i += 1
            continue
        mt = re.match(r"param\s+(row|col)\s*:(.*?):=\s*(.*)$", ln)
        if mt:
            name = mt.group(1)
            rows: list[tuple[int, int, list[str]]] = []
            rest = mt.group(3)
            j = i
            done = False
            while not done:
                if ";" in rest:
                    rest, done = rest.split(";", 1)[0], True
                toks = rest.split()
                if toks:
                    rows.append((j + 1, number(toks[0], path, j + 1, "a line index"), toks[1:]))
                if done:
                    break
                j += 1
                if j >= len(lines):
                    raise ParseError(f"the table 'param {name}' is not closed with ';'", path,
                                     i + 1)
                rest = lines[j]
            tables[name] = rows
            i = j + 1
            continue
        i += 1
    for key, word in (("m", "rows"), ("n", "columns")):
        if key not in sizes:
            raise ParseError(f"missing 'param {key} := <number of {word}>;'", path, None)
    for name in ("row", "col"):
        if name not in tables:
            raise ParseError(f"no 'param {name}' table found", path, None)
    clues: dict[str, list] = {}
    where: dict[str, list] = {}
    for name, size_key in (("row", "m"), ("col", "n")):
        count = sizes[size_key][0]
        got: dict[int, tuple[int, tuple[int, ...]]] = {}
        for lineno, idx, toks in tables.get(name, []):
            if not 1 <= idx <= count:
                raise ParseError(f"{name} index {idx} is outside 1..{count}", path, lineno)
            if idx in got:
                raise ParseError(f"{name} {idx} has two clues (lines {got[idx][0]} and "
                                 f"{lineno})", path, lineno)
            vals = [t for t in toks if t != "."]
            got[idx] = (lineno, clue(vals, path, lineno) if vals else ())
        clues[name] = [got[i][1] if i in got else () for i in range(1, count + 1)]
        where[name] = [got[i][0] if i in got else None for i in range(1, count + 1)]
    p = Puzzle(tuple(clues["row"]), tuple(clues["col"]),
               row_lines=tuple(where["row"]), col_lines=tuple(where["col"]))
    return [checked(p, path)]


def write(puzzle: Puzzle) -> str:
    title = (puzzle.title or "satnono puzzle").replace("*/", "* /")
    out = [f"/* {title} */", "data;", "", f"param m := {puzzle.height};", "",
           f"param n := {puzzle.width};", ""]
    for name, clues in (("row", puzzle.rows), ("col", puzzle.columns)):
        k = max(1, max(map(len, clues)))
        out.append(f"param {name} : " + " ".join(map(str, range(1, k + 1))) + " :=")
        for i, c in enumerate(clues, 1):
            cells = [str(x) for x in c] + ["."] * (k - len(c))
            out.append(f"  {i} " + " ".join(cells))
        out.append(";")
        out.append("")
    out.append("end;")
    return "\n".join(out) + "\n"
