"""Writing output files: all or nothing, and refused up front when the path cannot work.

Every file satnono writes goes through here, so a typo in ``-o`` is reported before a long
search rather than as a traceback after it, and a crash or timeout never leaves half a file.

Only a regular file is replaced atomically (a temporary file beside it, renamed onto it on
success). Anything else — a character device such as ``/dev/null``, a FIFO, a socket — is
opened and written in place: renaming a file onto it would replace the node itself (as root,
``-o /dev/null`` would turn the system's null device into a file). A symbolic link is
followed, and the file it points to is the one replaced, so the link stays a link.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

from ..errors import OutputError


def _status(path: str) -> os.stat_result | None:
    """The status of what ``path`` names once links are followed (None: nothing yet)."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # the folder check says which
        return None
    except OSError as exc:
        raise write_failed(path, exc) from None


def _in_place(path: str, st: os.stat_result | None) -> bool:
    """Whether a target is written in place rather than replaced: anything but a regular
    file (a device, a FIFO, a socket), and an open file named through ``/proc`` or
    ``/dev`` (``/dev/stdout``, ``/proc/self/fd/1``: a name for a file already open, which
    the shell that opened it would go on writing after a rename)."""
    if st is None or stat.S_ISDIR(st.st_mode):
        return False
    return not stat.S_ISREG(st.st_mode) or _through_proc_or_dev(path)


def _through_proc_or_dev(path: str) -> bool:
    """Whether ``path`` or a link in its chain is in ``/proc`` or ``/dev``."""
    for _ in range(40):
        if os.path.abspath(path).startswith(("/proc/", "/dev/")):
            return True
        if not os.path.islink(path):
            return False
        path = os.path.join(os.path.dirname(os.path.abspath(path)), os.readlink(path))
    return False


def check_writable(path: str | None) -> None:
    """Raise OutputError when ``path`` (None or ``-``: standard output) cannot be written."""
    if path is None or path == "-":
        return
    if not path:
        raise OutputError("the output file name is empty")
    if os.path.isdir(path):
        raise OutputError(f"cannot write {path}: it is a folder; give a file name")
    if _in_place(path, _status(path)):
        if not os.access(path, os.W_OK):
            raise OutputError(f"cannot write {path}: permission denied")
        return
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise OutputError(f"cannot write {path}: the folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: no permission to create files in {folder}")


@contextlib.contextmanager
def atomic_output(path: str | None, binary: bool = False) -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and rename it into place on success only;
    a device, FIFO or socket (or a link to one) is written in place, and a link to a
    regular file has its target replaced. ``None`` or ``-`` is standard output. Failures
    of the file system become OutputError."""
    if path is None or path == "-":
        out = sys.stdout.buffer if binary else sys.stdout
        yield out
        out.flush()
        return
    check_writable(path)
    if _in_place(path, _status(path)):
        with _in_place_output(path, binary) as fh:
            yield fh
        return
    target = os.path.realpath(path)  # a link's target is replaced; the link stays
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".satnono-", dir=folder)
    except OSError as exc:
        raise write_failed(path, exc) from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8",
                       newline=None if binary else "\n") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; outputs are not
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise write_failed(path, exc) from None
        raise


@contextlib.contextmanager
def _in_place_output(path: str, binary: bool) -> Iterator[IO[Any]]:
    """A device, FIFO or socket opened for writing as it is (no rename can be undone on
    such a node, and what was written to it cannot be taken back either)."""
    try:
        fh = open(path, "wb" if binary else "w",  # noqa: SIM115 - closed below
                  encoding=None if binary else "utf-8", newline=None if binary else "\n")
    except OSError as exc:
        raise write_failed(path, exc) from None
    try:
        with fh:
            yield fh
    except OSError as exc:
        raise write_failed(path, exc) from None


def write_failed(path: str, exc: OSError) -> OutputError:
    """The one-line error for a file system failure while writing ``path``."""
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
