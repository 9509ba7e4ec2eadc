"""Reads that cannot be raced: each file is judged by the descriptor that was opened, not its name.

The read policy (`access.check`) looks at names, and names can change between that look and the
read: a checked `notes.md` swapped for a symbolic link to `../outside/secret.txt` would otherwise
be read through the link. So the reader opens the path the policy resolved with `O_NOFOLLOW`
(a final component that became a link fails instead of being followed), asks the kernel where
the descriptor really points (`/proc/self/fd/N`, or `F_GETPATH` on macOS), applies the policy's
name and `MDSEL_ROOTS` rules to *that* path, checks the file type and size with `fstat`, and reads
at most what is left of the call's byte budget from the descriptor itself.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from collections.abc import Callable

from mdsel.errors import FILE_NOT_FOUND, PROCESSING_ERROR, Problem, missing_reason
from mdsel.names import MARKDOWN_SUFFIXES, is_markdown_name
from mdsel_claude.server import access
from mdsel_claude.server.where import opened_path, real_path

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in cannot block the open
    | getattr(os, "O_CLOEXEC", 0)
)


class Cancelled(Exception):
    """The call was cancelled; raised between files and from the parser's checkpoint."""


def stop_if_set(cancel: threading.Event) -> None:
    """A checkpoint for long work: raise Cancelled once the call has been cancelled."""
    if cancel.is_set():
        raise Cancelled


def _refusal(path: str, code: str, message: str, kind: str = PROCESSING_ERROR) -> Problem:
    return Problem(kind, code, message, file=access.shown(path))


def _open_problem(path: str, error: OSError) -> Problem:
    if error.errno == errno.ELOOP:
        reason = "was replaced by a symbolic link while it was being read; refused"
        return _refusal(path, "CHANGED", reason)
    if error.errno == errno.ENOENT:
        return _refusal(path, "ENOENT", missing_reason(path), FILE_NOT_FOUND)
    if isinstance(error, PermissionError):
        return _refusal(path, "EACCES", "permission denied; check its permissions")
    return _refusal(path, "OS_ERROR", f"cannot read: {error.strerror or error}")


class CheckedReader:
    """Reads the files of one call for the engine (`mdsel.load(read=...)`): bytes, or a Problem.

    One reader per call: it keeps the call's remaining byte budget, so a file that grew after
    expansion counted its size cannot push the call past MDSEL_MAX_TOTAL_BYTES.

    A subclass may answer a file from what it kept of an earlier read (`recall`) and learn of
    each read (`note`); both see the `fstat` of the descriptor the policy judged, never a name.
    """

    def __init__(
        self,
        policy: access.Policy,
        budget: int,
        cwd: str | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.policy = policy
        self.remaining = budget
        """Bytes this call may still read (every byte read counts, kept or not)."""
        self._budget = budget
        self._cwd = cwd
        self._cancelled = cancelled

    def __call__(self, path: str) -> bytes | Problem:
        if self._cancelled is not None and self._cancelled():
            raise Cancelled
        if not is_markdown_name(path):
            # The policy refuses such names before reading; this guard keeps `-` (standard input
            # for the CLI, the MCP channel itself here) from ever reaching a read, whatever
            # a file called `-` points to.
            extensions = " ".join(MARKDOWN_SUFFIXES)
            reason = f"not a Markdown file name; only {extensions} files are read"
            return _refusal(path, "NOT_MARKDOWN", reason)
        base = os.getcwd() if self._cwd is None else self._cwd
        try:
            target = real_path(os.path.join(base, path))
            fd = os.open(target, _OPEN_FLAGS)
        except OSError as error:
            return _open_problem(path, error)
        try:
            return self._read_open(path, fd, target)
        except OSError as error:
            return _open_problem(path, error)
        finally:
            os.close(fd)

    def _read_open(self, path: str, fd: int, target: str) -> bytes | Problem:
        # Judged by where the descriptor points: a directory above the file swapped for a link
        # between the policy's look and the open shows up here, whatever the names said.
        where = _opened_file(fd) or target
        policy = self.policy
        if policy.roots is not None and not any(access.inside(where, r) for r in policy.roots):
            return _refusal(path, "OUTSIDE_ROOTS", access.OUTSIDE_ROOTS)
        if not is_markdown_name(where):
            extensions = " ".join(MARKDOWN_SUFFIXES)
            reason = f"is not a Markdown file now; only {extensions} files are read"
            return _refusal(path, "NOT_MARKDOWN", reason)
        # Taken before fstat, so every change after it shows in a later fstat (see `note`).
        started_ns = time.time_ns()
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return _refusal(path, "NOT_REGULAR", "is not a regular file now; refused")
        if info.st_size > policy.max_bytes:
            reason = (
                f"file is {info.st_size} bytes; the limit is {policy.max_bytes} (MDSEL_MAX_BYTES)"
            )
            return _refusal(path, "TOO_LARGE", reason)
        allowed = min(policy.max_bytes, self.remaining)
        if info.st_size <= allowed:
            kept = self.recall(info)
            if kept is not None:
                # Charged what reading it would cost: the same files fit the budget either way.
                self.remaining -= info.st_size
                return kept
        data = _read_at_most(fd, info.st_size, allowed + 1)
        self.remaining -= len(data)
        if len(data) > policy.max_bytes:
            reason = f"grew past {policy.max_bytes} bytes while being read (MDSEL_MAX_BYTES)"
            return _refusal(path, "TOO_LARGE", reason)
        if len(data) > allowed:
            reason = (
                f"grew past the {self._budget} bytes a call may read (MDSEL_MAX_TOTAL_BYTES) "
                "after it was listed; left out"
            )
            return _refusal(path, "TOO_LARGE", reason)
        self.note(data, info, started_ns)
        return data

    def recall(self, info: os.stat_result) -> bytes | None:
        """Bytes standing for the file `info` describes, kept from an earlier read, when they
        are certainly still its content; None to read it. Called only within the budget."""
        return None

    def note(self, data: bytes, info: os.stat_result, started_ns: int) -> None:
        """`data` was read from the file `info` describes; `started_ns` (wall clock) was taken
        before that fstat, so a change to the file after it leaves another ctime (see
        `freshness` for how far the file system's stamps may lag it)."""


_DELETED = " (deleted)"


def _opened_file(fd: int) -> str | None:
    """Where the open file `fd` lives, also once its name is gone.

    An editor saves by writing a new file and renaming it over the old one; a read that opened
    the old one just before is still reading a complete Markdown file, but the kernel now names
    it `<path> (deleted)`, which is no Markdown name. The suffix is dropped only when the file's
    link count is 0, and then from a name asked for after that count was seen: an unlinked file
    cannot be linked again, so that name surely ends in the kernel's suffix, and a file really
    called `x.md (deleted)` keeps its own name (and is refused) whenever it is removed."""
    where = opened_path(fd)
    if where is None or not where.endswith(_DELETED):
        return where
    try:
        unlinked = os.fstat(fd).st_nlink == 0
    except OSError:
        return where
    if not unlinked:
        return where
    again = opened_path(fd)
    if again is None or not again.endswith(_DELETED):
        return where
    return again[: -len(_DELETED)]


def _read_at_most(fd: int, expected: int, limit: int) -> bytes:
    """Up to `limit` bytes from `fd`: one read sized by fstat, more only if the file grew."""
    with os.fdopen(fd, "rb", closefd=False) as handle:
        data = handle.read(min(expected + 1, limit))
        if len(data) > expected and len(data) < limit:
            data += handle.read(limit - len(data))
    return data
