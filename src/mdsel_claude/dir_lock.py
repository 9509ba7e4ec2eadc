"""One process at a time in a directory: an exclusive flock on the directory itself.

Shared by setup (one install or uninstall at a time per user) and the plugin's provisioning (one
install of its environment at a time per data directory). Locking the directory, not a file in
it, leaves nothing behind, and the kernel drops the lock with its holder, however it ends: a
lock that is held means a live holder. Standard library only: provisioning runs before any
dependency is.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def exclusive(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on `directory`, waiting for whoever holds it; where flock is
    unavailable (not POSIX), run unlocked."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def held(directory: Path) -> bool:
    """Whether another process holds `directory`'s lock now (False where flock is unavailable,
    or the directory cannot be opened)."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # releases it again at once when it was ours
    return False
