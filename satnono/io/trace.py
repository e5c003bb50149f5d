"""``solve --trace``: the native solver's steps as they happen (seed 002's tree of decisions).

Events come from propagation (a line fixed cells, a line contradicts), probing (a value
refuted, both branches agree) and search (branch, backtrack — or, with learning, a
clause learnt and the depth jumped back to — solution). On a terminal the
grid is redrawn live with the line just analysed highlighted; elsewhere each step is one
plain line. ``--trace-gif`` records the same steps as frames of an animation.
"""

from __future__ import annotations

import sys
import time
from typing import IO

from ..logic.board import Board
from ..model.puzzle import Puzzle

#: frames kept for a GIF; beyond it every other frame is dropped (and the stride doubles)
MAX_FRAMES = 600


def _line_name(board: Board, lid: int) -> str:
    h = board.height
    return f"row {lid + 1}" if lid < h else f"column {lid - h + 1}"


def describe(event: str, board: Board, args: tuple) -> str:
    if event == "line":
        lid, nf, ne = args
        return f"{_line_name(board, lid)}: {nf} filled, {ne} empty"
    if event == "contradiction":
        return f"{_line_name(board, args[0])}: contradiction"
    if event == "refuted":
        r, c, v = args
        other = "empty" if v else "filled"
        return (f"probe: cell ({r + 1}, {c + 1}) {'filled' if v else 'empty'} is refuted, "
                f"so it is {other}")
    if event == "agreed":
        r, c, n = args
        return f"probe: both values of cell ({r + 1}, {c + 1}) fix the same {n} cell(s)"
    if event == "branch":
        r, c, v, depth = args
        return (f"{'  ' * (depth - 1)}branch (depth {depth}): assume cell ({r + 1}, {c + 1}) "
                f"{'filled' if v else 'empty'}")
    if event == "backtrack":
        return f"{'  ' * max(args[0] - 1, 0)}dead end at depth {args[0]}: back up"
    if event == "learnt":
        depth, size, back = args
        return (f"{'  ' * max(depth - 1, 0)}dead end at depth {depth}: learnt a clause of "
                f"{size} cell(s), back to depth {back}")
    if event == "blocked":
        n, size, back = args
        return (f"solution {n} blocked by a clause over its {size} decision(s), back to "
                f"depth {back}")
    if event == "solution":
        return f"solution {args[0]} found"
    return event


class Tracer:
    """The ``ctx.trace`` callback: plain lines, a live grid, GIF frames, or several."""

    def __init__(self, puzzle: Puzzle, *, show: bool = True, live: bool | None = None,
                 out: IO[str] | None = None, gif: str | None = None, fps: float = 20.0):
        """``show``: report the steps on ``out`` (stderr), live when ``live`` (default:
        when ``out`` is a terminal), as lines otherwise; ``gif``: also record frames."""
        self.puzzle = puzzle
        self.out = out or sys.stderr
        self.show = show
        self.live_view = show and (self.out.isatty() if live is None else live)
        self.frames: list[tuple[tuple[int, ...], tuple[int, ...], int | None]] = []
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

    def __call__(self, event: str, board: Board, *args) -> None:
        self.steps += 1
        text = describe(event, board, args)
        focus = args[0] if event in ("line", "contradiction") else None
        if self.gif is not None:
            self.count += 1
            if self.count % self.stride == 0:
                self.frames.append((tuple(board.rf), tuple(board.re), focus))
                if len(self.frames) > MAX_FRAMES:
                    self.frames = self.frames[::2]
                    self.stride *= 2
        if self._live is not None:
            self._log = (self._log + [text])[-6:]
            now = time.monotonic()
            if now - self._last >= self._period or event in ("solution", "backtrack", "learnt"):
                self._last = now
                self._live.update(self._renderable(board, focus), refresh=True)
        elif self.show:
            self.out.write(text + "\n")

    def _renderable(self, board: Board, focus: int | None):
        from rich.text import Text

        h, w = board.height, board.width
        t = Text()
        for r in range(h):
            for c in range(w):
                v = board.get(r, c)
                on_line = focus is not None and (focus == r or focus == h + c)
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
                self.frames.append((tuple(final.rf), tuple(final.re), None))
            write_gif(self.gif, self.puzzle, self.frames)


def write_gif(path: str, puzzle: Puzzle, frames: list) -> None:
    """One frame per recorded step: filled black, empty white, unknown grey, the line being
    analysed tinted. Written atomically."""
    from PIL import Image, ImageDraw

    from .output import atomic_output

    w, h = puzzle.width, puzzle.height
    cell = max(2, min(16, 640 // max(w, h)))
    images = []
    for rf, re, focus in frames:
        img = Image.new("P", (w * cell, h * cell))
        img.putpalette([255, 255, 255, 17, 17, 17, 185, 185, 185, 255, 190, 190, 190, 20, 20,
                        230, 150, 150] + [0] * (256 - 6) * 3)
        d = ImageDraw.Draw(img)
        for r in range(h):
            for c in range(w):
                filled, empty = rf[r] >> c & 1, re[r] >> c & 1
                on = focus is not None and (focus == r or focus == h + c)
                colour = (1 if filled else 0 if empty else 2) + (3 if on else 0)
                if colour:
                    d.rectangle((c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1),
                                fill=colour)
        images.append(img)
    durations = [60] * (len(images) - 1) + [2500]
    with atomic_output(path, binary=True) as fh:
        images[0].save(fh, format="GIF", save_all=True, append_images=images[1:],
                       duration=durations, loop=0, optimize=False)
