"""Is this file a large Markdown file? Counted as cheaply as the answer allows (stdlib only).

Every client's hook asks whether a path is a Markdown file with more than N words (a whole-file
read); the shell checks also ask it of a part of one (`parts`), read with the same pieces here.
Only the bytes before the first NUL, and within the first `MAX_BYTES`, are looked at; reading
stops as soon as the answer is known, so a huge file costs no more than a small one. Anything
that is not a readable regular file is "no", and a FIFO or device is never opened.
"""

from __future__ import annotations

import os
import stat

from mdsel.names import is_markdown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
"""The reminder of SPEC §6, byte for byte: two lines, no final newline, never varied."""

CHUNK_BYTES = 64 * 1024
"""Bytes per read: large enough that a typical 200-word file is one read."""

MAX_BYTES = 8 * 1024 * 1024
"""Read at most this much of a file (guards against a huge file without a whitespace or NUL)."""

MAX_PATH = 4096
"""A longer path is not a file anyone reads: no system accepts it."""

BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark; skipped at the start of a file, as the engine does."""

_ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
"""The separators of `bytes.split()`: the word rule of SPEC §2."""


def absolute_path(path: object, cwd: object, lexical: bool = False) -> str | None:
    """`path` as an absolute path (relative to `cwd` when that is usable, else this process's
    directory), or None when it is not a usable path string.

    `lexical`: `..` and `.` are taken out of the text, as Node's `path.resolve` does before the
    file is opened — how Claude Code's `Read`, Gemini CLI's `read_file` and OpenCode's `read`
    (and the `workdir` of its `bash`) resolve a path. The system would instead take `..` after
    a symlinked directory from the link's target (`lnk/../guide.md` is then another file).
    """
    if not isinstance(path, str) or not path or "\0" in path or len(path) > MAX_PATH:
        return None
    if not os.path.isabs(path):
        if isinstance(cwd, str) and cwd and "\0" not in cwd and len(cwd) <= MAX_PATH:
            base = cwd
        else:
            base = os.getcwd()
        path = os.path.join(base, path)
    return os.path.normpath(path) if lexical else path


def is_markdown_file_name(path: str) -> bool:
    """A Markdown name, and (for a symlink) a Markdown target: `notes.md -> secrets.txt` is not."""
    return is_markdown_name(path) and is_markdown_name(os.path.realpath(path))


def large_markdown(path: str, threshold: int) -> bool:
    """True for a Markdown file (see `is_markdown_file_name`) with more than `threshold` words."""
    return is_markdown_file_name(path) and exceeds_word_threshold(path, threshold)


class Words:
    """Counts words fed in consecutive pieces, until one more than `threshold` is seen."""

    __slots__ = ("count", "in_word", "threshold")

    def __init__(self, threshold: int) -> None:
        self.count = 0
        self.in_word = False
        self.threshold = threshold

    def passed(self, data: bytes) -> bool:
        """Feed the next bytes; True once more than `threshold` words have been fed."""
        if not data:
            return False
        # A word cut by the previous piece continues here and is not a new one.
        continued = 1 if self.in_word and data[0] not in _ASCII_WHITESPACE else 0
        needed = self.threshold + 1 - self.count
        # maxsplit bounds the work: len(parts) == min(words in data, needed + 1).
        parts = data.split(None, needed)
        if len(parts) - continued >= needed:
            return True
        self.count += len(parts) - continued
        self.in_word = data[-1] not in _ASCII_WHITESPACE
        return False


def chunks(fd: int) -> Iterator[bytes]:
    """The file's text from the start: BOM skipped, up to the first NUL, at most `MAX_BYTES`."""
    # SPEC §2 skips a leading BOM before anything else, word counts included.
    if os.read(fd, len(BOM)) != BOM:
        os.lseek(fd, 0, os.SEEK_SET)
    remaining = MAX_BYTES
    while remaining > 0:
        chunk = os.read(fd, min(CHUNK_BYTES, remaining))
        if not chunk:
            return
        remaining -= len(chunk)
        nul = chunk.find(b"\0")
        if nul >= 0:
            if nul:
                yield chunk[:nul]
            return
        yield chunk


def open_regular(path: str) -> tuple[int, int] | None:
    """A descriptor for the regular file at `path` and its size, or None (never blocks on a
    FIFO)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening must not hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            return fd, info.st_size
    except OSError:
        pass
    os.close(fd)
    return None


def open_wordy(path: str, threshold: int) -> tuple[int, int] | None:
    """`open_regular`, for a file whose size allows more than `threshold` words; None (and
    nothing left open) otherwise: n bytes hold at most (n + 1) // 2 words, so a small file
    needs no reading at all."""
    opened = open_regular(path)
    if opened is not None and (opened[1] + 1) // 2 <= threshold:
        os.close(opened[0])
        return None
    return opened


def line_count(path: str) -> int | None:
    """Lines of the regular file at `path` as sed counts them (a last line without its line
    ending counts); None when it is not one, cannot be read, or is over `MAX_BYTES`."""
    opened = open_regular(path)
    if opened is None:
        return None
    fd, size = opened
    lines, seen, last = 0, 0, b"\n"
    try:
        while size <= MAX_BYTES and (chunk := os.read(fd, CHUNK_BYTES)):
            seen += len(chunk)
            if seen > MAX_BYTES:  # it grew past the bound while read
                return None
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if size > MAX_BYTES else lines + (last != b"\n")


def exceeds_word_threshold(path: str, threshold: int) -> bool:
    """True when the regular file at `path` has more than `threshold` words before any NUL.

    Words are runs of bytes between ASCII whitespace (SPEC §2). The result does not depend on
    how the file is cut into reads.
    """
    opened = open_wordy(path, threshold)
    if opened is None:
        return False
    fd, _size = opened
    try:
        words = Words(threshold)
        return any(words.passed(chunk) for chunk in chunks(fd))
    except OSError:
        return False
    finally:
        os.close(fd)
