"""A status line on the terminal while long work goes on: what is known so far, and the time.

Work that ends within a second shows nothing; after that one line on standard error says
what is being done, what is known (solutions found, cells decided) and how long it has
taken, redrawn a few times a second and cleared at the end. Nothing is shown where
standard error is not a terminal (a pipe, a file, a test), so logs stay clean.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import IO

#: quiet for this long, then a line, redrawn this often (seconds)
DELAY, PERIOD = 1.0, 0.25


class Progress:
    """``with Progress("solving", lambda: f"{n} found"):`` shows the line while inside;
    :meth:`pause` takes it away while something else is written to the terminal."""

    def __init__(self, doing: str, known: Callable[[], str] = lambda: "",
                 out: IO[str] | None = None, delay: float = DELAY, period: float = PERIOD):
        self.doing = doing
        self.known = known
        self.delay, self.period = delay, period
        self.out = out or sys.stderr
        self.shown = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if self.out.isatty():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._clear()

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            with self._lock:
                try:
                    known = self.known()
                except Exception:  # pragma: no cover - a fact read mid-change
                    known = ""
                seconds = time.monotonic() - self._started
                line = f"{self.doing}… {known + ', ' if known else ''}{seconds:.0f} s"
                self.out.write("\r\033[K" + line[:200])
                self.out.flush()
                self.shown = True
            self._stop.wait(self.period)

    def _clear(self) -> None:
        with self._lock:
            if self.shown:
                self.out.write("\r\033[K")
                self.out.flush()
                self.shown = False

    @contextmanager
    def pause(self) -> Iterator[None]:
        """No status line while the body writes to the terminal."""
        self._clear()
        with self._lock:
            yield
