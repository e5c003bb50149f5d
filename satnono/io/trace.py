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
from collections.abc import Iterator
from typing import IO, Any

from ..logic.board import Board
from ..logic.events import Backtrack, Event, Found, Learnt
from ..model.grid import ROW, Line
from ..model.puzzle import Puzzle
from ..model.solution import Solution

#: frames kept for a GIF; beyond it every other frame is dropped (and the stride doubles)
MAX_FRAMES = 600


#: per colour (the background first), the row masks of the cells that may still take it;
#: and the line to tint
Frame = tuple[tuple[tuple[int, ...], ...], "Line | None"]


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

    def _renderable(self, board: Board, focus: Line | None) -> Any:
        """The board and the last steps, fitted to the terminal: two characters a cell
        where there is room, one where the puzzle is wide, and two rows a character line
        (half blocks) where it is tall."""
        import shutil

        from rich.text import Text

        h, w = board.height, board.width
        size = shutil.get_terminal_size()
        wide = 2 if 2 * w <= size.columns else 1
        tall = h + 8 > size.lines
        t = Text()
        palette = self.puzzle.palette
        inks = None if palette.black_and_white else ["#" + c.rgb for c in palette.colours]

        def colour(r: int, c: int) -> str:
            v = board.get(r, c) if r < h else 0
            on = r < h and focus is not None and \
                focus.index == (r if focus.axis is ROW else c)
            if v is None:
                return "grey50"
            if v == 0:
                return "grey23" if on else "black"
            return inks[v] if inks else "red" if on else "white"

        for r in range(0, h, 2 if tall else 1):
            for c in range(w):
                if tall:  # the upper cell in the foreground, the lower in the background
                    t.append("▀" * wide, style=f"{colour(r, c)} on {colour(r + 1, c)}")
                else:
                    v = board.get(r, c)
                    on = focus is not None and focus.index == (r if focus.axis is ROW else c)
                    ch = "█" * wide if v else ("· " if v == 0 else "░░")[:wide]
                    if inks and v:
                        style = inks[v] + (" on grey23" if on else "")
                    else:
                        style = "bold red" if on and v == 1 else "on grey23" if on else ""
                    t.append(ch, style=style)
            t.append("\n")
        t.append("\n".join(self._log), style="dim")
        return t

    def finish(self, solutions: list[Solution], seconds: float | None = None) -> str:
        """Close on the last solution found (if any), writing the animation in ``seconds``
        at most; what was traced, in words."""
        self.close(Board.from_solution(solutions[-1]) if solutions else None, seconds)
        return f"trace: {self.steps} steps" + (
            f"; animation written to {self.gif}" if self.gif else "")

    def close(self, final: Board | None = None, seconds: float | None = None) -> None:
        """Show the final board; write the animation, in ``seconds`` at most."""
        if self._live is not None:
            if final is not None:
                self._live.update(self._renderable(final, None), refresh=True)
            self._live.stop()
            self._live = None
        if self.gif is not None and self.frames:
            if final is not None:
                self.frames.append(_frame(final, None))
            write_gif(self.gif, self.puzzle, self.frames, seconds)


def _frame(board: Board, focus: Line | None) -> Frame:
    """What a GIF frame needs of the board: per colour and row, the cells that may still
    take it, and the line to tint."""
    return tuple(tuple(layer) for layer in board.may[ROW]), focus


def _palette(puzzle: Puzzle) -> list[int]:
    """The GIF palette: each colour (empty white and filled near black in black and
    white), then unknown grey; then all of them again tinted red, for the line being
    analysed."""
    from .draw import inks

    base = [tuple(int(rgb[i:i + 2], 16) for i in (1, 3, 5)) for rgb in inks(puzzle)]
    base.append((185, 185, 185))
    tinted = [(int(r * 0.6 + 255 * 0.4), int(g * 0.6), int(b * 0.6)) for r, g, b in base]
    return [v for rgb in base + tinted for v in rgb]
#: frames are drawn about this many pixels on their longer side
_FRAME_SIDE = 640
# every byte with its bits in reverse order: row masks (bit c = column c) to the packed
# bits of a 1-bit image (the first pixel in the high bit)
_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _layer(masks: tuple[int, ...], width: int) -> Any:
    """A 1-bit image with a pixel set for every set bit of the row masks."""
    from PIL import Image

    nb = (width + 7) // 8
    data = b"".join(m.to_bytes(nb, "little").translate(_REVERSED) for m in masks)
    return Image.frombytes("1", (width, len(masks)), data)


def _image(frame: Frame, w: int, h: int, cell: int, palette: list[int]) -> Any:
    """One frame, one pixel per cell drawn in C, then scaled up."""
    from PIL import Image

    layers, focus = frame
    k = len(layers)
    seen, multi = [0] * h, [0] * h  # per row: cells that may take some colour, two or more
    for layer in layers:
        multi = [m | s & a for m, s, a in zip(multi, seen, layer)]
        seen = [s | a for s, a in zip(seen, layer)]
    img = Image.new("P", (w, h), 0)
    img.putpalette(palette + [0] * (768 - len(palette)))
    for colour in range(1, k):  # the cells known to take it
        img.paste(colour, None, _layer(tuple(a & ~m for a, m in zip(layers[colour], multi)), w))
    img.paste(k, None, _layer(tuple(multi), w))
    if focus is not None:
        box = (0, focus.index, w, focus.index + 1) if focus.axis is ROW else \
            (focus.index, 0, focus.index + 1, h)
        img.paste(img.crop(box).point(lambda v: v + k + 1), box)
    return img.resize((w * cell, h * cell), Image.Resampling.NEAREST)


def write_gif(path: str, puzzle: Puzzle, frames: list[Frame], seconds: float | None = None
              ) -> int:
    """One frame per recorded step: each cell in its colour once known (filled black, empty
    white in black and white), unknown grey, the line being analysed tinted; written
    atomically. With ``seconds``, frames are left out (the last, the solution, never) once
    drawing and encoding them has taken that long, so that a time limit holds for the
    animation too. Returns the frames written."""

    from .output import atomic_output

    w, h = puzzle.width, puzzle.height
    cell = max(1, min(16, _FRAME_SIDE // max(w, h)))
    stop = None if seconds is None else time.monotonic() + seconds
    written = [0]
    palette = _palette(puzzle)

    def images() -> Iterator[Any]:
        for k, frame in enumerate(frames[1:], 1):
            if stop is not None and time.monotonic() > stop and k < len(frames) - 1:
                continue
            written[0] += 1
            img = _image(frame, w, h, cell, palette)
            if k == len(frames) - 1:
                img.info["duration"] = 2500  # the solution stays on screen
            yield img

    first = _image(frames[0], w, h, cell, palette)
    with atomic_output(path, binary=True) as fh:
        first.save(fh, format="GIF", save_all=True, append_images=images(), duration=60,
                   loop=0, optimize=False)
    return written[0] + 1
