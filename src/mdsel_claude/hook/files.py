"""Is this file a large Markdown file? Counted as cheaply as the answer allows (stdlib only).

Every client's hook asks the same two questions: is a path a Markdown file with more than N words
(a whole-file read), and does the part of it a command prints hold more than N words (`head -n
400`, `sed -n '1,400p'`). Only the bytes before the first NUL, and within the first `MAX_BYTES`,
are looked at; reading stops as soon as the answer is known, so a huge file costs no more than a
small one. Anything that is not a readable regular file is "no", and a FIFO or device is never
opened.
"""

from __future__ import annotations

import os
import stat

from mdsel.names import is_markdown_name

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

_BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark; skipped at the start of a file, as the engine does."""

_ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
"""The separators of `bytes.split()`: the word rule of SPEC §2."""

Piece = tuple[str, int, int | None]
"""A part of a file a command prints, as a Python slice of its lines or bytes: `(unit, start,
stop)` with unit "lines" or "bytes"; `("lines", 0, None)` is the whole file, `("lines", -50,
None)` its last 50 lines, `("bytes", 0, 4096)` its first 4 KiB."""

WHOLE: Piece = ("lines", 0, None)


def absolute_path(path: object, cwd: object) -> str | None:
    """`path` as an absolute path (relative to `cwd` when that is usable, else this process's
    directory), or None when it is not a usable path string."""
    if not isinstance(path, str) or not path or "\0" in path or len(path) > MAX_PATH:
        return None
    if os.path.isabs(path):
        return path
    if isinstance(cwd, str) and cwd and "\0" not in cwd and len(cwd) <= MAX_PATH:
        base = cwd
    else:
        base = os.getcwd()
    return os.path.join(base, path)


def is_markdown_file_name(path: str) -> bool:
    """A Markdown name, and (for a symlink) a Markdown target: `notes.md -> secrets.txt` is not."""
    return is_markdown_name(path) and is_markdown_name(os.path.realpath(path))


def large_markdown(path: str, threshold: int) -> bool:
    """True for a Markdown file (see `is_markdown_file_name`) with more than `threshold` words."""
    return is_markdown_file_name(path) and exceeds_word_threshold(path, threshold)


def printed_exceeds(path: str, piece: Piece, threshold: int) -> bool:
    """True when `piece` of the Markdown file at `path` holds more than `threshold` words."""
    if not is_markdown_file_name(path):
        return False
    if piece == WHOLE:
        return exceeds_word_threshold(path, threshold)
    data = _head_bytes(path, threshold)
    if data is None:
        return False
    unit, start, stop = piece
    if unit == "bytes":
        part = data[start:stop]
    else:
        lines = data.split(b"\n")
        if lines and not lines[-1]:
            lines.pop()  # the text after a final newline is not a line (as head and sed count)
        part = b"\n".join(lines[start:stop])
    return len(part.split(None, threshold)) > threshold


def _open_regular(path: str) -> int | None:
    """A descriptor for the regular file at `path`, or None (never blocks on a FIFO)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening must not hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _head_bytes(path: str, threshold: int) -> bytes | None:
    """The file's text (BOM skipped, cut at the first NUL and at `MAX_BYTES`), or None when it
    is not a readable regular file or too small to hold `threshold` words."""
    fd = _open_regular(path)
    if fd is None:
        return None
    try:
        if (os.fstat(fd).st_size + 1) // 2 <= threshold:
            return None
        chunks: list[bytes] = []
        remaining = MAX_BYTES
        while remaining > 0:
            chunk = os.read(fd, min(CHUNK_BYTES * 16, remaining))
            if not chunk:
                break
            remaining -= len(chunk)
            nul = chunk.find(b"\0")
            if nul >= 0:
                chunks.append(chunk[:nul])
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    return data[len(_BOM) :] if data.startswith(_BOM) else data


def exceeds_word_threshold(path: str, threshold: int) -> bool:
    """True when the regular file at `path` has more than `threshold` words before any NUL.

    Words are runs of bytes between ASCII whitespace (SPEC §2). The result does not depend on
    how the file is cut into reads.
    """
    fd = _open_regular(path)
    if fd is None:
        return False
    try:
        # n bytes hold at most (n + 1) // 2 words, so a small file needs no reading at all.
        if (os.fstat(fd).st_size + 1) // 2 <= threshold:
            return False
        # SPEC §2 skips a leading BOM before anything else, word counts included.
        if os.read(fd, len(_BOM)) != _BOM:
            os.lseek(fd, 0, os.SEEK_SET)
        count = 0
        in_word = False
        remaining = MAX_BYTES
        while remaining > 0:
            chunk = os.read(fd, min(CHUNK_BYTES, remaining))
            if not chunk:
                return False
            remaining -= len(chunk)
            nul = chunk.find(b"\0")
            if nul >= 0:
                chunk = chunk[:nul]
                remaining = 0
                if not chunk:
                    return False
            # A word cut by the previous read continues here and is not a new one.
            continued = 1 if in_word and chunk[0] not in _ASCII_WHITESPACE else 0
            needed = threshold + 1 - count
            # maxsplit bounds the work: len(parts) == min(words in chunk, needed + 1).
            parts = chunk.split(None, needed)
            if len(parts) - continued >= needed:
                return True
            count += len(parts) - continued
            in_word = chunk[-1] not in _ASCII_WHITESPACE
        return False
    except OSError:
        return False
    finally:
        os.close(fd)
