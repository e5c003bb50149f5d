"""The results file of a batch: one JSON line per puzzle, appended and flushed as each
arrives, so that a killed run keeps every line it wrote and a rerun skips them."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any

from ..errors import ParseError
from ..io.output import write_failed

if TYPE_CHECKING:
    from .work import Unreadable


def done(path: str | None) -> dict[str, dict[str, Any]]:
    """The records already in ``path`` by key (none when there is no such file yet). A
    last line cut short by a killed run is not a record: it is dropped from the file, and
    its puzzle runs again."""
    if not path or not _regular(path):
        return {}  # none yet, or a device or FIFO (-o /dev/null): nothing to read back
    out: dict[str, dict[str, Any]] = {}
    try:
        with open(path, "rb+") as fh:
            data = fh.read()
            keep = data.rfind(b"\n") + 1
            if keep < len(data):  # a partial last line
                fh.truncate(keep)
            for lineno, line in enumerate(data[:keep].splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    out[str(record["key"])] = record
                except (ValueError, KeyError, TypeError):
                    raise ParseError("not a satnono batch results file (each line is a "
                                     "JSON object with a \"key\")", path, lineno) from None
    except OSError as exc:
        raise ParseError(f"cannot read the file ({exc.strerror or exc})", path) from None
    return out


def again(records: dict[str, dict[str, Any]], keys: set[str], timeouts: bool,
          unreadable: Iterable[Unreadable] = ()) -> dict[str, str]:
    """The puzzles among ``keys`` whose records are to be done again, with why: those
    whose process was killed (the system when memory ran out, or a hand: no verdict)
    always; those that ran out of time (or have only an estimate) when ``timeouts``. And
    the records of files that could not be read and now can (not among ``unreadable``):
    their puzzles have records of their own."""
    out = {}
    still = {u.key for u in unreadable}
    for key, r in records.items():
        if r.get("index") == 0 and r.get("verdict") == "error" and key not in still:
            out[key] = "whose file could not be read before"
        if key not in keys:
            continue
        if r.get("died"):
            out[key] = "whose process was killed"
        elif timeouts and r.get("verdict") in ("timeout", "estimate"):
            out[key] = "timed out before"
    return out


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file (or a link to one)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def open_journal(path: str) -> IO[str]:
    """``path`` opened for appending records (:func:`append`)."""
    try:
        return open(path, "a", encoding="utf-8")
    except OSError as exc:
        raise write_failed(path, exc) from None


def append(fh: IO[str], record: dict[str, Any]) -> None:
    """One record, one line, flushed at once: a process killed after this keeps it."""
    fh.write(json.dumps(record, separators=(",", ":")) + "\n")
    fh.flush()


def drop(path: str, keys: set[str]) -> None:
    """Rewrite ``path`` without the records of ``keys`` (puzzles to be done again), all at
    once: a run killed meanwhile leaves the old file or the new one, never half of it.
    A device or FIFO holds no records to drop, and is never replaced by a file."""
    if not _regular(path):
        return
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(path, encoding="utf-8") as src, open(tmp, "w", encoding="utf-8") as dst:
            for line in src:
                if line.strip() and str(json.loads(line)["key"]) in keys:
                    continue
                dst.write(line)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise write_failed(path, exc) from None
