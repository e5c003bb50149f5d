"""Writing output files: all or nothing, and refused up front when the path cannot work.

Every file satnono writes goes through here, so a typo in ``-o`` is reported before a long
search rather than as a traceback after it, and a crash or timeout never leaves half a file.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

from ..errors import OutputError


def check_writable(path: str | None) -> None:
    """Raise OutputError when ``path`` (None or ``-``: standard output) cannot be written."""
    if path is None or path == "-":
        return
    if not path:
        raise OutputError("the output file name is empty")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise OutputError(f"cannot write {path}: it is a folder; give a file name")
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise OutputError(f"cannot write {path}: the folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: no permission to create files in {folder}")


@contextlib.contextmanager
def atomic_output(path: str | None, binary: bool = False) -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and rename it into place on success only.
    ``None`` or ``-`` is standard output. Failures of the file system become OutputError."""
    if path is None or path == "-":
        out = sys.stdout.buffer if binary else sys.stdout
        yield out
        out.flush()
        return
    check_writable(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".satnono-", dir=folder)
    except OSError as exc:
        raise write_failed(path, exc) from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8",
                       newline=None if binary else "\n") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; outputs are not
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise write_failed(path, exc) from None
        raise


def write_failed(path: str, exc: OSError) -> OutputError:
    """The one-line error for a file system failure while writing ``path``."""
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
