"""``solve --trace``: the native solver's steps as they happen, shown or recorded.

The events come from propagation (a line fixed cells, a line contradicts), probing (a
value refuted, both values agree) and search (branch, backtrack — or, with learning, a
clause learnt and the depth jumped back to — solution): :mod:`satnono.logic.events`. On a
terminal the grid is redrawn live with the line just analysed highlighted; elsewhere each
step is one plain line. ``--trace-gif`` records the same steps as frames of an animation.
"""

from __future__ import annotations

import sys
import time
from typing import IO

from ..logic.board import Board
from ..logic.events import Backtrack, Event, Found, Learnt
from ..model.grid import ROW, Line
from ..model.puzzle import Puzzle

#: frames kept for a GIF; beyond it every other frame is dropped (and the stride doubles)
MAX_FRAMES = 600


Frame = tuple[tuple[int, ...], tuple[int, ...], "Line | None"]


class Tracer:
    """An observer of the solving (:data:`satnono.logic.events.Observer`): plain lines, a
    live grid, GIF frames, or several."""

    def __init__(self, puzzle: Puzzle, *, show: bool = True, live: bool | None = None,
                 out: IO[str] | None = None, gif: str | None = None, fps: float = 20.0):
        """``show``: report the steps on ``out`` (stderr), live when ``live`` (default:
        when ``out`` is a terminal), as lines otherwise; ``gif``: also record frames."""
        self.puzzle = puzzle
        self.out = out or sys.stderr
        self.show = show
        self.live_view = show and (self.out.isatty() if live is None else live)
        self.frames: list[Frame] = []
        self.gif = gif
        self.stride = 1
        self.count = 0
        self.steps = 0
        self._live = None
        self._last = 0.0
        self._period = 1.0 / fps
        self._log: list[str] = []
        if self.live_view:
            from rich.console import Console
            from rich.live import Live

            self._live = Live(console=Console(file=self.out), auto_refresh=False,
                              transient=False)
            self._live.start()

    def __call__(self, event: Event, board: Board) -> None:
        self.steps += 1
        text = event.describe()
        focus = event.line
        if self.gif is not None:
            self.count += 1
            if self.count % self.stride == 0:
                self.frames.append(_frame(board, focus))
                if len(self.frames) > MAX_FRAMES:
                    self.frames = self.frames[::2]
                    self.stride *= 2
        if self._live is not None:
            self._log = (self._log + [text])[-6:]
            now = time.monotonic()
            if now - self._last >= self._period or isinstance(event, (Found, Backtrack, Learnt)):
                self._last = now
                self._live.update(self._renderable(board, focus), refresh=True)
        elif self.show:
            self.out.write(text + "\n")

    def _renderable(self, board: Board, focus: Line | None):
        from rich.text import Text

        h, w = board.height, board.width
        t = Text()
        for r in range(h):
            for c in range(w):
                v = board.get(r, c)
                on_line = focus is not None and focus.index == (r if focus.axis is ROW else c)
                ch = "██" if v == 1 else "· " if v == 0 else "░░"
                t.append(ch, style="bold red" if on_line and v == 1 else
                         "on grey23" if on_line else "")
            t.append("\n")
        t.append("\n".join(self._log), style="dim")
        return t

    def close(self, final: Board | None = None) -> None:
        if self._live is not None:
            if final is not None:
                self._live.update(self._renderable(final, None), refresh=True)
            self._live.stop()
            self._live = None
        if self.gif is not None and self.frames:
            if final is not None:
                self.frames.append(_frame(final, None))
            write_gif(self.gif, self.puzzle, self.frames)


def _frame(board: Board, focus: Line | None) -> Frame:
    """What a GIF frame needs of the board: per row, the cells that may still be empty and
    may still be filled, and the line to tint."""
    rows = board.may[ROW]
    return tuple(rows[0]), tuple(rows[1]), focus


def write_gif(path: str, puzzle: Puzzle, frames: list[Frame]) -> None:
    """One frame per recorded step: filled black, empty white, unknown grey, the line being
    analysed tinted. Written atomically."""
    from PIL import Image, ImageDraw

    from .output import atomic_output

    w, h = puzzle.width, puzzle.height
    cell = max(2, min(16, 640 // max(w, h)))
    images = []
    for may_empty, may_fill, focus in frames:
        img = Image.new("P", (w * cell, h * cell))
        img.putpalette([255, 255, 255, 17, 17, 17, 185, 185, 185, 255, 190, 190, 190, 20, 20,
                        230, 150, 150] + [0] * (256 - 6) * 3)
        d = ImageDraw.Draw(img)
        for r in range(h):
            for c in range(w):
                filled = not may_empty[r] >> c & 1
                empty = not may_fill[r] >> c & 1
                on = focus is not None and focus.index == (r if focus.axis is ROW else c)
                colour = (1 if filled else 0 if empty else 2) + (3 if on else 0)
                if colour:
                    d.rectangle((c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1),
                                fill=colour)
        images.append(img)
    durations = [60] * (len(images) - 1) + [2500]
    with atomic_output(path, binary=True) as fh:
        images[0].save(fh, format="GIF", save_all=True, append_images=images[1:],
                       duration=durations, loop=0, optimize=False)
