"""Read one file's bytes under a size cap; every way it can fail is a Problem (FileReadError).

Only regular files are ever opened: a FIFO or a device would block or never end. A call's files
are read under Markdown file names only (not_markdown), as the server reads them.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from mdsel.errors import FILE_NOT_FOUND, PROCESSING_ERROR, Problem, missing_reason
from mdsel.names import MARKDOWN_SUFFIXES, STDIN, is_markdown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class FileReadError(Exception):
    """A file that could not be read; `problem` says why, in the words every edge prints."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def not_markdown(path: str, cwd: str | None = None) -> Problem | None:
    """Why a call's file is not read as Markdown, or None: it is read only under a Markdown file
    name, and a link only to one, as the server reads them (`mkdocs.yml`, or `notes.md` →
    `secret.txt`, is refused). Standard input is read whatever it holds."""
    if path == STDIN:
        return None
    full = path if cwd is None else os.path.join(cwd, path)
    suffixes = " ".join(MARKDOWN_SUFFIXES)
    if not is_markdown_name(path):
        import shlex  # a refusal only

        reason = (
            f"not a Markdown file name: only {suffixes} files are read; to read this one as "
            f"Markdown anyway, pass it on standard input (- < {shlex.quote(path)})"
        )
        return Problem(PROCESSING_ERROR, "NOT_MARKDOWN", reason, file=path)
    if os.path.islink(full) and not is_markdown_name(target := os.path.realpath(full)):
        reason = f"resolves to {target}, not a Markdown file name; only {suffixes} files are read"
        return Problem(PROCESSING_ERROR, "NOT_MARKDOWN", reason, file=path)
    return None


def read_bytes(path: str, max_bytes: int, cwd: str | None = None) -> bytes:
    """The file's bytes, or FileReadError: missing, not a regular file, too large, unreadable.

    Opened non-blocking and checked with fstat on the open descriptor, so a FIFO swapped in after
    any earlier check still cannot block the read. `-` is standard input, read once.
    """
    if path == STDIN:
        return _read_stdin(max_bytes)
    full = path if cwd is None else os.path.join(cwd, path)
    try:
        info = os.stat(full)
    except FileNotFoundError:
        raise FileReadError(missing(path)) from None
    except OSError as exc:
        raise FileReadError(os_problem(path, exc)) from None
    _check_kind(path, info.st_mode, info.st_size, max_bytes)
    try:
        fd = os.open(full, _OPEN_FLAGS)
    except FileNotFoundError:
        raise FileReadError(missing(path)) from None
    except OSError as exc:
        raise FileReadError(os_problem(path, exc)) from None
    try:
        info = os.fstat(fd)
        _check_kind(path, info.st_mode, info.st_size, max_bytes)
        size = info.st_size
        # st_size + 1 bytes asked for: the extra byte shows a file that grew. Exactly st_size
        # bytes back is the file as fstat saw it, so no second call looks for its end; more
        # (it grew) or fewer (it shrank, or the read was cut short) reads on to the end.
        data = os.read(fd, size + 1)
        if len(data) != size:
            # os.read rather than a file object, whose making costs more than a small file's read.
            data += _read_up_to(lambda count: os.read(fd, count), max_bytes + 1 - len(data)) or b""
    except OSError as exc:
        raise FileReadError(os_problem(path, exc)) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # grew since stat
        raise FileReadError(too_large(path, len(data), max_bytes))
    return data


def _read_up_to(read: Callable[[int], bytes | None], count: int) -> bytes | None:
    """`count` bytes from `read` (os.read on a descriptor, or a stream's read), or fewer at its
    end, in reads of `_CHUNK` at most: a limit may be far above memory, and a read may return
    less than asked. None when the first read gives None (a non-blocking stream, nothing yet)."""
    chunks: list[bytes] = []
    while count > 0:
        chunk = read(min(count, _CHUNK))
        if chunk is None and not chunks:
            return None
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


_CHUNK = 1 << 20
"""Bytes asked for in one read past the first: MDSEL_MAX_BYTES may be set far above memory."""


def _read_stdin(max_bytes: int) -> bytes:
    """Standard input to its end, refused past `max_bytes` (read one byte more to tell)."""
    stream = sys.stdin.buffer if sys.stdin is not None else None
    try:
        data = _read_up_to(stream.read, max_bytes + 1) if stream is not None else None
    except OSError as exc:
        raise FileReadError(os_problem(STDIN, exc)) from None
    if data is None:
        reason = "standard input is closed; pipe the document in or name a file"
        raise FileReadError(Problem(PROCESSING_ERROR, "NO_STDIN", reason, file=STDIN))
    if len(data) > max_bytes:
        reason = (
            f"standard input is over {max_bytes} bytes, the limit (MDSEL_MAX_BYTES); "
            "raise it or select from a file"
        )
        raise FileReadError(Problem(PROCESSING_ERROR, "TOO_LARGE", reason, file=STDIN))
    return data


# The problems below are public: the server's read policy refuses files in the same words.


def missing(path: str) -> Problem:
    return Problem(FILE_NOT_FOUND, "ENOENT", missing_reason(path), file=path)


def _check_kind(path: str, mode: int, size: int, max_bytes: int) -> None:
    if stat.S_ISDIR(mode):
        raise FileReadError(
            Problem(PROCESSING_ERROR, "EISDIR", "is a directory; name the files in it", file=path)
        )
    if not stat.S_ISREG(mode):
        raise FileReadError(not_regular(path, mode))
    if size > max_bytes:
        raise FileReadError(too_large(path, size, max_bytes))


def not_regular(path: str, mode: int) -> Problem:
    """A FIFO, a device or a socket (`mode` from stat), refused."""
    return Problem(
        PROCESSING_ERROR, "NOT_REGULAR", f"not a regular file ({_kind(mode)}); refused", file=path
    )


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "neither a file nor a directory"


def too_large(path: str, size: int, limit: int) -> Problem:
    return Problem(
        PROCESSING_ERROR,
        "TOO_LARGE",
        f"file is {size} bytes; the limit is {limit} (MDSEL_MAX_BYTES)",
        file=path,
    )


def os_problem(path: str, exc: OSError) -> Problem:
    if exc.errno == errno.ELOOP:
        reason = "symbolic links that loop (or a chain too long to follow); refused"
        return Problem(PROCESSING_ERROR, "ELOOP", reason, file=path)
    if isinstance(exc, PermissionError):
        return Problem(
            PROCESSING_ERROR, "EACCES", "permission denied; check its permissions", file=path
        )
    return Problem(PROCESSING_ERROR, "OS_ERROR", f"cannot read: {exc.strerror or exc}", file=path)
