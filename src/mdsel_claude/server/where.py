"""Where a path or an open descriptor really leads, as the kernel resolved it.

`os.path.realpath` walks a path in Python, an `lstat` (and a `readlink` for each link) per
component; a warm call resolves each file twice (the read policy, then the reader), and those
walks were about a seventh of its own time. On Linux the kernel says the same in three calls:
open the path with `O_PATH` (which reads nothing, so a FIFO cannot block and a device is not
opened) and read back where the descriptor points.
"""

from __future__ import annotations

import errno
import os
import sys

_PROC = sys.platform.startswith("linux")  # /proc/self/fd names what a descriptor holds
_O_PATH = getattr(os, "O_PATH", 0)
_DELETED = " (deleted)"

_GETPATH: int | None = None
if sys.platform == "darwin":
    import fcntl

    _GETPATH = getattr(fcntl, "F_GETPATH", None)


def opened_path(fd: int) -> str | None:
    """The absolute path the kernel holds for an open descriptor, or None where it cannot say."""
    if _PROC:
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None
    if _GETPATH is not None:
        import fcntl

        try:
            raw = fcntl.fcntl(fd, _GETPATH, b"\0" * 1024)
        except OSError:
            return None
        return os.fsdecode(raw.split(b"\0", 1)[0])
    return None


def real_path(path: str) -> str:
    """`os.path.realpath(path)` for an absolute `path`: asked of the kernel where the file exists
    and it can say, else walked as `realpath` does (a missing file, a dangling or looping link,
    a directory that may not be searched, another system).

    Raises FileNotFoundError when the path changed under the walk (see `_walked`)."""
    if _PROC and _O_PATH:
        try:
            fd = os.open(path, _O_PATH | os.O_CLOEXEC)
        except (OSError, ValueError):
            return _walked(path)
        try:
            where = opened_path(fd)
        finally:
            os.close(fd)
        # A file removed since it was opened reads back as "<path> (deleted)"; a name that
        # really ends so is walked instead, which costs time but never a wrong answer.
        if where is not None and where.startswith("/") and not where.endswith(_DELETED):
            return where
    return _walked(path)


def _walked(path: str) -> str:
    """`os.path.realpath(path)`, with a path that changed under the walk answered as missing.

    The walk `lstat`s a component and then `readlink`s it: a link swapped for a directory in
    between makes `readlink` fail (EINVAL), and a link removed makes it fail (ENOENT), although
    a non-strict walk never fails otherwise. What was there is gone, so it is not there."""
    try:
        return os.path.realpath(path)
    except OSError as error:
        raise FileNotFoundError(errno.ENOENT, "changed while it was resolved", path) from error
