"""The puzzle model: clues in, validated; what every later stage reads.

A clue is a sequence of :class:`Block` (a length and a colour); a puzzle has a
:class:`Palette`, its background first. Black and white is the palette of one block colour,
and the default everywhere: ``Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))`` takes plain
lengths as black blocks.

>>> p = Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))
>>> p.rows
((Block(2),), (Block(1),))
>>> p.size, p.palette.black_and_white
('2x2', True)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from ..errors import InvalidPuzzle
from .grid import COLUMN, ROW, Axis, Line
from .solution import Solution, line_clue

#: Sizes beyond this are refused: they are typos or hostile files, not puzzles.
MAX_SIDE = 10_000

BLACK = "black"
WHITE = "white"


@dataclass(frozen=True)
class Colour:
    """A palette entry: its name, the character that draws it in text, its RGB as hex."""

    name: str
    char: str
    rgb: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidPuzzle(f"a colour's name is text, not {self.name!r}")
        if not isinstance(self.char, str) or len(self.char) != 1:
            raise InvalidPuzzle(f"the colour {self.name!r} needs one character to draw it, "
                                f"not {self.char!r}")
        if not (isinstance(self.rgb, str) and len(self.rgb) in (3, 6)
                and all(ch in "0123456789abcdefABCDEF" for ch in self.rgb)):
            raise InvalidPuzzle(f"the colour {self.name!r} needs its RGB as six (or three) "
                                f"hex digits, such as ff0000, not {self.rgb!r}")


@dataclass(frozen=True)
class Palette:
    """The colours cells take: ``colours[0]`` is the background (not a block colour).

    Index ``i`` of a colour is what the solving stages work with: colour 0 is the
    background, 1.. the block colours in palette order.

    >>> BLACK_AND_WHITE.index("black"), BLACK_AND_WHITE.chars
    (1, '.#')
    """

    colours: tuple[Colour, ...]

    def __post_init__(self) -> None:
        if isinstance(self.colours, (str, bytes)) or not isinstance(self.colours, Iterable) \
                or not all(isinstance(c, Colour) for c in self.colours):
            raise InvalidPuzzle(f"a palette is a sequence of Colour, not {self.colours!r}")
        object.__setattr__(self, "colours", tuple(self.colours))
        names = [c.name for c in self.colours]
        if len(names) < 2:
            raise InvalidPuzzle("a palette needs a background and at least one block colour")
        if len(set(names)) != len(names):
            raise InvalidPuzzle(f"a palette names a colour twice: {', '.join(names)}")
        chars = [c.char for c in self.colours]
        if any(len(ch) != 1 for ch in chars) or len(set(chars)) != len(chars):
            raise InvalidPuzzle("each palette colour needs a character of its own")

    @property
    def background(self) -> Colour:
        return self.colours[0]

    @property
    def black_and_white(self) -> bool:
        """One block colour: the solving stages take their black-and-white fast path."""
        return len(self.colours) == 2

    @property
    def chars(self) -> str:
        return "".join(c.char for c in self.colours)

    def index(self, name: str) -> int:
        for i, c in enumerate(self.colours):
            if c.name == name:
                return i
        raise InvalidPuzzle(f"the colour {name!r} is not in the palette "
                            f"({', '.join(c.name for c in self.colours)})")


BLACK_AND_WHITE = Palette((Colour(WHITE, ".", "ffffff"), Colour(BLACK, "#", "000000")))


class _Block(NamedTuple):
    length: int
    colour: str = BLACK


class Block(_Block):
    """A run of ``length`` cells of one colour. Blocks of the same colour need at least one
    background cell between them; blocks of different colours may touch. It prints as its
    length, as a clue does (``str(Block(3)) == "3"``). A length below 1 is refused when the
    puzzle is validated, naming its line (a file's ``0`` is an empty clue's mark)."""

    __slots__ = ()

    def __new__(cls, length: int, colour: str = BLACK) -> Block:
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise InvalidPuzzle(f"a block's length is a whole number of cells, not "
                                f"{length!r}")
        if not isinstance(colour, str) or not colour:
            raise InvalidPuzzle(f"a block's colour is a colour's name, not {colour!r}")
        return super().__new__(cls, length, colour)

    def __repr__(self) -> str:
        return f"Block({self.length})" if self.colour == BLACK else \
            f"Block({self.length}, {self.colour!r})"

    def __str__(self) -> str:
        return str(self.length)


Clue = tuple[Block, ...]
#: what a clue may be given as: blocks, plain lengths (black), or (length, colour) pairs
BlockLike = Block | int | tuple[int, str]

class _Blacks(dict[int, Block]):
    """Black blocks by length, each made once: a picture of thousands of lines has
    millions of blocks of a few dozen lengths."""

    def __missing__(self, length: int) -> Block:
        b = self[length] = Block(length)
        return b


_BLACK = _Blacks()
_BLOCK_TYPE = {Block}
_LENGTH = operator.attrgetter("length")
_COLOUR = operator.attrgetter("colour")


def _block(value: object, where: str) -> Block:
    if type(value) is Block:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return _BLACK[value]
    if (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], int)
            and not isinstance(value[0], bool) and isinstance(value[1], str)):
        return Block(value[0], value[1])
    raise InvalidPuzzle(f"{where}: a block is a whole number (a black block's length) or a "
                        f"(length, colour) pair, not {value!r}")


def _clues(value: object, kind: str) -> tuple[Clue, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidPuzzle(f"the {kind} clues must be a sequence of clues, not {value!r}")
    out = []
    for i, clue in enumerate(value):
        where = f"{kind} {i + 1}"
        if type(clue) is tuple and set(map(type, clue)) <= _BLOCK_TYPE:
            out.append(clue)  # already blocks (a picture's clues): kept as they are
            continue
        if isinstance(clue, (str, bytes)) or not isinstance(clue, Iterable):
            raise InvalidPuzzle(f"{where}: a clue is a sequence of blocks, not {clue!r}")
        out.append(tuple(_block(b, where) for b in clue))
    return tuple(out)


def lengths(clue: Clue) -> tuple[int, ...]:
    """The block lengths of a clue (all a black-and-white clue says)."""
    return tuple(b.length for b in clue)


def clue_text(clue: Sequence[Block] | Sequence[int]) -> str:
    return " ".join(map(str, clue)) if clue else "0"


@dataclass(frozen=True, init=False)
class Puzzle:
    """Row clues (top to bottom) and column clues (left to right), plus optional metadata.

    ``goal`` is the author's picture when a file carries one (row strings of the palette's
    characters). ``row_lines``/``col_lines`` are the file lines the clues came from, so
    validation errors can point at them; they do not take part in equality.
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    source: str | None = None
    goal: tuple[str, ...] | None = field(default=None, compare=False)
    row_lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    col_lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    palette: Palette = field(default=BLACK_AND_WHITE, repr=False)

    def __init__(self, rows: Iterable[Iterable[BlockLike]],
                 columns: Iterable[Iterable[BlockLike]], title: str | None = None,
                 author: str | None = None, copyright: str | None = None,
                 source: str | None = None, goal: tuple[str, ...] | None = None,
                 row_lines: tuple[int, ...] | None = None,
                 col_lines: tuple[int, ...] | None = None,
                 palette: Palette = BLACK_AND_WHITE):
        if not isinstance(palette, Palette):
            raise InvalidPuzzle(f"a palette is a satnono Palette, not {palette!r}")
        values = {"rows": _clues(rows, "row"), "columns": _clues(columns, "column"),
                  "title": title, "author": author, "copyright": copyright, "source": source,
                  "goal": goal, "row_lines": row_lines, "col_lines": col_lines,
                  "palette": palette}
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def clues(self, axis: Axis) -> tuple[Clue, ...]:
        return self.rows if axis is ROW else self.columns

    def clue(self, line: Line) -> Clue:
        return self.clues(line.axis)[line.index]

    def goal_solution(self) -> Solution | None:
        """The author's picture as a grid (None when the file has none). A black-and-white
        goal may draw filled cells as any of ``#*1X``, as the formats that carry one do."""
        if not self.goal:
            return None
        if self.palette.black_and_white:
            return Solution.from_strings(self.goal)
        return Solution.from_chars(self.goal, self.palette.chars)

    def length(self, axis: Axis) -> int:
        """How many cells a line of ``axis`` has."""
        return self.width if axis is ROW else self.height

    def lines(self) -> list[Line]:
        """Every row, then every column."""
        return ([Line(ROW, r) for r in range(self.height)]
                + [Line(COLUMN, c) for c in range(self.width)])

    @cached_property
    def found_problems(self) -> tuple[Problem, ...]:
        """What :func:`problems` finds, found once (the puzzle does not change)."""
        return tuple(_problems(self))

    @cached_property
    def lengths(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """Per axis, each line's block lengths: what the black-and-white line solver
        reads (plain ints hash and compare faster than blocks)."""
        return (tuple(map(lengths, self.rows)), tuple(map(lengths, self.columns)))

    @cached_property
    def indexed(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...],
                               tuple[tuple[tuple[int, int], ...], ...]]:
        """Per axis, each line's blocks as (length, colour index) pairs: what the colour
        line solver, the colour automata and the engine read (index 0 is the background)."""
        index = self.palette.index
        rows, columns = (tuple(tuple((b.length, index(b.colour)) for b in clue)
                               for clue in self.clues(axis))
                         for axis in (ROW, COLUMN))
        return rows, columns


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a puzzle; ``line`` is the file line when known."""

    message: str
    line: int | None = None


def problems(puzzle: Puzzle) -> list[Problem]:
    """Everything that makes the clues impossible before any solving: each clue fits its
    line, and the row and column clues fill as many cells of each colour. Found once a
    puzzle (reading validates it, and so does solving; a 4000×4000 picture's clues take a
    second)."""
    return list(puzzle.found_problems)


def _problems(puzzle: Puzzle) -> list[Problem]:
    out: list[Problem] = []
    if puzzle.height < 1 or puzzle.width < 1:
        out.append(Problem(f"the puzzle needs at least one row and one column, "
                           f"got {puzzle.height} rows and {puzzle.width} columns"))
        return out
    palette = puzzle.palette
    names = {c.name for c in palette.colours[1:]}
    for axis, lines in ((ROW, puzzle.row_lines), (COLUMN, puzzle.col_lines)):
        kind = "row" if axis is ROW else "column"
        length = puzzle.length(axis)
        if length > MAX_SIDE:
            out.append(Problem(f"{length} {kind} cells is more than the {MAX_SIDE} supported"))
            continue
        for i, clue in enumerate(puzzle.clues(axis)):
            line = lines[i] if lines else None
            if clue and min(map(_LENGTH, clue)) < 1:
                out.append(Problem(f"{kind} {i + 1}: clue {clue_text(clue)} has a block "
                                   f"shorter than 1", line))
                continue
            strange = sorted(set(map(_COLOUR, clue)) - names)
            if strange:
                out.append(Problem(f"{kind} {i + 1}: the colour {strange[0]!r} is not a block "
                                   f"colour of the palette", line))
                continue
            need = minimum_length(clue)
            if need > length:
                out.append(Problem(f"{kind} {i + 1}: clue {clue_text(clue)} needs {need} cells, "
                                   f"the {kind} has {length}", line))
    if not out:
        for colour in palette.colours[1:]:
            rsum = _total(puzzle.rows, colour.name)
            csum = _total(puzzle.columns, colour.name)
            if rsum != csum:
                what = "" if palette.black_and_white else f" {colour.name}"
                out.append(Problem(f"the row clues fill {rsum}{what} cells but the column "
                                   f"clues fill {csum}"))
    return out


def minimum_length(clue: Clue) -> int:
    """The fewest cells a clue fits in: its blocks, and a gap between each two blocks of
    the same colour."""
    if not clue:
        return 0
    colours = list(map(_COLOUR, clue))
    gaps: int = sum(map(operator.eq, colours, colours[1:]))
    return int(sum(map(_LENGTH, clue))) + gaps


def _total(clues: tuple[Clue, ...], colour: str) -> int:
    only = {colour}
    return sum(sum(map(_LENGTH, clue)) if set(map(_COLOUR, clue)) <= only else
               sum(b.length for b in clue if b.colour == colour) for clue in clues)


def validate(puzzle: Puzzle) -> Puzzle:
    """Return the puzzle unchanged, or raise :class:`InvalidPuzzle` naming every problem.

    >>> validate(Puzzle(rows=((3,),), columns=((1,), (1,))))
    Traceback (most recent call last):
    ...
    satnono.errors.InvalidPuzzle: row 1: clue 3 needs 3 cells, the row has 2
    """
    if not isinstance(puzzle, Puzzle):
        hint = ("; read a file with satnono.load(path)"
                if isinstance(puzzle, (str, bytes)) or hasattr(puzzle, "__fspath__") else "")
        raise InvalidPuzzle(f"expected a satnono Puzzle, got {type(puzzle).__name__}{hint}")
    found = problems(puzzle)
    if found:
        raise InvalidPuzzle("; ".join(p.message for p in found))
    return puzzle


def clues_of(grid: Iterable[Sequence[bool]] | Solution
             ) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a black-and-white picture: the maker's step from drawing to
    puzzle.

    >>> clues_of([[True, True], [False, True]])
    (((Block(2),), (Block(1),)), ((Block(1),), (Block(2),)))
    """
    sol = grid if isinstance(grid, Solution) else Solution.from_cells(grid)
    rows = tuple(_clue(line_clue(m, sol.width)) for m in sol.rows)
    cols = tuple(_clue(line_clue(m, sol.height)) for m in sol.columns())
    return rows, cols


def _clue(runs: tuple[int, ...]) -> Clue:
    return tuple(map(_BLACK.__getitem__, runs))


def puzzle_from_picture(grid: Iterable[Sequence[bool]] | Solution, title: str | None = None
                        ) -> Puzzle:
    """The puzzle whose goal is this black-and-white picture."""
    sol = grid if isinstance(grid, Solution) else Solution.from_cells(grid)
    if sol.width < 1 or sol.height < 1:
        raise InvalidPuzzle("the picture is empty")
    rows, cols = clues_of(sol)
    return Puzzle(rows, cols, title=title, goal=tuple(sol.strings()))


def colour_runs(cells: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The blocks of a line given as one colour index per cell: (length, colour) runs of
    the cells that are not background.

    >>> colour_runs([0, 2, 2, 1, 0, 1])
    ((2, 2), (1, 1), (1, 1))
    """
    out = []
    i, n = 0, len(cells)
    while i < n:
        if cells[i]:
            j = i
            while j < n and cells[j] == cells[i]:
                j += 1
            out.append((j - i, cells[i]))
            i = j
        else:
            i += 1
    return tuple(out)


def _colour_solution(puzzle: Puzzle, sol: Solution) -> bool:
    palette = puzzle.palette
    if len(sol.layers) + 2 > len(palette.colours):
        return False
    layers = (sol.rows, *sol.layers)
    for i, one in enumerate(layers):
        for other in layers[i + 1:]:
            if any(x & y for x, y in zip(one, other)):
                return False  # a cell of two colours
    grid = [[sol.colour(r, c) for c in range(sol.width)] for r in range(sol.height)]
    for axis in (ROW, COLUMN):
        lines = grid if axis is ROW else [list(col) for col in zip(*grid)]
        for cells, clue in zip(lines, puzzle.indexed[axis]):
            if colour_runs(cells) != clue:
                return False
    return True


def puzzle_from_colours(grid: Sequence[Sequence[int]], palette: Palette,
                        title: str | None = None) -> Puzzle:
    """The puzzle whose goal is a picture given as a palette index per cell (0 is the
    background).

    >>> p = puzzle_from_colours([[2, 2, 1], [0, 1, 1]], Palette((Colour("white", ".", "fff"),
    ...     Colour("black", "#", "000"), Colour("red", "r", "f00"))))
    >>> p.rows, p.goal
    (((Block(2, 'red'), Block(1)), (Block(2),)), ('rr#', '.##'))
    """
    if not isinstance(palette, Palette):
        raise InvalidPuzzle(f"a palette is a satnono Palette, not {palette!r}")
    grid = [[_index(k, r, c, len(palette.colours)) for c, k in enumerate(row)]
            for r, row in enumerate(grid)]
    width = len(grid[0]) if grid else 0
    if not grid or not width:
        raise InvalidPuzzle("a picture needs at least one row and one column")
    for r, row in enumerate(grid):
        if len(row) != width:
            raise InvalidPuzzle(f"row {r + 1} of the picture has {len(row)} cells, the first "
                                f"has {width}: the rows must be of one length")
    names = [c.name for c in palette.colours]
    cols = [[grid[r][c] for r in range(len(grid))] for c in range(width)]

    def clue(cells: Sequence[int]) -> Clue:
        return tuple(Block(n, names[k]) for n, k in colour_runs(cells))

    return Puzzle(tuple(map(clue, grid)), tuple(map(clue, cols)), title=title,
                  goal=tuple("".join(palette.chars[k] for k in row) for row in grid),
                  palette=palette)


def _index(k: object, r: int, c: int, colours: int) -> int:
    """A cell's colour index (an int, numpy's too), or InvalidPuzzle saying where."""
    try:
        if isinstance(k, bool):
            raise TypeError
        i = operator.index(k)  # type: ignore[arg-type]
    except TypeError:
        i = -1
    if not 0 <= i < colours:
        raise InvalidPuzzle(f"row {r + 1}, column {c + 1}: {k!r} is not a colour index of the "
                            f"palette (0 to {colours - 1})")
    return i


class Verifier:
    """:func:`is_solution` for a stream of solutions of one puzzle: the first in full, each
    later one on the lines where it differs from the last one verified, since a line equal
    to a verified solution's line has the clue already. Enumerating a 1000×1000 picture
    with 36 open cells checks six rows and six columns a solution instead of two thousand
    lines (the whole check took 23 ms a solution there)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.last: Solution | None = None

    def __call__(self, sol: Solution) -> bool:
        last = self.last
        ok = (self._lines(last, sol) if last is not None and isinstance(sol, Solution)
              and (sol.width, sol.height, len(sol.layers)) == (last.width, last.height,
                                                               len(last.layers))
              else is_solution(self.puzzle, sol))
        if ok:
            self.last = sol
        return ok

    def _lines(self, last: Solution, sol: Solution) -> bool:
        """The lines of ``sol`` that differ from ``last`` (verified), or all of them where
        most do."""
        width, height = sol.width, sol.height
        layers, before = (sol.rows, *sol.layers), (last.rows, *last.layers)
        changed = [r for r in range(height) if any(a[r] != b[r] for a, b in
                                                   zip(layers, before))]
        if 8 * len(changed) > height:
            return is_solution(self.puzzle, sol)
        columns = 0
        for r in changed:
            for a, b in zip(layers, before):
                columns |= a[r] ^ b[r]
        if any(a[r] >> width for a in layers for r in changed):
            return False
        puzzle = self.puzzle
        if not sol.layers and puzzle.palette.black_and_white:
            rows, cols = puzzle.lengths
            if any(line_clue(sol.rows[r], width) != rows[r] for r in changed):
                return False
            while columns:
                c = (columns & -columns).bit_length() - 1
                columns &= columns - 1
                column = sum(((m >> c) & 1) << r for r, m in enumerate(sol.rows))
                if line_clue(column, height) != cols[c]:
                    return False
            return True
        if len(sol.layers) + 2 > len(puzzle.palette.colours):
            return False
        for r in changed:  # a cell of two colours is in a changed row
            seen = 0
            for a in layers:
                if a[r] & seen:
                    return False
                seen |= a[r]
        indexed = puzzle.indexed
        if any(colour_runs([sol.colour(r, c) for c in range(width)]) != indexed[ROW][r]
               for r in changed):
            return False
        while columns:
            c = (columns & -columns).bit_length() - 1
            columns &= columns - 1
            if colour_runs([sol.colour(r, c) for r in range(height)]) != indexed[COLUMN][c]:
                return False
        return True


def is_solution(puzzle: Puzzle, sol: Solution) -> bool:
    """Whether the grid has exactly the puzzle's clues: the check every reported answer
    passes before it leaves the library."""
    if not isinstance(puzzle, Puzzle):
        raise InvalidPuzzle(f"expected a satnono Puzzle, got {type(puzzle).__name__}")
    if not isinstance(sol, Solution):
        raise InvalidPuzzle(f"expected a satnono Solution, got {type(sol).__name__}")
    if sol.width != puzzle.width or sol.height != puzzle.height:
        return False
    if any(m >> sol.width for layer in (sol.rows, *sol.layers) for m in layer):
        return False
    if sol.layers or not puzzle.palette.black_and_white:
        return _colour_solution(puzzle, sol)
    rows, cols = puzzle.lengths
    w, h = sol.width, sol.height
    return (all(line_clue(m, w) == c for m, c in zip(sol.rows, rows))
            and all(line_clue(m, h) == c for m, c in zip(sol.columns(), cols)))
